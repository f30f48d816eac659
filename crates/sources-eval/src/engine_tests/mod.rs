//! The evaluator over configurations, with the scripted seam.

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::StreamExt;
use serde_json::{Value, json};
use sources_config::Config;

use crate::engine::{Engine, EngineOptions, Output};
use crate::error::EvalError;
use crate::io::{CommandOutput, IoError};
use crate::testing::{FakeIo, Reply};
use crate::trace::Collect;

mod fetch;
mod operators;

fn config(text: &str) -> Config {
    let parse = sources_syntax::parse(text, sources_syntax::Syntax::Yaml);
    assert!(parse.errors.is_empty(), "{:?}", parse.errors);
    let root = parse.root.expect("parses");
    sources_config::decode(root).0
}

fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

async fn value_of(
    engine: &Engine<'_>,
    name: &str,
    supplied: &[(&str, &str)],
) -> Result<Value, EvalError> {
    match engine
        .evaluate(&engine.bind(name, &params(supplied))?)
        .await?
    {
        Output::Value(value) => Ok(value),
        Output::Stream(_) => panic!("`{name}` streamed"),
    }
}

struct Run {
    io: Arc<FakeIo>,
    trace: Arc<Collect>,
    config: Config,
}

impl Run {
    fn new(yaml: &str, io: FakeIo) -> Run {
        Run {
            io: Arc::new(io),
            trace: Arc::new(Collect::default()),
            config: config(yaml),
        }
    }

    fn engine(&self) -> Engine<'_> {
        Engine::new(
            &self.config,
            self.io.clone(),
            self.trace.clone(),
            EngineOptions {
                explain: true,
                ..EngineOptions::default()
            },
        )
    }

    async fn value(&self, name: &str, supplied: &[(&str, &str)]) -> Result<Value, EvalError> {
        value_of(&self.engine(), name, supplied).await
    }

    async fn events(&self, name: &str) -> Vec<Result<Value, String>> {
        let engine = self.engine();
        let bound = engine.bind(name, &BTreeMap::new()).expect("bound");
        match engine.evaluate(&bound).await {
            Ok(Output::Stream(events)) => {
                events.map(|e| e.map_err(|e| e.to_string())).collect().await
            }
            other => panic!("`{name}` did not stream: {other:?}"),
        }
    }
}

const APPS: &str = r#"
data:
  sources:
    app:
      type: http
      url: http://127.0.0.1:8099/apps/${params.id}?x=${params.undeclared}
      method: post
      headers:
        Authorization: Bearer ${env.TOKEN}
      body: '{"id": "${params.id}"}'
      root: status.health
      parameters:
        id: {required: true}
    degraded:
      type: filter
      from: rows
      where: health == params.health
      parameters:
        health: {default: Degraded}
    rows:
      type: static
      data:
        page: {rows: [{id: a, health: Degraded, rev: 3}, {id: b, health: Healthy, rev: 9}, {id: c, health: Degraded, rev: 5}]}
      root: page.rows
"#;

const PIPE: &str = r#"
data:
  sources:
    rows:
      type: static
      data: [{id: a, rev: 3, region: eu}, {id: b, rev: 9, region: us}, {id: c, rev: 5, region: eu}]
      pipe:
        - type: filter
          where: region == 'eu'
        - type: derive
          compute: {next: rev + 1}
        - type: sort
          by: rev
          order: desc
        - type: project
          keep: {app: id, next: next}
    broken:
      type: static
      data: [{id: a}]
      pipe:
        - type: derive
          compute: {x: nope + 1}
    sorted:
      type: sort
      from: rows
      by: app
    shaped:
      type: project
      from: rows
      keep: {label: "app + '@' + string(next)"}
    all:
      type: union
      sources: [rows, sorted]
      tag_field: from
    page:
      type: compose
      parts: {first: rows, bad: broken}
      on_error: skip
    strict_page:
      type: compose
      parts: {first: rows, bad: broken}
"#;

const MERGE: &str = r#"
data:
  sources:
    eu:
      type: static
      data: [{id: 1, env: keep-me}, 7]
    us:
      type: static
      data: [{id: 2}]
    down:
      type: http
      url: http://127.0.0.1:1/x
    tagged:
      type: merge
      children:
        - source: eu
          tags: {env: prod, region: eu}
        - source: us
          tags: {region: us}
      meta_key: ""
    skipping:
      type: merge
      sources: [eu, down, us]
      tag_field: child
      on_error: skip
    failing:
      type: merge
      sources: [eu, down]
"#;

const STREAMS: &str = r#"
data:
  sources:
    log:
      type: http
      url: http://127.0.0.1:8099/jobs/j1/log
      format: text
      follow: true
    events:
      type: http
      url: http://x/events
      follow: true
      root: data
      pipe:
        - type: filter
          where: level != 'DEBUG'
    ticks:
      type: websocket
      url: ws://x/ticks
      initial_messages: ['{"subscribe": "${env.CHANNEL}"}', '{"snapshot": true}']
    both:
      type: merge
      sources: [events, ticks]
      tag_field: via
"#;

fn stream_io() -> FakeIo {
    FakeIo::new()
        .with_env("CHANNEL", "prices")
        .with_http(|request| {
            if request.url.ends_with("/log") {
                Reply::Body(
                    200,
                    vec!["sync started\nsyncing".into(), " app\ndone\n".into()],
                )
            } else {
                Reply::Body(
                    200,
                    vec![
                        "{\"data\": {\"level\": \"INFO\", \"m\": 1}}\n\n".into(),
                        "{\"data\": {\"level\": \"DEBUG\", \"m\": 2}}\nnot json\n".into(),
                        "{\"data\": {\"level\": \"WARN\", \"m\": 3}}\n".into(),
                    ],
                )
            }
        })
        .with_websocket(|_| Ok(vec![r#"{"p": 1}"#.into(), r#"{"p": 2}"#.into()]))
}

const EXEC: &str = r#"
data:
  sources:
    pods:
      type: exec
      command: [kubectl, get, pods, -n, "${params.ns}", -o, json]
      env: {KUBECONFIG: "${env.HOME}/.kube/${params.ns}"}
      root: items
      parameters:
        ns: {default: default}
    search:
      type: exec
      command: [logq, "--offset=${window.offset}", "--limit=${window.limit}", "--q=${window.search}", "--level=${window.filters.lvl}"]
      window:
        page_size: 2
        filters: {Level: lvl}
    tail:
      type: exec
      command: [logq, "--after=${window.cursor}", "--dir=${window.dir}", "--limit=${window.limit}"]
      window:
        cursor: id
        page_size: 2
    notes:
      type: file
      path: /tmp/${params.name}.json
      parameters:
        name: {default: notes}
"#;

fn exec_io() -> FakeIo {
    FakeIo::new()
        .with_env("HOME", "/home/me")
        .with_run(|command| {
            let stdout = match command.argv[0].as_str() {
                "kubectl" => json!({"items": [{"name": "web-1"}]}).to_string(),
                _ => json!([{"id": 9}, {"id": 8}, {"id": 7}]).to_string(),
            };
            Ok(CommandOutput {
                code: Some(0),
                stdout: stdout.into_bytes(),
                stderr: Vec::new(),
            })
        })
}

const WINDOWS: &str = r#"
data:
  sources:
    apps:
      type: http
      url: http://127.0.0.1:8099/apps?latency=5ms&limit=9
      root: rows
      window:
        page_size: 50
        offset_param: offset
        limit_param: limit
        search_param: q
        total_path: total
    logs:
      type: http
      url: http://127.0.0.1:8099/logs-app/_search
      method: POST
      body: '{"size": ${window.limit}, "query": {"query_string": {"query": "${window.search}"}}}'
      root: hits.hits
      window:
        page_size: 2
        cursor: sort
        older:
          sort: [{"@timestamp": desc}, {_shard_doc: desc}]
          search_after: ${window.cursor}
        newer:
          sort: [{"@timestamp": asc}, {_shard_doc: asc}]
          search_after: ${window.cursor}
    events:
      type: http
      url: http://127.0.0.1:8099/api/v2/jobs/2/job_events/
      root: results
      window:
        page_size: 2
        cursor: counter
        anchor: oldest
        older: {order_by: -counter, counter__lt: "${window.cursor}", page_size: "${window.limit}"}
        newer: {order_by: counter, counter__gt: "${window.cursor}", page_size: "${window.limit}"}
        growing:
          source: job
          while: status == 'running'
    job:
      type: static
      data: {status: running}
"#;

fn window_io() -> FakeIo {
    FakeIo::new().with_http(|request| {
        if request.url.contains("/apps") {
            Reply::json(json!({"total": 5000, "offset": 0, "rows": [{"id": "app-0001"}]}))
        } else if request.url.contains("_search") {
            Reply::json(json!({"hits": {"hits": [
                {"_id": "a", "sort": [3, 1]}, {"_id": "b", "sort": [2, 1]}, {"_id": "c", "sort": [1, 1]}
            ]}}))
        } else {
            Reply::json(json!({"results": [{"counter": 1}, {"counter": 2}]}))
        }
    })
}

const JOIN: &str = r#"
data:
  sources:
    jobs:
      type: static
      data: [{id: j1, app: a1}, {id: j2, app: a2}, {id: j3, app: a1}]
    app:
      type: http
      url: http://x/apps/${params.id}
      parameters:
        id: {required: true}
    cached_app:
      type: http
      url: http://x/apps/${params.id}
      cache: {ttl: 30s}
      parameters:
        id: {required: true}
    with_apps:
      type: join
      driver: {from: jobs}
      lookups:
        detail: {from: app, on: {id: app}}
    merged:
      type: join
      driver: {from: jobs}
      emit: merged
      lookups:
        detail: {from: app, on: {id: app}}
    pair:
      type: union
      sources: [cached_app, cached_app]
"#;

fn join_io() -> FakeIo {
    FakeIo::new().with_http(|request| {
        if request.url.ends_with("/a2") {
            Reply::Body(500, vec!["boom".into()])
        } else {
            let id = request
                .url
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_owned();
            Reply::json(json!({"name": format!("name-{id}"), "id": "not-mine"}))
        }
    })
}
