//! Configured headers stay with the origin the configuration names: two servers on 127.0.0.1 (two
//! ports, two origins), the first sending `sources try` to the second by a redirect or a
//! `paginate` next link, and what the second received is checked. Every server takes a bounded
//! number of connections and reads a bounded head; every run is bounded by the binary's timeout.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

use sources_testkit::process::{command, outcome};

/// The value of `KEY` in the environment of the runs: it must reach the first server only.
const SECRET: &str = "sekrit-4711";

/// A server answering up to `connections` requests with `answer(port of the request's head)`,
/// keeping every request head (lower-cased) it read.
struct Recorder {
    port: u16,
    heads: Arc<Mutex<Vec<String>>>,
}

impl Recorder {
    fn start(
        connections: usize,
        answer: impl Fn(&str) -> String + Send + Sync + 'static,
    ) -> Recorder {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().expect("address").port();
        let heads = Arc::new(Mutex::new(Vec::new()));
        let kept = heads.clone();
        thread::spawn(move || {
            for stream in listener.incoming().take(connections) {
                let Ok(mut stream) = stream else { return };
                let head = read_head(&stream);
                let reply = answer(&head);
                kept.lock().expect("heads").push(head.to_ascii_lowercase());
                let _ = stream.write_all(reply.as_bytes());
            }
        });
        Recorder { port, heads }
    }

    fn heads(&self) -> Vec<String> {
        self.heads.lock().expect("heads").clone()
    }
}

/// A request's head (at most 100 lines), its lines joined with `\n`.
fn read_head(stream: &TcpStream) -> String {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut lines = Vec::new();
    for _ in 0..100 {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" => break,
            Ok(_) => lines.push(line.trim_end().to_owned()),
        }
    }
    lines.join("\n")
}

fn json(body: &str) -> String {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

fn try_verbose(config: &str, entry: &str) -> (i32, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sources.yaml");
    std::fs::write(&path, config).expect("write");
    outcome(
        command(
            env!("CARGO_BIN_EXE_sources"),
            &["try", entry, "--verbose", "-c"],
        )
        .arg(&path)
        .env("KEY", SECRET),
    )
}

/// What a request to another origin must not carry.
fn assert_bare(head: &str) {
    for leaked in [
        "x-api-key",
        "authorization",
        "private-token",
        "referer",
        SECRET,
    ] {
        assert!(
            !head.contains(leaked),
            "`{leaked}` reached another origin:\n{head}"
        );
    }
}

const HEADERS: &str = "      headers:\n        X-Api-Key: ${env.KEY}\n        Authorization: Bearer ${env.KEY}\n        PRIVATE-TOKEN: ${env.KEY}\n";

#[test]
fn a_redirect_to_another_origin_is_followed_without_the_configured_headers() {
    let other = Recorder::start(1, |_| json(r#"[{"landed": true}]"#));
    let landing = format!("http://127.0.0.1:{}/land", other.port);
    let configured = Recorder::start(1, move |_| {
        format!(
            "HTTP/1.1 302 Found\r\nLocation: {landing}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
    });
    let config = format!(
        "data:\n  sources:\n    moved:\n      type: http\n      url: http://127.0.0.1:{}/start?api_key=${{env.KEY}}\n{HEADERS}",
        configured.port
    );
    let (code, stdout, stderr) = try_verbose(&config, "moved");
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("landed"), "{stdout}");
    let first = configured.heads();
    assert!(
        first[0].contains(&format!("x-api-key: {SECRET}")),
        "{first:?}"
    );
    let second = other.heads();
    assert_eq!(second.len(), 1, "{second:?}");
    assert!(second[0].starts_with("get /land "), "{second:?}");
    assert_bare(&second[0]);
    assert!(
        stderr.contains(&format!(
            "  ↪ 302 to http://127.0.0.1:{}/land (another origin: none of the configured headers sent)\n",
            other.port
        )),
        "{stderr}"
    );
}

#[test]
fn a_next_link_to_another_origin_gets_none_of_the_configured_headers() {
    let other = Recorder::start(1, |_| json(r#"{"next": null, "results": [2]}"#));
    let next = format!("http://127.0.0.1:{}/page2", other.port);
    let configured = Recorder::start(1, move |_| {
        json(&format!(r#"{{"next": "{next}", "results": [1]}}"#))
    });
    let config = format!(
        "data:\n  sources:\n    pages:\n      type: http\n      url: http://127.0.0.1:{}/page1\n      root: results\n      paginate:\n        strategy: link\n        next_path: next\n{HEADERS}",
        configured.port
    );
    let (code, stdout, stderr) = try_verbose(&config, "pages");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim(), "[1,2]", "{stdout}");
    assert!(configured.heads()[0].contains("authorization: bearer"));
    let second = other.heads();
    assert_eq!(second.len(), 1, "{second:?}");
    assert_bare(&second[0]);
    assert!(
        stderr.contains("  page 2 is on another origin: none of the configured headers sent\n"),
        "{stderr}"
    );
}

#[test]
fn a_redirect_on_the_same_origin_keeps_the_headers_and_sends_no_referer() {
    let server = Recorder::start(2, |head| {
        if head.starts_with("GET /start") {
            "HTTP/1.1 307 Temporary Redirect\r\nLocation: /again\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned()
        } else {
            json("[1]")
        }
    });
    let config = format!(
        "data:\n  sources:\n    moved:\n      type: http\n      url: http://127.0.0.1:{}/start?api_key=${{env.KEY}}\n{HEADERS}",
        server.port
    );
    let (code, _, stderr) = try_verbose(&config, "moved");
    assert_eq!(code, 0, "{stderr}");
    let heads = server.heads();
    assert_eq!(heads.len(), 2, "{heads:?}");
    assert!(heads[1].starts_with("get /again "), "{heads:?}");
    assert!(
        heads[1].contains(&format!("x-api-key: {SECRET}")),
        "{heads:?}"
    );
    assert!(!heads[1].contains("referer"), "{heads:?}");
}
