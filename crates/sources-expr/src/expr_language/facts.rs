//! The facts of an expr-lang expression, read from its lexemes (the crate keeps no positions):
//! each top-level name with the members written after it, each call, each literal, the kind of
//! value the whole gives where evident, and the row paths evaluation binds. A name after `.` or
//! `?.` is a member (the predicate shorthand `.price` included), a name before `(` a call, a name
//! after `let` a variable of the expression, and a name before `:` in a map literal a key.

use std::ops::Range;

use super::lex::{Lexeme, lexemes};
use crate::facts::{Call, Facts, FieldPath, Literal, ResultKind, ValueKind};

/// Operators whose value is a boolean.
const BOOLEAN_OPERATORS: &[&str] = &[
    "==",
    "!=",
    "<",
    ">",
    "<=",
    ">=",
    "&&",
    "||",
    "!",
    "and",
    "or",
    "not",
    "in",
    "not in",
    "contains",
    "startsWith",
    "endsWith",
    "matches",
];

/// The facts of `text`.
pub(crate) fn of(text: &str) -> Facts {
    let lexed = lexemes(text);
    let written = |at: usize| -> &str { &text[lexed[at].1.clone()] };
    let is_operator = |at: usize, operator: &str| {
        lexed.get(at).is_some_and(|(kind, range)| {
            *kind == Lexeme::Operator && &text[range.clone()] == operator
        })
    };
    let mut facts = Facts::default();
    let mut bound: Vec<&str> = Vec::new();
    let mut open: Vec<&str> = Vec::new();
    let mut index = 0;
    while index < lexed.len() {
        let (kind, range) = &lexed[index];
        match kind {
            Lexeme::Operator => match written(index) {
                "(" | "[" | "{" => open.push(written(index)),
                ")" | "]" | "}" => {
                    open.pop();
                }
                _ => {}
            },
            Lexeme::Number => facts.literals.push(Literal {
                kind: ValueKind::Number,
                range: range.clone(),
            }),
            Lexeme::String => facts.literals.push(Literal {
                kind: ValueKind::String,
                range: range.clone(),
            }),
            Lexeme::Constant => facts.literals.push(Literal {
                kind: if written(index) == "nil" {
                    ValueKind::Null
                } else {
                    ValueKind::Bool
                },
                range: range.clone(),
            }),
            Lexeme::Name => {
                let member =
                    index > 0 && (is_operator(index - 1, ".") || is_operator(index - 1, "?."));
                let after_let = index > 0
                    && lexed[index - 1].0 == Lexeme::Keyword
                    && written(index - 1) == "let";
                let key = open.last() == Some(&"{")
                    && index > 0
                    && (is_operator(index - 1, "{") || is_operator(index - 1, ","))
                    && is_operator(index + 1, ":");
                if is_operator(index + 1, "(") {
                    facts.calls.push(Call {
                        name: written(index).to_owned(),
                        method: member,
                        range: range.clone(),
                    });
                } else if after_let {
                    bound.push(written(index));
                } else if !member && !key && written(index) != "$env" {
                    let mut segments = vec![(written(index).to_owned(), range.clone())];
                    let mut next = index + 1;
                    while (is_operator(next, ".") || is_operator(next, "?."))
                        && lexed
                            .get(next + 1)
                            .is_some_and(|(kind, _)| matches!(kind, Lexeme::Name | Lexeme::Number))
                        && !is_operator(next + 2, "(")
                    {
                        segments.push((written(next + 1).to_owned(), lexed[next + 1].1.clone()));
                        next += 2;
                    }
                    facts.fields.push(FieldPath { segments });
                    index = next;
                    continue;
                }
            }
            Lexeme::Keyword | Lexeme::Pointer => {}
        }
        index += 1;
    }
    facts
        .fields
        .retain(|path| !bound.contains(&path.segments[0].0.as_str()));
    for path in &facts.fields {
        let names: Vec<String> = path.segments.iter().map(|(name, _)| name.clone()).collect();
        if !matches!(names[0].as_str(), "params" | "item") && !facts.row_paths.contains(&names) {
            facts.row_paths.push(names);
        }
    }
    facts.result = result_kind(text, &lexed, &facts);
    facts
}

/// The kind of value the whole expression gives, where its lexemes make it evident.
fn result_kind(text: &str, lexed: &[(Lexeme, Range<usize>)], facts: &Facts) -> ResultKind {
    if let [(kind, range)] = lexed {
        let written = &text[range.clone()];
        return match kind {
            Lexeme::Number => ResultKind::Kind(ValueKind::Number),
            Lexeme::String => ResultKind::Kind(ValueKind::String),
            Lexeme::Constant if written == "nil" => ResultKind::Kind(ValueKind::Null),
            Lexeme::Constant => ResultKind::Kind(ValueKind::Bool),
            Lexeme::Name => path_result(facts),
            _ => ResultKind::Unknown,
        };
    }
    // A bare path: one field whose segments are every lexeme but the dots.
    if let [path] = facts.fields.as_slice()
        && lexed.len() == path.segments.len() * 2 - 1
    {
        return path_result(facts);
    }
    // At the top level (outside brackets): a comparison or a logical operator, and nothing that
    // binds looser (`?:`, `??`, a pipe).
    let mut depth = 0usize;
    let mut boolean = false;
    for (kind, range) in lexed {
        let written = &text[range.clone()];
        match (kind, written) {
            (Lexeme::Operator, "(" | "[" | "{") => depth += 1,
            (Lexeme::Operator, ")" | "]" | "}") => depth = depth.saturating_sub(1),
            (Lexeme::Operator, "?" | "??" | "|" | ":" | ";") if depth == 0 => {
                return ResultKind::Unknown;
            }
            (Lexeme::Keyword, "let" | "if") if depth == 0 => return ResultKind::Unknown,
            (Lexeme::Operator | Lexeme::Keyword, operator)
                if depth == 0 && BOOLEAN_OPERATORS.contains(&operator) =>
            {
                boolean = true;
            }
            _ => {}
        }
    }
    if boolean {
        return ResultKind::Kind(ValueKind::Bool);
    }
    // One call around everything.
    if let [
        (Lexeme::Name, name),
        (Lexeme::Operator, open),
        ..,
        (Lexeme::Operator, close),
    ] = lexed
        && &text[open.clone()] == "("
        && &text[close.clone()] == ")"
        && closes_first(text, lexed)
    {
        return match &text[name.clone()] {
            "len" | "count" | "int" | "float" | "sum" | "mean" | "median" | "abs" | "ceil"
            | "floor" | "round" | "indexOf" | "lastIndexOf" => ResultKind::Kind(ValueKind::Number),
            "lower" | "upper" | "trim" | "trimPrefix" | "trimSuffix" | "string" | "replace"
            | "repeat" | "join" | "toJSON" => ResultKind::Kind(ValueKind::String),
            "hasPrefix" | "hasSuffix" | "all" | "any" | "one" | "none" => {
                ResultKind::Kind(ValueKind::Bool)
            }
            "filter" | "map" | "split" | "keys" | "values" | "sort" | "sortBy" | "uniq"
            | "flatten" | "concat" | "reverse" | "take" => ResultKind::Kind(ValueKind::List),
            _ => ResultKind::Unknown,
        };
    }
    ResultKind::Unknown
}

/// Whether the `(` after the first lexeme closes at the last one.
fn closes_first(text: &str, lexed: &[(Lexeme, Range<usize>)]) -> bool {
    let mut depth = 0usize;
    for (at, (kind, range)) in lexed.iter().enumerate().skip(1) {
        if *kind != Lexeme::Operator {
            continue;
        }
        match &text[range.clone()] {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return at == lexed.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

/// The result of an expression that is its one field path.
fn path_result(facts: &Facts) -> ResultKind {
    match facts.fields.as_slice() {
        [path] => ResultKind::Path(path.segments.iter().map(|(name, _)| name.clone()).collect()),
        _ => ResultKind::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<Vec<&str>> {
        of(text)
            .fields
            .iter()
            .map(|path| {
                path.segments
                    .iter()
                    .map(|(_, range)| &text[range.clone()])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn names_members_calls_keys_and_variables() {
        let text = "let n = len(tags); n > 2 and status?.phase == 'Up' && all(items, .ok) && {k: a.0}.k == params.x";
        assert_eq!(
            paths(text),
            [
                vec!["tags"],
                vec!["status", "phase"],
                vec!["items"],
                vec!["a", "0"],
                vec!["params", "x"]
            ]
        );
        let found = of(text);
        let calls: Vec<&str> = found
            .calls
            .iter()
            .map(|call| &text[call.range.clone()])
            .collect();
        assert_eq!(calls, ["len", "all"]);
        assert_eq!(found.row_paths.len(), 4);
    }

    #[test]
    fn results_where_evident() {
        let kind = |text: &str| of(text).result;
        assert_eq!(kind("len(name) >= 3"), ResultKind::Kind(ValueKind::Bool));
        assert_eq!(kind("lower(website)"), ResultKind::Kind(ValueKind::String));
        assert_eq!(kind("len(a) + len(b)"), ResultKind::Unknown);
        assert_eq!(
            kind("address.city"),
            ResultKind::Path(vec!["address".to_owned(), "city".to_owned()])
        );
        assert_eq!(kind("x ? 1 : 'a'"), ResultKind::Unknown);
        assert_eq!(kind("'a'"), ResultKind::Kind(ValueKind::String));
    }
}
