//! Leaf fetches through the seam: HTTP (whole body or followed line by line), commands (run or
//! followed), files and websockets, each bounded by the entry's `timeout`.

use std::time::Duration;

use futures::StreamExt;
use futures::stream::BoxStream;
use sources_check::request::{self, Refusal};

use crate::decode::snippet;
use crate::error::Cause;
use crate::io::{
    ByteStream, CommandSpec, HttpRequest, Io, IoError, STDERR_TAIL, WebSocketRequest, tail,
    with_timeout,
};
use crate::trace::{self, Trace};

/// `timeout` when unset.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// A stream of raw events (lines or frames) of a streamed source.
pub type TextStream = BoxStream<'static, Result<String, Cause>>;

fn describe(request: &HttpRequest) -> String {
    let mut line = format!("{} {}", request.method, trace::url(&request.url));
    for header in trace::headers(&request.headers) {
        line.push_str(&format!("\n    {header}"));
    }
    if let Some(body) = &request.body {
        line.push_str(&format!("\n    body: {}", snippet(body.as_bytes())));
    }
    line
}

/// A refusal before any I/O: `what` could not be done.
fn refused(what: String, refusal: Refusal) -> Cause {
    Cause::Refused { what, refusal }
}

/// Builds `request` as the seam will (url, method, headers), refusing what cannot be sent.
pub fn check_http(request: &HttpRequest) -> Result<(), Cause> {
    let what = || {
        format!(
            "cannot send {} {}",
            request.method,
            trace::url(&request.url)
        )
    };
    request::http_url(&request.url).map_err(|refusal| refused(what(), refusal))?;
    request::http_method(Some(&request.method)).map_err(|refusal| refused(what(), refusal))?;
    for (name, value) in &request.headers {
        request::header(name, value).map_err(|refusal| refused(what(), refusal))?;
    }
    Ok(())
}

/// The error for a status outside 200–299: the start of the body, on one line; `--verbose` shows
/// the whole body, as it came.
fn status_error(trace: &dyn Trace, request: &HttpRequest, status: u16, body: &[u8]) -> Cause {
    trace.note(&format!(
        "  the whole response body of HTTP {status} ({} bytes):\n{}",
        body.len(),
        String::from_utf8_lossy(body)
    ));
    Cause::Status {
        status,
        method: request.method.clone(),
        url: trace::url(&request.url),
        body: snippet(body),
    }
}

/// Reads a whole body, failing as soon as it outgrows `limit` bytes (the rest is never read).
async fn collect(mut body: ByteStream, limit: usize) -> Result<Vec<u8>, IoError> {
    let mut out = Vec::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk?;
        if out.len().saturating_add(chunk.len()) > limit {
            return Err(IoError::TooLarge {
                what: "the response body".to_owned(),
                limit,
            });
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// Says each redirect followed on the trace (`--verbose`).
fn note_redirects(trace: &dyn Trace, redirects: &[String]) {
    for redirect in redirects {
        trace.note(&format!("  ↪ {redirect}"));
    }
}

/// Sends `request` and reads the whole body within `timeout`; a non-2xx status is an error
/// showing the status and the start of the body.
pub async fn http_body(
    io: &dyn Io,
    trace: &dyn Trace,
    request: HttpRequest,
    timeout: Duration,
) -> Result<Vec<u8>, Cause> {
    check_http(&request)?;
    trace.note(&describe(&request));
    let started = io.now();
    let (status, body) = with_timeout(io, timeout, async {
        let response = io.http(request.clone()).await?;
        note_redirects(trace, &response.redirects);
        let body = collect(response.body, io.max_body()).await?;
        Ok((response.status, body))
    })
    .await?;
    trace.note(&format!(
        "  → {status}, {} bytes in {} ms",
        body.len(),
        io.now().saturating_sub(started).as_millis()
    ));
    if !(200..300).contains(&status) {
        return Err(status_error(trace, &request, status, &body));
    }
    Ok(body)
}

/// Sends `request` and streams the body line by line (`follow: true`). Only the wait for the
/// response head is bounded by `timeout`.
pub async fn http_lines(
    io: &dyn Io,
    trace: &dyn Trace,
    request: HttpRequest,
    timeout: Duration,
) -> Result<TextStream, Cause> {
    check_http(&request)?;
    trace.note(&describe(&request));
    let response = with_timeout(io, timeout, io.http(request.clone())).await?;
    note_redirects(trace, &response.redirects);
    trace.note(&format!(
        "  → {}, following the body line by line",
        response.status
    ));
    if !(200..300).contains(&response.status) {
        let body = with_timeout(io, timeout, collect(response.body, io.max_body()))
            .await
            .unwrap_or_default();
        return Err(status_error(trace, &request, response.status, &body));
    }
    Ok(lines(response.body, io.max_body())
        .map(|line| line.map_err(Cause::from))
        .boxed())
}

/// Splits a byte stream into lines (without `\n` or `\r\n`); a last line without a newline is
/// emitted when the stream ends. A line longer than `limit` bytes ends the stream with
/// [`IoError::TooLarge`].
pub fn lines(body: ByteStream, limit: usize) -> BoxStream<'static, Result<String, IoError>> {
    /// The body, bytes not yet emitted, how many of them hold no newline, and whether it ended.
    type State = (ByteStream, Vec<u8>, usize, bool);
    let start: State = (body, Vec::new(), 0, false);
    futures::stream::unfold(
        start,
        move |(mut body, mut buffer, mut scanned, mut done)| async move {
            loop {
                let end = buffer[scanned..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map(|at| scanned + at);
                scanned = end.unwrap_or(buffer.len());
                if scanned > limit {
                    let error = IoError::TooLarge {
                        what: "a line".to_owned(),
                        limit,
                    };
                    return Some((Err(error), (body, Vec::new(), 0, true)));
                }
                if let Some(at) = end {
                    let mut line: Vec<u8> = buffer.drain(..=at).collect();
                    line.pop();
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                    let text = String::from_utf8_lossy(&line).into_owned();
                    return Some((Ok(text), (body, buffer, 0, done)));
                }
                if done {
                    if buffer.is_empty() {
                        return None;
                    }
                    let text = String::from_utf8_lossy(&buffer).into_owned();
                    return Some((Ok(text), (body, Vec::new(), 0, done)));
                }
                match body.next().await {
                    Some(Ok(chunk)) => buffer.extend_from_slice(&chunk),
                    Some(Err(error)) => return Some((Err(error), (body, Vec::new(), 0, true))),
                    None => done = true,
                }
            }
        },
    )
    .boxed()
}

fn describe_command(command: &CommandSpec) -> String {
    let argv: Vec<String> = command.argv.iter().map(|arg| shell_quote(arg)).collect();
    let mut line = format!("exec {}", argv.join(" "));
    for (name, value) in &command.env {
        let value = if sources_config::secret::is_credential(name) {
            sources_config::secret::REDACTED
        } else {
            value.as_str()
        };
        line.push_str(&format!("\n    env {name}={value}"));
    }
    line
}

fn shell_quote(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,@%+".contains(c))
    {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// Builds `command` as the seam will, refusing an argv or environment no process can receive.
fn check_command(command: &CommandSpec) -> Result<(), Cause> {
    request::command(&command.argv, &command.env)
        .map_err(|refusal| refused("cannot start the command".to_owned(), refusal))
}

/// Runs a command within `timeout` (the process is killed when it runs out) and returns its
/// stdout; a non-zero exit is an error showing the end of stderr.
pub async fn run(
    io: &dyn Io,
    trace: &dyn Trace,
    command: CommandSpec,
    timeout: Duration,
) -> Result<Vec<u8>, Cause> {
    check_command(&command)?;
    trace.note(&describe_command(&command));
    let output = with_timeout(io, timeout, io.run(command)).await?;
    trace.note(&format!(
        "  → exit {}, {} bytes on stdout",
        output
            .code
            .map_or_else(|| "by signal".to_owned(), |code| code.to_string()),
        output.stdout.len()
    ));
    if output.code != Some(0) {
        return Err(Cause::Io(IoError::Exit {
            code: output.code,
            stderr: tail(&output.stderr, STDERR_TAIL),
        }));
    }
    Ok(output.stdout)
}

/// Starts a command and streams its stdout line by line (`follow: true`).
pub async fn run_lines(
    io: &dyn Io,
    trace: &dyn Trace,
    command: CommandSpec,
) -> Result<TextStream, Cause> {
    check_command(&command)?;
    trace.note(&describe_command(&command));
    let lines = io.follow(command).await?;
    Ok(lines.map(|line| line.map_err(Cause::from)).boxed())
}

/// Reads a file (again on every fetch).
pub async fn file(io: &dyn Io, trace: &dyn Trace, path: String) -> Result<Vec<u8>, Cause> {
    request::file_path(&path)
        .map_err(|refusal| refused("cannot read the file".to_owned(), refusal))?;
    trace.note(&format!("read {path}"));
    Ok(io.read_file(path).await?)
}

/// Connects a websocket within `timeout` (the connect only), sends the initial messages and
/// streams one event per frame.
pub async fn websocket(
    io: &dyn Io,
    trace: &dyn Trace,
    request: WebSocketRequest,
    timeout: Option<Duration>,
) -> Result<TextStream, Cause> {
    request::websocket_request(&request.url, &request.headers).map_err(|refusal| {
        refused(
            format!("cannot open websocket {}", trace::url(&request.url)),
            refusal,
        )
    })?;
    let mut line = format!("websocket {}", trace::url(&request.url));
    for header in trace::headers(&request.headers) {
        line.push_str(&format!("\n    {header}"));
    }
    for message in &request.initial_messages {
        line.push_str(&format!("\n    send: {}", snippet(message.as_bytes())));
    }
    trace.note(&line);
    let frames = match timeout {
        Some(limit) => with_timeout(io, limit, io.websocket(request)).await?,
        None => io.websocket(request).await?,
    };
    Ok(frames.map(|frame| frame.map_err(Cause::from)).boxed())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::CommandOutput;
    use crate::testing::{FakeIo, Reply};
    use crate::trace::{Collect, Silent};

    fn get(url: &str) -> HttpRequest {
        HttpRequest {
            method: "GET".into(),
            url: url.into(),
            headers: vec![("Authorization".into(), "Bearer s3cret".into())],
            body: None,
        }
    }

    #[tokio::test]
    async fn a_body_arrives_in_chunks_and_is_joined() {
        let io = FakeIo::new().with_http(|_| Reply::Body(200, vec!["{\"a\":".into(), "1}".into()]));
        let trace = Collect::default();
        let body = http_body(&io, &trace, get("http://x/"), DEFAULT_TIMEOUT)
            .await
            .expect("ok");
        assert_eq!(body, b"{\"a\":1}");
        let lines = trace.lines();
        assert!(lines[0].contains("Authorization: [redacted]"), "{lines:?}");
        assert!(!lines.concat().contains("s3cret"));
    }

    #[tokio::test]
    async fn non_2xx_shows_the_status_and_the_start_of_the_body() {
        let io = FakeIo::new().with_http(|_| {
            Reply::Body(
                404,
                vec![r#"{"error":"application \"x\" not found"}"#.into()],
            )
        });
        let error = http_body(&io, &Silent, get("http://x/apps/x"), DEFAULT_TIMEOUT)
            .await
            .expect_err("404");
        assert_eq!(
            error.to_string(),
            r#"HTTP 404 from GET http://x/apps/x: {"error":"application \"x\" not found"}"#
        );
    }

    #[tokio::test]
    async fn a_hanging_server_times_out() {
        let io = FakeIo::new().with_http(|_| Reply::Hang);
        let error = http_body(&io, &Silent, get("http://x/"), Duration::from_millis(1500))
            .await
            .expect_err("timeout");
        assert_eq!(error.to_string(), "timed out after 1.5s");
    }

    #[tokio::test]
    async fn followed_bodies_split_on_newlines_across_chunks() {
        let io = FakeIo::new()
            .with_http(|_| Reply::Body(200, vec!["one\ntw".into(), "o\r\nthree".into()]));
        let stream = http_lines(&io, &Silent, get("http://x/log"), DEFAULT_TIMEOUT)
            .await
            .expect("ok");
        let lines: Vec<String> = stream.map(|line| line.expect("line")).collect().await;
        assert_eq!(lines, ["one", "two", "three"]);
    }

    #[tokio::test]
    async fn a_failing_command_shows_the_end_of_stderr() {
        let io = FakeIo::new().with_run(|_| {
            Ok(CommandOutput {
                code: Some(3),
                stdout: Vec::new(),
                stderr: format!("{}\nerror: the end", "x".repeat(1000)).into_bytes(),
            })
        });
        let command = CommandSpec {
            argv: vec!["kubectl".into(), "get".into()],
            env: vec![("KUBE_TOKEN".into(), "t0k".into())],
        };
        let trace = Collect::default();
        let error = run(&io, &trace, command, DEFAULT_TIMEOUT)
            .await
            .expect_err("exit 3");
        let text = error.to_string();
        assert!(text.starts_with("exited with status 3: …x"), "{text}");
        assert!(text.ends_with("error: the end"), "{text}");
        assert!(text.len() < 500);
        assert!(trace.lines()[0].contains("env KUBE_TOKEN=[redacted]"));
    }

    #[tokio::test]
    async fn an_empty_command_is_refused() {
        let io = FakeIo::new();
        let command = CommandSpec {
            argv: vec![],
            env: vec![],
        };
        let refused = run(&io, &Silent, command, DEFAULT_TIMEOUT)
            .await
            .expect_err("an empty command is refused");
        assert_eq!(
            refused.to_string(),
            "cannot start the command: `command` is empty: there is no program to run"
        );
    }
}
