//! Where a node's span starts and ends in the text: past tag and anchor properties, at a block
//! scalar's indicator, at a quoted scalar's closing quote, before trailing blanks.

use crate::Span;

/// Moves `start` past any tag (`!…`) and anchor (`&…`) properties and the blanks and comments
/// after them, not beyond `end` unless the span holds only properties.
pub(super) fn skip_properties(text: &str, start: usize, end: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = start;
    while matches!(bytes.get(at), Some(b'!' | b'&')) {
        while at < bytes.len() && !matches!(bytes[at], b' ' | b'\t' | b'\r' | b'\n') {
            at += 1;
        }
        at = skip_blanks_and_comments(bytes, at);
    }
    if at == start {
        start
    } else {
        at.min(end.max(at))
    }
}

fn skip_blanks_and_comments(bytes: &[u8], mut at: usize) -> usize {
    loop {
        match bytes.get(at) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => at += 1,
            Some(b'#') => {
                while at < bytes.len() && bytes[at] != b'\n' {
                    at += 1;
                }
            }
            _ => return at,
        }
    }
}

/// The offset of a block scalar's `indicator` between the previous event's end and the content.
pub(super) fn find_indicator(
    text: &str,
    from: usize,
    content: usize,
    indicator: u8,
) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from.min(content);
    let mut after_blank = true;
    while at < content {
        match bytes[at] {
            b'#' if after_blank => {
                while at < content && bytes[at] != b'\n' {
                    at += 1;
                }
            }
            b if b == indicator => return Some(at),
            b => {
                after_blank = matches!(b, b' ' | b'\t' | b'\r' | b'\n');
                at += 1;
            }
        }
    }
    None
}

/// The end of the quoted scalar that opens at `start` (just past its closing quote), looking no
/// further than `end`: `''` inside single quotes and `\x` inside double quotes are escapes.
pub(super) fn closing_quote(text: &str, start: usize, end: usize) -> Option<usize> {
    let bytes = text.as_bytes().get(start..end.min(text.len()))?;
    let quote = *bytes.first().filter(|byte| matches!(byte, b'\'' | b'"'))?;
    let mut at = 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' if quote == b'"' => at += 2,
            b'\'' if quote == b'\'' && bytes.get(at + 1) == Some(&b'\'') => at += 2,
            byte if byte == quote => return Some(start + at + 1),
            _ => at += 1,
        }
    }
    None
}

/// `end` moved back over trailing blanks and line breaks, not before `start`.
pub(super) fn trim_end(text: &str, start: usize, end: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = end.min(bytes.len());
    while end > start && matches!(bytes[end - 1], b' ' | b'\t' | b'\r' | b'\n') {
        end -= 1;
    }
    end
}

/// The span of the character at `at` (empty at the end of the text); an offset inside a character
/// moves back to that character's start.
pub(crate) fn one_char(text: &str, at: usize) -> Span {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let width = text[at..].chars().next().map_or(0, char::len_utf8);
    Span::new(at, at + width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_are_skipped_with_their_comments() {
        let text = "!!map &a # note\n  key";
        assert_eq!(
            skip_properties(text, 0, text.len()),
            text.find("key").expect("key")
        );
        assert_eq!(skip_properties("plain", 0, 5), 0);
    }
}
