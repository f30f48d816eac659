//! The JSON error body for the answers hyper writes itself, below the application: a request it
//! cannot parse (a malformed request line, bad header bytes: `400`), a request target over
//! hyper's own limit (`414`) or a head over the read buffer or with too many header fields
//! (`431`). hyper writes these as a bare head with `content-length: 0` and offers no hook to
//! change them, so [`JsonParseErrors`] wraps the connection and rewrites exactly that head, as it
//! is written, into the same `{"error": "…"}` answer every other error has.
//!
//! How it recognises hyper's answer: the application never answers a `400`, `414` or `431`
//! without a body (every error response carries its JSON body), so a head with one of these
//! statuses and `content-length: 0` that ends what hyper hands over to write is hyper's own —
//! after it nothing more is written on that connection. The server writes through one flat buffer
//! (`writev(false)`), and the wrapper never splits that head across two writes, so it always sees
//! the whole head at once.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use hyper::rt::{Read, ReadBufCursor, Write};
use memchr::memmem;

use crate::controls::{MAX_HEADER_BYTES, MAX_URI_BYTES};

/// The read buffer of a connection (hyper's `max_buf_size`): a request head that does not fit is
/// answered `431`.
pub const MAX_HEAD_BYTES: usize = 256 * 1024;
/// The longest request target hyper parses at all (its own constant); longer is `414`.
pub const HYPER_MAX_URI_BYTES: usize = u16::MAX as usize - 1;
/// The most header fields hyper parses in one request (its own default); more is `431`.
pub const HYPER_MAX_HEADERS: usize = 100;

/// A status hyper answers by itself: the status line it writes, and the message of the JSON body
/// (made only when needed).
type AutomaticAnswer = (&'static [u8], fn() -> String);

/// Every status hyper answers by itself.
const AUTOMATIC_ANSWERS: [AutomaticAnswer; 3] = [
    (b"HTTP/1.1 400 Bad Request\r\n", || {
        "the request is not valid HTTP/1.1: its request line or a header could not be parsed; \
         send `METHOD /path HTTP/1.1`, then `Name: value` header lines with a token name and a \
         value without control characters"
            .to_owned()
    }),
    (b"HTTP/1.1 414 URI Too Long\r\n", || {
        format!(
            "the request target is over {HYPER_MAX_URI_BYTES} bytes; the limit is {MAX_URI_BYTES}"
        )
    }),
    (b"HTTP/1.1 431 Request Header Fields Too Large\r\n", || {
        format!(
            "the request head is over {MAX_HEAD_BYTES} bytes or has over {HYPER_MAX_HEADERS} header \
             fields; the limit for the headers is {MAX_HEADER_BYTES} bytes"
        )
    }),
];

/// Where hyper's own answer sits at the end of `written`, and the complete response that replaces
/// it: `(start, replacement)`.
fn automatic_answer(written: &[u8]) -> Option<(usize, Vec<u8>)> {
    let head_end = written.len().checked_sub(4)?;
    if written.get(head_end..)? != b"\r\n\r\n" {
        return None;
    }
    answers_at(written, head_end)
}

fn answers_at(written: &[u8], head_end: usize) -> Option<(usize, Vec<u8>)> {
    for (status_line, message) in AUTOMATIC_ANSWERS {
        let Some(start) = memmem::rfind(&written[..head_end], status_line) else {
            continue;
        };
        let head = &written[start..head_end + 2];
        // Only header lines between the status line and the end: no other response in between.
        if memmem::find(&head[status_line.len()..], b"\r\n\r\n").is_some()
            || memmem::find(&head[status_line.len()..], b"HTTP/1.").is_some()
        {
            continue;
        }
        let zero_length = b"content-length: 0\r\n";
        let Some(length_at) = memmem::find(head, zero_length) else {
            continue;
        };
        let body = serde_json::json!({ "error": message() }).to_string();
        let mut replacement = Vec::with_capacity(head.len() + body.len() + 64);
        replacement.extend_from_slice(&head[..length_at]);
        replacement.extend_from_slice(b"content-type: application/json\r\n");
        replacement.extend_from_slice(format!("content-length: {}\r\n", body.len()).as_bytes());
        replacement.extend_from_slice(&head[length_at + zero_length.len()..]);
        if memmem::find(head, b"\r\nconnection: close\r\n").is_none() {
            replacement.extend_from_slice(b"connection: close\r\n");
        }
        replacement.extend_from_slice(b"\r\n");
        replacement.extend_from_slice(body.as_bytes());
        return Some((start, replacement));
    }
    None
}

/// A connection whose automatic `400`, `414` and `431` answers from hyper get the JSON error body.
pub struct JsonParseErrors<T> {
    inner: T,
    /// The replacement answer still to write, and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
}

impl<T> JsonParseErrors<T> {
    /// Wraps a connection.
    pub fn new(inner: T) -> JsonParseErrors<T> {
        JsonParseErrors {
            inner,
            pending: None,
        }
    }
}

impl<T: Write + Unpin> JsonParseErrors<T> {
    /// Writes the pending replacement, if any, to the end.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.pending {
            if *written == bytes.len() {
                self.pending = None;
                break;
            }
            let count = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]))?;
            if count == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += count;
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: Read + Unpin> Read for JsonParseErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: Write + Unpin> Write for JsonParseErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        match automatic_answer(buf) {
            // Write what comes before it first, so that the head itself is never split.
            Some((start, _)) if start > 0 => {
                Pin::new(&mut self.inner).poll_write(cx, &buf[..start])
            }
            Some((_, replacement)) => {
                self.pending = Some((replacement, 0));
                // Taken whole: the replacement goes out now or on the next write, flush or
                // shutdown.
                if let Poll::Ready(Err(error)) = self.poll_pending(cx) {
                    return Poll::Ready(Err(error));
                }
                Poll::Ready(Ok(buf.len()))
            }
            None => Pin::new(&mut self.inner).poll_write(cx, buf),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(response: &[u8]) -> String {
        let text = String::from_utf8_lossy(response);
        text.split("\r\n\r\n").nth(1).unwrap_or_default().to_owned()
    }

    #[test]
    fn hypers_bare_answer_gets_the_json_body_and_keeps_its_headers() {
        let written =
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: Mon, 23 Nov 2026 13:00:00 GMT\r\n\r\n";
        let (start, replacement) = automatic_answer(written).expect("recognised");
        assert_eq!(start, 0);
        let text = String::from_utf8_lossy(&replacement);
        let (head, _) = text.split_once("\r\n\r\n").expect("a head");
        let body = body(&replacement);
        assert_eq!(
            head,
            format!(
                "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
                 date: Mon, 23 Nov 2026 13:00:00 GMT\r\nconnection: close",
                body.len()
            )
        );
        assert!(
            body.starts_with(r#"{"error":"the request is not valid HTTP/1.1: "#),
            "{body}"
        );
    }

    #[test]
    fn an_answer_after_an_earlier_response_is_found_at_its_start() {
        let mut written = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}".to_vec();
        let first = written.len();
        written.extend_from_slice(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
        );
        let (start, replacement) = automatic_answer(&written).expect("recognised");
        assert_eq!(start, first);
        assert_eq!(
            body(&replacement),
            format!(
                r#"{{"error":"the request head is over {MAX_HEAD_BYTES} bytes or has over 100 header fields; the limit for the headers is {MAX_HEADER_BYTES} bytes"}}"#
            )
        );
        assert_eq!(
            String::from_utf8_lossy(&replacement)
                .matches("connection: close")
                .count(),
            1
        );
    }

    #[test]
    fn the_applications_own_answers_pass_untouched() {
        for written in [
            &b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{\"error\":1}"[..],
            b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            // The bare head followed by anything is not the last thing written: not hyper's.
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"",
            b"\r\n\r\n",
        ] {
            assert!(
                automatic_answer(written).is_none(),
                "{}",
                String::from_utf8_lossy(written)
            );
        }
    }
}
