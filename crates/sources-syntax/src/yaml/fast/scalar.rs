//! The fast reader's scalars: plain, quoted and block scalars read on their lines, and
//! what a scalar read in block context is (a key or a value).

use ecow::EcoString;

use super::{Reader, Scanned};
use crate::yaml::schema::{looks_like_int, resolve_plain};
use crate::{Key, Node, ScalarStyle, Span, Str, Value};

/// Longest key, in bytes, the fast reader takes: YAML limits a simple key to 1024 characters.
const MAX_KEY_BYTES: usize = 1000;

/// The bytes a table marks: `true` for each of `bytes`.
const fn marked(bytes: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

/// Where a plain scalar's scan stops to look closer: the line's end, a blank, a `:`.
static PLAIN_STOPS: [bool; 256] = marked(b"\n :");

/// Where a single-quoted scalar's scan stops to look closer.
static SINGLE_QUOTED_STOPS: [bool; 256] = marked(b"\n'");

/// Where a double-quoted scalar's scan stops to look closer.
static DOUBLE_QUOTED_STOPS: [bool; 256] = marked(b"\n\"\\");

impl Reader<'_> {
    /// A block scalar whose indicator is at `pos`, the value of the collection on top of the
    /// stack: literal (`|`) or folded (`>`), `-` after it to strip the final line break; reads its
    /// lines, leaving `at` at the first line after them. Its content is indented deeper than that
    /// collection and starts on the line after the indicator: leading blank lines, a blank line
    /// indented deeper than the content, an indentation indicator, a kept final break (`+`), a
    /// text that ends without a line break inside it, and in a folded scalar a blank or
    /// more-indented line between its lines make it decline.
    pub(super) fn block_scalar(&mut self, pos: usize) -> Option<Node> {
        let parent = self.stack.last()?.indent();
        let bytes = self.bytes;
        let folded = bytes[pos] == b'>';
        let strip = bytes.get(pos + 1) == Some(&b'-');
        let header_end = pos + 1 + usize::from(strip);
        let mut line = self.line_end(header_end)?;
        let first = self.spaces(line);
        let indent = first - line;
        if indent <= parent || matches!(bytes.get(first), None | Some(b'\n')) {
            return None;
        }
        let mut text = String::new();
        let mut blank_lines = 0;
        let mut end = first;
        while line < bytes.len() {
            let content = self.spaces(line);
            let feed = self.line_feed(content);
            if content == feed {
                // A blank line: content, unless no more content follows.
                if content - line > indent || feed == bytes.len() {
                    return None;
                }
                blank_lines += 1;
                line = feed + 1;
                continue;
            }
            if content - line < indent {
                break;
            }
            if feed == bytes.len() {
                return None;
            }
            if folded {
                // Lines at the content's indentation, folded into one with a space each.
                if blank_lines > 0 || content - line > indent {
                    return None;
                }
                if text.pop().is_some() {
                    text.push(' ');
                }
            }
            for _ in 0..blank_lines {
                text.push('\n');
            }
            blank_lines = 0;
            text.push_str(&self.text[line + indent..feed]);
            text.push('\n');
            end = content + self.text[content..feed].trim_end_matches(' ').len();
            line = feed + 1;
        }
        if strip {
            text.pop();
        }
        self.at = line;
        let value = Value::Str(Str {
            text: EcoString::from(text),
            style: if folded {
                ScalarStyle::Folded
            } else {
                ScalarStyle::Literal
            },
        });
        Some(Node::new(value, Span::new(pos, end)))
    }

    /// Reads the scalar or flow collection at `pos` (block context), as a key when a `:` and a
    /// blank follow it.
    pub(super) fn scan(&self, pos: usize) -> Option<Scanned> {
        let (value, end) = match self.bytes[pos] {
            b'\'' | b'"' => self.quoted(pos)?,
            b'[' | b'{' => {
                let (mut node, end) = self.flow_node(pos, 0)?;
                node.span = Span::new(pos, self.after_flow(end)?);
                return Some(Scanned::Value(node, end));
            }
            _ => return self.plain_block(pos),
        };
        if self.bytes.get(end) == Some(&b':') {
            if !self.blank_or_end(end + 1) || end - pos > MAX_KEY_BYTES {
                return None;
            }
            let Value::Str(text) = value.value else {
                return None;
            };
            let key = Key {
                name: text.text,
                span: value.span,
            };
            return Some(Scanned::Key(key, end + 1));
        }
        Some(Scanned::Value(value, end))
    }

    /// A plain scalar in block context at `pos`, on one line.
    pub(super) fn plain_block(&self, pos: usize) -> Option<Scanned> {
        if !self.plain_start(pos, false) {
            return None;
        }
        let bytes = self.bytes;
        let mut at = pos;
        let mut end = pos;
        let mut key = false;
        loop {
            let run = at;
            while let Some(&b) = bytes.get(at)
                && !PLAIN_STOPS[usize::from(b)]
            {
                at += 1;
            }
            if at > run {
                end = at;
            }
            match bytes.get(at) {
                Some(b' ') => {
                    let next = self.spaces(at);
                    if matches!(bytes.get(next), None | Some(b'\n' | b'#')) {
                        break;
                    }
                    at = next;
                }
                Some(b':') if self.blank_or_end(at + 1) => {
                    key = true;
                    break;
                }
                Some(b':') => {
                    at += 1;
                    end = at;
                }
                _ => break,
            }
        }
        let text = &self.text[pos..end];
        let span = Span::new(pos, end);
        if key {
            if at != end || text.len() > MAX_KEY_BYTES || text == "<<" {
                return None;
            }
            if looks_like_int(text) && resolve_plain(text).is_none() {
                return None;
            }
            let key = Key {
                name: EcoString::from(text),
                span,
            };
            return Some(Scanned::Key(key, at + 1));
        }
        Some(Scanned::Value(Node::new(plain_value(text)?, span), end))
    }

    /// Whether a plain scalar may start at `pos`: not at an indicator (a `-` only before a
    /// character that keeps it a scalar).
    pub(super) fn plain_start(&self, pos: usize, flow: bool) -> bool {
        match self.bytes.get(pos) {
            None => false,
            Some(b'-') => {
                let ends = |b: &u8| matches!(b, b' ' | b'\n');
                let ends_in_flow =
                    |b: &u8| matches!(b, b',' | b'[' | b']' | b'{' | b'}' | b'#' | b':');
                self.bytes
                    .get(pos + 1)
                    .is_some_and(|b| !(ends(b) || (flow && ends_in_flow(b))))
            }
            Some(&b) => !matches!(
                b,
                b' ' | b'\n'
                    | b'['
                    | b']'
                    | b'{'
                    | b'}'
                    | b','
                    | b'#'
                    | b'&'
                    | b'*'
                    | b'!'
                    | b'|'
                    | b'>'
                    | b'\''
                    | b'"'
                    | b'%'
                    | b'@'
                    | b'`'
                    | b'?'
                    | b':'
            ),
        }
    }

    /// A quoted scalar opening at `pos`, closed on the same line: its node and the offset past
    /// its closing quote.
    pub(super) fn quoted(&self, pos: usize) -> Option<(Node, usize)> {
        let bytes = self.bytes;
        let quote = bytes[pos];
        let mut at = pos + 1;
        let mut from = at;
        let mut decoded: Option<String> = None;
        let stops = if quote == b'"' {
            &DOUBLE_QUOTED_STOPS
        } else {
            &SINGLE_QUOTED_STOPS
        };
        loop {
            while bytes.get(at).is_some_and(|&b| !stops[usize::from(b)]) {
                at += 1;
            }
            let b = *bytes.get(at)?;
            match b {
                b'\n' => return None,
                b'\'' if quote == b'\'' => {
                    if bytes.get(at + 1) != Some(&b'\'') {
                        break;
                    }
                    let buffer = decoded.get_or_insert_with(String::new);
                    buffer.push_str(&self.text[from..=at]);
                    at += 2;
                    from = at;
                }
                b'"' if quote == b'"' => break,
                b'\\' if quote == b'"' => {
                    let (c, width) = escape(&bytes[at + 1..])?;
                    let buffer = decoded.get_or_insert_with(String::new);
                    buffer.push_str(&self.text[from..at]);
                    buffer.push(c);
                    at += 1 + width;
                    from = at;
                }
                _ => at += 1,
            }
        }
        let text = match decoded {
            Some(mut buffer) => {
                buffer.push_str(&self.text[from..at]);
                EcoString::from(buffer)
            }
            None => EcoString::from(&self.text[from..at]),
        };
        let style = if quote == b'"' {
            ScalarStyle::DoubleQuoted
        } else {
            ScalarStyle::SingleQuoted
        };
        let end = at + 1;
        let node = Node::new(Value::Str(Str { text, style }), Span::new(pos, end));
        Some((node, end))
    }
}

/// A plain scalar's value under the core schema; `None` for an integer too large for 64 bits (an
/// error saphyr's path reports).
pub(super) fn plain_value(text: &str) -> Option<Value> {
    match resolve_plain(text) {
        Some(value) => Some(value),
        None if looks_like_int(text) => None,
        None => Some(Value::Str(Str {
            text: EcoString::from(text),
            style: ScalarStyle::Plain,
        })),
    }
}

/// The character a double-quoted escape stands for (`rest` follows its `\`), and how many bytes
/// after the `\` it takes; `None` for an escape YAML does not define.
fn escape(rest: &[u8]) -> Option<(char, usize)> {
    let c = match *rest.first()? {
        b'0' => '\0',
        b'a' => '\x07',
        b'b' => '\x08',
        b't' => '\t',
        b'n' => '\n',
        b'v' => '\x0b',
        b'f' => '\x0c',
        b'r' => '\r',
        b'e' => '\x1b',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        b'x' => return hex(rest, 2),
        b'u' => return hex(rest, 4),
        b'U' => return hex(rest, 8),
        _ => return None,
    };
    Some((c, 1))
}

/// The character of a `\x`, `\u` or `\U` escape of `digits` hexadecimal digits.
fn hex(rest: &[u8], digits: usize) -> Option<(char, usize)> {
    let code = rest.get(1..=digits)?;
    let mut value = 0u32;
    for &digit in code {
        value = (value << 4) | char::from(digit).to_digit(16)?;
    }
    Some((char::from_u32(value)?, 1 + digits))
}
