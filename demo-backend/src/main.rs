//! The `demo-backend` program: the demo service listening on a local address.
//!
//! **A test and demo fixture. Never deploy it.**

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Parser;
use demo_backend::Options;
use demo_backend::duration::parse_duration;

/// How long open requests (held refreshes, log streams) may take to finish after a signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// A test and demo HTTP fixture whose applications-and-jobs world moves on the clock.
///
/// THIS IS A FIXTURE: IT HAS NO AUTHENTICATION AND MUST NEVER BE DEPLOYED AS A REAL SERVICE.
/// It listens on a loopback address unless --public is given.
#[derive(Debug, Parser)]
#[command(name = "demo-backend", version, about, long_about)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8099")]
    addr: SocketAddr,
    /// How often the world starts work nobody asked for (Go-style duration such as 6s or 500ms; 0
    /// means the default, 6s).
    #[arg(long, value_parser = parse_go_duration, default_value = "6s")]
    schedule: Duration,
    /// Write the process id to this file (atomically) once listening; removed on SIGINT/SIGTERM.
    #[arg(long)]
    pidfile: Option<PathBuf>,
    /// Seed of the generated world (0 seeds from the clock).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of applications (0 means the default, 5000).
    #[arg(long, default_value_t = 0)]
    apps: usize,
    /// Floor added to every request before any per-request latency (Go-style duration).
    #[arg(long, value_parser = parse_go_duration, default_value = "0")]
    latency: Duration,
    /// Allow a non-loopback --addr. The service has no authentication: never expose it.
    #[arg(long)]
    public: bool,
}

fn parse_go_duration(text: &str) -> Result<Duration, String> {
    parse_duration(text).map_err(|error| error.to_string())
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("demo-backend: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> anyhow::Result<()> {
    if !args.addr.ip().is_loopback() && !args.public {
        bail!(
            "refusing to listen on {}: it is not a loopback address, and this test fixture has no \
             authentication and must never be deployed; pass --public to listen there anyway",
            args.addr
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(serve(args))
}

async fn serve(args: Args) -> anyhow::Result<()> {
    let options = Options {
        seed: args.seed,
        apps: args.apps,
        latency: args.latency,
        schedule: args.schedule,
        now: None,
    };
    let (router, handle) = demo_backend::app(options);
    let signals = Signals::install()?;
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .with_context(|| format!("cannot listen on {}", args.addr))?;
    let local = listener
        .local_addr()
        .context("reading the listening address")?;
    if let Some(path) = &args.pidfile {
        write_pidfile(path)?;
    }
    eprintln!(
        "demo-backend (a test fixture; never deploy it) listening on http://{local} with seed {}",
        handle.context().seed
    );
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let server = axum::serve(listener, router).with_graceful_shutdown({
        let mut stop_rx = stop_rx.clone();
        async move {
            let _ = stop_rx.wait_for(|stop| *stop).await;
        }
    });
    let mut server = std::pin::pin!(server.into_future());
    let outcome = tokio::select! {
        result = &mut server => result.context("serving"),
        signal = signals.received() => {
            let _ = stop_tx.send(true);
            eprintln!("demo-backend: {signal} received, shutting down");
            match tokio::time::timeout(SHUTDOWN_GRACE, &mut server).await {
                Ok(result) => result.context("serving"),
                Err(_) => Ok(()),
            }
        }
    };
    if let Some(path) = &args.pidfile {
        std::fs::remove_file(path)
            .with_context(|| format!("removing the pidfile {}", path.display()))?;
    }
    outcome
}

/// SIGINT and SIGTERM handlers, installed before the pidfile is written so that a signal sent as
/// soon as the pidfile appears is handled.
struct Signals {
    interrupt: tokio::signal::unix::Signal,
    terminate: tokio::signal::unix::Signal,
}

impl Signals {
    fn install() -> anyhow::Result<Signals> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Signals {
            interrupt: signal(SignalKind::interrupt()).context("listening for SIGINT")?,
            terminate: signal(SignalKind::terminate()).context("listening for SIGTERM")?,
        })
    }

    /// The name of the first signal received.
    async fn received(mut self) -> &'static str {
        tokio::select! {
            _ = self.interrupt.recv() => "SIGINT",
            _ = self.terminate.recv() => "SIGTERM",
        }
    }
}

/// Writes the process id to a temporary file beside `path`, then renames it into place, so a
/// reader never sees a partial file.
fn write_pidfile(path: &Path) -> anyhow::Result<()> {
    let file_name = path
        .file_name()
        .with_context(|| format!("the pidfile {} has no file name", path.display()))?;
    let mut temporary_name = file_name.to_os_string();
    temporary_name.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary_name);
    std::fs::write(&temporary, format!("{}\n", std::process::id()))
        .with_context(|| format!("writing {}", temporary.display()))?;
    std::fs::rename(&temporary, path)
        .with_context(|| format!("moving the pidfile into place at {}", path.display()))
}
