//! The load generator of `scripts/bench-demo`: keep-alive HTTP/1.1 load with 16 connections on a
//! loopback server, a fixed time per endpoint, the hello-world yardstick measured right before each
//! endpoint, and the ratio printed. Most endpoints repeat one URL (which the demo may answer from
//! its cache of whole answers); `apps distinct` sends a different `GET /apps` query each time (a
//! search word, a sort column and direction, an offset and a limit).
//!
//! ```text
//! cargo run --release -p demo-backend --example bench -- HELLO_ADDR DEMO_ADDR [SECONDS]
//! ```
//!
//! Both addresses must be loopback; every run stops after its seconds.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bytes::Bytes;
use http_body_util::{BodyExt, Empty};

const CONNECTIONS: usize = 16;
const ENDPOINTS: [(&str, Target); 5] = [
    ("apps page", Target::Repeated("/apps?limit=100")),
    (
        "job events",
        Target::Repeated("/api/v2/jobs/1/job_events/?order_by=counter&page_size=50"),
    ),
    (
        "_search",
        Target::Repeated("/logs-app/_search?size=10&sort=@timestamp:desc,_shard_doc:desc"),
    ),
    (
        "apps search+sort",
        Target::Repeated("/apps?q=pay&limit=50&sort=-name"),
    ),
    ("apps distinct", Target::DistinctApps),
];

/// What each request of a load asks for.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// The same path every time (what a polling dashboard sends).
    Repeated(&'static str),
    /// A different `GET /apps` query every time (what users typing searches send).
    DistinctApps,
}

/// Words users search the app list for: parts of names, ids and regions, and words matching
/// nothing.
const WORDS: [&str; 16] = [
    "pay", "checkout", "api", "west", "ship", "web", "ledger", "eu", "cat", "worker", "app-01",
    "canary", "gate", "us-east", "media-st", "nothing",
];
/// Sort columns, ascending and descending.
const SORTS: [&str; 14] = [
    "id", "-id", "name", "-name", "region", "-region", "sync", "-sync", "health", "-health", "rev",
    "-rev", "phase", "-phase",
];

impl Target {
    /// The path of request number `n` of the run (every `n` gives a different query for
    /// [`Target::DistinctApps`]: its digits in a mixed radix pick the word, sort, offset and limit).
    fn path(self, n: u64) -> String {
        match self {
            Target::Repeated(path) => path.to_owned(),
            Target::DistinctApps => {
                let pick = |n: u64, len: usize| (n % len as u64) as usize;
                let word = WORDS[pick(n, WORDS.len())];
                let n = n / WORDS.len() as u64;
                let sort = SORTS[pick(n, SORTS.len())];
                let n = n / SORTS.len() as u64;
                let offset = n % 200;
                let limit = 10 + (n / 200) % 91;
                format!("/apps?q={word}&sort={sort}&offset={offset}&limit={limit}")
            }
        }
    }
}

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
    for (name, target) in ENDPOINTS {
        let yardstick = load(hello, Target::Repeated("/"), run).await?;
        let rate = load(demo, target, run).await?;
        println!(
            "{name:<18} {yardstick:>12.0} {rate:>12.0} {:>7.2}",
            rate / yardstick
        );
    }
    Ok(())
}

/// Requests per second over `run` with [`CONNECTIONS`] keep-alive connections.
async fn load(addr: SocketAddr, target: Target, run: Duration) -> anyhow::Result<f64> {
    let deadline = Instant::now() + run;
    let counter = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..CONNECTIONS {
        let counter = Arc::clone(&counter);
        tasks.push(tokio::spawn(async move {
            let stream = tokio::net::TcpStream::connect(addr).await?;
            stream.set_nodelay(true)?;
            let (mut sender, connection) =
                hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream)).await?;
            tokio::spawn(connection);
            let mut done = 0_u64;
            while Instant::now() < deadline {
                let path = target.path(counter.fetch_add(1, Ordering::Relaxed));
                let request = http::Request::get(&path)
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
