//! The language server protocol's framing (`Content-Length: N\r\n\r\n` and N bytes of JSON), for
//! the test clients that talk to the real `sources lsp` process.

use std::io::BufRead;

use serde_json::Value;

/// `body` with its `Content-Length` header in front.
pub fn frame(body: &str) -> Vec<u8> {
    let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    framed.extend_from_slice(body.as_bytes());
    framed
}

/// Reads one framed message: `Ok(None)` when the stream ends, `Err` saying what is wrong with a
/// frame that has no usable `Content-Length` or whose body is not JSON.
pub fn read_message(reader: &mut impl BufRead) -> Result<Option<Value>, String> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return Ok(None);
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length:") {
            length = Some(
                value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| format!("`{line}` is not a number of bytes"))?,
            );
        }
    }
    let length = length.ok_or("a header block has no `Content-Length`")?;
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return Ok(None);
    }
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|error| format!("a body is not JSON: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_framed_message_reads_back_and_the_end_of_the_stream_is_none() {
        let mut bytes = frame(r#"{"id":1}"#);
        bytes.extend(frame("[]"));
        let mut reader = bytes.as_slice();
        assert_eq!(
            read_message(&mut reader),
            Ok(Some(serde_json::json!({"id": 1})))
        );
        assert_eq!(read_message(&mut reader), Ok(Some(serde_json::json!([]))));
        assert_eq!(read_message(&mut reader), Ok(None));
    }

    #[test]
    fn a_broken_frame_says_what_is_wrong() {
        let read = |bytes: &[u8]| read_message(&mut { bytes });
        assert_eq!(
            read(b"Content-Length: many\r\n\r\n{}"),
            Err("`Content-Length: many` is not a number of bytes".to_owned())
        );
        assert_eq!(
            read(b"Content-Type: x\r\n\r\n{}"),
            Err("a header block has no `Content-Length`".to_owned())
        );
        assert!(
            read(b"Content-Length: 2\r\n\r\n{]")
                .expect_err("a broken body")
                .starts_with("a body is not JSON")
        );
        assert_eq!(
            read(b"Content-Length: 9\r\n\r\n{}"),
            Ok(None),
            "cut short: the end"
        );
    }
}
