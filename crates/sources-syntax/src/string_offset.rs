//! Offsets inside a string's decoded text mapped back to the file, for every scalar style.
//!
//! The checker uses [`str_offset`] to put a label exactly on a `${params.X}` token inside a string,
//! or on the position of an expression's compile error. The written form is walked alongside the
//! decoded text: escapes (`\n`, `\"`, `\u00e9`, `''`, line continuations) map to their first
//! written byte, and indentation, folded line breaks and quotes are stepped over. Every decoded
//! character is checked against what is written, so a mismatch gives `None`, never a wrong place.

use crate::{Node, ScalarStyle, Value};

/// The byte offset in `source` of byte `offset_in_value` of a string node's decoded text.
///
/// `offset_in_value` must lie on a character boundary of the decoded text; its length maps to the
/// end of the written content (before a closing quote). Exact for every non-blank character;
/// a blank produced by line folding maps to the written blank or line break it came from.
/// `None` for a node that is not a string, an offset outside the text, or a node whose written form
/// does not decode to its text (such as an alias copy).
pub fn str_offset(source: &str, node: &Node, offset_in_value: usize) -> Option<usize> {
    let Value::Str(s) = &node.value else {
        return None;
    };
    if !s.text.is_char_boundary(offset_in_value) {
        return None;
    }
    let written = source.get(node.span.range())?;
    let (content_start, content_end) = content(written, s.style)?;
    let mut walk = Walk {
        source: written.as_bytes(),
        written,
        at: content_start,
        end: content_end,
        escapes: matches!(
            s.style,
            ScalarStyle::DoubleQuoted | ScalarStyle::MultilineBasic
        ),
        doubled_quotes: s.style == ScalarStyle::SingleQuoted && is_yaml_single(written),
    };
    for (index, ch) in s.text.char_indices() {
        let at = walk.next(ch)?;
        if index == offset_in_value {
            return Some(node.span.start() + at);
        }
    }
    (offset_in_value == s.text.len()).then(|| node.span.start() + walk.at.min(content_end))
}

/// Whether a single-quoted string is YAML's (with `''` escapes) rather than TOML's literal string.
/// TOML literal strings cannot contain `'`, so a doubled quote inside can only be YAML's escape.
fn is_yaml_single(written: &str) -> bool {
    written
        .get(1..written.len().saturating_sub(1))
        .is_some_and(|inside| inside.contains("''"))
}

/// The byte range of the written content inside the span of a string in `style`; `None` when the
/// written text lacks the delimiters its style names, so the range is never a guess.
fn content(written: &str, style: ScalarStyle) -> Option<(usize, usize)> {
    let len = written.len();
    let inside = |quote: &str| {
        (len >= 2 * quote.len() && written.starts_with(quote) && written.ends_with(quote))
            .then(|| (quote.len(), len - quote.len()))
    };
    match style {
        ScalarStyle::Plain => Some((0, len)),
        ScalarStyle::SingleQuoted => inside("'"),
        ScalarStyle::DoubleQuoted => inside("\""),
        ScalarStyle::MultilineBasic | ScalarStyle::MultilineLiteral => {
            let quote = if style == ScalarStyle::MultilineBasic {
                "\"\"\""
            } else {
                "'''"
            };
            let (start, end) = inside(quote)?;
            let body = written.get(start..end)?;
            let skip = if body.starts_with("\r\n") {
                2
            } else if body.starts_with('\n') {
                1
            } else {
                0
            };
            Some((start + skip, end))
        }
        ScalarStyle::Literal | ScalarStyle::Folded => {
            let header_end = written.find('\n').map_or(len, |at| at + 1);
            Some((header_end, len))
        }
    }
}

/// A cursor over the written content.
struct Walk<'w> {
    source: &'w [u8],
    written: &'w str,
    at: usize,
    end: usize,
    escapes: bool,
    doubled_quotes: bool,
}

impl Walk<'_> {
    /// Where the decoded character `ch` is written, advancing past it.
    fn next(&mut self, ch: char) -> Option<usize> {
        loop {
            if self.at >= self.end {
                // A block scalar's span stops at its last written character; the line breaks that
                // chomping keeps come after it.
                return is_blank(ch).then_some(self.end);
            }
            let here = self.at;
            let written = self.written.get(here..)?.chars().next()?;
            if self.escapes && written == '\\' {
                let (decoded, width) = escape(self.written.get(here..self.end)?)?;
                match decoded {
                    Some(decoded) if decoded == ch => {
                        self.at += width;
                        return Some(here);
                    }
                    Some(_) => return None,
                    None => {
                        self.at += width;
                        continue;
                    }
                }
            }
            if written == ch {
                self.at += written.len_utf8();
                if ch == '\'' && self.doubled_quotes && self.source.get(self.at) == Some(&b'\'') {
                    self.at += 1;
                }
                return Some(here);
            }
            if is_blank(written) {
                if is_blank(ch) {
                    self.at += written.len_utf8();
                    return Some(here);
                }
                self.at += written.len_utf8();
                continue;
            }
            return None;
        }
    }
}

fn is_blank(ch: char) -> bool {
    matches!(ch, ' ' | '\t' | '\n' | '\r')
}

/// Decodes the escape at the start of `text` (which starts with `\`): the character (`None` for a
/// line continuation, which decodes to nothing) and the written width.
fn escape(text: &str) -> Option<(Option<char>, usize)> {
    let after = text.get(1..)?;
    let line_end = after.trim_start_matches([' ', '\t']);
    if line_end.starts_with('\n') || line_end.starts_with("\r\n") {
        return Some((None, 1 + after.len() - line_end.len()));
    }
    let letter = after.chars().next()?;
    let simple = match letter {
        '0' => Some('\0'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        't' | '\t' => Some('\t'),
        'n' => Some('\n'),
        'v' => Some('\u{b}'),
        'f' => Some('\u{c}'),
        'r' => Some('\r'),
        'e' => Some('\u{1b}'),
        ' ' => Some(' '),
        '"' => Some('"'),
        '/' => Some('/'),
        '\\' => Some('\\'),
        'N' => Some('\u{85}'),
        '_' => Some('\u{a0}'),
        'L' => Some('\u{2028}'),
        'P' => Some('\u{2029}'),
        _ => None,
    };
    if let Some(simple) = simple {
        return Some((Some(simple), 1 + letter.len_utf8()));
    }
    let digits = match letter {
        'x' => 2,
        'u' => 4,
        'U' => 8,
        '\n' | '\r' => return Some((None, 1)),
        _ => return None,
    };
    let hex = text.get(2..2 + digits)?;
    let code = u32::from_str_radix(hex, 16).ok()?;
    Some((char::from_u32(code), 2 + digits))
}

#[cfg(test)]
mod tests {
    use super::content;
    use crate::ScalarStyle;

    #[test]
    fn quoted_spans_too_short_for_their_quotes_have_no_content() {
        assert_eq!(content("", ScalarStyle::DoubleQuoted), None);
        assert_eq!(content("'", ScalarStyle::SingleQuoted), None);
        assert_eq!(content("\"\"", ScalarStyle::DoubleQuoted), Some((1, 1)));
    }

    #[test]
    fn a_style_whose_delimiters_are_not_written_has_no_content() {
        // A value recovered from unquoted TOML must never be read as if it had quotes: skipping a
        // quote byte that is not there would land inside `é`.
        assert_eq!(content("éa", ScalarStyle::DoubleQuoted), None);
        assert_eq!(content("éa", ScalarStyle::SingleQuoted), None);
        assert_eq!(content("éaéaéa", ScalarStyle::MultilineBasic), None);
        assert_eq!(
            content("'''é'''", ScalarStyle::MultilineLiteral),
            Some((3, 5))
        );
    }
}
