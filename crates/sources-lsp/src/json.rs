//! The JSON reader of the client's message bodies: one pass over the bytes, each string unescaped
//! straight into the `String` the message keeps.
//!
//! A client without incremental sync sends the whole document with each change, as one JSON
//! string with an escape on every line (`\n`) and at every quote. `serde_json` unescaped such a
//! string into a scratch buffer that grew by doubling, then copied it into a `String`: the
//! megabytes of a large document went through three buffers. Here a string with escapes is
//! decoded into the buffer the `String` keeps, which a long one gets as large as the rest of the
//! body (its bound: an escape is never shorter than what it stands for); the pages it does not
//! fill are never touched. The reader accepts exactly what `serde_json` accepts and gives the same
//! [`Value`], numbers parsed by `serde_json` itself.

use serde_json::{Map, Number, Value};

/// The room a string with escapes is given first: one that outgrows it is given room for the rest
/// of the body at once (its bound), so a large text is never copied into a larger buffer, and a
/// small string in a large body never takes room for all of it.
const FIRST_ROOM: usize = 4096;

/// The deepest nesting of arrays and objects read (as `serde_json`'s own limit): a deeper body is
/// refused rather than read by recursion without end.
const MAX_DEPTH: usize = 128;

/// Why a body is not JSON, and the byte where that was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} at byte {at}")]
pub(crate) struct JsonError {
    /// What is wrong.
    pub(crate) what: &'static str,
    /// Offset of the byte where it was found.
    pub(crate) at: usize,
}

/// The JSON value `body` holds, with nothing but whitespace around it.
pub(crate) fn parse(body: &[u8]) -> Result<Value, JsonError> {
    let mut reader = Reader { bytes: body, at: 0 };
    let value = reader.value(0)?;
    reader.skip_whitespace();
    if reader.at < body.len() {
        return Err(reader.error("characters after the value"));
    }
    Ok(value)
}

/// A position in a body being read.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, what: &'static str) -> JsonError {
        JsonError { what, at: self.at }
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// Reads the value at the reader's position, inside `depth` arrays and objects.
    fn value(&mut self, depth: usize) -> Result<Value, JsonError> {
        self.skip_whitespace();
        match self.bytes.get(self.at) {
            Some(b'"') => self.string().map(Value::String),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b't') => self.literal(b"true", Value::Bool(true)),
            Some(b'f') => self.literal(b"false", Value::Bool(false)),
            Some(b'n') => self.literal(b"null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
            None => Err(self.error("the body ended where a value was expected")),
        }
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Result<Value, JsonError> {
        if self.bytes[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("expected a value"))
        }
    }

    /// A number: its characters are found here, and parsed by `serde_json` (which refuses what
    /// JSON's grammar does not allow, and numbers out of range).
    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.at;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
        }
        let invalid = JsonError {
            what: "an invalid number",
            at: start,
        };
        let text = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| invalid.clone())?;
        serde_json::from_str::<Number>(text)
            .map(Value::Number)
            .map_err(|_| invalid)
    }

    fn array(&mut self, depth: usize) -> Result<Value, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("arrays and objects nested too deep"));
        }
        self.at += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.bytes.get(self.at) == Some(&b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.skip_whitespace();
            match self.bytes.get(self.at) {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("expected `,` or `]` in an array")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("arrays and objects nested too deep"));
        }
        self.at += 1;
        let mut members = Map::new();
        self.skip_whitespace();
        if self.bytes.get(self.at) == Some(&b'}') {
            self.at += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_whitespace();
            if self.bytes.get(self.at) != Some(&b'"') {
                return Err(self.error("expected a key (a string) in an object"));
            }
            let key = self.string()?;
            self.skip_whitespace();
            if self.bytes.get(self.at) != Some(&b':') {
                return Err(self.error("expected `:` after a key"));
            }
            self.at += 1;
            // A repeated key keeps its first place and its last value, as in `serde_json`.
            members.insert(key, self.value(depth)?);
            self.skip_whitespace();
            match self.bytes.get(self.at) {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.error("expected `,` or `}` in an object")),
            }
        }
    }

    /// The string whose opening quote is at the reader's position.
    fn string(&mut self) -> Result<String, JsonError> {
        let start = self.at + 1;
        let mut at = special(self.bytes, start);
        if self.bytes.get(at) == Some(&b'"') {
            self.at = at + 1;
            return utf8(self.bytes[start..at].to_vec(), start);
        }
        let mut decoded = Vec::with_capacity((self.bytes.len() - start).min(FIRST_ROOM));
        decoded.extend_from_slice(&self.bytes[start..at]);
        loop {
            match self.bytes.get(at) {
                Some(b'"') => break,
                Some(b'\\') => at = self.escape(at, &mut decoded)?,
                Some(_) => {
                    return Err(JsonError {
                        what: "a control character in a string (it must be escaped)",
                        at,
                    });
                }
                None => {
                    return Err(JsonError {
                        what: "the body ended inside a string",
                        at,
                    });
                }
            }
            at = copy_text(self.bytes, at, &mut decoded);
        }
        self.at = at + 1;
        // Gives back what the string did not fill (mimalloc keeps a large block in place).
        decoded.shrink_to_fit();
        utf8(decoded, start)
    }

    /// Decodes the escape whose backslash is at `at` onto `decoded`; where the text goes on.
    fn escape(&self, at: usize, decoded: &mut Vec<u8>) -> Result<usize, JsonError> {
        match self.bytes.get(at + 1) {
            Some(b'u') => self.unicode_escape(at, decoded),
            Some(&letter) => {
                let byte = unescaped(letter).ok_or(JsonError {
                    what: "an invalid escape in a string",
                    at,
                })?;
                decoded.push(byte);
                Ok(at + 2)
            }
            None => Err(JsonError {
                what: "the body ended inside a string",
                at,
            }),
        }
    }

    /// Decodes the `\uXXXX` escape at `at` (two of them for a surrogate pair) onto `decoded`.
    fn unicode_escape(&self, at: usize, decoded: &mut Vec<u8>) -> Result<usize, JsonError> {
        let unit = self.hex4(at)?;
        let (scalar, end) = match unit {
            0xDC00..=0xDFFF => {
                return Err(JsonError {
                    what: "a lone trailing surrogate (`\\uDC00` to `\\uDFFF`) in a string",
                    at,
                });
            }
            0xD800..=0xDBFF => {
                let lone = JsonError {
                    what: "a leading surrogate (`\\uD800` to `\\uDBFF`) not followed by a trailing \
                           one in a string",
                    at,
                };
                if self.bytes.get(at + 6..at + 8) != Some(b"\\u") {
                    return Err(lone);
                }
                let trailing = self.hex4(at + 6)?;
                if !(0xDC00..=0xDFFF).contains(&trailing) {
                    return Err(lone);
                }
                let scalar =
                    0x1_0000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(trailing) - 0xDC00);
                (scalar, at + 12)
            }
            _ => (u32::from(unit), at + 6),
        };
        // Every scalar outside the surrogates is a `char`.
        let character = char::from_u32(scalar).ok_or(JsonError {
            what: "an invalid `\\u` escape in a string",
            at,
        })?;
        decoded.extend_from_slice(character.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(end)
    }

    /// The four hexadecimal digits after the `\u` at `at`.
    fn hex4(&self, at: usize) -> Result<u16, JsonError> {
        let invalid = JsonError {
            what: "a `\\u` escape without four hexadecimal digits in a string",
            at,
        };
        let digits = self.bytes.get(at + 2..at + 6).ok_or(invalid.clone())?;
        digits.iter().try_fold(0u16, |value, &digit| {
            let digit = (digit as char).to_digit(16).ok_or(invalid.clone())?;
            Ok(value << 4 | digit as u16)
        })
    }
}

/// The string of `bytes`, which a string of the body starting at `start` decoded to.
fn utf8(bytes: Vec<u8>, start: usize) -> Result<String, JsonError> {
    String::from_utf8(bytes).map_err(|error| JsonError {
        what: "a string that is not UTF-8",
        at: start + error.utf8_error().valid_up_to(),
    })
}

/// Flags the bytes of `word` (eight bytes, little-endian) that end a run of a string's plain
/// text: a quote, a backslash or a control character. A byte is flagged (its high bit set) when it
/// is below 0x20, or when XOR with a quote or a backslash makes it zero; the lowest flag is exact
/// (a false flag can only follow a true one, through the borrow), and 0 means none.
const fn flags(word: u64) -> u64 {
    const ONES: u64 = u64::MAX / 255;
    let quote = word ^ (ONES * b'"' as u64);
    let backslash = word ^ (ONES * b'\\' as u64);
    (word.wrapping_sub(ONES * 0x20) | quote.wrapping_sub(ONES) | backslash.wrapping_sub(ONES))
        & !word
        & (ONES << 7)
}

/// Whether a byte ends a run of a string's plain text.
const fn is_special(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

/// The eight bytes at `at`, if there are eight.
fn eight_at(bytes: &[u8], at: usize) -> Option<[u8; 8]> {
    bytes
        .get(at..at.checked_add(8)?)
        .and_then(|eight| eight.try_into().ok())
}

/// The offset of the first byte at or after `from` that ends a run of a string's plain text
/// (`bytes.len()` if none), eight bytes at a time.
fn special(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    while let Some(eight) = eight_at(bytes, at) {
        let flagged = flags(u64::from_le_bytes(eight));
        if flagged != 0 {
            return at + flagged.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    while bytes.get(at).is_some_and(|&byte| !is_special(byte)) {
        at += 1;
    }
    at
}

/// The byte a one-letter escape (`\n`, `\"`...) stands for; `None` for `u` and what is not
/// an escape.
const fn unescaped(letter: u8) -> Option<u8> {
    Some(match letter {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => b'\x08',
        b'f' => b'\x0c',
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        _ => return None,
    })
}

/// Copies a string's text from `from` onto `decoded`, its one-letter escapes decoded, up to the
/// first byte it cannot take (a quote, a control character, a `\u` or invalid escape), and
/// returns that byte's offset (`bytes.len()` if none). Each eight bytes are appended whole (one
/// store) and the bytes after a flag taken back: cheaper than finding a run's end first and
/// copying it, on a text with an escape every few bytes (each line's `\n`).
fn copy_text(bytes: &[u8], from: usize, decoded: &mut Vec<u8>) -> usize {
    let mut at = from;
    while let Some(eight) = eight_at(bytes, at) {
        if decoded.capacity() - decoded.len() < 8 {
            // What is left of the string decodes to no more than the rest of the body.
            decoded.reserve(bytes.len() - at);
        }
        decoded.extend_from_slice(&eight);
        let flagged = flags(u64::from_le_bytes(eight));
        if flagged == 0 {
            at += 8;
            continue;
        }
        let plain = flagged.trailing_zeros() as usize / 8;
        decoded.truncate(decoded.len() - 8 + plain);
        at += plain;
        match (
            bytes[at],
            bytes.get(at + 1).and_then(|&letter| unescaped(letter)),
        ) {
            (b'\\', Some(byte)) => {
                decoded.push(byte);
                at += 2;
            }
            _ => return at,
        }
    }
    while let Some(&byte) = bytes.get(at).filter(|&&byte| !is_special(byte)) {
        decoded.push(byte);
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `parse` and `serde_json` agree on `text`: the same value, or both refuse it.
    fn agrees(text: &[u8]) -> Result<Value, JsonError> {
        let ours = parse(text);
        let theirs = serde_json::from_slice::<Value>(text);
        match (&ours, &theirs) {
            (Ok(ours), Ok(theirs)) => {
                assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(text))
            }
            (Err(_), Err(_)) => {}
            _ => panic!(
                "{:?}: ours {ours:?}, serde_json {theirs:?}",
                String::from_utf8_lossy(text)
            ),
        }
        ours
    }

    fn refused(text: &str) -> JsonError {
        agrees(text.as_bytes()).expect_err(text)
    }

    #[test]
    fn every_escape_decodes_as_serde_json_decodes_it() {
        let value = agrees(
            r#"{"a":"q\"b\\s\/b\bf\fn\nr\rt\t","u":"\u0041\u00e9\u20AC\ud83d\ude00","raw":"é😀"}"#
                .as_bytes(),
        )
        .expect("valid JSON");
        assert_eq!(value["a"], "q\"b\\s/b\x08f\x0cn\nr\rt\t");
        assert_eq!(value["u"], "Aé€😀");
        assert_eq!(value["raw"], "é😀");
        for text in [
            r#""""#,
            r#""\\""#,
            r#""\"""#,
            r#""\u0000\u001f""#,
            r#""a\nb\nc""#,
            r#""12345678\n12345678901234567\"x""#,
            r#"["\ud800\udc00", "\udbff\udfff"]"#,
            r#"{"a":1,"a":2,"b":[]}"#,
            r#" [ -0, 0, 12, -7, 1.5e3, 1E-2, 18446744073709551615, -9223372036854775808, 1e308 ] "#,
            r#"[true,false,null,{},[],{"x":{"y":[1,[2,[3]]]}}]"#,
        ] {
            agrees(text.as_bytes()).expect(text);
        }
    }

    #[test]
    fn a_long_text_with_escapes_everywhere_is_decoded_whole() {
        let document: String = (0..2000)
            .map(|line| format!("  key_{line}: \"é {line}\"\t\\ 😀\r\n"))
            .collect();
        let body = serde_json::to_vec(&json_text(&document)).expect("serialisable");
        assert_eq!(
            parse(&body).expect("valid JSON")["text"].as_str(),
            Some(document.as_str())
        );
        // Every prefix of a short escaped string is refused or read, as `serde_json` does.
        let short = br#"{"text":"a\"\\\u00e9\ud83d\ude00\n"}"#;
        for end in 0..=short.len() {
            let _ = agrees(&short[..end]);
        }
    }

    fn json_text(text: &str) -> Value {
        serde_json::json!({ "text": text })
    }

    #[test]
    fn bad_escapes_and_surrogates_are_refused_with_what_is_wrong() {
        let cases = [
            (r#""\x""#, "an invalid escape in a string at byte 1"),
            (
                r#""\u12""#,
                "a `\\u` escape without four hexadecimal digits in a string at byte 1",
            ),
            (
                r#""ab\u12G4""#,
                "a `\\u` escape without four hexadecimal digits in a string at byte 3",
            ),
            (
                r#""\ud800""#,
                "a leading surrogate (`\\uD800` to `\\uDBFF`) not followed by a trailing one \
                 in a string at byte 1",
            ),
            (
                r#""\ud800\u0041""#,
                "a leading surrogate (`\\uD800` to `\\uDBFF`) not followed by a trailing one \
                 in a string at byte 1",
            ),
            (
                r#""\ud800\n""#,
                "a leading surrogate (`\\uD800` to `\\uDBFF`) not followed by a trailing one \
                 in a string at byte 1",
            ),
            (
                r#""x\udc00""#,
                "a lone trailing surrogate (`\\uDC00` to `\\uDFFF`) in a string at byte 2",
            ),
            (
                "\"tab\there\"",
                "a control character in a string (it must be escaped) at byte 4",
            ),
            ("\"open", "the body ended inside a string at byte 5"),
            ("\"open\\", "the body ended inside a string at byte 5"),
        ];
        for (text, message) in cases {
            assert_eq!(refused(text).to_string(), message, "{text}");
        }
        assert_eq!(
            agrees(b"\"\xff\"").expect_err("not UTF-8").to_string(),
            "a string that is not UTF-8 at byte 1"
        );
        assert_eq!(
            agrees(b"\"ok \\n \xc3\"").expect_err("not UTF-8").what,
            "a string that is not UTF-8"
        );
    }

    #[test]
    fn what_is_not_json_is_refused_as_serde_json_refuses_it() {
        for text in [
            "",
            " ",
            "{",
            "}",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{1:2}",
            "[1 2]",
            "01",
            "-",
            "1.",
            "1e",
            "+1",
            "1e400",
            "tru",
            "nul",
            "[true false]",
            "{} {}",
            "\"a\" x",
            "[\"a\"",
            "{\"a\":",
            "NaN",
            "'a'",
        ] {
            refused(text);
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(refused(&deep).what, "arrays and objects nested too deep");
        let deep_enough = format!("{}{}", "[".repeat(100), "]".repeat(100));
        agrees(deep_enough.as_bytes()).expect("100 levels are read");
    }

    #[test]
    fn mangled_bodies_are_read_or_refused_as_serde_json_does() {
        // Pieces that start escapes, surrogates, numbers and structure, and bytes that are not
        // UTF-8, spliced into valid bodies at random places (a fixed seed: the run repeats).
        const PIECES: [&[u8]; 24] = [
            b"\\",
            b"\\u",
            b"\\ud83d",
            b"\\ude00",
            b"\\uD800\\u",
            b"\"",
            b"\\n",
            b"0",
            b"-",
            b"e",
            b".",
            b"{",
            b"}",
            b"[",
            b"]",
            b",",
            b":",
            b" ",
            b"\n",
            b"\x01",
            b"\xc3",
            b"\xa9",
            b"\xf0\x9f",
            "é😀".as_bytes(),
        ];
        let bases: [&[u8]; 3] = [
            br#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.yaml","version":3},"contentChanges":[{"text":"a: \"1\"\r\nb: \u00e9\ud83d\ude00\n"}]}}"#,
            br#"[1, -2.5e3, true, null, {"k": ["v", "\/\b\f\t"]}]"#,
            br#""plain text long enough to be read eight bytes at a time, twice over""#,
        ];
        let mut random = sources_testkit::random::Random::new(0x2545_f491_4f6c_dd1d);
        let mut next = |bound: usize| random.below(bound);
        let mut read = 0;
        for _ in 0..20_000 {
            let mut body = bases[next(bases.len())].to_vec();
            for _ in 0..1 + next(3) {
                let at = next(body.len() + 1);
                match next(3) {
                    0 => {
                        let piece = PIECES[next(PIECES.len())];
                        body.splice(at..at, piece.iter().copied());
                    }
                    1 if at < body.len() => {
                        body.remove(at);
                    }
                    _ => body.truncate(at.max(1)),
                }
            }
            read += usize::from(agrees(&body).is_ok());
        }
        assert!(read > 1000, "only {read} mangled bodies were still JSON");
    }

    #[test]
    fn the_scan_stops_at_the_first_quote_backslash_or_control_character_and_the_copy_at_a_u_escape()
    {
        let text = b"abcdefgh\x80\xffijklmnop\"";
        assert_eq!(special(text, 0), text.len() - 1);
        for (offset, byte) in [(0, b'"'), (7, b'\\'), (8, 0x1f), (9, 0), (15, b'\n')] {
            let mut bytes = vec![b'a'; 20];
            bytes[offset] = byte;
            // A byte above 0x80 after the hit must not move it.
            bytes[offset + 1] = 0xfe;
            assert_eq!(special(&bytes, 0), offset, "{byte:#x} at {offset}");
            assert_eq!(special(&bytes, offset + 1), 20);
        }
        assert_eq!(special(b"abc", 3), 3);
        assert_eq!(special(b"abc", 7), 7);
        let mut decoded = b"x".to_vec();
        let text = b"0123456789abcdef\\tail\\\\ and \\ud83d";
        assert_eq!(copy_text(text, 2, &mut decoded), 28);
        assert_eq!(decoded, b"x23456789abcdef\tail\\ and ");
        assert_eq!(copy_text(b"abc", 1, &mut decoded), 3);
        assert_eq!(decoded, b"x23456789abcdef\tail\\ and bc");
    }
}
