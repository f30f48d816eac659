//! The standalone server: command-line options, address resolution, the listener and shutdown.
//! Shared by the `demo-backend` program and `sources demo`.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::clock::{AnchoredClock, Clock, Millis};
use crate::duration::parse_duration;
use crate::hosts::HostGuard;
use crate::listener::{DEFAULT_MAX_CONNECTIONS, Limits};
use crate::options::{DEFAULT_SEED, Options, SEED_ENV, parse_seed};

/// How long open requests (held refreshes, log streams) may take to finish after a signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// The options of the standalone server, as `demo-backend` and `sources demo` take them.
///
/// THE SERVICE IS A FIXTURE: IT HAS NO AUTHENTICATION AND MUST NEVER BE DEPLOYED AS A REAL
/// SERVICE. It listens on a loopback address unless --public is given.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on: IP:PORT, `[IPv6]:PORT` or HOST:PORT such as localhost:8099.
    #[arg(
        long,
        default_value = "127.0.0.1:8099",
        help = "Address to listen on: IP:PORT, [IPv6]:PORT or HOST:PORT such as localhost:8099"
    )]
    pub addr: String,
    /// How often the world starts work nobody asked for (Go-style duration such as 6s or 500ms; 0
    /// means the default, 6s).
    #[arg(long, value_parser = parse_go_duration, default_value = "6s")]
    pub schedule: Duration,
    /// Write the process id to this file (atomically) once listening; removed on SIGINT/SIGTERM.
    #[arg(long)]
    pub pidfile: Option<PathBuf>,
    /// Seed of the generated world: a whole number, or 0 or `random` for a seed from the clock.
    #[arg(long, env = SEED_ENV, value_parser = parse_seed_arg, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Number of applications (0 means the default, 5000).
    #[arg(long, default_value_t = 0)]
    pub apps: usize,
    /// Floor added to every request before any per-request latency (Go-style duration).
    #[arg(long, value_parser = parse_go_duration, default_value = "0")]
    pub latency: Duration,
    /// How long the world has already been running when the server starts (Go-style duration; 0
    /// starts a fresh world with no jobs).
    #[arg(long, value_parser = parse_go_duration, default_value = "121s")]
    pub history: Duration,
    /// Pin the world's clock: it reads this instant (RFC 3339, such as 2026-03-02T09:00:00Z) when
    /// the server starts and moves on in real time. Omitted, the world runs on the system clock.
    #[arg(long, value_parser = parse_instant)]
    pub start: Option<Millis>,
    /// Allow a non-loopback --addr. The service has no authentication: never expose it.
    #[arg(long)]
    pub public: bool,
    /// How long a client may take to send a request's headers; also how long an idle keep-alive
    /// connection is kept. Then the connection is closed (Go-style duration).
    #[arg(long, value_parser = parse_positive_duration, default_value = "10s")]
    pub header_timeout: Duration,
    /// Connections open at once; one more is answered 503 with a JSON error and closed.
    #[arg(long, default_value_t = DEFAULT_MAX_CONNECTIONS, value_parser = parse_connections)]
    pub max_connections: usize,
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address is neither IP:PORT nor a resolvable HOST:PORT.
    #[error("cannot use --addr {addr:?}: {detail} (expected IP:PORT, [IPv6]:PORT or HOST:PORT)")]
    Address {
        /// The address as given.
        addr: String,
        /// What went wrong.
        detail: String,
    },
    /// The address is not a loopback one and --public was not given.
    #[error(
        "refusing to listen on {addr}: it is not a loopback address, and this test fixture has no \
         authentication and must never be deployed; pass --public to listen there anyway"
    )]
    NotLoopback {
        /// The resolved address.
        addr: SocketAddr,
    },
    /// An I/O step failed (binding, the runtime, signals, the pidfile).
    /// (The cause is in the message and not a `source`, so a caller that prints the error's
    /// chain says it once.)
    #[error("{what}: {cause}")]
    Io {
        /// The step.
        what: String,
        /// The cause.
        cause: std::io::Error,
    },
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> ServeError {
    let what = what.into();
    move |cause| ServeError::Io { what, cause }
}

fn parse_go_duration(text: &str) -> Result<Duration, String> {
    parse_duration(text).map_err(|error| error.to_string())
}

fn parse_positive_duration(text: &str) -> Result<Duration, String> {
    match parse_duration(text) {
        Ok(duration) if duration.is_zero() => Err("must be more than 0".to_owned()),
        other => other.map_err(|error| error.to_string()),
    }
}

fn parse_connections(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(count) if count > 0 => Ok(count),
        _ => Err(format!(
            "expected a whole number of connections above 0, got {text:?}"
        )),
    }
}

fn parse_seed_arg(text: &str) -> Result<u64, String> {
    parse_seed(text).map_err(|error| error.to_string())
}

fn parse_instant(text: &str) -> Result<Millis, String> {
    let at = humantime::parse_rfc3339_weak(text.trim()).map_err(|error| {
        format!("{error}: expected an RFC 3339 instant such as 2026-03-02T09:00:00Z")
    })?;
    let since = at
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| "the instant is before 1970".to_owned())?;
    Ok(since.as_millis().min(i64::MAX as u128) as Millis)
}

/// Resolves `addr` (`IP:PORT`, `[IPv6]:PORT` or `HOST:PORT`) to the addresses to try, in order: every
/// one must be loopback unless `public`.
pub fn resolve_addr(addr: &str, public: bool) -> Result<Vec<SocketAddr>, ServeError> {
    let invalid = |detail: String| ServeError::Address {
        addr: addr.to_owned(),
        detail,
    };
    let resolved: Vec<SocketAddr> = match addr.parse::<SocketAddr>() {
        Ok(socket) => vec![socket],
        Err(_) => {
            let Some((host, port)) = addr.rsplit_once(':') else {
                return Err(invalid("no port".to_owned()));
            };
            if host.is_empty() {
                return Err(invalid("no host".to_owned()));
            }
            let port: u16 = port
                .parse()
                .map_err(|_| invalid(format!("{port:?} is not a port number")))?;
            let host = host.trim_start_matches('[').trim_end_matches(']');
            (host, port)
                .to_socket_addrs()
                .map_err(|error| invalid(format!("cannot resolve {host:?}: {error}")))?
                .collect()
        }
    };
    if resolved.is_empty() {
        return Err(invalid("the host resolves to no address".to_owned()));
    }
    if !public && let Some(outside) = resolved.iter().find(|socket| !socket.ip().is_loopback()) {
        return Err(ServeError::NotLoopback { addr: *outside });
    }
    let mut ordered = resolved;
    ordered.sort_by_key(|socket| socket.is_ipv6());
    Ok(ordered)
}

impl ServeArgs {
    /// The service options these arguments ask for.
    pub fn options(&self) -> Options {
        let now: Option<std::sync::Arc<dyn Clock>> = self.start.map(|start| {
            std::sync::Arc::new(AnchoredClock::new(start)) as std::sync::Arc<dyn Clock>
        });
        Options {
            seed: if self.seed == 0 {
                crate::options::clock_seed()
            } else {
                self.seed
            },
            now,
            apps: self.apps,
            latency: self.latency,
            schedule: self.schedule,
            history: self.history,
        }
    }
}

/// Runs the server until SIGINT or SIGTERM (on its own runtime).
pub fn run(args: &ServeArgs) -> Result<(), ServeError> {
    let addrs = resolve_addr(&args.addr, args.public)?;
    let runtime = tokio::runtime::Runtime::new().map_err(io("starting the async runtime"))?;
    runtime.block_on(serve(args, &addrs))
}

async fn serve(args: &ServeArgs, addrs: &[SocketAddr]) -> Result<(), ServeError> {
    let (router, handle) = crate::app(args.options());
    let signals = Signals::install()?;
    let listener = bind(&args.addr, addrs).await?;
    let local = listener
        .local_addr()
        .map_err(io("reading the listening address"))?;
    if let Some(path) = &args.pidfile {
        write_pidfile(path)?;
    }
    eprintln!(
        "demo-backend (a test fixture; never deploy it) listening on http://{local} with seed {}",
        handle.context().seed
    );
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let limits = Limits {
        header_timeout: args.header_timeout,
        max_connections: args.max_connections,
    };
    let guard = HostGuard::new(&args.addr, local.port());
    let server = crate::listener::serve(listener, router, limits, guard, stop_rx, SHUTDOWN_GRACE);
    let mut server = std::pin::pin!(server);
    let outcome = tokio::select! {
        result = &mut server => result.map_err(io("serving")),
        signal = signals.received() => {
            let _ = stop_tx.send(true);
            eprintln!("demo-backend: {signal} received, shutting down");
            match tokio::time::timeout(SHUTDOWN_GRACE * 2, &mut server).await {
                Ok(result) => result.map_err(io("serving")),
                Err(_) => Ok(()),
            }
        }
    };
    if let Some(path) = &args.pidfile {
        std::fs::remove_file(path)
            .map_err(io(format!("removing the pidfile {}", path.display())))?;
    }
    outcome
}

/// Binds the first of `addrs` that can be bound.
async fn bind(addr: &str, addrs: &[SocketAddr]) -> Result<tokio::net::TcpListener, ServeError> {
    let mut last = None;
    for socket in addrs {
        match tokio::net::TcpListener::bind(socket).await {
            Ok(listener) => return Ok(listener),
            Err(error) => last = Some(error),
        }
    }
    Err(ServeError::Io {
        what: format!("cannot listen on {addr}"),
        cause: last.unwrap_or_else(|| std::io::Error::other("no address to bind")),
    })
}

/// SIGINT and SIGTERM handlers, installed before the pidfile is written so that a signal sent as
/// soon as the pidfile appears is handled.
struct Signals {
    interrupt: tokio::signal::unix::Signal,
    terminate: tokio::signal::unix::Signal,
}

impl Signals {
    fn install() -> Result<Signals, ServeError> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Signals {
            interrupt: signal(SignalKind::interrupt()).map_err(io("listening for SIGINT"))?,
            terminate: signal(SignalKind::terminate()).map_err(io("listening for SIGTERM"))?,
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
fn write_pidfile(path: &Path) -> Result<(), ServeError> {
    let file_name = path.file_name().ok_or_else(|| ServeError::Io {
        what: format!("the pidfile {} has no file name", path.display()),
        cause: std::io::Error::other("no file name"),
    })?;
    let mut temporary_name = file_name.to_os_string();
    temporary_name.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary_name);
    std::fs::write(&temporary, format!("{}\n", std::process::id()))
        .map_err(io(format!("writing {}", temporary.display())))?;
    std::fs::rename(&temporary, path).map_err(io(format!(
        "moving the pidfile into place at {}",
        path.display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_take_ips_ipv6_and_host_names() {
        assert_eq!(
            resolve_addr("127.0.0.1:8099", false).expect("ipv4"),
            vec!["127.0.0.1:8099".parse::<SocketAddr>().expect("addr")]
        );
        assert_eq!(
            resolve_addr("[::1]:8099", false).expect("ipv6"),
            vec!["[::1]:8099".parse::<SocketAddr>().expect("addr")]
        );
        let localhost = resolve_addr("localhost:8099", false).expect("host name");
        assert!(!localhost.is_empty());
        assert!(
            localhost
                .iter()
                .all(|socket| socket.ip().is_loopback() && socket.port() == 8099)
        );
    }

    #[test]
    fn bad_addresses_say_what_is_wrong() {
        let message = |addr: &str| resolve_addr(addr, false).expect_err(addr).to_string();
        assert_eq!(
            message("localhost"),
            "cannot use --addr \"localhost\": no port (expected IP:PORT, [IPv6]:PORT or HOST:PORT)"
        );
        assert_eq!(
            message("localhost:http"),
            "cannot use --addr \"localhost:http\": \"http\" is not a port number (expected IP:PORT, \
             [IPv6]:PORT or HOST:PORT)"
        );
        assert!(message("10.1.2.3:8099").starts_with("refusing to listen on 10.1.2.3:8099"));
        assert!(resolve_addr("10.1.2.3:8099", true).is_ok());
    }

    #[test]
    fn instants_are_rfc3339() {
        assert_eq!(parse_instant("2026-03-02T09:00:00Z"), Ok(1_772_442_000_000));
        assert!(
            parse_instant("yesterday")
                .expect_err("not an instant")
                .contains("expected an RFC 3339 instant")
        );
    }
}
