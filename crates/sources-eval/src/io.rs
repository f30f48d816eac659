//! The I/O seam: every file, process, network and clock access of the engine goes through [`Io`].
//!
//! The engine never calls tokio, reqwest or the file system directly; [`crate::system::SystemIo`]
//! is the real implementation, [`crate::demo::DemoIo`] routes the demo address to the in-process
//! demo backend, and tests supply fakes. The linter and the language server never hold an `Io`.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use futures::stream::BoxStream;

/// A boxed, sendable future (the seam is used as `Arc<dyn Io>`).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A response body or process output, chunk by chunk as it arrives.
pub type ByteStream = BoxStream<'static, Result<Bytes, IoError>>;

/// Lines of a followed process's stdout; a non-zero exit ends it with [`IoError::Exit`].
pub type LineStream = BoxStream<'static, Result<String, IoError>>;

/// Frames of a websocket, as text (binary frames are decoded as UTF-8, lossily).
pub type FrameStream = BoxStream<'static, Result<String, IoError>>;

/// One HTTP request, after template substitution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// The method, upper case (`GET`, `POST`, …).
    pub method: String,
    /// The absolute URL.
    pub url: String,
    /// Request headers, in declaration order.
    pub headers: Vec<(String, String)>,
    /// The body, sent as written.
    pub body: Option<String>,
}

/// The head of an HTTP response and its body as a stream.
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// The body, chunk by chunk.
    pub body: ByteStream,
    /// The redirects followed to get here, one line each (status, target, which headers went).
    pub redirects: Vec<String>,
}

impl fmt::Debug for HttpResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpResponse")
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

/// A process to run: argv (no shell) and variables added to the inherited environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandSpec {
    /// The program (looked up in `PATH`) and its arguments.
    pub argv: Vec<String>,
    /// Variables added to or overriding the inherited environment.
    pub env: Vec<(String, String)>,
}

/// What a finished process left behind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandOutput {
    /// The exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Everything written to stdout.
    pub stdout: Vec<u8>,
    /// Everything written to stderr.
    pub stderr: Vec<u8>,
}

/// A websocket connection request, after template substitution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebSocketRequest {
    /// The `ws://` or `wss://` URL.
    pub url: String,
    /// Headers sent on the upgrade request.
    pub headers: Vec<(String, String)>,
    /// Text frames sent in order right after connecting.
    pub initial_messages: Vec<String>,
}

/// Why an I/O operation failed, in words a user can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IoError {
    /// The host name does not resolve.
    #[error("cannot resolve host `{host}`")]
    Dns {
        /// The host name.
        host: String,
    },
    /// Nothing accepted the connection.
    #[error("cannot connect to {address}: {detail}")]
    Connect {
        /// `host:port`.
        address: String,
        /// What the system said.
        detail: String,
    },
    /// The URL cannot be requested.
    #[error("invalid URL `{url}`: {detail}")]
    Url {
        /// The URL as rendered.
        url: String,
        /// What is wrong with it.
        detail: String,
    },
    /// A transport failure after connecting (reset, protocol error, body cut short).
    #[error("{0}")]
    Transport(String),
    /// The program is not in `PATH` (or the path does not exist).
    #[error("command `{program}` not found")]
    CommandNotFound {
        /// `argv[0]`.
        program: String,
    },
    /// The process could not be started for another reason.
    #[error("cannot run `{program}`: {detail}")]
    Spawn {
        /// `argv[0]`.
        program: String,
        /// What the system said.
        detail: String,
    },
    /// The process exited unsuccessfully.
    #[error("{}", exit_message(*.code, .stderr))]
    Exit {
        /// The exit code (`None`: killed by a signal).
        code: Option<i32>,
        /// The end of what it wrote to stderr.
        stderr: String,
    },
    /// A file could not be read.
    #[error("cannot read `{path}`: {detail}")]
    File {
        /// The path as rendered.
        path: String,
        /// What the system said.
        detail: String,
    },
    /// The websocket handshake or a frame failed.
    #[error("websocket: {0}")]
    WebSocket(String),
    /// The operation did not finish within its time limit.
    #[error("timed out after {}", crate::format_duration(*.0))]
    Timeout(Duration),
    /// A body, output, file, line or message outgrew the size limit; nothing more was read.
    #[error("{what} is larger than the {} limit (raise it with `--max-body`)", format_size(*.limit))]
    TooLarge {
        /// `the response body`, `a line`, `the output of `prog``, `the file `path``, `a message`.
        what: String,
        /// The limit in bytes.
        limit: usize,
    },
}

/// The most bytes one response body, command output, file, followed line or websocket message
/// may hold unless the caller sets another limit (`--max-body`): 64 MiB.
pub const DEFAULT_MAX_BODY: usize = 64 * 1024 * 1024;

/// A byte count in the largest whole binary unit that fits (`64 MiB`, `1.5 KiB`, `12 bytes`).
pub fn format_size(bytes: usize) -> String {
    const UNITS: [&str; 3] = ["GiB", "MiB", "KiB"];
    for (index, unit) in UNITS.iter().enumerate() {
        let scale = 1usize << (10 * (UNITS.len() - index));
        if bytes >= scale {
            let whole = bytes / scale;
            let tenths = (bytes % scale) * 10 / scale;
            return if tenths == 0 {
                format!("{whole} {unit}")
            } else {
                format!("{whole}.{tenths} {unit}")
            };
        }
    }
    if bytes == 1 {
        "1 byte".to_owned()
    } else {
        format!("{bytes} bytes")
    }
}

/// Parses a size such as `64MiB`, `512KiB`, `1GiB`, `10MB` or a plain byte count.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let trimmed = text.trim();
    let digits = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(digits);
    let scale: usize = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1000,
        "kib" => 1 << 10,
        "m" | "mb" => 1000 * 1000,
        "mib" => 1 << 20,
        "g" | "gb" => 1000 * 1000 * 1000,
        "gib" => 1 << 30,
        other => {
            return Err(format!(
                "unknown unit `{other}` (use bytes or KiB, MiB, GiB, KB, MB, GB)"
            ));
        }
    };
    let number: usize = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size such as `64MiB`"))?;
    number
        .checked_mul(scale)
        .filter(|bytes| *bytes > 0)
        .ok_or_else(|| format!("`{text}` is not a size above zero that fits in memory"))
}

/// How much of stderr an exit error shows.
pub const STDERR_TAIL: usize = 400;

fn exit_message(code: Option<i32>, stderr: &str) -> String {
    let status = match code {
        Some(code) => format!("exited with status {code}"),
        None => "was killed by a signal".to_owned(),
    };
    let stderr = stderr.trim();
    if stderr.is_empty() {
        status
    } else {
        format!("{status}: {}", one_line(stderr))
    }
}

/// Flattens text to one line (newlines shown as ` ⏎ `) so an error stays one line.
pub fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ⏎ ")
}

/// The last `max` bytes of `bytes` as text, starting on a character boundary.
pub fn tail(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= max {
        return text.into_owned();
    }
    let mut start = text.len() - max;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    format!("…{}", &text[start..])
}

/// The first `max` bytes of `bytes` as text, ending on a character boundary.
pub fn head(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= max {
        return text.into_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// Everything the engine may do to the outside world.
pub trait Io: Send + Sync {
    /// Sends an HTTP request and returns as soon as the response head arrives.
    fn http(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, IoError>>;

    /// Runs a process to completion. Dropping the future kills the process.
    fn run(&self, command: CommandSpec) -> BoxFuture<'_, Result<CommandOutput, IoError>>;

    /// Starts a process and streams its stdout line by line. The stream ends with
    /// [`IoError::Exit`] when the process exits unsuccessfully; dropping it kills the process.
    fn follow(&self, command: CommandSpec) -> BoxFuture<'_, Result<LineStream, IoError>>;

    /// Reads a whole file.
    fn read_file(&self, path: String) -> BoxFuture<'_, Result<Vec<u8>, IoError>>;

    /// Connects a websocket, sends the initial messages in order, and streams incoming frames.
    /// The future resolves once connected and the initial messages are sent.
    fn websocket(&self, request: WebSocketRequest) -> BoxFuture<'_, Result<FrameStream, IoError>>;

    /// An environment variable of the process that runs the engine.
    fn env_var(&self, name: &str) -> Option<String>;

    /// Monotonic time since an arbitrary origin.
    fn now(&self) -> Duration;

    /// Resolves after `duration` on this seam's clock.
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()>;

    /// The most bytes the engine reads into one body, output, file, line or message.
    fn max_body(&self) -> usize {
        DEFAULT_MAX_BODY
    }
}

/// Runs `future` with a time limit measured on the seam's clock.
pub async fn with_timeout<T>(
    io: &dyn Io,
    limit: Duration,
    future: impl Future<Output = Result<T, IoError>>,
) -> Result<T, IoError> {
    let sleep = io.sleep(limit);
    futures::pin_mut!(future);
    match futures::future::select(future, sleep).await {
        futures::future::Either::Left((result, _)) => result,
        futures::future::Either::Right(((), _)) => Err(IoError::Timeout(limit)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_errors_show_the_end_of_stderr_on_one_line() {
        let error = IoError::Exit {
            code: Some(2),
            stderr: "line one\nfatal: bad thing\n".into(),
        };
        assert_eq!(
            error.to_string(),
            "exited with status 2: line one ⏎ fatal: bad thing"
        );
        let killed = IoError::Exit {
            code: None,
            stderr: String::new(),
        };
        assert_eq!(killed.to_string(), "was killed by a signal");
    }

    #[test]
    fn sizes_parse_and_print_in_binary_units() {
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("10 MB"), Ok(10_000_000));
        assert_eq!(parse_size("512"), Ok(512));
        assert_eq!(
            parse_size("3 parsecs"),
            Err("unknown unit `parsecs` (use bytes or KiB, MiB, GiB, KB, MB, GB)".to_owned())
        );
        assert_eq!(
            parse_size("0"),
            Err("`0` is not a size above zero that fits in memory".to_owned())
        );
        assert_eq!(
            parse_size("MiB"),
            Err("`MiB` is not a size such as `64MiB`".to_owned())
        );
        assert_eq!(format_size(DEFAULT_MAX_BODY), "64 MiB");
        assert_eq!(format_size(1536), "1.5 KiB");
        assert_eq!(format_size(100), "100 bytes");
        let error = IoError::TooLarge {
            what: "the response body".into(),
            limit: 1 << 20,
        };
        assert_eq!(
            error.to_string(),
            "the response body is larger than the 1 MiB limit (raise it with `--max-body`)"
        );
    }

    #[test]
    fn head_and_tail_cut_on_character_boundaries() {
        assert_eq!(tail("abcdé".as_bytes(), 2), "…é");
        assert_eq!(head("éabc".as_bytes(), 1), "…");
        assert_eq!(head(b"abc", 10), "abc");
        assert_eq!(tail(b"abcdef", 3), "…def");
    }
}
