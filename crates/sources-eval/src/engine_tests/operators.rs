//! Operators, pipes, merges, joins and caches, and the parameters entries pass each other.

use super::*;

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
