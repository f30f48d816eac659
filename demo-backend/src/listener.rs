//! Accepting connections with limits: a cap on open connections, a header-read timeout that also
//! closes idle keep-alive connections, graceful shutdown, the `Host`/`Origin` guard ([`HostGuard`])
//! before the router, and the JSON error body on the answers hyper gives by itself (`parse_errors`). Hostile clients (slowloris) cannot hold the server's
//! connections for long.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

use crate::hosts::HostGuard;
use crate::parse_errors::{JsonParseErrors, MAX_HEAD_BYTES};

/// The connection limits of the standalone server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How long a client may take to send a request's headers; it also bounds how long an idle
    /// keep-alive connection waits for its next request. Then the connection is closed.
    pub header_timeout: Duration,
    /// Connections open at once; one more is answered `503` with a JSON error body and closed.
    pub max_connections: usize,
}

/// The default header-read (and idle) timeout.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The default cap on open connections.
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// How long a refused connection is given to take its `503`.
const REFUSAL_WRITE: Duration = Duration::from_secs(1);

/// Serves `router` on `listener` within `limits`, answering only requests `guard` lets through,
/// until `stop` turns true, then lets open requests finish for at most `grace`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    guard: HostGuard,
    mut stop: watch::Receiver<bool>,
    grace: Duration,
) -> std::io::Result<()> {
    let slots = limits.max_connections.max(1);
    let open = Arc::new(Semaphore::new(slots));
    let guard = Arc::new(guard);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stopped(&mut stop) => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            // Out of file descriptors and the like: try again rather than stop serving.
            Err(_) => continue,
        };
        let _ = stream.set_nodelay(true);
        match open.clone().try_acquire_owned() {
            Ok(permit) => {
                let router = router.clone();
                let stop = stop.clone();
                let guard = guard.clone();
                tokio::spawn(async move {
                    connection(stream, router, limits, guard, stop).await;
                    drop(permit);
                });
            }
            Err(_) => {
                tokio::spawn(refuse(stream, slots));
            }
        }
    }
    // Wait (boundedly) until every connection has closed.
    let _ = tokio::time::timeout(grace, open.acquire_many(slots as u32)).await;
    Ok(())
}

async fn connection(
    stream: TcpStream,
    router: Router,
    limits: Limits,
    guard: Arc<HostGuard>,
    mut stop: watch::Receiver<bool>,
) {
    let local = stream.local_addr().ok();
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let router = router.clone();
        let checked = guard.check(request.method(), request.headers(), local);
        async move {
            if let Err(refusal) = checked {
                return Ok::<_, Infallible>(axum::response::IntoResponse::into_response(refusal));
            }
            let response = router.oneshot(request.map(Body::new)).await;
            Ok::<_, Infallible>(match response {
                Ok(response) => response,
                Err(never) => match never {},
            })
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        // One flat write buffer, which `JsonParseErrors` needs to see hyper's own answers whole.
        .writev(false);
    let io = JsonParseErrors::new(TokioIo::new(stream));
    let connection = builder.serve_connection(io, service);
    let mut connection = std::pin::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => {}
        () = stopped(&mut stop) => {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
}

/// Resolves once `stop` is true; never if its sender is gone without saying so.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    while !*stop.borrow_and_update() {
        if stop.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Answers a connection over the cap with `503` and a JSON error body, then closes it.
async fn refuse(mut stream: TcpStream, slots: usize) {
    let body = serde_json::json!({
        "error": format!("too many connections: the server holds at most {slots} at once; try again")
    })
    .to_string();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSAL_WRITE, async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
}
