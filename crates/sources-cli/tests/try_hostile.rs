//! `sources try` against hostile servers the test starts on 127.0.0.1: an endless body, a body
//! that drips, a next link that points back at itself, a websocket that floods, and outputs,
//! files and messages past `--max-body`; and a websocket merged with a snapshot child, which `try`
//! reads for a snapshot. The real binary runs each; every loop here is bounded in
//! count and time, and every run is killed if it outlives its bound.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use tokio_tungstenite::tungstenite::{self, Message};

/// The longest any hostile server keeps going.
const SERVER_LIFETIME: Duration = Duration::from_secs(60);

/// The longest a `try` run may take before the test kills it and fails.
const RUN_BOUND: Duration = Duration::from_secs(30);

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs `sources try ARGS -c CONFIG`, killing it (and failing) after [`RUN_BOUND`].
fn try_entry(config: &Path, args: &[&str]) -> Run {
    try_entry_reading(config, args, Duration::ZERO)
}

/// [`try_entry`], reading its stdout 4 KiB at a time with `pause` between reads (a slow terminal).
fn try_entry_reading(config: &Path, args: &[&str], pause: Duration) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sources"))
        .arg("try")
        .args(args)
        .arg("-c")
        .arg(config)
        .env_remove("SOURCES_DEMO_API")
        .env_remove("SOURCES_CONFIG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let started = Instant::now();
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = thread::spawn(move || {
        let mut text = Vec::new();
        let mut chunk = [0; 4096];
        while let Ok(read @ 1..) = stdout.read(&mut chunk) {
            text.extend_from_slice(&chunk[..read]);
            if started.elapsed() > RUN_BOUND {
                break;
            }
            thread::sleep(pause);
        }
        text
    });
    let err = thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > RUN_BOUND {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`sources try {args:?}` still ran after {RUN_BOUND:?}");
        }
        thread::sleep(Duration::from_millis(20));
    };
    let took = started.elapsed();
    let stdout = String::from_utf8_lossy(&out.join().expect("stdout")).into_owned();
    let stderr = String::from_utf8_lossy(&err.join().expect("stderr")).into_owned();
    Run {
        code: status.code().unwrap_or(-1),
        stdout,
        stderr,
        took,
    }
}

fn config(dir: &tempfile::TempDir, text: &str) -> PathBuf {
    let path = dir.path().join("sources.yaml");
    std::fs::write(&path, text).expect("write the config");
    path
}

/// Reads a request's head (bounded), returning its request line.
fn read_head(stream: &TcpStream) -> String {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut first = String::new();
    for index in 0..100 {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" => break,
            Ok(_) => {
                if index == 0 {
                    first = line.trim_end().to_owned();
                }
            }
        }
    }
    first
}

/// Serves each of up to `connections` connections with `serve` on its own thread.
fn server(connections: usize, serve: impl Fn(TcpStream) + Send + Sync + Clone + 'static) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let port = listener.local_addr().expect("address").port();
    thread::spawn(move || {
        for stream in listener.incoming().take(connections) {
            let Ok(stream) = stream else { return };
            let serve = serve.clone();
            thread::spawn(move || serve(stream));
        }
    });
    port
}

/// Writes `chunk` again and again until the client hangs up or the server's lifetime is over.
fn write_forever(mut stream: TcpStream, chunk: &[u8], pause: Duration) {
    let started = Instant::now();
    while started.elapsed() < SERVER_LIFETIME {
        if stream.write_all(chunk).is_err() {
            return;
        }
        if !pause.is_zero() {
            thread::sleep(pause);
        }
    }
}

fn endless_body_server() -> u16 {
    server(4, |mut stream| {
        read_head(&stream);
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[";
        if stream.write_all(head.as_bytes()).is_ok() {
            write_forever(stream, &[b' '; 64 * 1024], Duration::ZERO);
        }
    })
}

#[test]
fn an_endless_body_stops_at_the_limit_naming_the_entry() {
    let port = endless_body_server();
    let dir = tempfile::tempdir().expect("tempdir");
    let config = config(
        &dir,
        &format!(
            "data:\n  sources:\n    endless:\n      type: http\n      url: http://127.0.0.1:{port}/\n      timeout: 25s\n"
        ),
    );
    let run = try_entry(&config, &["endless", "--max-body", "1MiB"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "sources: source `endless`: the response body is larger than the 1 MiB limit (raise it with `--max-body`)\n"
    );
    let run = try_entry(&config, &["endless"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "sources: source `endless`: the response body is larger than the 64 MiB limit (raise it with `--max-body`)\n"
    );
}

#[test]
fn a_dripping_body_times_out_as_a_whole() {
    let port = server(2, |mut stream| {
        read_head(&stream);
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[";
        if stream.write_all(head.as_bytes()).is_ok() {
            write_forever(stream, b" ", Duration::from_millis(50));
        }
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let config = config(
        &dir,
        &format!(
            "data:\n  sources:\n    drip:\n      type: http\n      url: http://127.0.0.1:{port}/\n      timeout: 1s\n"
        ),
    );
    let run = try_entry(&config, &["drip"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "sources: source `drip`: timed out after 1s (`timeout` of `drip` at {}:6:7: raise it there)\n",
            config.display()
        )
    );
}

#[test]
fn a_next_link_to_the_same_page_stops_the_walk_naming_the_page() {
    let port = server(50, |mut stream| {
        read_head(&stream);
        let body = r#"{"next": "/events?page=1", "results": [{"n": 1}]}"#;
        let reply = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(reply.as_bytes());
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let config = config(
        &dir,
        &format!(
            "data:\n  sources:\n    pages:\n      type: http\n      url: http://127.0.0.1:{port}/events?page=1\n      root: results\n      paginate:\n        strategy: link\n        next_path: next\n        max_pages: 100000\n"
        ),
    );
    let run = try_entry(&config, &["pages"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "sources: source `pages`: page 2 links back to http://127.0.0.1:{port}/events?page=1, already fetched as page 1: the walk would never end (check the server's next link at `next_path`)\n"
        )
    );
}

/// A websocket server that sends `frame(n)` for n = 0, 1, … until the client leaves, `count`
/// frames are sent, or the server's lifetime is over.
fn websocket_server(count: usize, frame: fn(usize) -> String) -> u16 {
    server(1, move |stream| {
        let Ok(mut socket) = tungstenite::accept(stream) else {
            return;
        };
        let started = Instant::now();
        for n in 0..count {
            if started.elapsed() > SERVER_LIFETIME || socket.send(Message::text(frame(n))).is_err()
            {
                return;
            }
        }
        let _ = socket.close(None);
        let _ = socket.flush();
    })
}

fn websocket_config(dir: &tempfile::TempDir, port: u16) -> PathBuf {
    config(
        dir,
        &format!(
            "data:\n  sources:\n    feed:\n      type: websocket\n      url: ws://127.0.0.1:{port}/\n      follow: true\n"
        ),
    )
}

#[test]
fn for_is_a_hard_deadline_while_a_websocket_floods() {
    let port = websocket_server(usize::MAX, |n| format!("{{\"n\":{n}}}"));
    let dir = tempfile::tempdir().expect("tempdir");
    let config = websocket_config(&dir, port);
    // Read slowly, as a terminal does: the socket always has frames buffered.
    let run = try_entry_reading(&config, &["feed", "--for", "1s"], Duration::from_millis(20));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.took < Duration::from_secs(10),
        "--for 1s ran {:?}",
        run.took
    );
    let first = run.stdout.lines().next().unwrap_or_default();
    assert_eq!(first, r#"{"n":0}"#);
    assert!(run.stdout.lines().count() > 1);
}

#[test]
fn a_websocket_message_past_the_limit_ends_the_stream_with_an_error() {
    let port = websocket_server(2, |n| {
        if n == 0 {
            "{\"n\":0}".to_owned()
        } else {
            format!("\"{}\"", "x".repeat(2 << 20))
        }
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let config = websocket_config(&dir, port);
    let run = try_entry(&config, &["feed", "--max-body", "1MiB", "--for", "20s"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "{\"n\":0}\n{\"error\":\"source `feed`: a message is larger than the 1 MiB limit (raise it with `--max-body`)\"}\n"
    );
}

/// A websocket server that sends `frames`, then either closes or (with `hold`) keeps the
/// connection open, reading until the client leaves or the server's lifetime is over.
fn websocket_frames(frames: &'static [&'static str], hold: bool) -> u16 {
    server(1, move |stream| {
        let _ = stream.set_read_timeout(Some(SERVER_LIFETIME));
        let Ok(mut socket) = tungstenite::accept(stream) else {
            return;
        };
        for frame in frames {
            if socket.send(Message::text(*frame)).is_err() {
                return;
            }
        }
        if hold {
            let started = Instant::now();
            while started.elapsed() < SERVER_LIFETIME && socket.read().is_ok() {}
        } else {
            let _ = socket.close(None);
            let _ = socket.flush();
        }
    })
}

/// A `merge` and a `union` of the websocket on `port` and a static child: they poll, so `try`
/// reads the stream for a snapshot.
fn stream_and_snapshot_config(dir: &tempfile::TempDir, port: u16) -> PathBuf {
    config(
        dir,
        &format!(
            "data:\n  sources:\n    feed:\n      type: websocket\n      url: ws://127.0.0.1:{port}/\n    fixed:\n      type: static\n      data: [{{n: 100}}]\n    both:\n      type: merge\n      sources: [feed, fixed]\n      tag_field: from\n    positive:\n      type: union\n      sources: [fixed, feed]\n      pipe:\n        - type: filter\n          where: n > 0\n"
        ),
    )
}

#[test]
fn a_merge_of_a_stream_and_a_snapshot_reads_the_stream_until_it_ends() {
    let port = websocket_frames(&[r#"{"n":0}"#, r#"{"n":1}"#, r#"{"n":2}"#], false);
    let dir = tempfile::tempdir().expect("tempdir");
    let config = stream_and_snapshot_config(&dir, port);
    let run = try_entry(&config, &["both", "--verbose"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(
        rows,
        serde_json::json!([
            {"n": 0, "_meta": {"from": "feed"}},
            {"n": 1, "_meta": {"from": "feed"}},
            {"n": 2, "_meta": {"from": "feed"}},
            {"n": 100, "_meta": {"from": "fixed"}}
        ])
    );
    assert!(
        run.stderr
            .contains("`feed` streams: its snapshot is the first 3 events (the stream ended)"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_union_of_a_stream_and_a_snapshot_reads_the_stream_for_the_window() {
    let port = websocket_frames(&[r#"{"n":0}"#, r#"{"n":1}"#], true);
    let dir = tempfile::tempdir().expect("tempdir");
    let config = stream_and_snapshot_config(&dir, port);
    let run = try_entry(&config, &["positive", "--for", "500ms", "--verbose"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "[{\"n\":100},{\"n\":1}]\n", "{}", run.stderr);
    assert!(
        run.stderr
            .contains("`feed` streams: its snapshot is the first 2 events (read for 500ms)"),
        "{}",
        run.stderr
    );
    assert!(run.took < RUN_BOUND);
}

#[test]
fn a_stream_snapshot_stops_at_limit_events() {
    let port = websocket_frames(
        &[r#"{"n":1}"#, r#"{"n":2}"#, r#"{"n":3}"#, r#"{"n":4}"#],
        true,
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let config = stream_and_snapshot_config(&dir, port);
    let run = try_entry(
        &config,
        &["positive", "--limit", "3", "--for", "20s", "--verbose"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.took < Duration::from_secs(10),
        "--limit did not stop the read: {:?}",
        run.took
    );
    assert!(
        run.stderr
            .contains("`feed` streams: its snapshot is the first 3 events (--limit 3)"),
        "{}",
        run.stderr
    );
    // The list is [100, 1, 2, 3]; `--limit` also prints at most 3 rows of it.
    assert_eq!(run.stdout, "[{\"n\":100},{\"n\":1},{\"n\":2}]\n");
}

#[test]
fn command_output_and_files_past_the_limit_fail_naming_the_entry() {
    let dir = tempfile::tempdir().expect("tempdir");
    let big = dir.path().join("big.json");
    std::fs::write(&big, format!("\"{}\"", "x".repeat(2 << 20))).expect("write");
    let config = config(
        &dir,
        &format!(
            "data:\n  sources:\n    endless_output:\n      type: exec\n      command: [yes]\n      format: text\n      timeout: 25s\n    big_file:\n      type: file\n      path: {}\n    long_line:\n      type: exec\n      command: [sh, -c, \"head -c 3000000 /dev/zero | tr '\\\\0' x\"]\n      format: text\n      follow: true\n",
            big.display()
        ),
    );
    let run = try_entry(&config, &["endless_output", "--max-body", "1MiB"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "sources: source `endless_output`: the output of `yes` is larger than the 1 MiB limit (raise it with `--max-body`)\n"
    );
    let run = try_entry(&config, &["big_file", "--max-body", "1MiB"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "sources: source `big_file`: the file `{}` is larger than the 1 MiB limit (raise it with `--max-body`)\n",
            big.display()
        )
    );
    let run = try_entry(&config, &["long_line", "--max-body", "1MiB"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "{\"error\":\"source `long_line`: a line is larger than the 1 MiB limit (raise it with `--max-body`)\"}\n"
    );
    let run = try_entry(&config, &["big_file", "--max-body", "a lot"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("invalid value 'a lot' for '--max-body <SIZE>': unknown unit `a lot`"),
        "{}",
        run.stderr
    );
}
