//! Fetching: http, exec, files, followed programs and websockets, windows and anchored windows.

use super::*;

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
