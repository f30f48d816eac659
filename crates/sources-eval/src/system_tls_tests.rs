//! "Never from https to http", through the real client over real TLS: a loopback https server
//! with a self-signed certificate (made by rcgen, trusted by this test's client only) sends the
//! request on to a plain http server on another port, by a redirect or by a `paginate` next link.
//! The run must fail naming both URLs, and the plain server must never see a connection. Each
//! server takes a bounded number of connections with read and write timeouts and reads a bounded
//! head; each run is bounded in time.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

use crate::engine::{Engine, EngineOptions};
use crate::io::{HttpRequest, Io};
use crate::system::SystemIo;
use crate::trace::Collect;

/// How long a server waits on one connection's reads and writes, and a run on its answer (a run
/// that followed to the plain server would wait there forever: it fails here instead).
const TIMEOUT: Duration = Duration::from_secs(10);

/// A loopback https server answering up to `connections` requests with `answer`, and the PEM of
/// the certificate a client must trust to reach it.
fn https_server(connections: usize, answer: String) -> (u16, String) {
    let certified = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()])
        .expect("a self-signed certificate");
    let pem = certified.cert.pem();
    let chain = vec![CertificateDer::from(certified.cert.der().to_vec())];
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(certified.key_pair.serialize_der()));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .expect("a server configuration");
    let config = Arc::new(config);
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let port = listener.local_addr().expect("address").port();
    thread::spawn(move || {
        for stream in listener.incoming().take(connections) {
            let Ok(stream) = stream else { return };
            let _ = stream.set_read_timeout(Some(TIMEOUT));
            let _ = stream.set_write_timeout(Some(TIMEOUT));
            let Ok(session) = rustls::ServerConnection::new(config.clone()) else {
                return;
            };
            let mut tls = rustls::StreamOwned::new(session, stream);
            read_head(&mut tls);
            let _ = tls.write_all(answer.as_bytes());
            let _ = tls.flush();
            tls.conn.send_close_notify();
            let _ = tls.flush();
        }
    });
    (port, pem)
}

/// Reads a request's head: at most 100 lines, up to the empty line.
fn read_head(stream: &mut impl std::io::Read) {
    let mut reader = BufReader::new(stream);
    for _ in 0..100 {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) if line == "\r\n" => return,
            Ok(_) => {}
        }
    }
}

/// A plain http listener that is never served: after a run, whether anything connected to it.
struct Plain(TcpListener);

impl Plain {
    fn new() -> Plain {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener.set_nonblocking(true).expect("non-blocking");
        Plain(listener)
    }

    fn port(&self) -> u16 {
        self.0.local_addr().expect("address").port()
    }

    /// Whether a connection is waiting (the run has ended, so one would already be queued).
    fn was_reached(&self) -> bool {
        match self.0.accept() {
            Ok((stream, _)) => {
                drop::<TcpStream>(stream);
                true
            }
            Err(error) if error.kind() == ErrorKind::WouldBlock => false,
            Err(error) => panic!("accept on the plain listener: {error}"),
        }
    }
}

fn client(pem: &str) -> SystemIo {
    let certificate = reqwest::Certificate::from_pem(pem.as_bytes()).expect("a PEM certificate");
    SystemIo::trusting(certificate).expect("a client")
}

#[tokio::test]
async fn a_redirect_from_https_to_http_is_refused_before_it_is_followed() {
    let plain = Plain::new();
    let target = format!("http://127.0.0.1:{}/apps", plain.port());
    let (port, pem) = https_server(
        1,
        format!(
            "HTTP/1.1 302 Found\r\nLocation: {target}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
    );
    let url = format!("https://127.0.0.1:{port}/apps");
    let request = HttpRequest {
        method: "GET".to_owned(),
        url: url.clone(),
        headers: vec![("X-Api-Key".to_owned(), "sekrit".to_owned())],
        body: None,
    };
    let io = client(&pem);
    let run = tokio::time::timeout(TIMEOUT, io.http(request));
    let error = match run
        .await
        .expect("the run ends before the plain server is reached")
    {
        Ok(response) => panic!("followed to status {}", response.status),
        Err(error) => error,
    };
    assert_eq!(
        error.to_string(),
        format!(
            "a redirect (302): refusing to go from {url} to {target}: it leaves https for plain http"
        )
    );
    assert!(!plain.was_reached(), "the plain http server was reached");
}

#[tokio::test]
async fn a_paginate_next_link_from_https_to_http_is_refused_before_it_is_fetched() {
    let plain = Plain::new();
    let next = format!("http://127.0.0.1:{}/page2", plain.port());
    let body = format!(r#"{{"results": [1], "next": "{next}"}}"#);
    let (port, pem) = https_server(
        1,
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    let text = format!(
        "data:\n  sources:\n    pages:\n      type: http\n      url: https://127.0.0.1:{port}/page1\n      root: results\n      paginate:\n        strategy: link\n        next_path: next\n"
    );
    let parse = sources_syntax::parse(&text, sources_syntax::Syntax::Yaml);
    let (config, diagnostics) = sources_config::decode(parse.root.expect("a document"));
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let engine = Engine::new(
        &config,
        Arc::new(client(&pem)),
        Arc::new(Collect::default()),
        EngineOptions::default(),
    );
    let bound = engine.bind("pages", &BTreeMap::new()).expect("bound");
    let run = tokio::time::timeout(TIMEOUT, engine.evaluate(&bound));
    let Err(error) = run
        .await
        .expect("the walk ends before the plain server is reached")
    else {
        panic!("the walk was not refused");
    };
    assert!(
        error.to_string().contains(&format!(
            "the next link of page 1: refusing to go from https://127.0.0.1:{port}/page1 to {next}: it leaves https for plain http"
        )),
        "{error}"
    );
    assert!(!plain.was_reached(), "the plain http server was reached");
}
