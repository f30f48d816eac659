//! The load generator of `scripts/bench-demo`: keep-alive HTTP/1.1 load with 16 connections on a
//! loopback server, a fixed time per endpoint, the hello-world yardstick measured right before each
//! endpoint, and the ratio printed.
//!
//! ```text
//! cargo run --release -p demo-backend --example bench -- HELLO_ADDR DEMO_ADDR [SECONDS]
//! ```
//!
//! Both addresses must be loopback; every run stops after its seconds.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bytes::Bytes;
use http_body_util::{BodyExt, Empty};

const CONNECTIONS: usize = 16;
const ENDPOINTS: [(&str, &str); 4] = [
    ("apps page", "/apps?limit=100"),
    (
        "job events",
        "/api/v2/jobs/1/job_events/?order_by=counter&page_size=50",
    ),
    (
        "_search",
        "/logs-app/_search?size=10&sort=@timestamp:desc,_shard_doc:desc",
    ),
    ("apps search+sort", "/apps?q=pay&limit=50&sort=-name"),
];

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let hello: SocketAddr = args.next().context("HELLO_ADDR")?.parse()?;
    let demo: SocketAddr = args.next().context("DEMO_ADDR")?.parse()?;
    let seconds: u64 = args.next().map_or(Ok(3), |s| s.parse())?;
    if !hello.ip().is_loopback() || !demo.ip().is_loopback() {
        bail!("both addresses must be loopback");
    }
    let run = Duration::from_secs(seconds.clamp(1, 30));
    println!(
        "{:<18} {:>12} {:>12} {:>7}",
        "endpoint", "hello req/s", "demo req/s", "ratio"
    );
    for (name, path) in ENDPOINTS {
        let yardstick = load(hello, "/", run).await?;
        let rate = load(demo, path, run).await?;
        println!(
            "{name:<18} {yardstick:>12.0} {rate:>12.0} {:>7.2}",
            rate / yardstick
        );
    }
    Ok(())
}

/// Requests per second over `run` with [`CONNECTIONS`] keep-alive connections.
async fn load(addr: SocketAddr, path: &'static str, run: Duration) -> anyhow::Result<f64> {
    let deadline = Instant::now() + run;
    let mut tasks = Vec::new();
    for _ in 0..CONNECTIONS {
        tasks.push(tokio::spawn(async move {
            let stream = tokio::net::TcpStream::connect(addr).await?;
            stream.set_nodelay(true)?;
            let (mut sender, connection) =
                hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream)).await?;
            tokio::spawn(connection);
            let mut done = 0_u64;
            while Instant::now() < deadline {
                let request = http::Request::get(path)
                    .header("host", addr.to_string())
                    .body(Empty::<Bytes>::new())?;
                let response = sender.send_request(request).await?;
                if !response.status().is_success() {
                    bail!("{path} answered {}", response.status());
                }
                response.into_body().collect().await?;
                done += 1;
            }
            anyhow::Ok(done)
        }));
    }
    let mut total = 0;
    for task in tasks {
        total += task.await??;
    }
    Ok(total as f64 / run.as_secs_f64())
}
