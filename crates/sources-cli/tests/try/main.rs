//! `sources try` and `sources list` as a user runs them: the real binary, the example config, the
//! demo backend in-process or live (on a clock the test moves), and every bad-input path.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use sources_testkit::process::{command, outcome as run};

mod demo;
mod failures;
mod output;
mod secrets;

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/examples/demo.yaml")
}

fn sources(args: &[&str]) -> Command {
    command(env!("CARGO_BIN_EXE_sources"), args)
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

const SMALL: &str = "data:\n  sources:\n    greeting:\n      type: static\n      data: {text: hello}\n      root: text\n";

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
