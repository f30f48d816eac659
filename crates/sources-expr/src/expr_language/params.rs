//! An expr-lang expression over parameters alone: whether it reads the row, and the whole of it
//! as a part evaluated with `params` only (the lexemes give no finer parts); and the parameters it
//! reads where their text cannot go.

use std::ops::Range;

use super::lex::{Lexeme, lexemes};
use crate::facts::Facts;
use crate::{ParamPart, TextParam};

/// Whether the expression reads the row: a name other than `params`.
pub(crate) fn reads_row(facts: &Facts) -> bool {
    facts
        .fields
        .iter()
        .any(|path| path.segments[0].0 != "params")
}

/// The whole expression as a part, when it reads nothing but `params.NAME` and literals.
pub(crate) fn whole(facts: &Facts, text: &str) -> Option<ParamPart> {
    if reads_row(facts) {
        return None;
    }
    let mut names: Vec<(String, Range<usize>)> = Vec::new();
    for path in &facts.fields {
        let (name, range) = path.segments.get(1)?;
        if !names.iter().any(|(read, _)| read == name) {
            names.push((name.clone(), range.clone()));
        }
    }
    Some(ParamPart {
        range: 0..text.len(),
        names,
        node: 0,
    })
}

/// Binary operators that take no string operand at all.
const ARITHMETIC: &[&str] = &["-", "*", "/", "%", "**", "^"];
/// Operators that take a string only beside another string.
const WITH_STRINGS: &[&str] = &["<", "<=", ">", ">=", "+"];
/// Functions whose result is a number.
const NUMBER_FUNCTIONS: &[&str] = &[
    "len",
    "count",
    "int",
    "float",
    "sum",
    "mean",
    "median",
    "abs",
    "ceil",
    "floor",
    "round",
    "indexOf",
    "lastIndexOf",
];

/// Each `params.NAME` (a string under expr-lang, whatever its declared type) written as an operand
/// of an operator that cannot take a string there: arithmetic, or an ordering or `+` whose other
/// operand is a number literal or a call of a function giving a number. Evaluating it fails for
/// every value of the parameter.
pub(crate) fn text_params(text: &str) -> Vec<TextParam> {
    let lexed = lexemes(text);
    let written = |at: usize| lexed.get(at).map_or("", |(_, range)| &text[range.clone()]);
    let is = |at: usize, kind: Lexeme| lexed.get(at).is_some_and(|(found, _)| *found == kind);
    let operator = |at: usize| {
        if is(at, Lexeme::Operator) {
            written(at)
        } else {
            ""
        }
    };
    let number_after = |at: usize| {
        is(at, Lexeme::Number)
            || (is(at, Lexeme::Name)
                && NUMBER_FUNCTIONS.contains(&written(at))
                && operator(at + 1) == "(")
    };
    let number_before = |at: usize| match operator(at) {
        ")" => call_before(&lexed, text, at).is_some_and(|name| NUMBER_FUNCTIONS.contains(&name)),
        _ => is(at, Lexeme::Number) && !matches!(at.checked_sub(1).map(operator), Some("." | "?.")),
    };
    let mut found = Vec::new();
    for at in 0..lexed.len() {
        let param = written(at) == "params"
            && is(at, Lexeme::Name)
            && matches!(operator(at + 1), "." | "?.")
            && is(at + 2, Lexeme::Name)
            && !matches!(operator(at + 3), "(" | "." | "?." | "[")
            && !(at > 0 && matches!(operator(at - 1), "." | "?."));
        if !param {
            continue;
        }
        let after = operator(at + 3);
        let before = at.checked_sub(1).map_or("", operator);
        let misuse = if ARITHMETIC.contains(&after)
            || (WITH_STRINGS.contains(&after) && number_after(at + 4))
        {
            Some((after, at + 3))
        } else if ARITHMETIC.contains(&before)
            || (WITH_STRINGS.contains(&before) && at >= 2 && number_before(at - 2))
        {
            Some((before, at - 1))
        } else {
            None
        };
        if let Some((operator, operator_at)) = misuse {
            found.push(TextParam {
                name: written(at + 2).to_owned(),
                range: lexed[at].1.start..lexed[at + 2].1.end,
                operator: operator.to_owned(),
                operator_range: lexed[operator_at].1.clone(),
            });
        }
    }
    found
}

/// The name of the function called by the parentheses that close at lexeme `close`, if they do.
fn call_before<'t>(
    lexed: &[(Lexeme, Range<usize>)],
    text: &'t str,
    close: usize,
) -> Option<&'t str> {
    let mut depth = 0_usize;
    for at in (0..=close).rev() {
        let (kind, range) = &lexed[at];
        if *kind != Lexeme::Operator {
            continue;
        }
        match &text[range.clone()] {
            ")" | "]" | "}" => depth += 1,
            "(" | "[" | "{" => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let (kind, name) = lexed.get(at.checked_sub(1)?)?;
                    return (*kind == Lexeme::Name).then(|| &text[name.clone()]);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn misused(text: &str) -> Vec<(String, &str, &str)> {
        text_params(text)
            .into_iter()
            .map(|found| (found.name, &text[found.range], &text[found.operator_range]))
            .collect()
    }

    #[test]
    fn parameters_where_a_number_is_needed_are_found() {
        assert_eq!(
            misused("len(username) >= params.min"),
            [("min".to_owned(), "params.min", ">=")]
        );
        assert_eq!(
            misused("params.limit * 2 > n"),
            [("limit".to_owned(), "params.limit", "*")]
        );
        assert_eq!(
            misused("params.min < 10"),
            [("min".to_owned(), "params.min", "<")]
        );
        for fine in [
            "len(username) >= int(params.min)",
            "name == params.min",
            "name >= params.min",
            "params.prefix + name",
            "x.params.min > 3",
            "params.min in ['1', '2']",
            "a.0 < params.min",
        ] {
            assert_eq!(misused(fine), [], "{fine}");
        }
    }
}
