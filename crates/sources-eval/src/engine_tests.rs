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

#[tokio::test]
async fn http_renders_params_env_headers_and_body_then_slices_root() {
    let io = FakeIo::new()
        .with_env("TOKEN", "t0k3n")
        .with_http(|_| Reply::json(json!({"status": {"health": {"status": "Healthy"}}})));
    let run = Run::new(APPS, io);
    let value = run
        .value("app", &[("id", "app-0007")])
        .await
        .expect("fetched");
    assert_eq!(value, json!({"status": "Healthy"}));
    let request = &run.io.http_log()[0];
    assert_eq!(request.method, "POST");
    assert_eq!(
        request.url,
        "http://127.0.0.1:8099/apps/app-0007?x=${params.undeclared}"
    );
    assert_eq!(
        request.headers,
        [("Authorization".to_owned(), "Bearer t0k3n".to_owned())]
    );
    assert_eq!(request.body.as_deref(), Some(r#"{"id": "app-0007"}"#));
    assert!(!run.trace.lines().concat().contains("t0k3n"));
}

#[tokio::test]
async fn errors_are_one_line_and_name_the_source() {
    let run = Run::new(
        APPS,
        FakeIo::new().with_http(|_| Reply::json(json!({"status": {}}))),
    );
    let missing = run.value("app", &[]).await.expect_err("required");
    assert_eq!(
        missing.to_string(),
        "source `app`: parameter `id` is required: pass it with `--param id=VALUE`"
    );
    let undeclared = run
        .value("app", &[("id", "x"), ("ids", "y")])
        .await
        .expect_err("undeclared");
    assert!(
        undeclared.to_string().contains("did you mean `id`?"),
        "{undeclared}"
    );
    let root = run.value("app", &[("id", "x")]).await.expect_err("root");
    assert_eq!(
        root.to_string(),
        "source `app`: root `status.health` not found: no key `health` under `status` (the object is empty)"
    );
    let html = Run::new(
        APPS,
        FakeIo::new().with_http(|_| Reply::Body(200, vec!["<html>".into()])),
    );
    let error = html
        .value("app", &[("id", "x")])
        .await
        .expect_err("not json");
    assert_eq!(
        error.to_string(),
        "source `app`: response is not JSON (expected value at line 1 column 1): <html>"
    );
    let refused = Run::new(
        APPS,
        FakeIo::new().with_http(|_| {
            Reply::Fail(IoError::Connect {
                address: "127.0.0.1:8099".into(),
                detail: "Connection refused (os error 111)".into(),
            })
        }),
    );
    let error = refused
        .value("app", &[("id", "x")])
        .await
        .expect_err("refused");
    assert_eq!(
        error.to_string(),
        "source `app`: cannot connect to 127.0.0.1:8099: Connection refused (os error 111)"
    );
    let hang = Run::new(APPS, FakeIo::new().with_http(|_| Reply::Hang));
    let error = hang
        .value("app", &[("id", "x")])
        .await
        .expect_err("timeout");
    assert_eq!(error.to_string(), "source `app`: timed out after 10s");
}

#[tokio::test]
async fn operators_bind_their_own_params_and_static_roots_slice() {
    let run = Run::new(APPS, FakeIo::new());
    let value = run.value("degraded", &[]).await.expect("filtered");
    let ids: Vec<&str> = value
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(ids, ["a", "c"]);
    let healthy = run
        .value("degraded", &[("health", "Healthy")])
        .await
        .expect("filtered");
    assert_eq!(healthy.as_array().map(Vec::len), Some(1));
    assert!(
        run.io.http_log().is_empty(),
        "static and operators do no I/O"
    );
}

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

#[tokio::test]
async fn pipe_stages_run_in_order() {
    let run = Run::new(PIPE, FakeIo::new());
    assert_eq!(
        run.value("rows", &[]).await.expect("piped"),
        json!([{"app": "c", "next": 6}, {"app": "a", "next": 4}])
    );
    assert_eq!(
        run.value("sorted", &[]).await.expect("sorted"),
        json!([{"app": "a", "next": 4}, {"app": "c", "next": 6}])
    );
    assert_eq!(
        run.value("shaped", &[]).await.expect("projected"),
        json!([{"label": "c@6"}, {"label": "a@4"}])
    );
}

#[tokio::test]
async fn evaluation_errors_name_the_entry_stage_and_expression() {
    let run = Run::new(PIPE, FakeIo::new());
    let error = run.value("broken", &[]).await.expect_err("undeclared name");
    let text = error.to_string();
    assert!(
        text.starts_with("source `broken`: pipe[0].compute.x `nope + 1`: "),
        "{text}"
    );
    assert!(text.ends_with("(row 0)"), "{text}");
}

#[tokio::test]
async fn union_tags_and_compose_skips_failed_parts() {
    let run = Run::new(PIPE, FakeIo::new());
    let all = run.value("all", &[]).await.expect("union");
    assert_eq!(all.as_array().map(Vec::len), Some(4));
    assert_eq!(all[0]["_meta"], json!({"from": "rows"}));
    assert_eq!(all[3]["_meta"], json!({"from": "sorted"}));
    let page = run.value("page", &[]).await.expect("compose");
    assert_eq!(
        page,
        json!({"first": [{"app": "c", "next": 6}, {"app": "a", "next": 4}]})
    );
    assert!(
        run.trace
            .warnings()
            .iter()
            .any(|l| l.contains("part `bad` left out by `on_error: skip`")),
        "{:?}",
        run.trace.lines()
    );
    let error = run.value("strict_page", &[]).await.expect_err("fails");
    assert!(
        error
            .to_string()
            .starts_with("source `strict_page`: source `broken`: "),
        "{error}"
    );
}

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

#[tokio::test]
async fn merge_tags_children_without_overwriting_and_honours_on_error() {
    let io = FakeIo::new().with_http(|_| {
        Reply::Fail(IoError::Connect {
            address: "127.0.0.1:1".into(),
            detail: "refused".into(),
        })
    });
    let run = Run::new(MERGE, io);
    assert_eq!(
        run.value("tagged", &[]).await.expect("merged"),
        json!([{"id": 1, "env": "keep-me", "region": "eu"}, 7, {"id": 2, "region": "us"}])
    );
    assert_eq!(
        run.value("skipping", &[]).await.expect("skips"),
        json!([{"id": 1, "env": "keep-me", "_meta": {"child": "eu"}}, 7, {"id": 2, "_meta": {"child": "us"}}])
    );
    let error = run.value("failing", &[]).await.expect_err("fails");
    assert_eq!(
        error.to_string(),
        "source `failing`: source `down`: cannot connect to 127.0.0.1:1: refused"
    );
}

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

#[tokio::test]
async fn followed_text_is_one_string_per_line() {
    let run = Run::new(STREAMS, stream_io());
    let events = run.events("log").await;
    assert_eq!(
        events,
        [
            Ok(json!("sync started")),
            Ok(json!("syncing app")),
            Ok(json!("done"))
        ]
    );
}

#[tokio::test]
async fn followed_json_parses_each_line_and_a_bad_line_is_an_error_event() {
    let run = Run::new(STREAMS, stream_io());
    let events = run.events("events").await;
    assert_eq!(events.len(), 3, "{events:?}");
    assert_eq!(events[0], Ok(json!({"level": "INFO", "m": 1})));
    let bad = events[1].as_ref().expect_err("bad line");
    assert!(
        bad.starts_with("source `events`: event is not JSON"),
        "{bad}"
    );
    assert_eq!(events[2], Ok(json!({"level": "WARN", "m": 3})));
}

#[tokio::test]
async fn websocket_sends_initial_messages_in_order_and_merge_streams() {
    let run = Run::new(STREAMS, stream_io());
    let events = run.events("ticks").await;
    assert_eq!(events, [Ok(json!({"p": 1})), Ok(json!({"p": 2}))]);
    let sockets = run.io.sockets.lock().expect("lock").clone();
    assert_eq!(
        sockets[0].initial_messages,
        [r#"{"subscribe": "prices"}"#, r#"{"snapshot": true}"#]
    );
    let merged = run.events("both").await;
    let tags: Vec<&str> = merged
        .iter()
        .filter_map(|event| event.as_ref().ok())
        .filter_map(|event| event["_meta"]["via"].as_str())
        .collect();
    assert_eq!(tags.iter().filter(|t| **t == "ticks").count(), 2);
    assert_eq!(tags.iter().filter(|t| **t == "events").count(), 2);
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

#[tokio::test]
async fn exec_renders_argv_and_env_without_a_shell() {
    let run = Run::new(EXEC, exec_io());
    let value = run
        .value("pods", &[("ns", "prod; rm -rf /")])
        .await
        .expect("ran");
    assert_eq!(value, json!([{"name": "web-1"}]));
    let command = run.io.commands.lock().expect("lock")[0].clone();
    assert_eq!(command.argv[4], "prod; rm -rf /");
    assert_eq!(
        command.env,
        [(
            "KUBECONFIG".to_owned(),
            "/home/me/.kube/prod; rm -rf /".to_owned()
        )]
    );
}

#[tokio::test]
async fn exec_windows_drop_empty_token_arguments_on_the_first_page() {
    let run = Run::new(EXEC, exec_io());
    let value = run.value("search", &[]).await.expect("ran");
    assert_eq!(
        value.as_array().map(Vec::len),
        Some(3),
        "a plain window keeps the rows"
    );
    let command = run.io.commands.lock().expect("lock")[0].clone();
    assert_eq!(command.argv, ["logq", "--offset=0", "--limit=2"]);
    let tail = run.value("tail", &[]).await.expect("ran");
    assert_eq!(tail, json!([{"id": 9}, {"id": 8}]), "the extra item is cut");
    let command = run.io.commands.lock().expect("lock")[1].clone();
    assert_eq!(command.argv, ["logq", "--dir=older", "--limit=3"]);
    assert!(
        run.trace
            .lines()
            .iter()
            .any(|l| l.contains("2 items; more beyond this page; edge cursor 8")),
        "{:?}",
        run.trace.lines()
    );
}

#[tokio::test]
async fn files_are_read_again_on_every_fetch() {
    let run = Run::new(EXEC, FakeIo::new().with_file("/tmp/notes.json", "[1]"));
    assert_eq!(run.value("notes", &[]).await.expect("read"), json!([1]));
    run.io.set_file("/tmp/notes.json", "[1, 2]");
    assert_eq!(run.value("notes", &[]).await.expect("read"), json!([1, 2]));
    let missing = run
        .value("notes", &[("name", "other")])
        .await
        .expect_err("missing");
    assert!(
        missing
            .to_string()
            .starts_with("source `notes`: cannot read `/tmp/other.json`")
    );
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

#[tokio::test]
async fn a_window_asks_for_the_first_page_keeping_url_parameters() {
    let run = Run::new(WINDOWS, window_io());
    let rows = run.value("apps", &[]).await.expect("fetched");
    assert_eq!(rows, json!([{"id": "app-0001"}]));
    assert_eq!(
        run.io.http_log()[0].url,
        "http://127.0.0.1:8099/apps?latency=5ms&offset=0&limit=50"
    );
    assert!(
        run.trace
            .lines()
            .iter()
            .any(|l| l.contains("total 5000 (at `total`)"))
    );
}

#[tokio::test]
async fn an_anchored_window_merges_the_walk_into_the_body_without_a_cursor() {
    let run = Run::new(WINDOWS, window_io());
    let hits = run.value("logs", &[]).await.expect("fetched");
    assert_eq!(hits.as_array().map(Vec::len), Some(2));
    let body: Value =
        serde_json::from_str(run.io.http_log()[0].body.as_deref().expect("body")).expect("json");
    assert_eq!(
        body,
        json!({
            "size": 3,
            "query": {"query_string": {"query": ""}},
            "sort": [{"@timestamp": "desc"}, {"_shard_doc": "desc"}]
        })
    );
    assert!(
        run.trace
            .lines()
            .iter()
            .any(|l| l.contains("edge cursor [2,1]"))
    );
}

#[tokio::test]
async fn an_anchored_bodyless_request_sets_query_parameters_and_explains_growth() {
    let run = Run::new(WINDOWS, window_io());
    let events = run.value("events", &[]).await.expect("fetched");
    assert_eq!(events, json!([{"counter": 1}, {"counter": 2}]));
    assert_eq!(
        run.io.http_log()[0].url,
        "http://127.0.0.1:8099/api/v2/jobs/2/job_events/?order_by=counter&page_size=3"
    );
    let lines = run.trace.lines();
    assert!(
        lines.iter().any(|l| l.contains("nothing beyond this page")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains(
            "growing `events`: while `status == 'running'` over `job` is true: still growing"
        )),
        "{lines:?}"
    );
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

#[tokio::test]
async fn join_lookups_share_the_automatic_cache_and_errors_are_not_cached() {
    let run = Run::new(JOIN, join_io());
    let engine = run.engine();
    let error = value_of(&engine, "with_apps", &[])
        .await
        .expect_err("a2 fails");
    assert_eq!(
        error.to_string(),
        "source `with_apps`: source `app`: HTTP 500 from GET http://x/apps/a2: boom"
    );
    let requests: Vec<String> = run.io.http_log().into_iter().map(|r| r.url).collect();
    assert_eq!(requests, ["http://x/apps/a1", "http://x/apps/a2"]);
    let again = value_of(&engine, "with_apps", &[])
        .await
        .expect_err("a2 still fails");
    assert!(again.to_string().contains("HTTP 500"));
    let requests: Vec<String> = run.io.http_log().into_iter().map(|r| r.url).collect();
    assert_eq!(
        requests,
        ["http://x/apps/a1", "http://x/apps/a2", "http://x/apps/a2"],
        "a1 came from the cache; the failed a2 was asked again"
    );
    assert!(
        run.trace
            .lines()
            .iter()
            .any(|l| l.contains("hit for id=a1"))
    );
}

#[tokio::test]
async fn join_emits_separate_or_merged_rows() {
    let io = FakeIo::new().with_http(|request| {
        let id = request
            .url
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        Reply::json(json!({"name": format!("name-{id}"), "id": "not-mine"}))
    });
    let run = Run::new(JOIN, io);
    let engine = run.engine();
    let separate = value_of(&engine, "with_apps", &[]).await.expect("joined");
    assert_eq!(
        separate[1],
        json!({"row": {"id": "j2", "app": "a2"}, "detail": {"name": "name-a2", "id": "not-mine"}})
    );
    let merged = value_of(&engine, "merged", &[]).await.expect("joined");
    assert_eq!(
        merged[0],
        json!({"id": "j1", "app": "a1", "name": "name-a1", "detail_id": "not-mine"})
    );
    assert_eq!(
        run.io.http_log().len(),
        2,
        "two distinct apps over both joins"
    );
}

#[tokio::test]
async fn a_required_lookup_parameter_the_row_lacks_is_missing_not_the_text_null() {
    let yaml = r#"
data:
  sources:
    jobs:
      type: static
      data: [{id: j1, app: a1}, {id: j2}]
    app:
      type: http
      url: http://x/echo?id=${params.id}
      parameters:
        id: {required: true}
    strict:
      type: join
      driver: {from: jobs}
      lookups:
        detail: {from: app, on: {id: app}}
    lenient:
      type: join
      driver: {from: jobs}
      on_error: skip
      lookups:
        detail: {from: app, on: {id: app}}
"#;
    let run = Run::new(
        yaml,
        FakeIo::new().with_http(|_| Reply::json(json!({"ok": true}))),
    );
    let engine = run.engine();
    let error = value_of(&engine, "strict", &[])
        .await
        .expect_err("row 1 has no app");
    assert_eq!(
        error.to_string(),
        "source `strict`: driver row 1: lookup `detail` gets no value for its required parameter `id`: `on.id: app` is null on that row (a field the row lacks reads as null)"
    );
    let kept = value_of(&engine, "lenient", &[])
        .await
        .expect("row 1 skipped");
    assert_eq!(kept.as_array().map(Vec::len), Some(1));
    let requests: Vec<String> = run.io.http_log().into_iter().map(|r| r.url).collect();
    assert!(
        requests.iter().all(|url| !url.contains("null")),
        "{requests:?}"
    );
    assert!(
        run.trace.lines().iter().any(|line| line.contains(
            "join `lenient`: driver row 1 dropped by `on_error: skip`: lookup `detail` gets no value for its required parameter `id`: `on.id: app` is null on that row (a field the row lacks reads as null)"
        )),
        "{:?}",
        run.trace.lines()
    );
}

#[tokio::test]
async fn a_declared_cache_makes_one_upstream_request_per_parameters() {
    let run = Run::new(JOIN, join_io());
    let engine = run.engine();
    let pair = value_of(&engine, "pair", &[("id", "a9")])
        .await
        .expect("fetched");
    assert_eq!(pair.as_array().map(Vec::len), Some(2));
    assert_eq!(run.io.http_log().len(), 1);
    let lines = run.trace.lines();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("cache `cached_app`: stored for id=a9")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("cache `cached_app`: hit for id=a9")),
        "{lines:?}"
    );
    run.io.advance(std::time::Duration::from_secs(31));
    value_of(&engine, "pair", &[("id", "a9")])
        .await
        .expect("fetched");
    assert_eq!(run.io.http_log().len(), 2, "stale after the ttl");
}

#[tokio::test]
async fn cycles_and_unknown_entries_are_errors() {
    let yaml = r#"
data:
  sources:
    a: {type: passthrough, from: b}
    b: {type: passthrough, from: a}
    c: {type: passthrough, from: nowhere}
"#;
    let run = Run::new(yaml, FakeIo::new());
    let cycle = run.value("a", &[]).await.expect_err("cycle");
    assert!(
        cycle.to_string().ends_with("reference cycle: a → b → a"),
        "{cycle}"
    );
    let unknown = run.value("c", &[]).await.expect_err("unknown");
    assert_eq!(
        unknown.to_string(),
        "source `nowhere`: unknown source `nowhere`"
    );
    let nope = run.value("zzz", &[]).await.expect_err("unknown");
    assert_eq!(nope.to_string(), "source `zzz`: unknown source `zzz`");
}

#[tokio::test]
async fn an_int_parameter_reaches_cel_as_a_number() {
    let run = Run::new(
        "data:\n  sources:\n    sizes:\n      type: static\n      data: [{size: 1}, {size: 5}, {size: 9}]\n    big:\n      type: filter\n      from: sizes\n      where: size > params.min\n      parameters:\n        min: {type: int, default: \"2\"}\n",
        FakeIo::new(),
    );
    let engine = run.engine();
    assert_eq!(
        value_of(&engine, "big", &[]).await.expect("runs"),
        json!([{"size": 5}, {"size": 9}])
    );
    assert_eq!(
        value_of(&engine, "big", &[("min", "6")])
            .await
            .expect("runs"),
        json!([{"size": 9}])
    );
}

#[tokio::test]
async fn an_anchored_window_sends_its_limit_as_limit_param() {
    let run = Run::new(
        "data:\n  sources:\n    log:\n      type: http\n      url: https://api.test/events\n      root: items\n      window:\n        page_size: 10\n        limit_param: size\n        cursor: id\n        older: {before: '${window.cursor}'}\n        newer: {after: '${window.cursor}'}\n",
        FakeIo::new().with_http(|_| Reply::json(json!({"items": [{"id": 1}]}))),
    );
    let engine = run.engine();
    value_of(&engine, "log", &[]).await.expect("runs");
    let sent = &run.io.http_log()[0].url;
    assert!(sent.contains("size=11"), "{sent}");
}

#[tokio::test]
async fn the_named_entry_is_bound_once_by_the_caller() {
    // An optional `int` nobody supplied is bound to the empty text, which binding again (as a
    // supplied value) refuses: `evaluate` takes the caller's binding as it is.
    let run = Run::new(
        "data:\n  sources:\n    s:\n      type: static\n      data: [{n: 1}]\n      parameters:\n        page: {type: int}\n      pipe:\n        - {type: filter, where: \"params.page == null\"}\n",
        FakeIo::new(),
    );
    let engine = run.engine();
    let bound = engine.bind("s", &BTreeMap::new()).expect("bound");
    assert_eq!(bound.values().get("page").map(String::as_str), Some(""));
    let declared = sources_config::accepted::declared_params(&run.config.entries[0]);
    let again = crate::params::bind(&declared, bound.values()).expect_err("a second binding");
    assert!(again.contains("declared `int` but got ``"), "{again}");
    match engine.evaluate(&bound).await.expect("evaluated") {
        Output::Value(value) => assert_eq!(value, json!([{"n": 1}])),
        Output::Stream(_) => panic!("streamed"),
    }
}

#[tokio::test]
async fn a_compose_part_and_a_merge_child_that_stream_are_read_for_a_snapshot() {
    let yaml = r#"
data:
  sources:
    ticks:
      type: websocket
      url: wss://feed.example/ws
    fixed:
      type: static
      data: [{p: 0}]
    board:
      type: compose
      parts: {live: ticks, fixed: fixed}
    mixed:
      type: merge
      sources: [fixed, ticks]
      on_error: skip
"#;
    let run = Run::new(yaml, stream_io());
    assert_eq!(
        run.value("board", &[]).await.expect("composed"),
        json!({"live": [{"p": 1}, {"p": 2}], "fixed": [{"p": 0}]})
    );
    assert_eq!(
        run.value("mixed", &[]).await.expect("merged"),
        json!([{"p": 0}, {"p": 1}, {"p": 2}])
    );
    assert!(
        run.trace
            .lines()
            .iter()
            .any(|line| line
                == "`ticks` streams: its snapshot is the first 2 events (the stream ended)"),
        "{:?}",
        run.trace.lines()
    );
    // A failed event fails the streamed child; `on_error: skip` drops it and keeps the rest.
    let failing = Run::new(
        yaml,
        FakeIo::new().with_websocket(|_| Ok(vec!["not json".into()])),
    );
    assert_eq!(
        failing.value("mixed", &[]).await.expect("merged"),
        json!([{"p": 0}])
    );
    assert!(
        failing.trace.warnings().iter().any(|line| line.starts_with(
            "`mixed`: child `ticks` left out by `on_error: skip`: source `ticks`: event is not JSON"
        )),
        "{:?}",
        failing.trace.lines()
    );
}

#[tokio::test]
async fn an_operator_without_parameters_passes_them_through_and_one_with_parameters_does_not() {
    let yaml = r#"
data:
  sources:
    app:
      type: http
      url: http://x/apps/${params.id}
      parameters: {id: {required: true}}
    open: {type: filter, from: app, where: "state == 'open'"}
    again: {type: passthrough, from: open}
    own:
      type: filter
      from: app
      where: state == params.state
      parameters: {state: {default: open}}
"#;
    let io = FakeIo::new().with_http(|request| {
        Reply::json(json!([{"state": "open", "url": request.url}, {"state": "closed"}]))
    });
    let run = Run::new(yaml, io);
    let passed = run
        .value("again", &[("id", "5")])
        .await
        .expect("passed through");
    assert_eq!(passed, json!([{"state": "open", "url": "http://x/apps/5"}]));
    let typo = run
        .value("open", &[("idd", "5")])
        .await
        .expect_err("a misspelt name");
    assert!(
        typo.to_string()
            .contains("parameter `idd` is not declared by this source; did you mean `id`?"),
        "{typo}"
    );
    let own = run.value("own", &[]).await.expect_err("nothing forwarded");
    assert!(
        own.to_string()
            .contains("parameter `id` is required: pass it with `--param id=VALUE`"),
        "{own}"
    );
}

#[tokio::test]
async fn an_entry_read_along_many_paths_is_fetched_once_per_parameter_set() {
    // Each of 17 stacked merges reads the one below twice: 2^17 reads without the run's memo,
    // past `MAX_READS`; the leaf is fetched once and every level once.
    let mut yaml =
        String::from("data:\n  sources:\n    m0:\n      type: http\n      url: https://x/rows\n");
    for level in 1..=17 {
        let below = level - 1;
        yaml.push_str(&format!(
            "    m{level}: {{type: merge, sources: [m{below}, m{below}]}}\n"
        ));
    }
    let run = Run::new(
        &yaml,
        FakeIo::new().with_http(|_| Reply::json(json!([{"id": 1}]))),
    );
    let engine = run.engine();
    let bound = engine.bind("m17", &BTreeMap::new()).expect("bound");
    let Output::Value(Value::Array(rows)) = engine.evaluate(&bound).await.expect("reads") else {
        panic!("a list");
    };
    assert_eq!(rows.len(), 1 << 17);
    assert_eq!(run.io.http_log().len(), 1);
    // A new run fetches again.
    let bound = engine.bind("m1", &BTreeMap::new()).expect("bound");
    engine.evaluate(&bound).await.expect("reads");
    assert_eq!(run.io.http_log().len(), 2);
}
