//! A lexer over CEL expression text for highlighting: identifiers, keywords, literals and
//! operators with their byte ranges inside the expression. It never fails: a character it does
//! not know becomes an operator token, an unterminated string runs to the end. Whether the
//! expression compiles is [`crate::compile`]'s business, not this module's.

use std::ops::Range;

use crate::Token;
use crate::scan::{self, Quoting};

const KEYWORDS: &[&str] = &["true", "false", "null", "in"];

/// The tokens of `expression`, in order, with their byte ranges.
pub(crate) fn lex(expression: &str) -> Vec<(Token, Range<usize>)> {
    let bytes = expression.as_bytes();
    let mut out: Vec<(Token, Range<usize>)> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        let start = at;
        if byte.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        if byte == b'/' && bytes.get(at + 1) == Some(&b'/') {
            at = scan::line_comment_end(expression, at);
            continue;
        }
        let string_prefix = string_start(bytes, at);
        if let Some(quote_at) = string_prefix {
            let raw = bytes[start..quote_at]
                .iter()
                .any(|b| matches!(b, b'r' | b'R'));
            let quoting = Quoting {
                escapes: !raw,
                triple: true,
            };
            at = scan::quoted_end(bytes, quote_at, quoting);
            out.push((Token::String, start..at));
            continue;
        }
        if byte.is_ascii_alphabetic() || byte == b'_' {
            at = scan::word_end(bytes, at);
            let word = &expression[start..at];
            let after_dot = out.last().is_some_and(|(kind, range)| {
                *kind == Token::Operator && &expression[range.clone()] == "."
            });
            let next = expression[at..].trim_start().as_bytes().first();
            let kind = if KEYWORDS.contains(&word) {
                Token::Keyword
            } else if next == Some(&b'(') {
                Token::Function
            } else if word == "params" && !after_dot {
                Token::Namespace
            } else {
                Token::Identifier
            };
            out.push((kind, start..at));
            continue;
        }
        if byte.is_ascii_digit()
            || (byte == b'.' && bytes.get(at + 1).is_some_and(u8::is_ascii_digit))
        {
            at = number_end(bytes, at);
            out.push((Token::Number, start..at));
            continue;
        }
        at += scan::operator_len(expression, at, &["==", "!=", "<=", ">=", "&&", "||"]);
        out.push((Token::Operator, start..at));
    }
    out
}

/// Where the opening quote is when a string or bytes literal starts at `at` (after an optional
/// `r`/`b` prefix).
fn string_start(bytes: &[u8], at: usize) -> Option<usize> {
    let mut quote = at;
    while quote < at + 2 && matches!(bytes.get(quote), Some(b'r' | b'R' | b'b' | b'B')) {
        quote += 1;
    }
    match bytes.get(quote) {
        Some(b'"' | b'\'') => Some(quote),
        _ => None,
    }
}

/// The end of the number starting at `at` (digits, hex, a fraction, an exponent, a `u` suffix).
fn number_end(bytes: &[u8], mut at: usize) -> usize {
    if bytes[at] == b'0' && matches!(bytes.get(at + 1), Some(b'x' | b'X')) {
        at += 2;
        while at < bytes.len() && bytes[at].is_ascii_hexdigit() {
            at += 1;
        }
    } else {
        while at < bytes.len() && (bytes[at].is_ascii_digit() || bytes[at] == b'.') {
            at += 1;
        }
        at = scan::exponent_end(bytes, at);
    }
    if matches!(bytes.get(at), Some(b'u' | b'U')) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(expression: &str) -> Vec<(Token, &str)> {
        lex(expression)
            .into_iter()
            .map(|(kind, range)| (kind, &expression[range]))
            .collect()
    }

    #[test]
    fn identifiers_operators_and_literals() {
        use Token::*;
        assert_eq!(
            tokens("status == 'up' && size(tags) > 2.5 || params.env in [\"a\"]"),
            vec![
                (Identifier, "status"),
                (Operator, "=="),
                (String, "'up'"),
                (Operator, "&&"),
                (Function, "size"),
                (Operator, "("),
                (Identifier, "tags"),
                (Operator, ")"),
                (Operator, ">"),
                (Number, "2.5"),
                (Operator, "||"),
                (Namespace, "params"),
                (Operator, "."),
                (Identifier, "env"),
                (Keyword, "in"),
                (Operator, "["),
                (String, "\"a\""),
                (Operator, "]"),
            ]
        );
    }

    #[test]
    fn strings_prefixes_escapes_and_unterminated_text() {
        use Token::*;
        assert_eq!(
            tokens(r#"r'a\' b"x\"y" '''t'r'''"#),
            vec![
                (String, r"r'a\'"),
                (String, r#"b"x\"y""#),
                (String, "'''t'r'''")
            ]
        );
        assert_eq!(tokens("'open"), vec![(String, "'open")]);
        assert_eq!(
            tokens("0x1F 3u 1e-3 é"),
            vec![
                (Number, "0x1F"),
                (Number, "3u"),
                (Number, "1e-3"),
                (Operator, "é")
            ]
        );
    }
}
