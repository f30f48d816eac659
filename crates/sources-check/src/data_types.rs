//! `operand-type`: an operator of an expression applied to a value whose type it cannot take,
//! judged against an exact shape only (a sample may lack the rows where a field holds another
//! kind). What fails is what the expression language (`cel`, as `try` and the dashboard evaluate
//! it) refuses: an ordering between kinds, arithmetic or a negation on a string or a boolean,
//! `!`, `&&` and `||` on a non-boolean; an equality between scalars of different kinds runs but
//! is never true. A unit test evaluates every verdict with `cel` itself.

use sources_diagnostics::{Collector, Diagnostic, Rule, Span};

use sources_expr::{Facts, Operand, Operation, ResultKind, ValueKind};

use crate::data_miss::{BUILT_IN_NAMES, from_shape};
use crate::expressions::ExpressionSite;
use crate::shape::{Fields, PathLookup, Shape};
use crate::shapes::{Certainty, Shaped};

/// The kinds of value the type checks tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bool,
    Number,
    String,
    List,
    Object,
}

impl Kind {
    /// The kind of a shape, when it is one (null, mixed and unknown shapes are not judged).
    fn of(shape: &Shape) -> Option<Kind> {
        match shape {
            Shape::Bool => Some(Kind::Bool),
            Shape::Number => Some(Kind::Number),
            Shape::String => Some(Kind::String),
            Shape::Array(_) => Some(Kind::List),
            Shape::Object(_) => Some(Kind::Object),
            Shape::Unknown | Shape::Null | Shape::Scalar | Shape::Rows(_) => None,
        }
    }

    /// The kind of an evident value kind (a map's keys untold: not judged).
    fn of_value(kind: ValueKind) -> Option<Kind> {
        match kind {
            ValueKind::Bool => Some(Kind::Bool),
            ValueKind::Number => Some(Kind::Number),
            ValueKind::String => Some(Kind::String),
            ValueKind::List => Some(Kind::List),
            ValueKind::Null | ValueKind::Map => None,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Kind::Bool => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::List => "a list",
            Kind::Object => "an object",
        }
    }

    fn is_scalar(self) -> bool {
        matches!(self, Kind::Bool | Kind::Number | Kind::String)
    }
}

/// What evaluating an operation over operands of the judged kinds gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// It fails (the operand at this index is the one it cannot take).
    Fails(usize),
    /// It runs, and is always this value (an equality between different kinds).
    Always(bool),
}

/// The verdict on `operator` over operands of `kinds` (`None`: not evident), if it is wrong.
fn judge(operator: &str, kinds: &[Option<Kind>]) -> Option<Verdict> {
    match (operator, kinds) {
        ("<" | "<=" | ">" | ">=", [Some(a), Some(b)]) => {
            let fine = a == b && a.is_scalar();
            (!fine).then(|| Verdict::Fails(if a.is_scalar() { 1 } else { 0 }))
        }
        ("==" | "!=", [Some(a), Some(b)]) => {
            (a != b && a.is_scalar() && b.is_scalar()).then_some(Verdict::Always(operator == "!="))
        }
        // `cel` appends a map's keys to a list.
        ("+", [Some(Kind::List), Some(Kind::Object)]) => None,
        ("+", [a, b]) => {
            let adds = |kind: &Kind| matches!(kind, Kind::Number | Kind::String | Kind::List);
            if let Some(at) = kinds
                .iter()
                .position(|kind| kind.is_some_and(|k| !adds(&k)))
            {
                return Some(Verdict::Fails(at));
            }
            match (a, b) {
                (Some(a), Some(b)) if a != b => Some(Verdict::Fails(1)),
                _ => None,
            }
        }
        ("-" | "*" | "/" | "%", [_, _]) | ("-", [_]) => kinds
            .iter()
            .position(|kind| kind.is_some_and(|kind| kind != Kind::Number))
            .map(Verdict::Fails),
        ("!" | "&&" | "||", _) => kinds
            .iter()
            .position(|kind| kind.is_some_and(|kind| kind != Kind::Bool))
            .map(Verdict::Fails),
        _ => None,
    }
}

/// An expression as the data checks report on it, for [`check_operations`].
pub(crate) struct Site<'a> {
    /// The expression and where it is written.
    pub site: &'a ExpressionSite<'a>,
    /// The field, as the message names it (`` `where` ``).
    pub field: &'a str,
    /// What it is evaluated for, as the message says what fails (`every row`).
    pub each: &'static str,
}

/// `operand-type` for each operation of `refs` that fails (or is never true) over rows of
/// `fields`, when `shaped` is exact.
pub(crate) fn check_operations(
    site: &Site<'_>,
    refs: &Facts,
    fields: &Fields,
    shaped: &Shaped,
    file: &str,
    out: &mut Collector,
) {
    if shaped.certainty != Certainty::Exact {
        return;
    }
    for operation in &refs.operations {
        let kinds: Vec<Option<Kind>> = operation
            .operands
            .iter()
            .map(|operand| kind_of(operand, fields))
            .collect();
        if let Some(verdict) = judge(operation.operator, &kinds) {
            let span = site.site.span_of(file, operation.range.clone());
            out.push(diagnostic(site, operation, &kinds, verdict, span, shaped));
        }
    }
}

/// The kind of an operand over rows of `fields`.
fn kind_of(operand: &Operand, fields: &Fields) -> Option<Kind> {
    match &operand.kind {
        ResultKind::Unknown => None,
        ResultKind::Kind(kind) => Kind::of_value(*kind),
        ResultKind::Path(path) => {
            if path
                .first()
                .is_none_or(|first| BUILT_IN_NAMES.contains(&first.as_str()))
            {
                return None;
            }
            let steps: Vec<&str> = path.iter().map(String::as_str).collect();
            match Shape::lookup_in(fields, &steps) {
                PathLookup::Found(shape) => Kind::of(shape),
                _ => None,
            }
        }
    }
}

/// How the message names an operand: as written, or by its place.
fn name(operation: &Operation, at: usize) -> String {
    match operation
        .operands
        .get(at)
        .and_then(|operand| operand.written.as_ref())
    {
        Some(written) => format!("`{written}`"),
        None if operation.operands.len() == 1 => "its operand".to_owned(),
        None if at == 0 => "its left side".to_owned(),
        None => "its right side".to_owned(),
    }
}

/// The `operand-type` diagnostic of one operation.
fn diagnostic(
    site: &Site<'_>,
    operation: &Operation,
    kinds: &[Option<Kind>],
    verdict: Verdict,
    span: Span,
    shaped: &Shaped,
) -> Diagnostic {
    let (field, op) = (site.field, operation.operator);
    let kind = |at: usize| kinds.get(at).copied().flatten();
    let described = |at: usize| {
        format!(
            "{} ({})",
            name(operation, at),
            kind(at).map_or("of another kind", Kind::noun)
        )
    };
    let (message, label) = match verdict {
        Verdict::Always(value) => (
            format!(
                "{field} compares {} with {} by `{op}`: values of different types are never equal, so it is {value} for {}",
                described(0),
                described(1),
                site.each
            ),
            format!("always {value}"),
        ),
        Verdict::Fails(at) => {
            let wants = match op {
                "<" | "<=" | ">" | ">=" => "orders two numbers, two strings or two booleans",
                "+" => "adds two numbers, or joins two strings or two lists",
                "-" if operation.operands.len() == 1 => "negates a number",
                "-" | "*" | "/" | "%" => "takes two numbers",
                _ => "takes booleans",
            };
            let rows = if matches!(op, "&&" | "||") {
                format!("{} where the other side does not decide", site.each)
            } else {
                site.each.to_owned()
            };
            let operands = if operation.operands.len() == 2 {
                format!("{} and {}", described(0), described(1))
            } else {
                described(0)
            };
            let noun = |at: usize| kind(at).map_or("another kind", Kind::noun);
            let label = if operation.operands.len() == 2 {
                format!("{} `{op}` {}", noun(0), noun(1))
            } else {
                format!("`{op}` on {}", noun(at))
            };
            (
                format!(
                    "{field} applies `{op}` to {operands}: `{op}` {wants}, so evaluating it fails on {rows}"
                ),
                label,
            )
        }
    };
    let diagnostic = Diagnostic::new(Rule::OperandType, span, message).with_label(label);
    from_shape(diagnostic, shaped, &help(operation, kinds, verdict))
}

/// How to fix one wrong operation: a conversion for the kinds at hand.
fn help(operation: &Operation, kinds: &[Option<Kind>], verdict: Verdict) -> String {
    let op = operation.operator;
    // A number written in quotes next to a number: drop the quotes.
    let quoted_number = operation
        .operands
        .iter()
        .zip(kinds)
        .find_map(|(operand, kind)| {
            let written = operand.written.as_deref()?;
            let inner = written
                .strip_prefix(['"', '\''])?
                .strip_suffix(['"', '\''])?;
            (*kind == Some(Kind::String) && inner.parse::<f64>().is_ok()).then(|| inner.to_owned())
        });
    let has = |wanted: Kind| kinds.contains(&Some(wanted));
    if let Some(number) = quoted_number.filter(|_| has(Kind::Number)) {
        return format!(
            "write the number without quotes (`{number}`), or convert the other side with `string(…)`"
        );
    }
    // A field holding a string beside a written number: convert it, or compare strings.
    if let ([first, second], [Some(a), Some(b)]) = (operation.operands.as_slice(), kinds) {
        let text = |operand: &Operand| operand.written.clone();
        let pair = match (a, b) {
            (Kind::String, Kind::Number) => text(first).zip(text(second)),
            (Kind::Number, Kind::String) => text(second).zip(text(first)),
            _ => None,
        };
        if let Some((string, number)) = pair.filter(|(string, _)| !string.starts_with(['"', '\'']))
        {
            let (left, right) = if *a == Kind::String {
                (format!("int({string})"), number.clone())
            } else {
                (number.clone(), format!("int({string})"))
            };
            return format!(
                "convert it: `{left} {op} {right}` when `{string}` holds digits; or compare it with a string"
            );
        }
    }
    match (op, verdict) {
        ("!", _) if has(Kind::String) => {
            "`!` negates a boolean: test a string with `x == \"\"` or `size(x) == 0`".to_owned()
        }
        ("!", _) => "`!` negates a boolean: compare instead (`x == 0`, `size(x) == 0`)".to_owned(),
        ("&&" | "||", _) => format!(
            "`{op}` joins conditions: write each side as a comparison (`x != \"\"`, `n > 0`, `size(list) > 0`)"
        ),
        _ if has(Kind::List) || has(Kind::Object) => {
            "a list or an object is not a number or a string: `size(x)` counts a list's items, `x.key` reads a key".to_owned()
        }
        _ if has(Kind::Bool) => {
            "a boolean is neither a number nor a string: use it as a condition, or `x ? 1 : 0`".to_owned()
        }
        _ => "convert one side: `int(x)` or `double(x)` reads a string of digits as a number, `string(x)` writes a number as a string".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::{Value, json};
    use sources_expr::Language;

    use super::*;

    /// A row value of each kind.
    fn value(kind: Kind) -> Value {
        match kind {
            Kind::Bool => json!(true),
            Kind::Number => json!(4),
            Kind::String => json!("x"),
            Kind::List => json!([1]),
            Kind::Object => json!({}),
        }
    }

    const KINDS: [Kind; 5] = [
        Kind::Bool,
        Kind::Number,
        Kind::String,
        Kind::List,
        Kind::Object,
    ];

    /// Every verdict is what `cel` does: over every pair of kinds, an operation judged to fail
    /// fails, one judged always true or false is that, and one not judged evaluates.
    #[test]
    fn every_verdict_is_what_cel_does() {
        let binary = ["<", "<=", ">", ">=", "==", "!=", "+", "-", "*", "/", "%"];
        let mut cases: Vec<(String, Vec<Kind>)> = Vec::new();
        for op in binary {
            for a in KINDS {
                for b in KINDS {
                    cases.push((format!("a {op} b"), vec![a, b]));
                }
            }
        }
        for op in ["&&", "||"] {
            for a in KINDS {
                // The other side `true` for `&&` and `false` for `||` never decides alone.
                let other = if op == "&&" { "true" } else { "false" };
                cases.push((format!("a {op} {other}"), vec![a]));
            }
        }
        for op in ["-", "!"] {
            for a in KINDS {
                cases.push((format!("{op}a"), vec![a]));
            }
        }
        let mut wrong = Vec::new();
        for (text, kinds) in cases {
            let compiled = sources_expr::compile(Language::Cel, &text).expect("compiles");
            let operation = &compiled.facts().operations[0];
            let judged: Vec<Option<Kind>> = operation
                .operands
                .iter()
                .enumerate()
                .map(|(at, operand)| match operand.kind {
                    ResultKind::Path(_) => kinds.get(at).copied(),
                    ResultKind::Kind(kind) => Kind::of_value(kind),
                    ResultKind::Unknown => None,
                })
                .collect();
            let verdict = judge(operation.operator, &judged);
            let row: serde_json::Map<String, Value> = ["a", "b"]
                .iter()
                .zip(&kinds)
                .map(|(name, kind)| ((*name).to_owned(), value(*kind)))
                .collect();
            let result = compiled.evaluate(&Value::Object(row), &BTreeMap::new());
            let agrees = match verdict {
                Some(Verdict::Fails(_)) => result.is_err(),
                Some(Verdict::Always(value)) => result.as_ref().ok() == Some(&json!(value)),
                None => result.is_ok(),
            };
            if !agrees {
                wrong.push(format!(
                    "`{text}` over {kinds:?} is judged {verdict:?}, but gives {result:?}"
                ));
            }
        }
        assert!(
            wrong.is_empty(),
            "verdicts that are not what cel does:\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn operands_of_unevident_kind_are_not_judged() {
        assert_eq!(judge(">", &[Some(Kind::String), None]), None);
        assert_eq!(judge("-", &[None]), None);
        assert_eq!(judge("+", &[None, Some(Kind::Number)]), None);
        assert_eq!(
            judge("+", &[None, Some(Kind::Bool)]),
            Some(Verdict::Fails(1))
        );
    }
}
