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
//!
//! This module owns the session (the hand-over to the service and the one writer); `framing` reads
//! and writes `Content-Length` frames, and `message` checks a body against JSON-RPC.

mod framing;
mod message;

use std::io::Write as _;

use futures::{FutureExt, Sink, SinkExt, StreamExt, TryFutureExt, future, stream};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tower::Service;
use tower_lsp_server::jsonrpc::Response;
use tower_lsp_server::{ClientSocket, LspService};

use framing::{Frame, FrameReader, MAX_BODY_BYTES, frame};
use message::{Checked, INVALID_REQUEST, Refused};

/// `window/logMessage` types.
const LOG_ERROR: u8 = 1;
const LOG_WARNING: u8 = 2;

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
