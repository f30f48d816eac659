//! The byte stream between the client and `tower-lsp-server`: a validating frame reader in front
//! of it and one writer behind it.
//!
//! `tower-lsp-server` stops reading at the first frame it cannot decode, so a single malformed
//! message would end the session. The reader here checks every frame first, as JSON-RPC 2.0 asks:
//! a body that is not JSON gets a `-32700` parse error, a message that is not a valid request,
//! notification or response gets `-32600` (with the request's id when it has a usable one), and a
//! header block without a usable `Content-Length` is skipped to the next header block. Each of
//! these is logged to standard error and as a `window/logMessage`. Only well-formed messages reach
//! the server, handed to its service directly (`session`); the server's output and the reader's
//! own answers share one writer, whole frame by whole frame. The session ends on `exit` or at the
//! end of the input.

use std::io::Write as _;

use futures::{FutureExt, Sink, SinkExt, StreamExt, TryFutureExt, future, stream};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tower::Service;
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::{ClientSocket, LspService};

/// The largest header block read before it is treated as garbage.
const MAX_HEADER_BYTES: usize = 8 * 1024;

/// The largest message body accepted: room for the largest document the server analyses
/// (16 MiB) with every character escaped. A larger body is skipped without being buffered.
pub(crate) const MAX_BODY_BYTES: usize = 100 * 1024 * 1024;

/// The smallest body whose buffer is kept for the next body ([`FrameReader::recycle`]).
const RECYCLED_BYTES: usize = 64 * 1024;

/// `Content-Length` as it starts a header block.
const CONTENT_LENGTH: &[u8] = b"Content-Length";

/// JSON-RPC's error codes for what the reader refuses.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;

/// `window/logMessage` types.
const LOG_ERROR: u8 = 1;
const LOG_WARNING: u8 = 2;

/// Frames one JSON-RPC message body.
pub(crate) fn frame(body: &[u8]) -> Vec<u8> {
    let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    framed.extend_from_slice(body);
    framed
}

/// Runs the server behind the validating reader until the client sends `exit` or the input ends.
pub(crate) async fn serve<I, O>(input: I, output: O, options: crate::Options)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let (outgoing, queue) = mpsc::unbounded_channel::<Vec<u8>>();
    let (service, socket) = crate::service(options);
    tokio::join!(
        session(input, service, socket, outgoing),
        write_output(queue, output),
    );
}

/// Writes every queued frame to `output`, flushing after each, until every sender is gone.
async fn write_output<O: AsyncWrite + Unpin>(
    mut queue: mpsc::UnboundedReceiver<Vec<u8>>,
    mut output: O,
) {
    while let Some(bytes) = queue.recv().await {
        if output.write_all(&bytes).await.is_err() || output.flush().await.is_err() {
            log_to_stderr("the client's end of the output is closed; stopping");
            return;
        }
    }
}

/// Queues one message for the writer, framed.
fn send(outgoing: &mpsc::UnboundedSender<Vec<u8>>, message: &impl Serialize) {
    if let Ok(body) = serde_json::to_vec(message) {
        // The writer is gone only when the client's end is closed: nothing more can be said.
        let _ = outgoing.send(frame(&body));
    }
}

/// Drives the server's service with the reader's messages, as `tower-lsp-server`'s own transport
/// would, without its byte-level codec: requests are handled at most [`MAX_CONCURRENCY`] at once,
/// responses to the server's own requests go back to it, and everything the server says is queued
/// for the writer. The codec would keep a buffer as large as the largest message ever received
/// for the rest of the session; the reader's frames are handed over as they are.
async fn session<I: AsyncRead + Unpin>(
    input: I,
    service: LspService<crate::Server>,
    socket: ClientSocket,
    outgoing: mpsc::UnboundedSender<Vec<u8>>,
) {
    let (server_requests, responses_to_server) = socket.split();
    let (server_requests, stop_forwarding) = stream::abortable(server_requests);
    let (tasks, running) = futures::channel::mpsc::channel::<Task>(QUEUED_REQUESTS);
    let answers = outgoing.clone();
    let handling = running
        .buffer_unordered(MAX_CONCURRENCY)
        .for_each(move |response| {
            if let Some(response) = response {
                send(&answers, &response);
            }
            future::ready(())
        });
    let requests = outgoing.clone();
    let forwarding = server_requests.for_each(move |request| {
        send(&requests, &request);
        future::ready(())
    });
    let reading = async move {
        read_input(input, service, tasks, responses_to_server, outgoing).await;
        stop_forwarding.abort();
    };
    tokio::join!(handling, forwarding, reading);
}

/// One request being handled: its response, if it has one.
type Task = futures::future::BoxFuture<'static, Option<Response>>;

/// How many requests the server handles at once (`tower-lsp-server`'s own default).
const MAX_CONCURRENCY: usize = 4;

/// How many requests wait for a place before the reader stops reading.
const QUEUED_REQUESTS: usize = 100;

/// Reads the client's frames, hands the valid ones to the server and answers the rest; returns
/// after `exit`, at the end of the input, or when the server has exited.
async fn read_input<I: AsyncRead + Unpin>(
    input: I,
    mut service: LspService<crate::Server>,
    mut tasks: futures::channel::mpsc::Sender<Task>,
    mut responses_to_server: impl Sink<Response> + Unpin,
    outgoing: mpsc::UnboundedSender<Vec<u8>>,
) {
    let mut frames = FrameReader::new(input, MAX_BODY_BYTES);
    let mut shut_down = false;
    while let Some(frame) = frames.next().await {
        match frame {
            Frame::Body(body) => match frames.read_and_recycle(body) {
                Ok(Checked::Call {
                    id: Some(id),
                    request,
                }) if shut_down && request.method() != "exit" => {
                    let refused = Refused {
                        code: INVALID_REQUEST,
                        id,
                        message: format!(
                            "`{}` after `shutdown`: the server only accepts `exit` now",
                            request.method()
                        ),
                    };
                    refused.report(&outgoing);
                }
                Ok(Checked::Response(response)) => {
                    if responses_to_server.send(response).await.is_err() {
                        return;
                    }
                }
                Ok(Checked::Call { id, request }) => {
                    if request.method() == "textDocument/didClose" {
                        // The kept buffer served the changes of a large document, most likely
                        // this one: it is not held after it.
                        frames.release();
                    }
                    shut_down |= id.is_some() && request.method() == "shutdown";
                    if future::poll_fn(|cx| service.poll_ready(cx)).await.is_err() {
                        return;
                    }
                    let exit = request.method() == "exit";
                    let task = service.call(request).unwrap_or_else(|_| None).boxed();
                    if tasks.send(task).await.is_err() || exit {
                        return;
                    }
                }
                Err(refused) => {
                    refused.report(&outgoing);
                }
            },
            Frame::Skipped(reason) => report(&outgoing, LOG_WARNING, &reason, None),
            Frame::TooLarge(length) => {
                let refused = Refused {
                    code: INVALID_REQUEST,
                    id: Value::Null,
                    message: format!(
                        "a message of {length} bytes is over the {} MiB limit; it was skipped",
                        MAX_BODY_BYTES / (1024 * 1024)
                    ),
                };
                refused.report(&outgoing);
            }
        }
    }
}

/// Why a message body was refused, and the error response it gets.
#[derive(Debug, PartialEq)]
pub(crate) struct Refused {
    /// `-32700` (not JSON) or `-32600` (not a valid message).
    pub(crate) code: i64,
    /// The request's id when it had a usable one, else `null`.
    pub(crate) id: Value,
    /// What was wrong.
    pub(crate) message: String,
}

impl Refused {
    /// Logs the refusal and queues its error response.
    fn report(&self, outgoing: &mpsc::UnboundedSender<Vec<u8>>) {
        report(outgoing, LOG_ERROR, &self.message, Some(self));
    }
}

/// Logs `message` to standard error and the client, and sends the error response if any.
fn report(
    outgoing: &mpsc::UnboundedSender<Vec<u8>>,
    level: u8,
    message: &str,
    refused: Option<&Refused>,
) {
    log_to_stderr(message);
    if let Some(refused) = refused {
        let response = json!({
            "jsonrpc": "2.0",
            "id": refused.id,
            "error": { "code": refused.code, "message": refused.message },
        });
        // A send fails only when the writer is gone, and then nothing can be told anyway.
        let _ = outgoing.send(frame(response.to_string().as_bytes()));
    }
    let log = json!({
        "jsonrpc": "2.0",
        "method": "window/logMessage",
        "params": { "type": level, "message": format!("sources language server: {message}") },
    });
    let _ = outgoing.send(frame(log.to_string().as_bytes()));
}

/// Writes one line to standard error (the transport owns standard output).
fn log_to_stderr(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "sources lsp: {message}");
}

/// A valid message, read once into what the server takes.
#[derive(Debug, PartialEq)]
pub(crate) enum Checked {
    /// A request (`id` is its id) or a notification (no `id`).
    Call {
        /// The id a request is answered with.
        id: Option<Value>,
        /// The message.
        request: Request,
    },
    /// A response to one of the server's requests.
    Response(Response),
}

/// Checks that a body is one JSON-RPC 2.0 request, notification or response that the server can
/// take (batches are not part of LSP).
pub(crate) fn check_message(body: &[u8]) -> Result<Checked, Refused> {
    let value = crate::json::parse(body).map_err(|error| Refused {
        code: PARSE_ERROR,
        id: Value::Null,
        message: format!("a message body is not JSON ({error}); it was skipped"),
    })?;
    let invalid = |id: Value, what: &str| Refused {
        code: INVALID_REQUEST,
        id,
        message: format!("invalid JSON-RPC message: {what}; it was skipped"),
    };
    let Value::Object(object) = &value else {
        let what = match value {
            Value::Array(_) => "a batch (an array), which LSP does not use",
            _ => "not an object",
        };
        return Err(invalid(Value::Null, what));
    };
    let id = match object.get("id") {
        None => None,
        Some(id @ (Value::Number(_) | Value::String(_) | Value::Null)) if is_usable_id(id) => {
            Some(id.clone())
        }
        Some(_) => return Err(invalid(Value::Null, "`id` is not a string or an integer")),
    };
    let answer_id = id.clone().unwrap_or(Value::Null);
    if object.get("jsonrpc") != Some(&Value::String("2.0".to_owned())) {
        return Err(invalid(answer_id, "`jsonrpc` is not \"2.0\""));
    }
    let is_call = match object.get("method") {
        Some(Value::String(_)) => {
            if let Some(params) = object.get("params") {
                if !params.is_object() && !params.is_array() && !params.is_null() {
                    return Err(invalid(answer_id, "`params` is not an object or an array"));
                }
            }
            true
        }
        Some(_) => return Err(invalid(answer_id, "`method` is not a string")),
        None if id.is_some() && (object.contains_key("result") != object.contains_key("error")) => {
            false
        }
        None => return Err(invalid(answer_id, "no `method`, and not a response")),
    };
    if is_call {
        serde_json::from_value::<Request>(value)
            .map(|request| Checked::Call { id, request })
            .map_err(|error| invalid(answer_id, &error.to_string()))
    } else {
        serde_json::from_value::<Response>(value)
            .map(Checked::Response)
            .map_err(|error| invalid(answer_id, &error.to_string()))
    }
}

/// Whether an id is one the server can echo: a string, an integer, or `null`.
fn is_usable_id(id: &Value) -> bool {
    match id {
        Value::Number(number) => number.is_i64() || number.is_u64(),
        Value::String(_) | Value::Null => true,
        _ => false,
    }
}

/// One step of reading framed input.
#[derive(Debug, PartialEq)]
pub(crate) enum Frame {
    /// A message body (not yet checked).
    Body(Vec<u8>),
    /// Bytes that were not a usable header block were skipped; why.
    Skipped(String),
    /// A body over the reader's limit was skipped; its declared length.
    TooLarge(usize),
}

/// Reads `Content-Length` framed messages, resynchronising on garbage instead of stopping.
pub(crate) struct FrameReader<R> {
    input: R,
    buffer: Vec<u8>,
    /// The buffer of the last large body, emptied, for the next one: a client without incremental
    /// sync sends a large document whole on every change, and a buffer freed and allocated again
    /// costs its pages' faults each time (about 370 for 1.5 MB), as many as reading the body.
    spare: Vec<u8>,
    ended: bool,
    max_body: usize,
    /// Set after a broken header block: the next read first skips to the next header block.
    resynchronising: bool,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    /// A reader of `input` that skips bodies over `max_body` bytes.
    pub(crate) fn new(input: R, max_body: usize) -> FrameReader<R> {
        FrameReader {
            input,
            buffer: Vec::new(),
            spare: Vec::new(),
            ended: false,
            max_body,
            resynchronising: false,
        }
    }

    /// Checks a body ([`check_message`]), then keeps its buffer for the next body if it is a
    /// large change of a document's text (what a client without incremental sync repeats; the
    /// body of an open is not kept through the first analysis, when memory peaks).
    pub(crate) fn read_and_recycle(&mut self, body: Vec<u8>) -> Result<Checked, Refused> {
        let checked = check_message(&body);
        if matches!(&checked, Ok(Checked::Call { request, .. }) if request.method() == "textDocument/didChange")
        {
            self.recycle(body);
        }
        checked
    }

    /// Keeps `body`'s buffer, emptied, for the next body if it is large (over [`RECYCLED_BYTES`]).
    fn recycle(&mut self, mut body: Vec<u8>) {
        if body.capacity() >= RECYCLED_BYTES {
            body.clear();
            self.spare = body;
        }
    }

    /// Frees the kept buffer.
    pub(crate) fn release(&mut self) {
        self.spare = Vec::new();
    }

    /// Reads more input into the buffer; `false` at the end of the input.
    async fn fill(&mut self) -> bool {
        if self.ended {
            return false;
        }
        let mut chunk = [0u8; 64 * 1024];
        match self.input.read(&mut chunk).await {
            Ok(0) | Err(_) => {
                self.ended = true;
                false
            }
            Ok(read) => {
                self.buffer.extend_from_slice(&chunk[..read]);
                true
            }
        }
    }

    /// The next frame; `None` at the end of the input.
    pub(crate) async fn next(&mut self) -> Option<Frame> {
        if std::mem::take(&mut self.resynchronising) {
            self.resynchronise().await;
        }
        loop {
            let blank = self
                .buffer
                .iter()
                .take_while(|byte| byte.is_ascii_whitespace())
                .count();
            self.buffer.drain(..blank);
            if let Some(end) = find(&self.buffer, b"\r\n\r\n") {
                let header: Vec<u8> = self.buffer.drain(..end + 4).collect();
                return Some(match content_length(&header[..end]) {
                    Ok(length) if length > self.max_body => {
                        self.discard(length).await;
                        Frame::TooLarge(length)
                    }
                    Ok(length) => match self.body(length).await {
                        Some(body) => Frame::Body(body),
                        None => Frame::Skipped(format!(
                            "the input ended inside a message body ({length} bytes announced)"
                        )),
                    },
                    Err(why) => {
                        self.resynchronising = true;
                        Frame::Skipped(format!("{why}; skipped to the next header block"))
                    }
                });
            }
            if self.buffer.len() > MAX_HEADER_BYTES {
                self.buffer.drain(..1);
                self.resynchronising = true;
                return Some(Frame::Skipped(format!(
                    "no end of a header block within {MAX_HEADER_BYTES} bytes; skipped to the next \
                     header block"
                )));
            }
            if !self.fill().await {
                if self.buffer.is_empty() {
                    return None;
                }
                self.buffer.clear();
                return Some(Frame::Skipped(
                    "the input ended inside a header block".to_owned(),
                ));
            }
        }
    }

    /// Takes a body of `length` bytes; `None` when the input ends first. What is missing of it is
    /// read straight into a buffer of its size (a full-text change of a large document is
    /// megabytes: grown a chunk at a time, the buffer was copied into fresh memory at every
    /// doubling), which is never zeroed first, so an announced length costs nothing until its
    /// bytes arrive. That buffer is the kept one when it has room (what was read of the body so
    /// far, at most a read's worth, is copied into it).
    async fn body(&mut self, length: usize) -> Option<Vec<u8>> {
        if self.buffer.len() < length {
            let mut body = std::mem::take(&mut self.buffer);
            if self.spare.capacity() >= length {
                let mut spare = std::mem::take(&mut self.spare);
                spare.extend_from_slice(&body);
                body = spare;
            }
            body.reserve_exact(length - body.len());
            while body.len() < length {
                // Reads into the spare capacity only: at most this body's bytes, unless the
                // allocator gave more room than asked.
                match self.input.read_buf(&mut body).await {
                    Ok(0) | Err(_) => {
                        self.ended = true;
                        return None;
                    }
                    Ok(_) => {}
                }
            }
            self.buffer = body;
        }
        let rest = self.buffer.split_off(length);
        Some(std::mem::replace(&mut self.buffer, rest))
    }

    /// Drops `length` bytes of input without keeping them.
    async fn discard(&mut self, mut length: usize) {
        loop {
            let taken = length.min(self.buffer.len());
            self.buffer.drain(..taken);
            length -= taken;
            if length == 0 || !self.fill().await {
                return;
            }
        }
    }

    /// Drops input up to the next `Content-Length` (the start of the next header block).
    async fn resynchronise(&mut self) {
        loop {
            if let Some(start) = find(&self.buffer, CONTENT_LENGTH) {
                self.buffer.drain(..start);
                return;
            }
            let keep = CONTENT_LENGTH.len() - 1;
            let drop = self.buffer.len().saturating_sub(keep);
            self.buffer.drain(..drop);
            if !self.fill().await {
                self.buffer.clear();
                return;
            }
        }
    }
}

/// The first position of `needle` in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// The `Content-Length` of a header block (without its blank line), or why there is none.
fn content_length(header: &[u8]) -> Result<usize, String> {
    let mut length = None;
    for line in header.split(|&byte| byte == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(colon) = line.iter().position(|&byte| byte == b':') else {
            return Err(format!(
                "a header line is not `Name: value` ({:?})",
                String::from_utf8_lossy(&line[..line.len().min(80)])
            ));
        };
        let (name, value) = (&line[..colon], &line[colon + 1..]);
        if name.eq_ignore_ascii_case(CONTENT_LENGTH) {
            let value = String::from_utf8_lossy(value);
            let value = value.trim();
            length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| format!("`Content-Length: {value}` is not a number of bytes"))?,
            );
        }
    }
    length.ok_or_else(|| "a header block has no `Content-Length`".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8]) -> Vec<Frame> {
        let mut reader = FrameReader::new(input, 100);
        let mut frames = Vec::new();
        while let Some(frame) = reader.next().await {
            frames.push(frame);
        }
        frames
    }

    #[tokio::test]
    async fn garbage_between_frames_is_skipped_and_reading_goes_on() {
        let mut input = frame(b"{\"a\":1}");
        input.extend_from_slice(b"Content-Type: text\r\n\r\nmore junk");
        input.extend_from_slice(&frame(b"{\"b\":2}"));
        input.extend_from_slice(b"Content-Length: x\r\n\r\n{}junk");
        input.extend_from_slice(&frame(b"{\"c\":3}"));
        input.extend_from_slice(b"no header end at all");
        assert_eq!(
            frames(&input).await,
            vec![
                Frame::Body(b"{\"a\":1}".to_vec()),
                Frame::Skipped(
                    "a header block has no `Content-Length`; skipped to the next header block"
                        .to_owned()
                ),
                Frame::Body(b"{\"b\":2}".to_vec()),
                Frame::Skipped(
                    "`Content-Length: x` is not a number of bytes; skipped to the next header \
                     block"
                        .to_owned()
                ),
                Frame::Body(b"{\"c\":3}".to_vec()),
                Frame::Skipped("the input ended inside a header block".to_owned()),
            ]
        );
    }

    #[tokio::test]
    async fn a_body_larger_than_a_read_is_read_whole_and_the_next_frame_follows() {
        let large = vec![b'7'; 150_000];
        let mut input = frame(&large);
        input.extend_from_slice(&frame(b"{}"));
        input.extend_from_slice(b"Content-Length: 200000\r\n\r\n");
        input.extend_from_slice(&large);
        let mut reader = FrameReader::new(input.as_slice(), 1_000_000);
        let mut got = Vec::new();
        while let Some(frame) = reader.next().await {
            got.push(frame);
        }
        assert_eq!(
            got,
            vec![
                Frame::Body(large),
                Frame::Body(b"{}".to_vec()),
                Frame::Skipped(
                    "the input ended inside a message body (200000 bytes announced)".to_owned()
                ),
            ]
        );
    }

    #[tokio::test]
    async fn a_large_body_s_buffer_serves_the_next_large_body_until_released() {
        let large = vec![b'7'; 100_000];
        let mut input = Vec::new();
        for _ in 0..3 {
            input.extend_from_slice(&frame(&large));
        }
        let mut reader = FrameReader::new(input.as_slice(), 1_000_000);
        let Some(Frame::Body(first)) = reader.next().await else {
            panic!("the first body");
        };
        let kept = first.as_ptr();
        reader.recycle(first);
        let Some(Frame::Body(second)) = reader.next().await else {
            panic!("the second body");
        };
        assert_eq!((second.as_ptr(), &second), (kept, &large));
        reader.recycle(second);
        reader.release();
        assert_eq!(reader.spare.capacity(), 0);
        let Some(Frame::Body(third)) = reader.next().await else {
            panic!("the third body");
        };
        assert_eq!(third, large);
        // A small body's buffer is not kept.
        reader.recycle(b"{}".to_vec());
        assert_eq!(reader.spare.capacity(), 0);
    }

    #[tokio::test]
    async fn an_oversized_body_is_skipped_unread_and_a_short_one_reported() {
        let mut input = b"Content-Length: 101\r\n\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 101));
        input.extend_from_slice(&frame(b"{}"));
        input.extend_from_slice(b"Content-Length: 10\r\n\r\n{}");
        assert_eq!(
            frames(&input).await,
            vec![
                Frame::TooLarge(101),
                Frame::Body(b"{}".to_vec()),
                Frame::Skipped(
                    "the input ended inside a message body (10 bytes announced)".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn messages_are_checked_as_json_rpc_asks() {
        let refused = |body: &str| check_message(body.as_bytes()).expect_err(body);
        assert_eq!(refused("{nope").code, PARSE_ERROR);
        assert_eq!(refused("").code, PARSE_ERROR);
        let not_object = refused("[1, 2]");
        assert_eq!(
            (not_object.code, not_object.id.clone()),
            (INVALID_REQUEST, Value::Null)
        );
        assert!(
            not_object.message.contains("batch"),
            "{}",
            not_object.message
        );
        for scalar in ["42", "\"initialize\"", "null", "true"] {
            assert_eq!(
                refused(scalar),
                Refused {
                    code: INVALID_REQUEST,
                    id: Value::Null,
                    message: "invalid JSON-RPC message: not an object; it was skipped".to_owned(),
                },
                "{scalar}"
            );
        }
        let no_method = refused(r#"{"jsonrpc":"2.0","id":7}"#);
        assert_eq!((no_method.code, no_method.id), (INVALID_REQUEST, json!(7)));
        let bad_version = refused(r#"{"jsonrpc":"1.0","id":"x","method":"a"}"#);
        assert_eq!(bad_version.id, json!("x"));
        assert!(
            bad_version.message.contains("`jsonrpc`"),
            "{}",
            bad_version.message
        );
        assert!(
            refused(r#"{"jsonrpc":"2.0","id":1,"method":5}"#)
                .message
                .contains("`method` is not a string")
        );
        assert!(
            refused(r#"{"jsonrpc":"2.0","id":1,"method":"a","params":3}"#)
                .message
                .contains("`params`")
        );
        assert_eq!(
            refused(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"a"}"#).id,
            Value::Null
        );
        assert_eq!(
            check_message(br#"{"jsonrpc":"2.0","id":1,"method":"a"}"#),
            Ok(Checked::Call {
                id: Some(json!(1)),
                request: Request::build("a").id(1).finish(),
            })
        );
        assert_eq!(
            check_message(br#"{"jsonrpc":"2.0","method":"n","params":[]}"#),
            Ok(Checked::Call {
                id: None,
                request: Request::build("n").params(json!([])).finish(),
            })
        );
        assert_eq!(
            check_message(br#"{"jsonrpc":"2.0","id":1,"result":null}"#),
            Ok(Checked::Response(Response::from_ok(1.into(), Value::Null)))
        );
    }
}
