//! Byte-level scanning that both languages' lexers share: names, quoted text, exponents, line
//! comments and operators. Each function takes the offset where its piece starts and returns the
//! offset where it ends; none fails, and an unterminated piece runs to the end of the text.

/// The end of the name whose first byte is before `at`: letters, digits and `_` from `at` on.
pub(crate) fn word_end(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
        at += 1;
    }
    at
}

/// The end of an exponent (`e`, an optional sign, digits) starting at `at`; `at` when there is
/// none.
pub(crate) fn exponent_end(bytes: &[u8], mut at: usize) -> usize {
    if !matches!(bytes.get(at), Some(b'e' | b'E')) {
        return at;
    }
    at += 1;
    if matches!(bytes.get(at), Some(b'+' | b'-')) {
        at += 1;
    }
    while at < bytes.len() && bytes[at].is_ascii_digit() {
        at += 1;
    }
    at
}

/// How a quoted text is written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quoting {
    /// Whether a backslash escapes the next byte.
    pub(crate) escapes: bool,
    /// Whether three quotes open a text that only three quotes close.
    pub(crate) triple: bool,
}

/// The end of the quoted text whose opening quote is at `quote`: after its closing quote, or the
/// end of the text when it is not closed.
pub(crate) fn quoted_end(bytes: &[u8], quote: usize, quoting: Quoting) -> usize {
    let mark = bytes[quote];
    let tripled = |at: usize| bytes.get(at + 1) == Some(&mark) && bytes.get(at + 2) == Some(&mark);
    let triple = quoting.triple && tripled(quote);
    let mut at = if triple { quote + 3 } else { quote + 1 };
    while at < bytes.len() {
        if bytes[at] == b'\\' && quoting.escapes {
            at += 2;
            continue;
        }
        if bytes[at] == mark && (!triple || tripled(at)) {
            return (at + if triple { 3 } else { 1 }).min(bytes.len());
        }
        at += 1;
    }
    bytes.len()
}

/// The end of the line comment starting at `at`: the line's end, not included.
pub(crate) fn line_comment_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |end| at + end)
}

/// The length of the operator at `at`: the first of `operators` (longest first) written there,
/// else the one character there.
pub(crate) fn operator_len(text: &str, at: usize, operators: &[&str]) -> usize {
    let rest = &text[at..];
    operators
        .iter()
        .find(|operator| rest.starts_with(**operator))
        .map_or_else(
            || rest.chars().next().map_or(1, char::len_utf8),
            |operator| operator.len(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_end_where_they_end_or_at_the_end_of_the_text() {
        assert_eq!(word_end(b"ab_1 c", 0), 4);
        assert_eq!(exponent_end(b"e-12x", 0), 4);
        assert_eq!(exponent_end(b"x", 0), 0);
        let plain = Quoting {
            escapes: true,
            triple: false,
        };
        assert_eq!(quoted_end(br#"'a\'b' c"#, 0, plain), 6);
        assert_eq!(quoted_end(b"'open", 0, plain), 5);
        let raw_triple = Quoting {
            escapes: false,
            triple: true,
        };
        assert_eq!(quoted_end(b"'''a'b''' x", 0, raw_triple), 9);
        assert_eq!(quoted_end(br"'a\' x", 0, raw_triple), 4);
        assert_eq!(line_comment_end("a // b\nc", 2), 6);
        assert_eq!(operator_len("?? x", 0, &["??", "?"]), 2);
        assert_eq!(operator_len("é", 0, &["??"]), 2);
    }
}
