//! A short, bounded load run: `CONCURRENCY` tasks send `REQUESTS` requests in all to a demo server
//! on a loopback port and print the throughput and latency percentiles.
//!
//! ```text
//! cargo run --release -p demo-backend --example load [REQUESTS] [CONCURRENCY]
//! ```
//!
//! With `SOURCES_DEMO_API` set to a loopback URL it loads that server; otherwise it serves a
//! default world (5,000 apps, seed 42) on a free loopback port itself. It refuses any other address
//! and stops after the requests or 60 seconds, whichever comes first.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use demo_backend::{Client, DEMO_API_ENV, Options};

const PATHS: [&str; 4] = [
    "/apps?q=api%20region:eu&sort=name&limit=100",
    "/apps?sort=-rev&limit=50&offset=200",
    "/apps/facets?field=region",
    "/apps/app-0042",
];

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let requests: usize = args
        .next()
        .map_or(Ok(2_000), |a| a.parse())
        .context("REQUESTS must be a number")?;
    let concurrency: usize = args
        .next()
        .map_or(Ok(4), |a| a.parse())
        .context("CONCURRENCY must be a number")?;
    let base = match std::env::var(DEMO_API_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty())
    {
        Some(base) => {
            let uri: http::Uri = base
                .parse()
                .with_context(|| format!("{DEMO_API_ENV}={base} is not a URL"))?;
            let host = uri
                .host()
                .unwrap_or("")
                .trim_start_matches('[')
                .trim_end_matches(']');
            let loopback = host == "localhost"
                || host
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback());
            if !loopback {
                bail!(
                    "{DEMO_API_ENV}={base} is not a loopback address; this load run only targets this machine"
                );
            }
            base
        }
        None => {
            let (router, _) = demo_backend::app(Options {
                seed: 42,
                ..Options::default()
            });
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let address = listener.local_addr()?;
            tokio::spawn(async move { axum::serve(listener, router).await });
            format!("http://{address}")
        }
    };
    let client = Client::network(&base)?;
    let deadline = Instant::now() + Duration::from_secs(60);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for worker in 0..concurrency.max(1) {
        let client = client.clone();
        let share =
            requests / concurrency.max(1) + usize::from(worker < requests % concurrency.max(1));
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(share);
            for n in 0..share {
                if Instant::now() > deadline {
                    break;
                }
                let begun = Instant::now();
                let response = client.get(PATHS[(worker + n) % PATHS.len()]).await?;
                let status = response.status();
                response.into_body().bytes().await?;
                if !status.is_success() {
                    bail!("unexpected status {status}");
                }
                latencies.push(begun.elapsed());
            }
            Ok::<_, anyhow::Error>(latencies)
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await??);
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let percentile = |p: usize| {
        latencies.get((latencies.len() * p / 100).min(latencies.len().saturating_sub(1)))
    };
    println!(
        "{} requests, {} concurrent, in {:.2?}: {:.0} req/s; p50 {:?}, p99 {:?}",
        latencies.len(),
        concurrency,
        elapsed,
        latencies.len() as f64 / elapsed.as_secs_f64(),
        percentile(50).copied().unwrap_or_default(),
        percentile(99).copied().unwrap_or_default(),
    );
    Ok(())
}
