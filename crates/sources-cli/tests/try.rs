//! `sources try` and `sources list` as a user runs them: the real binary, the example config, the
//! demo backend in-process or live (on a clock the test moves), and every bad-input path.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use sources_testkit::process::outcome as run;

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/examples/demo.yaml")
}

fn sources(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sources"));
    command
        .args(args)
        .env_remove("SOURCES_DEMO_API")
        .env_remove("SOURCES_CONFIG");
    command
}

fn try_demo(name: &str, extra: &[&str]) -> (i32, String, String) {
    let config = example();
    let config = config.to_str().expect("utf-8 path");
    let mut args = vec!["try", name, "-c", config, "--demo"];
    args.extend_from_slice(extra);
    run(&mut sources(&args))
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

#[test]
fn the_example_lints_clean() {
    let config = example();
    let (code, stdout, stderr) = run(&mut sources(&[
        "lint",
        "--format",
        "short",
        config.to_str().expect("utf-8"),
    ]));
    assert_eq!(
        (code, stdout.as_str()),
        (0, "no problems found in 1 file\n"),
        "{stderr}"
    );
}

#[test]
fn apps_first_window_page_in_process() {
    let (code, stdout, stderr) = try_demo("apps", &["--verbose"]);
    assert_eq!(code, 0, "{stderr}");
    let rows = json(&stdout);
    let rows = rows.as_array().expect("a list");
    assert_eq!(rows.len(), 50);
    assert_eq!(rows[0]["id"], "app-0001");
    assert!(stderr.contains("in-process demo backend"), "{stderr}");
    assert!(
        stderr.contains("GET http://127.0.0.1:8099/apps?offset=0&limit=50"),
        "{stderr}"
    );
    assert!(stderr.contains("total 5000"), "{stderr}");
    assert!(
        stderr.contains("polled every 10s in the dashboard: `try` fetches it once"),
        "{stderr}"
    );
}

#[test]
fn limit_and_pretty_shape_the_value() {
    let (code, stdout, stderr) = try_demo("apps", &["--limit", "2", "--pretty"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout).as_array().map(Vec::len), Some(2));
    assert!(stdout.starts_with("[\n  {\n"), "{stdout}");
}

#[test]
fn regions_and_app_detail() {
    let (code, stdout, stderr) = try_demo("regions", &[]);
    assert_eq!(code, 0, "{stderr}");
    let regions = json(&stdout);
    assert!(
        regions
            .as_array()
            .is_some_and(|r| r.len() >= 2 && r.iter().all(Value::is_string))
    );
    let (code, stdout, stderr) = try_demo("app_detail", &["--param", "id=app-0042"]);
    assert_eq!(code, 0, "{stderr}");
    let detail = json(&stdout);
    assert_eq!(detail["metadata"]["name"], "app-0042");
    assert_eq!(detail["kind"], "Application");
}

#[test]
fn automation_events_and_search_tail() {
    let (code, stdout, stderr) = try_demo("automation_events", &["--param", "job=1", "--verbose"]);
    assert_eq!(code, 0, "{stderr}");
    let events = json(&stdout);
    let counters: Vec<i64> = events
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|e| e["counter"].as_i64())
        .collect();
    assert_eq!(counters.len(), 25);
    assert_eq!(counters[0], 8000);
    assert!(stderr.contains("growing `automation_events`"), "{stderr}");
    let (code, stdout, stderr) = try_demo("search_tail", &[]);
    assert_eq!(code, 0, "{stderr}");
    let hits = json(&stdout);
    let hits = hits.as_array().expect("list");
    assert_eq!(hits.len(), 25);
    assert!(hits.iter().all(|hit| hit["_source"]["message"].is_string()));
}

#[test]
fn attention_runs_the_cel_operators() {
    let (code, stdout, stderr) = try_demo("attention", &[]);
    assert_eq!(code, 0, "{stderr}");
    let rows = json(&stdout);
    let rows = rows.as_array().expect("list");
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|row| row.as_object().is_some_and(|o| o.len() == 4))
    );
}

/// A live demo backend on a manual clock, served on a loopback port from this test.
struct LiveDemo {
    base: String,
    client: demo_backend::Client,
    clock: demo_backend::clock::ManualClock,
    runtime: tokio::runtime::Runtime,
}

fn live_demo() -> LiveDemo {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let clock = demo_backend::clock::ManualClock::new(1_767_225_600_000);
    let options = demo_backend::Options::seeded(3, Arc::new(clock.clone()));
    let (router, _handle) = demo_backend::app(options);
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let address = listener.local_addr().expect("addr");
    runtime.spawn(async move { axum::serve(listener, router).await });
    let base = format!("http://{address}");
    let client = demo_backend::Client::network(&base).expect("client");
    LiveDemo {
        base,
        client,
        clock,
        runtime,
    }
}

#[test]
fn a_live_demo_backend_serves_jobs_and_a_followed_log() {
    let live = live_demo();
    let handle: Value = live.runtime.block_on(async {
        let response = live.client.post("/apps/app-0003/sync").await.expect("sync");
        serde_json::from_str(&response.into_body().text().await.expect("body")).expect("json")
    });
    let job = handle["job"].as_str().expect("job id").to_owned();
    let config = example();
    let config = config.to_str().expect("utf-8");
    let (code, stdout, stderr) =
        run(sources(&["try", "jobs", "-c", config, "--demo"]).env("SOURCES_DEMO_API", &live.base));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(&format!("live demo backend at {}", live.base)),
        "{stderr}"
    );
    let jobs = json(&stdout);
    assert_eq!(jobs[0]["id"], job.as_str());
    assert_eq!(jobs[0]["status"], "Running");
    live.clock.advance(Duration::from_secs(5));
    let param = format!("job={job}");
    let (code, stdout, stderr) = run(sources(&[
        "try", "job_log", "-c", config, "--demo", "--param", &param, "--limit", "2",
    ])
    .env("SOURCES_DEMO_API", &live.base));
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<Value> = stdout.lines().map(json).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0]
            .as_str()
            .is_some_and(|l| l.contains("app-0003: comparing")),
        "{stdout}"
    );
    let (code, stdout, stderr) = run(sources(&[
        "try", "job_log", "-c", config, "--demo", "--param", &param, "--raw",
    ])
    .env("SOURCES_DEMO_API", &live.base));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().count() >= 8, "{stdout}");
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.ends_with("INFO  app-0003: comparing live state with the target revision"),
        "{stdout}"
    );
}

#[test]
fn list_shows_kind_cadence_upstream_and_params() {
    let config = example();
    let config = config.to_str().expect("utf-8");
    let (code, stdout, stderr) = run(&mut sources(&["list", "-c", config]));
    assert_eq!(code, 0, "{stderr}");
    let line = |name: &str| {
        stdout
            .lines()
            .find(|line| line.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name}: {stdout}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(line("apps"), "apps http polled (refresh: 10s) window");
    assert_eq!(
        line("app_detail"),
        "app_detail http one-shot needs --param id=…"
    );
    assert_eq!(
        line("job_log"),
        "job_log http streamed (follow) needs --param job=…"
    );
    assert_eq!(
        line("search_tail"),
        "search_tail http one-shot anchored window"
    );
    assert_eq!(
        line("attention"),
        "attention filter polled (refresh: 10s) ← _first_apps"
    );
    assert!(!stdout.contains("\n_first_apps"), "hidden without -a");
    let (_, all, _) = run(&mut sources(&["list", "-c", config, "-a"]));
    assert!(
        all.lines().any(|line| line.starts_with("_first_apps ")),
        "{all}"
    );
}

const SMALL: &str = "data:\n  sources:\n    greeting:\n      type: static\n      data: {text: hello}\n      root: text\n";

#[test]
fn the_config_is_found_without_c() {
    let dir = tempfile::tempdir().expect("tempdir");
    let nested = dir.path().join("deep/er");
    std::fs::create_dir_all(&nested).expect("dirs");
    std::fs::write(dir.path().join("sources.yaml"), SMALL).expect("write");
    let (code, stdout, stderr) = run(sources(&["try", "greeting"]).current_dir(&nested));
    assert_eq!((code, stdout.as_str()), (0, "\"hello\"\n"), "{stderr}");
    let other = dir.path().join("other.yaml");
    std::fs::write(&other, SMALL.replace("hello", "from env")).expect("write");
    let (code, stdout, _) = run(sources(&["try", "greeting", "--raw"])
        .current_dir(&nested)
        .env("SOURCES_CONFIG", &other));
    assert_eq!((code, stdout.as_str()), (0, "from env\n"));
    let empty = tempfile::tempdir().expect("tempdir");
    let (code, _, stderr) = run(sources(&["list"]).current_dir(empty.path()));
    assert_eq!(code, 2);
    assert!(stderr.contains("no configuration file"), "{stderr}");
}

fn with_config(yaml: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sources.yaml");
    std::fs::write(&path, yaml).expect("write");
    let path = path.to_str().expect("utf-8").to_owned();
    (dir, path)
}

const PARAMS: &str = r#"
data:
  sources:
    app:
      type: http
      url: http://127.0.0.1:1/apps/${params.id}?n=${params.n}
      parameters:
        id: {required: true}
        n: {type: int, default: "5"}
"#;

#[test]
fn usage_errors_exit_2() {
    let (_dir, config) = with_config(PARAMS);
    let cases: &[(&[&str], &str)] = &[
        (&["try", "ap", "-c", &config], "did you mean `app`?"),
        (&["try", "app", "-c", &config], "parameter `id` is required"),
        (
            &[
                "try", "app", "-c", &config, "--param", "id=1", "--param", "idd=2",
            ],
            "parameter `idd` is not declared",
        ),
        (
            &[
                "try", "app", "-c", &config, "--param", "id=1", "--param", "n=ten",
            ],
            "declared `int` but got `ten`",
        ),
        (
            &["try", "app", "-c", &config, "--param", "noequals"],
            "is not NAME=VALUE",
        ),
        (
            &["try", "app", "-c", &config, "--param", "id=1", "--for", "5"],
            "`--for 5`",
        ),
    ];
    for (args, expected) in cases {
        let (code, stdout, stderr) = run(&mut sources(args));
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty());
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn a_config_with_errors_is_refused_with_its_diagnostics() {
    let (_dir, config) = with_config(
        "data:\n  sources:\n    x:\n      type: http\n      urll: http://127.0.0.1:1/\n",
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "x", "-c", &config]));
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(stderr.contains("has errors"), "{stderr}");
    // The file is analysed once: the one mistake is one diagnostic, printed once.
    assert_eq!(stderr.matches("unknown-field").count(), 1, "{stderr}");
    assert_eq!(stderr.lines().count(), 3, "{stderr}");
    assert!(
        stderr.ends_with("\n1 error in 1 of 1 file; 1 fixable with --fix\n"),
        "{stderr}"
    );
}

/// A loopback HTTP server that answers every request with `response` and records request lines.
fn responder(response: &'static str) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("addr");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(16) {
            let Ok(mut stream) = stream else { return };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut head = String::new();
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                head.push_str(&line);
            }
            log.lock().expect("lock").push(head);
            let _ = stream.write_all(response.as_bytes());
        }
    });
    (format!("http://{address}"), seen)
}

/// A loopback server that accepts connections and never answers.
fn silent_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().take(4) {
            held.push(stream);
        }
        let mut buffer = [0; 1];
        for mut stream in held.into_iter().flatten() {
            let _ = stream.read(&mut buffer);
        }
    });
    format!("http://{address}")
}

fn one_line_failure(yaml: &str, name: &str, expected: &str) {
    let (_dir, config) = with_config(yaml);
    let (code, stdout, stderr) = run(&mut sources(&["try", name, "-c", &config]));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(
        stderr.starts_with(&format!("sources: source `{name}`: ")),
        "names the source: {stderr}"
    );
    assert!(stderr.contains(expected), "{stderr}");
}

fn http_source(url: &str, extra: &str) -> String {
    format!("data:\n  sources:\n    feed:\n      type: http\n      url: {url}\n{extra}")
}

#[test]
fn bad_input_is_one_line_naming_the_source_and_the_cause() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let closed = listener.local_addr().expect("addr");
    drop(listener);
    one_line_failure(
        &http_source(&format!("http://{closed}/x"), ""),
        "feed",
        &format!("cannot connect to {closed}"),
    );
    one_line_failure(
        &http_source("http://sources-try-test.invalid/x", ""),
        "feed",
        "cannot resolve host `sources-try-test.invalid`",
    );
    one_line_failure(
        &http_source(&silent_server(), "      timeout: 300ms\n"),
        "feed",
        "timed out after 300ms",
    );
    let (html, _) = responder(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 15\r\nConnection: close\r\n\r\n<html>hi</html>",
    );
    one_line_failure(&http_source(&html, ""), "feed", "response is not JSON");
    let (rows, _) = responder(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{\"rows\": []}",
    );
    one_line_failure(
        &http_source(&rows, "      root: data.items\n"),
        "feed",
        "root `data.items` not found: no key `data` at the top level",
    );
    one_line_failure(
        "data:\n  sources:\n    pods:\n      type: exec\n      command: [sources-no-such-command]\n",
        "pods",
        "command `sources-no-such-command` not found",
    );
    let (failing, _) = responder(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 22\r\nConnection: close\r\n\r\n{\"error\":\"flaky\\nnow\"}",
    );
    one_line_failure(&http_source(&failing, ""), "feed", "HTTP 503 from GET");
}

#[test]
fn streamed_failures_are_error_lines() {
    let (_dir, config) = with_config(
        r#"
data:
  sources:
    out:
      type: exec
      follow: true
      command: [sh, -c, "echo '{\"n\": 1}'; echo oops; echo bad >&2; exit 3"]
"#,
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "out", "-c", &config]));
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<Value> = stdout.lines().map(json).collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0], serde_json::json!({"n": 1}));
    assert!(
        lines[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("event is not JSON"))
    );
    assert!(
        lines[2]["error"]
            .as_str()
            .is_some_and(|e| e.ends_with("exited with status 3: bad")),
        "{stdout}"
    );
}

#[test]
fn a_stream_stops_after_for() {
    let (_dir, config) = with_config(
        "data:\n  sources:\n    ticks:\n      type: exec\n      follow: true\n      format: text\n      command: [sh, -c, 'echo first; exec sleep 30']\n",
    );
    let (code, stdout, stderr) = run(&mut sources(&[
        "try",
        "ticks",
        "-c",
        &config,
        "--for",
        "300ms",
        "--verbose",
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "\"first\"\n");
    assert!(
        stderr.contains("stopped after --for with 1 events"),
        "{stderr}"
    );
}

#[test]
fn lint_never_fetches_and_try_fetches_only_the_named_entry() {
    let (server, seen) = responder(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]",
    );
    let yaml = format!(
        "data:\n  sources:\n    a:\n      type: http\n      url: {server}/a\n      headers:\n        Authorization: Bearer hunter2\n    b:\n      type: http\n      url: {server}/b\n    c:\n      type: exec\n      command: [touch, /tmp/sources-try-must-not-exist]\n"
    );
    let (_dir, config) = with_config(&yaml);
    let (code, _, stderr) = run(&mut sources(&["lint", &config]));
    assert_eq!(code, 0, "{stderr}");
    assert!(seen.lock().expect("lock").is_empty(), "lint made a request");
    let (code, stdout, stderr) = run(&mut sources(&["try", "a", "-c", &config, "--verbose"]));
    assert_eq!((code, stdout.as_str()), (0, "[]\n"), "{stderr}");
    let requests = seen.lock().expect("lock").clone();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert!(requests[0].starts_with("GET /a "), "{requests:?}");
    assert!(requests[0].contains("hunter2"), "the header is really sent");
    assert!(stderr.contains("Authorization: [redacted]"), "{stderr}");
    assert!(!stderr.contains("hunter2"), "{stderr}");
    assert!(!Path::new("/tmp/sources-try-must-not-exist").exists());
}

#[test]
fn output_formats_for_people_and_nothing_extra_on_a_pipe() {
    let (code, stdout, stderr) = try_demo("apps", &["--output", "table", "--limit", "3"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let header: Vec<&str> = lines[0]
        .split(['│', '┆'])
        .map(str::trim)
        .filter(|title| !title.is_empty())
        .collect();
    assert_eq!(
        header,
        ["Name", "Region", "Health", "Sync", "Rev"],
        "{stdout}"
    );
    // The header, the rule under it, three rows and the count.
    assert_eq!(lines.len(), 1 + 1 + 3 + 1, "{stdout}");
    assert_eq!(
        lines[lines.len() - 1],
        "3 of 50 rows shown; 47 more not shown (`--limit N` shows more, `--output json` prints all)"
    );
    // Piped, stderr carries only the lines saying which demo backend answers and which component
    // draws the entry: no progress.
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(
        stderr.ends_with("sources: showing `apps` as table `apps`\n"),
        "{stderr}"
    );

    let (code, stdout, stderr) = try_demo("apps", &["--output", "ndjson"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 50);
    for line in stdout.lines() {
        assert!(json(line).is_object(), "{line}");
    }

    let (code, stdout, stderr) = try_demo("regions", &["-o", "yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("---\n- "), "{stdout}");

    let (code, stdout, stderr) = try_demo("apps", &["--output", "xml"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("invalid value 'xml' for '--output <FORMAT>'"),
        "{stderr}"
    );
}

/// The value `try --demo` suggests for a missing required parameter, and what it names.
fn suggested(entry: &str, param: &str) -> (String, String) {
    let (code, stdout, stderr) = try_demo(entry, &[]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    let line = stderr.lines().last().unwrap_or_default();
    let prefix =
        format!("sources: `{entry}` needs --param {param}=…; for example --param {param}=");
    let rest = line
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("no example in: {stderr}"));
    let (value, what) = rest.split_once(", ").unwrap_or((rest, ""));
    (value.to_owned(), what.to_owned())
}

#[test]
fn a_missing_parameter_under_demo_gets_a_value_that_works_in_the_demo_world() {
    let (job, what) = suggested("job_log", "job");
    assert!(what.ends_with(" job"), "{what}");
    let assignment = format!("job={job}");
    let (code, stdout, stderr) = try_demo(
        "job_log",
        &["--param", &assignment, "--limit", "1", "--for", "10s"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");

    let (id, _) = suggested("app_detail", "id");
    let assignment = format!("id={id}");
    let (code, stdout, stderr) = try_demo("app_detail", &["--param", &assignment]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout)["metadata"]["name"], id.as_str());
}

#[test]
fn verbose_never_shows_masked_or_credential_named_parameter_values() {
    let (_dir, path) = with_config(
        "data:\n  sources:\n    t:\n      type: exec\n      command: [echo, '${params.pin}']\n      format: text\n      cache: {ttl: 30s}\n      parameters:\n        api_token: {default: hunter2-default}\n        pin: {default: '4711-masked', mask: true}\n      env:\n        TOK: ${params.api_token}\n",
    );
    for extra in [&[][..], &["--param", "api_token=zz-supplied-secret"][..]] {
        let mut args = vec!["try", "-c", &path, "t", "--verbose"];
        args.extend_from_slice(extra);
        let (code, _, stderr) = run(&mut sources(&args));
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("env TOK=[redacted]"), "{stderr}");
        assert!(stderr.contains("api_token=[redacted]"), "{stderr}");
        for secret in ["hunter2-default", "4711-masked", "zz-supplied-secret"] {
            assert!(!stderr.contains(secret), "{secret} shown: {stderr}");
        }
    }
}

#[test]
fn a_merge_applies_its_pipe_to_the_concatenated_rows() {
    let (_dir, path) = with_config(
        "data:\n  sources:\n    east:\n      type: static\n      data: [{host: a, up: true}, {host: c, up: false}]\n    west:\n      type: static\n      data: [{host: b, up: true}]\n    hosts:\n      type: merge\n      sources: [east, west]\n      tag_field: from\n      pipe:\n        - type: filter\n          where: up\n        - type: sort\n          by: host\n          order: desc\n",
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "-c", &path, "hosts"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        json(&stdout),
        serde_json::json!([
            {"host": "b", "up": true, "_meta": {"from": "west"}},
            {"host": "a", "up": true, "_meta": {"from": "east"}}
        ])
    );
}

#[test]
fn secrets_percent_encoded_into_a_url_are_redacted_too() {
    let (server, seen) = responder(
        "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    );
    let (_dir, path) = with_config(&format!(
        "data:\n  sources:\n    t:\n      type: http\n      url: {server}/u/${{params.api_token}}/rows?q=${{params.pin}}&n=1\n      parameters:\n        api_token: {{required: true}}\n        pin: {{required: true, mask: true}}\n"
    ));
    let (code, stdout, stderr) = run(&mut sources(&[
        "try",
        "-c",
        &path,
        "t",
        "--verbose",
        "--param",
        "api_token=tok en/1",
        "--param",
        "pin=a b&c",
    ]));
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    let requests = seen.lock().expect("lock").clone();
    assert!(
        requests[0].starts_with("GET /u/tok%20en%2F1/rows?q=a%20b%26c&n=1 "),
        "the encoded values are really sent: {requests:?}"
    );
    assert!(
        stderr.contains("/u/[redacted]/rows?q=[redacted]&n=1"),
        "{stderr}"
    );
    let error = stderr.lines().last().unwrap_or_default();
    assert!(
        error.starts_with("sources: source `t`: HTTP 500"),
        "{stderr}"
    );
    for secret in ["tok en", "tok%20en", "a b", "a%20b", "b%26c", "b&c"] {
        assert!(!stderr.contains(secret), "{secret} shown: {stderr}");
    }
}

#[test]
fn a_join_over_a_cached_lookup_says_each_cache_step_once() {
    let (_dir, path) = with_config(
        "data:\n  sources:\n    ids:\n      type: static\n      data: [{id: 1}, {id: 1}, {id: 2}]\n    job:\n      type: http\n      url: http://127.0.0.1:8099/api/v2/jobs/${params.id}/\n      parameters:\n        id: {type: int, required: true}\n      cache: {ttl: 30s}\n    detailed:\n      type: join\n      driver: {from: ids}\n      lookups:\n        detail:\n          from: job\n          on: {id: id}\n",
    );
    for _ in 0..2 {
        let (code, stdout, stderr) = run(&mut sources(&[
            "try",
            "-c",
            &path,
            "detailed",
            "--demo",
            "--verbose",
        ]));
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(json(&stdout).as_array().map(Vec::len), Some(3), "{stdout}");
        let cache_lines: Vec<&str> = stderr
            .lines()
            .filter(|line| line.contains("cache `job`"))
            .collect();
        assert_eq!(
            cache_lines,
            [
                "· cache `job`: stored for id=1 (at most 100 entries; ttl 30s)",
                "· cache `job`: hit for id=1 (no request)",
                "· cache `job`: stored for id=2 (at most 100 entries; ttl 30s)",
            ],
            "{stderr}"
        );
        assert_eq!(
            stderr
                .matches("GET http://127.0.0.1:8099/api/v2/jobs/1/")
                .count(),
            1,
            "{stderr}"
        );
    }
}

#[test]
fn a_secret_of_the_wrong_type_is_not_echoed_in_the_usage_error() {
    let (_dir, path) = with_config(
        "data:\n  sources:\n    t:\n      type: static\n      data: []\n      parameters:\n        pin: {type: int, mask: true}\n",
    );
    let (code, _, stderr) = run(&mut sources(&[
        "try",
        "-c",
        &path,
        "t",
        "--param",
        "pin=hunter2",
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("parameter `pin` is declared `int` but got `[redacted]`"),
        "{stderr}"
    );
    assert!(!stderr.contains("hunter2"), "{stderr}");
}

#[test]
fn a_partial_result_is_said_on_stderr_and_strict_makes_it_fail() {
    let (server, _) = responder(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 39\r\nConnection: close\r\n\r\n{\"next\": \"?page=2\", \"results\": [1, 2]}\n",
    );
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let closed = listener.local_addr().expect("addr");
    drop(listener);
    let (_dir, config) = with_config(&format!(
        "data:\n  sources:\n    pages:\n      type: http\n      url: {server}/items\n      root: results\n      paginate:\n        strategy: link\n        next_path: next\n        max_pages: 1\n    down:\n      type: http\n      url: http://{closed}/x\n    fixed:\n      type: static\n      data: [{{n: 1}}]\n    both:\n      type: merge\n      sources: [down, fixed]\n      on_error: skip\n"
    ));
    let (code, stdout, stderr) = run(&mut sources(&["try", "pages", "-c", &config]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout), serde_json::json!([1, 2]));
    assert_eq!(
        stderr,
        "sources: warning: stopped at `max_pages: 1` with 2 items; more pages remain (raise `max_pages` to read them)\n"
    );
    let (code, _, stderr) = run(&mut sources(&["try", "pages", "-c", &config, "--strict"]));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.ends_with("sources: --strict: 1 warning(s), so this run fails\n"),
        "{stderr}"
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "both", "-c", &config]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout)[0]["n"], 1);
    assert!(
        stderr.starts_with(&format!(
            "sources: warning: `both`: child `down` left out by `on_error: skip`: source `down`: cannot connect to {closed}"
        )),
        "{stderr}"
    );
    let (code, _, stderr) = run(&mut sources(&["try", "both", "-c", &config, "--strict"]));
    assert_eq!(code, 1, "{stderr}");
}

#[test]
fn an_empty_table_column_is_named_with_why_its_value_path_gives_nothing() {
    // Rows from a command, whose shape lint cannot know, so a misspelled path reaches `try`.
    let (_dir, config) = with_config(
        "data:\n  sources:\n    apps:\n      type: exec\n      command: [printf, '[{\"name\": \"a\", \"status\": {\"sync\": \"Synced\"}}]']\ntui:\n  components:\n    list:\n      kind: table\n      source: apps\n      columns:\n        - {title: Name, value: name}\n        - {title: Sync, value: status.sycn}\n",
    );
    let (code, stdout, stderr) = run(&mut sources(&[
        "try", "apps", "-c", &config, "--output", "table",
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Name │ Sync\n───────────\na    │\n", "{stdout}");
    assert_eq!(
        stderr,
        "sources: showing `apps` as table `list`\n\
         sources: warning: table `list` column `Sync` is empty in every row: its `value` reads `status.sycn`; in the first row: no key `sycn` under `status` (did you mean `sync`?)\n"
    );
}

#[test]
fn a_required_parameter_given_an_empty_value_is_refused_like_a_missing_one() {
    let (_dir, config) = with_config(PARAMS);
    let (code, stdout, stderr) = run(&mut sources(&[
        "try", "app", "-c", &config, "--param", "id=",
    ]));
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(
        stderr,
        "sources: `app`: parameter `id` is required and `--param id=` gives it no value: pass it with `--param id=VALUE`\n"
    );
    let (code, stdout, stderr) = try_demo("app_detail", &["--param", "id="]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("`app_detail` needs --param id=…; for example --param id="),
        "{stderr}"
    );
}

#[test]
fn try_all_smoke_tests_every_entry_of_the_example_under_demo() {
    let config = example();
    let config = config.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = run(&mut sources(&["try", "--all", "-c", config, "--demo"]));
    assert_eq!(code, 0, "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let entries = lines.len() - 1;
    assert!(entries > 20, "{stdout}");
    assert!(
        lines[..entries]
            .iter()
            .all(|line| line.starts_with("ok    ")),
        "{stdout}"
    );
    assert_eq!(
        lines[entries],
        format!("{entries} entries: {entries} ok, 0 with warnings, 0 failed")
    );
    let apps = lines
        .iter()
        .find(|line| line.starts_with("ok    apps "))
        .expect("apps");
    assert!(apps.contains(" 50 rows, "), "{apps}");
    let job_log = lines
        .iter()
        .find(|line| line.starts_with("ok    job_log "))
        .expect("job_log");
    assert!(
        job_log.contains("1 event (streamed) with --param job=job-"),
        "{job_log}"
    );
}

#[test]
fn try_all_names_each_failure_and_exits_1() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let closed = listener.local_addr().expect("addr");
    drop(listener);
    let (_dir, config) = with_config(&format!(
        "data:\n  sources:\n    fixed:\n      type: static\n      data: [{{n: 1}}, {{n: 2}}]\n    down:\n      type: http\n      url: http://{closed}/x\n    one:\n      type: http\n      url: http://{closed}/apps/${{params.id}}\n      parameters:\n        id: {{required: true}}\n"
    ));
    let (code, stdout, stderr) = run(&mut sources(&["try", "--all", "-c", &config]));
    assert_eq!(code, 1, "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0].starts_with("ok    fixed  2 rows, "), "{stdout}");
    assert!(
        lines[1].starts_with(&format!(
            "FAIL  down   source `down`: cannot connect to {closed}"
        )),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with("FAIL  one    needs --param id=VALUE ("),
        "{stdout}"
    );
    assert_eq!(lines[3], "3 entries: 1 ok, 0 with warnings, 2 failed");
    let (code, _, stderr) = run(&mut sources(&[
        "try", "--all", "-c", &config, "--param", "idd=1",
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr,
        "sources: `--param idd`: no entry of the file declares a parameter `idd`\n"
    );
}

#[test]
fn every_output_keeps_the_servers_key_order() {
    let (server, _) = responder(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 41\r\nConnection: close\r\n\r\n[{\"zeta\": 1, \"alpha\": null, \"mid\": \"x\"}]\n",
    );
    let (_dir, config) = with_config(&http_source(&format!("{server}/rows"), ""));
    let expected: &[(&str, &str)] = &[
        ("json", "[{\"zeta\":1,\"alpha\":null,\"mid\":\"x\"}]\n"),
        ("ndjson", "{\"zeta\":1,\"alpha\":null,\"mid\":\"x\"}\n"),
        ("yaml", "---\n- zeta: 1\n  alpha: null\n  mid: x\n"),
    ];
    for (format, output) in expected {
        let (code, stdout, stderr) =
            run(&mut sources(&["try", "feed", "-c", &config, "-o", format]));
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(&stdout, output, "{format}");
    }
    let (code, stdout, stderr) = run(&mut sources(&["try", "feed", "-c", &config, "-o", "table"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("│ zeta ┆ alpha ┆ mid │"), "{stdout}");
}

#[test]
fn a_timeout_names_its_field_and_line_and_verbose_shows_a_whole_error_body() {
    let (_dir, config) = with_config(&http_source(&silent_server(), "      timeout: 300ms\n"));
    let (code, _, stderr) = run(&mut sources(&["try", "feed", "-c", &config]));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "sources: source `feed`: timed out after 300ms (`timeout` of `feed` at {config}:6:7: raise it there)\n"
        )
    );
    let body = format!("{}the end", "a long explanation ".repeat(12));
    let response: &'static str = Box::leak(
        format!(
            "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_boxed_str(),
    );
    let (server, _) = responder(response);
    let (_dir, config) = with_config(&http_source(&format!("{server}/x"), ""));
    let (code, _, quiet) = run(&mut sources(&["try", "feed", "-c", &config]));
    assert_eq!(code, 1, "{quiet}");
    assert!(!quiet.contains("the end"), "cut without --verbose: {quiet}");
    let (code, _, verbose) = run(&mut sources(&["try", "feed", "-c", &config, "--verbose"]));
    assert_eq!(code, 1, "{verbose}");
    assert!(
        verbose.contains(&format!(
            "the whole response body of HTTP 500 ({} bytes):\n{body}",
            body.len()
        )),
        "{verbose}"
    );
}

#[test]
fn a_field_missing_on_rows_is_said_once_with_the_count_and_strict_counts_it() {
    let (_dir, config) = with_config(
        "data:\n  sources:\n    apps:\n      type: static\n      data:\n        - {name: web, owner: {team: core}}\n        - {name: api}\n        - {name: db}\n    owned:\n      type: filter\n      from: apps\n      where: owner.team == \"core\" || owner.team == \"edge\"\n    lines:\n      type: exec\n      command: [printf, \"%s\", '[{\"title\":\"a\",\"state\":\"open\"},{\"title\":\"b\",\"state\":\"closed\"}]']\n    open:\n      type: filter\n      from: lines\n      where: stat == \"open\"\n",
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "owned", "-c", &config]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout)[0]["name"], "web");
    assert_eq!(
        stderr,
        "sources: warning: `owned`: `where` reads `owner.team`, missing on 2 of 3 rows: it is null there\n"
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "open", "-c", &config, "--strict"]));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(json(&stdout), serde_json::json!([]));
    assert_eq!(
        stderr,
        "sources: warning: `open`: `where` reads `stat`, which none of the 2 rows has: it is null on every row (their keys: `state`, `title`); did you mean `state`?\n\
         sources: --strict: 1 warning(s), so this run fails\n"
    );
}
