//! Framing: `Content-Length` header blocks read into message bodies (resynchronising on garbage
//! instead of stopping, skipping bodies over a limit unread) and bodies framed for writing.

use tokio::io::{AsyncRead, AsyncReadExt};

use super::message::{Checked, Refused, check_message};

/// The largest header block read before it is treated as garbage.
const MAX_HEADER_BYTES: usize = 8 * 1024;

/// The largest message body accepted: room for the largest document the server analyses
/// (16 MiB) with every character escaped. A larger body is skipped without being buffered.
pub(crate) const MAX_BODY_BYTES: usize = 100 * 1024 * 1024;

/// The smallest body whose buffer is kept for the next body ([`FrameReader::recycle`]).
const RECYCLED_BYTES: usize = 64 * 1024;

/// `Content-Length` as it starts a header block.
const CONTENT_LENGTH: &[u8] = b"Content-Length";

/// Frames one JSON-RPC message body.
pub(crate) fn frame(body: &[u8]) -> Vec<u8> {
    let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    framed.extend_from_slice(body);
    framed
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
}
