//! The real program against hostile clients: slowloris connections, idle keep-alive connections,
//! a connection flood over the cap, oversized request targets and headers, absurd waits. Every
//! loop is bounded in count and time; the only real-time waits are the server's own (short,
//! configured) timeouts.
#![allow(clippy::unwrap_used, missing_docs)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sources_testkit::process::{free_port, wait_for_file};

const BINARY: &str = env!("CARGO_BIN_EXE_demo-backend");

struct Server {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start(name: &str, args: &[&str]) -> Server {
    let port = free_port();
    let dir = std::env::temp_dir().join(format!("demo-hardening-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("pid");
    let mut child = Command::new(BINARY)
        .args([
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--apps",
            "40",
            "--pidfile",
        ])
        .arg(&pidfile)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_file(&pidfile, &mut child);
    Server { child, port, dir }
}

fn connect(server: &Server) -> TcpStream {
    let stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream
}

/// Sends `request` on a new connection and reads the whole answer (the request says close).
fn exchange(server: &Server, request: &[u8]) -> (u16, String) {
    let mut stream = connect(server);
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .get(9..12)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_owned();
    (status, body)
}

fn get(server: &Server, target: &str) -> (u16, String) {
    exchange(
        server,
        format!(
            "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            server.port
        )
        .as_bytes(),
    )
}

/// Waits (bounded by the read timeout) until the server closes `stream`; returns how long it took.
fn closed_within(mut stream: TcpStream) -> Duration {
    let started = Instant::now();
    let mut buffer = [0_u8; 1024];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return started.elapsed(),
            Ok(_) => continue,
            Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => {
                return started.elapsed();
            }
            Err(error) => panic!("the server kept the connection open: {error}"),
        }
    }
}

#[test]
fn slowloris_connections_are_capped_and_timed_out() {
    let server = start(
        "slowloris",
        &["--header-timeout", "300ms", "--max-connections", "4"],
    );
    let slow: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut stream = connect(&server);
            stream
                .write_all(b"GET /apps HTTP/1.1\r\nHost: x\r\n")
                .unwrap();
            stream
        })
        .collect();
    let (status, body) = get(&server, "/apps?limit=1");
    assert_eq!(status, 503, "{body}");
    assert_eq!(
        body,
        r#"{"error":"too many connections: the server holds at most 4 at once; try again"}"#
    );
    for stream in slow {
        let waited = closed_within(stream);
        assert!(waited < Duration::from_secs(4), "closed after {waited:?}");
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (status, body) = get(&server, "/apps?limit=0");
        if status == 200 {
            assert_eq!(body, r#"{"total":40,"offset":0,"rows":[]}"#);
            break;
        }
        assert!(Instant::now() < deadline, "still refused: {status} {body}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_idle_keep_alive_connection_is_closed() {
    let server = start("idle", &["--header-timeout", "300ms"]);
    let mut stream = connect(&server);
    stream
        .write_all(
            format!(
                "GET /apps?limit=0 HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
                server.port
            )
            .as_bytes(),
        )
        .unwrap();
    let mut buffer = [0_u8; 4096];
    let read = stream.read(&mut buffer).unwrap();
    assert!(String::from_utf8_lossy(&buffer[..read]).starts_with("HTTP/1.1 200"));
    let waited = closed_within(stream);
    assert!(waited < Duration::from_secs(4), "closed after {waited:?}");
}

#[test]
fn oversized_requests_and_absurd_waits_get_json_errors() {
    let server = start("oversized", &[]);
    let long = format!("/apps?q={}", "a".repeat(9_000));
    let (status, body) = get(&server, &long);
    assert_eq!(status, 414);
    assert_eq!(
        body,
        r#"{"error":"the request target is 9008 bytes; the limit is 8192"}"#
    );
    let big_header = format!(
        "GET /apps HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nX-Big: {}\r\n\r\n",
        server.port,
        "b".repeat(20_000)
    );
    let (status, body) = exchange(&server, big_header.as_bytes());
    assert_eq!(status, 431);
    assert!(
        body.starts_with(r#"{"error":"the request headers are "#)
            && body.ends_with(r#" bytes; the limit is 16384"}"#),
        "{body}"
    );
    let (status, body) = get(&server, "/apps?latency=1000h");
    assert_eq!(status, 400);
    assert_eq!(
        body,
        r#"{"error":"parameter latency: 1000h is longer than the maximum, 60s"}"#
    );
    let (status, body) = get(&server, "/apps/app-0001?refresh=normal&takes=1000h");
    assert_eq!(status, 400);
    assert_eq!(
        body,
        r#"{"error":"parameter takes: 1000h is longer than the maximum, 60s"}"#
    );
}

/// The answer to a request hyper cannot parse.
const NOT_HTTP: &str = r#"{"error":"the request is not valid HTTP/1.1: its request line or a header could not be parsed; send `METHOD /path HTTP/1.1`, then `Name: value` header lines with a token name and a value without control characters"}"#;

#[test]
fn requests_hyper_cannot_parse_get_the_json_error_body() {
    let server = start("malformed", &[]);
    for request in [
        &b"GE T /apps HTTP/1.1\r\nHost: x\r\n\r\n"[..],
        b"GET /apps HTTP/9.9\r\nHost: x\r\n\r\n",
        b"GET /apps HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n",
        b"GET /apps HTTP/1.1\r\nHost: x\r\nX-Control: a\x01b\r\n\r\n",
    ] {
        let (status, body) = exchange(&server, request);
        assert_eq!(
            (status, body.as_str()),
            (400, NOT_HTTP),
            "{}",
            String::from_utf8_lossy(request)
        );
    }
    let (status, body) = get(&server, &format!("/apps?q={}", "a".repeat(70_000)));
    assert_eq!(status, 414);
    assert_eq!(
        body,
        r#"{"error":"the request target is over 65534 bytes; the limit is 8192"}"#
    );
    let many: String = (0..101).map(|n| format!("X-{n}: y\r\n")).collect();
    let (status, body) = exchange(
        &server,
        format!("GET /apps HTTP/1.1\r\nHost: x\r\n{many}\r\n").as_bytes(),
    );
    assert_eq!(status, 431);
    assert_eq!(
        body,
        r#"{"error":"the request head is over 262144 bytes or has over 100 header fields; the limit for the headers is 16384 bytes"}"#
    );
}

#[test]
fn a_malformed_request_after_a_good_one_on_the_same_connection_gets_both_answers() {
    let server = start("pipelined", &[]);
    let mut stream = connect(&server);
    stream
        .write_all(format!("GET /apps?limit=0 HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\nGET /apps HTTP/1.1\r\nBad Name: y\r\n\r\n", server.port).as_bytes())
        .unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8_lossy(&answer);
    let (first, second) = text
        .split_once(r#"{"total":40,"offset":0,"rows":[]}"#)
        .unwrap_or_else(|| panic!("no first answer in {text:?}"));
    assert!(first.starts_with("HTTP/1.1 200 OK\r\n"), "{text:?}");
    assert!(
        second.starts_with("HTTP/1.1 400 Bad Request\r\n"),
        "{text:?}"
    );
    assert!(
        second.contains("\r\ncontent-type: application/json\r\n"),
        "{text:?}"
    );
    assert!(
        second.contains(&format!("\r\ncontent-length: {}\r\n", NOT_HTTP.len())),
        "{text:?}"
    );
    assert!(second.ends_with(&format!("\r\n\r\n{NOT_HTTP}")), "{text:?}");
}

#[test]
fn other_host_names_and_cross_origin_posts_are_refused() {
    let server = start("rebinding", &[]);
    let port = server.port;
    let request = |method: &str, target: &str, host: &str, origin: Option<&str>| {
        let origin = origin.map_or(String::new(), |origin| format!("Origin: {origin}\r\n"));
        exchange(
            &server,
            format!(
                "{method} {target} HTTP/1.1\r\nHost: {host}\r\n{origin}Content-Length: 0\r\nConnection: close\r\n\r\n"
            )
            .as_bytes(),
        )
    };
    let local = format!("127.0.0.1:{port}");
    let rebound = request(
        "GET",
        "/apps?limit=0",
        &format!("attacker.example:{port}"),
        None,
    );
    assert_eq!(
        rebound,
        (
            403,
            format!(
                r#"{{"error":"this server does not answer the host name \"attacker.example:{port}\" (a guard against DNS rebinding); use http://127.0.0.1:{port}, http://localhost:{port} or the address given with --addr"}}"#
            )
        )
    );
    let cross = request(
        "POST",
        "/apps/app-0001/sync?quick=1",
        &local,
        Some("https://attacker.example"),
    );
    assert_eq!(
        cross,
        (
            403,
            format!(
                r#"{{"error":"refusing a cross-origin POST from \"https://attacker.example\": only pages served by this server may change its world; send the request without an Origin header or from http://127.0.0.1:{port}"}}"#
            )
        )
    );
    for host in [
        local.clone(),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(
            request("GET", "/apps?limit=0", &host, None).0,
            200,
            "{host}"
        );
    }
    let same = request(
        "POST",
        "/apps/app-0002/sync?quick=1",
        &local,
        Some(&format!("http://localhost:{port}")),
    );
    assert_eq!(same.0, 202, "{}", same.1);
    assert_eq!(
        request("POST", "/apps/app-0003/sync?quick=1", &local, None).0,
        202
    );
}
