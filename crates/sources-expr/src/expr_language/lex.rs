//! A lexer over expr-lang text: identifiers, keywords (the word operators among them), numbers,
//! strings, the `#` pointer and operators, each with its byte range. It never fails: a character
//! it does not know becomes an operator token, an unterminated string runs to the end. The
//! highlighting tokens and the facts are read from it; whether the text compiles is the
//! `expr-lang` crate's answer.

use std::ops::Range;

use crate::Token;
use crate::scan::{self, Quoting};

/// What one lexeme is, finer than [`Token`] where the facts need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lexeme {
    /// A name.
    Name,
    /// A keyword that is a value (`true`, `false`, `nil`).
    Constant,
    /// Any other keyword (`and`, `or`, `not`, `in`, `contains`, `let`, …).
    Keyword,
    /// A number.
    Number,
    /// A string, quotes included.
    String,
    /// `#`, `#index`, `#acc`: a predicate's current element or a variable of it.
    Pointer,
    /// An operator or punctuation.
    Operator,
}

/// Words that are keywords in expr-lang.
const KEYWORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "in",
    "matches",
    "contains",
    "startsWith",
    "endsWith",
    "let",
    "if",
    "else",
];

/// Two- and three-character operators, longest first.
const OPERATORS: &[&str] = &[
    "not in", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "..", "**",
];

/// The lexemes of `text`, in order, with their byte ranges.
pub(crate) fn lexemes(text: &str) -> Vec<(Lexeme, Range<usize>)> {
    let bytes = text.as_bytes();
    let mut out: Vec<(Lexeme, Range<usize>)> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        let start = at;
        if byte.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        if text[at..].starts_with("//") {
            at = scan::line_comment_end(text, at);
            continue;
        }
        if text[at..].starts_with("/*") {
            at = text[at + 2..]
                .find("*/")
                .map_or(bytes.len(), |end| at + 2 + end + 2);
            continue;
        }
        if matches!(byte, b'"' | b'\'' | b'`') {
            let quoting = Quoting {
                escapes: byte != b'`',
                triple: false,
            };
            at = scan::quoted_end(bytes, at, quoting);
            out.push((Lexeme::String, start..at));
            continue;
        }
        if byte == b'#' {
            at = scan::word_end(bytes, at + 1);
            out.push((Lexeme::Pointer, start..at));
            continue;
        }
        if byte.is_ascii_alphabetic() || byte == b'_' || byte == b'$' {
            at = scan::word_end(bytes, at + 1);
            let word = &text[start..at];
            let after_member = out.last().is_some_and(|(kind, range)| {
                *kind == Lexeme::Operator && matches!(&text[range.clone()], "." | "?.")
            });
            let kind = if after_member {
                Lexeme::Name
            } else if matches!(word, "true" | "false" | "nil") {
                Lexeme::Constant
            } else if KEYWORDS.contains(&word) {
                Lexeme::Keyword
            } else {
                Lexeme::Name
            };
            out.push((kind, start..at));
            continue;
        }
        // `.5` is a number unless it selects a member (`a.0`, `f().1`).
        let selects = out.last().is_some_and(|(kind, range)| match kind {
            Lexeme::Name | Lexeme::Pointer | Lexeme::String => true,
            Lexeme::Operator => matches!(&text[range.clone()], ")" | "]" | "}"),
            _ => false,
        });
        if byte.is_ascii_digit()
            || (byte == b'.' && !selects && bytes.get(at + 1).is_some_and(u8::is_ascii_digit))
        {
            at = number_end(bytes, at);
            out.push((Lexeme::Number, start..at));
            continue;
        }
        at += scan::operator_len(text, at, OPERATORS);
        out.push((Lexeme::Operator, start..at));
    }
    out
}

/// The highlighting tokens of `text`.
pub(crate) fn tokens(text: &str) -> Vec<(Token, Range<usize>)> {
    let lexemes = lexemes(text);
    lexemes
        .iter()
        .enumerate()
        .map(|(index, (kind, range))| {
            let token = match kind {
                Lexeme::Name => {
                    let called = lexemes.get(index + 1).is_some_and(|(next, next_range)| {
                        *next == Lexeme::Operator && &text[next_range.clone()] == "("
                    });
                    let member = index > 0
                        && lexemes[index - 1].0 == Lexeme::Operator
                        && matches!(&text[lexemes[index - 1].1.clone()], "." | "?.");
                    if called {
                        Token::Function
                    } else if &text[range.clone()] == "params" && !member {
                        Token::Namespace
                    } else {
                        Token::Identifier
                    }
                }
                Lexeme::Constant | Lexeme::Keyword => Token::Keyword,
                Lexeme::Number => Token::Number,
                Lexeme::String => Token::String,
                Lexeme::Pointer => Token::Identifier,
                Lexeme::Operator => Token::Operator,
            };
            (token, range.clone())
        })
        .collect()
}

/// The end of the number starting at `at` (digits with `_`, hex/octal/binary, a fraction, an
/// exponent); a `.` not followed by a digit (a range, a member) is not a fraction.
fn number_end(bytes: &[u8], mut at: usize) -> usize {
    if bytes[at] == b'0'
        && matches!(
            bytes.get(at + 1),
            Some(b'x' | b'X' | b'o' | b'O' | b'b' | b'B')
        )
    {
        at += 2;
        while at < bytes.len() && (bytes[at].is_ascii_hexdigit() || bytes[at] == b'_') {
            at += 1;
        }
        return at;
    }
    while at < bytes.len() {
        let byte = bytes[at];
        let fraction = byte == b'.' && bytes.get(at + 1).is_some_and(u8::is_ascii_digit);
        if byte.is_ascii_digit() || byte == b'_' || fraction {
            at += 1;
        } else {
            break;
        }
    }
    scan::exponent_end(bytes, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens_of(text: &str) -> Vec<(Token, &str)> {
        tokens(text)
            .into_iter()
            .map(|(token, range)| (token, &text[range]))
            .collect()
    }

    #[test]
    fn word_operators_members_ranges_and_pointers() {
        use Token::*;
        assert_eq!(
            tokens_of("len(name) >= 3 and not (tags[0] contains 'x') || a.0 in 1..5 && #.ok"),
            vec![
                (Function, "len"),
                (Operator, "("),
                (Identifier, "name"),
                (Operator, ")"),
                (Operator, ">="),
                (Number, "3"),
                (Keyword, "and"),
                (Keyword, "not"),
                (Operator, "("),
                (Identifier, "tags"),
                (Operator, "["),
                (Number, "0"),
                (Operator, "]"),
                (Keyword, "contains"),
                (String, "'x'"),
                (Operator, ")"),
                (Operator, "||"),
                (Identifier, "a"),
                (Operator, "."),
                (Number, "0"),
                (Keyword, "in"),
                (Number, "1"),
                (Operator, ".."),
                (Number, "5"),
                (Operator, "&&"),
                (Identifier, "#"),
                (Operator, "."),
                (Identifier, "ok"),
            ]
        );
        assert_eq!(
            tokens_of("params.min ?? `raw\\` // note"),
            vec![
                (Namespace, "params"),
                (Operator, "."),
                (Identifier, "min"),
                (Operator, "??"),
                (String, "`raw\\`"),
            ]
        );
    }
}
