//! expr-lang (the dashboard's language), through the `expr-lang` crate: compiled as the dashboard
//! compiles it, with undefined variables allowed (a name the row lacks is `nil`), a map row's
//! fields in scope, the whole row as `item`, `params.NAME` as strings, the dashboard's added
//! `parseTime` beside the crate's builtins (which shadow fields: a call is never a field), and the
//! dashboard's predicate truthiness.
//!
//! The crate gives no positions or tree, so the facts come from this module's lexer (`lex`).

pub(crate) mod facts;
pub(crate) mod lex;
pub(crate) mod params;

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::LazyLock;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use expr::{Context, DateTimeValue, Environment, Program};
use serde_json::Value;

use crate::{CompileError, EvalError};

/// The builtins of expr-lang's language definition and the dashboard's `parseTime`, for
/// did-you-mean, completion and the unknown-function check (each is checked to exist by a test).
pub(crate) const FUNCTIONS: &[&str] = &[
    "len",
    "all",
    "any",
    "one",
    "none",
    "map",
    "filter",
    "find",
    "findIndex",
    "findLast",
    "findLastIndex",
    "groupBy",
    "count",
    "concat",
    "flatten",
    "uniq",
    "join",
    "reduce",
    "sum",
    "mean",
    "median",
    "first",
    "last",
    "take",
    "reverse",
    "sort",
    "sortBy",
    "keys",
    "values",
    "toPairs",
    "fromPairs",
    "get",
    "type",
    "int",
    "float",
    "string",
    "toJSON",
    "fromJSON",
    "toBase64",
    "fromBase64",
    "trim",
    "trimPrefix",
    "trimSuffix",
    "upper",
    "lower",
    "split",
    "splitAfter",
    "replace",
    "repeat",
    "indexOf",
    "lastIndexOf",
    "hasPrefix",
    "hasSuffix",
    "max",
    "min",
    "abs",
    "ceil",
    "floor",
    "round",
    "now",
    "duration",
    "date",
    "timezone",
    "bitand",
    "bitor",
    "bitxor",
    "bitnand",
    "bitnot",
    "bitshl",
    "bitshr",
    "bitushr",
    "parseTime",
];

/// The environment every expression runs in: the crate's builtins and `parseTime`.
static ENVIRONMENT: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut environment = Environment::new();
    environment.add_function("parseTime", |call| {
        let [expr::Value::String(text)] = call.args.as_slice() else {
            return Err(expr::Error::ExprError(
                "parseTime() takes one string".to_owned(),
            ));
        };
        parse_time(text)
            .map(|time| expr::Value::DateTime(DateTimeValue::fixed(time.fixed_offset())))
            .ok_or_else(|| {
                expr::Error::ExprError(format!(
                    "parseTime(): {text:?} is not an RFC 3339 time (2006-01-02T15:04:05Z, with or without fractions) nor a date (2006-01-02)"
                ))
            })
    });
    environment
});

/// A time as the dashboard's `parseTime` reads it: RFC 3339 with or without fractions, or a date
/// (midnight UTC).
fn parse_time(text: &str) -> Option<DateTime<Utc>> {
    if let Ok(time) = DateTime::parse_from_rfc3339(text) {
        return Some(time.with_timezone(&Utc));
    }
    if let Ok(time) = NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%SZ") {
        return Some(time.and_utc());
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|date| date.and_hms_opt(0, 0, 0))
        .map(|time| time.and_utc())
}

/// Whether `name` is a function an expression may call.
pub(crate) fn has_function(name: &str) -> bool {
    FUNCTIONS.contains(&name)
}

/// `source` in the forms the crate reads, where expr-lang's language definition has forms the
/// crate lacks: a predicate's `.field` becomes `#.field`, a member `a.0` becomes `a[0]`, and a map
/// literal's bare key `{x: 1}` becomes `{'x': 1}`. Positions of errors are in the rewritten text
/// only after a rewrite, which keeps lengths except for the added characters.
fn rewrite(source: &str) -> String {
    let lexed = lex::lexemes(source);
    let is_operator = |at: usize, operator: &str| {
        lexed.get(at).is_some_and(|(kind, range)| {
            *kind == lex::Lexeme::Operator && &source[range.clone()] == operator
        })
    };
    let mut out = String::with_capacity(source.len() + 8);
    let mut copied = 0;
    let mut open: Vec<&str> = Vec::new();
    for (at, (kind, range)) in lexed.iter().enumerate() {
        let written = &source[range.clone()];
        if *kind == lex::Lexeme::Operator {
            match written {
                "(" | "[" | "{" => open.push(written),
                ")" | "]" | "}" => {
                    open.pop();
                }
                _ => {}
            }
        }
        let operand_before = at > 0
            && match &lexed[at - 1] {
                (lex::Lexeme::Operator, before) => {
                    matches!(&source[before.clone()], ")" | "]" | "}")
                }
                (lex::Lexeme::Keyword, _) => false,
                _ => true,
            };
        if *kind == lex::Lexeme::Operator && written == "." && !operand_before {
            out.push_str(&source[copied..range.start]);
            out.push('#');
            copied = range.start;
        } else if *kind == lex::Lexeme::Operator
            && written == "."
            && lexed
                .get(at + 1)
                .is_some_and(|(next, _)| *next == lex::Lexeme::Number)
        {
            let index = &lexed[at + 1].1;
            out.push_str(&source[copied..range.start]);
            out.push('[');
            out.push_str(&source[index.clone()]);
            out.push(']');
            copied = index.end;
        } else if *kind == lex::Lexeme::Name
            && open.last() == Some(&"{")
            && at > 0
            && (is_operator(at - 1, "{") || is_operator(at - 1, ","))
            && is_operator(at + 1, ":")
        {
            out.push_str(&source[copied..range.start]);
            out.push('\'');
            out.push_str(written);
            out.push('\'');
            copied = range.end;
        }
    }
    out.push_str(&source[copied..]);
    out
}

/// Refuses a bare name that is a builtin: builtins shadow the row's fields of the same name, so
/// it never reads the field.
pub(crate) fn refuse_shadowed(facts: &crate::Facts) -> Result<(), CompileError> {
    match facts
        .fields
        .iter()
        .map(|path| &path.segments[0])
        .find(|(name, _)| has_function(name))
    {
        None => Ok(()),
        Some((name, range)) => Err(CompileError {
            message: format!(
                "`{name}` is a builtin function of expr, which shadows a field of that name: call it, or rename the field with a `project` first"
            ),
            range: range.clone(),
        }),
    }
}

/// Compiles `source` (already past [`crate::guard::check`]) with the crate; the first error,
/// located. The crate's parser panics on some forms it does not know (`+n`); that is a compile error here,
/// never a crash.
pub(crate) fn parse(source: &str) -> Result<Program, CompileError> {
    let rewritten = rewrite(source);
    match std::panic::catch_unwind(|| expr::compile(&rewritten)) {
        Ok(compiled) => compiled.map_err(|error| located(source, &error)),
        Err(_) => Err(CompileError {
            message: "expr-lang does not read this form of expression".to_owned(),
            range: 0..source.len(),
        }),
    }
}

/// A compile error of the crate, located: a parser error names `--> LINE:COLUMN` and says what it
/// expected on a line starting with `= `.
fn located(source: &str, error: &expr::Error) -> CompileError {
    let shown = error.to_string();
    let position = shown.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix("--> ")?;
        let (line, column) = rest.split_once(':')?;
        Some((
            line.trim().parse::<usize>().ok()?,
            column.trim().parse::<usize>().ok()?,
        ))
    });
    let said = shown
        .lines()
        .find_map(|line| line.trim_start().strip_prefix("= "))
        .unwrap_or(
            shown
                .lines()
                .next()
                .unwrap_or("the expression does not compile"),
        );
    let range = match position {
        Some((line, column)) => locate(source, line, column),
        None => 0..source.len(),
    };
    let at_end = range.start >= source.trim_end().len();
    let message = if at_end {
        "the expression ends too early: an operand or `)` is missing".to_owned()
    } else if said.starts_with("expected") {
        let found = source.get(range.clone()).unwrap_or("");
        format!("unexpected `{found}`")
    } else {
        said.to_owned()
    };
    CompileError { message, range }
}

/// The byte range of the character at 1-based `line` and `column` (characters), or an empty
/// range at the end.
fn locate(source: &str, line: usize, column: usize) -> Range<usize> {
    let line_start: usize = source
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let line_start = line_start.min(source.len());
    let line_text = source[line_start..].split('\n').next().unwrap_or("");
    match line_text.char_indices().nth(column.saturating_sub(1)) {
        Some((offset, ch)) => line_start + offset..line_start + offset + ch.len_utf8(),
        None => {
            let end = source.trim_end().len();
            end..end
        }
    }
}

/// A predicate's truth as the dashboard judges it: true for `true`, a non-empty string or a
/// non-zero number; false for `false`, `nil`, `""` and `0`; any other value is an error.
pub(crate) fn truthy(value: &Value) -> Result<bool, EvalError> {
    match value {
        Value::Bool(flag) => Ok(*flag),
        Value::Null => Ok(false),
        Value::String(text) => Ok(!text.is_empty()),
        Value::Number(number) => Ok(number.as_f64().is_some_and(|number| number != 0.0)),
        Value::Array(_) => Err(not_a_predicate("a list")),
        Value::Object(_) => Err(not_a_predicate("a map")),
    }
}

fn not_a_predicate(what: &str) -> EvalError {
    EvalError::Failed {
        message: format!(
            "a condition must give a boolean, a number or a string, and this one gave {what}"
        ),
    }
}

/// Evaluates `program` over `row` with `params`; the first names of `paths` (the row paths it
/// reads) are bound to `nil` where the row lacks them.
pub(crate) fn evaluate(
    program: &Program,
    paths: &[Vec<String>],
    row: &Value,
    params: &BTreeMap<String, Value>,
) -> Result<Value, EvalError> {
    let mut context = Context::default();
    let filled = match row {
        Value::Object(fields) => crate::cel_language::filled(paths, fields),
        _ => None,
    };
    if let Some(fields) = filled.as_ref().or(row.as_object()) {
        for (name, value) in fields {
            context.insert(name.clone(), to_expr(value));
        }
    }
    if context.get("item").is_none() {
        context.insert("item".to_owned(), to_expr(row));
    }
    if context.get("params").is_none() {
        context.insert("params".to_owned(), params_value(params));
    }
    for name in paths.iter().filter_map(|path| path.first()) {
        if context.get(name).is_none() {
            context.insert(name.clone(), expr::Value::Nil);
        }
    }
    let result = ENVIRONMENT
        .run(program, &context)
        .map_err(|error| EvalError::Failed {
            message: error.to_string(),
        })?;
    to_json(&result).ok_or_else(|| EvalError::NoJsonForm {
        what: "result",
        shown: result.to_string(),
    })
}

/// `params` as the dashboard passes them: every value a string.
pub(crate) fn params_value(params: &BTreeMap<String, Value>) -> expr::Value {
    expr::Value::Map(
        params
            .iter()
            .map(|(name, value)| {
                let text = match value {
                    Value::String(text) => expr::Value::String(text.clone()),
                    Value::Null => expr::Value::Nil,
                    other => expr::Value::String(other.to_string()),
                };
                (name.clone(), text)
            })
            .collect(),
    )
}

/// A JSON value as expr-lang sees it: integers stay integers, other numbers are floats.
fn to_expr(value: &Value) -> expr::Value {
    match value {
        Value::Null => expr::Value::Nil,
        Value::Bool(flag) => expr::Value::Bool(*flag),
        Value::Number(number) => match number.as_i64() {
            Some(int) => expr::Value::Integer(int),
            None => expr::Value::Float(number.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(text) => expr::Value::String(text.clone()),
        Value::Array(items) => expr::Value::Array(items.iter().map(to_expr).collect()),
        Value::Object(fields) => expr::Value::Map(
            fields
                .iter()
                .map(|(name, value)| (name.clone(), to_expr(value)))
                .collect(),
        ),
    }
}

/// A value back as JSON: a time as RFC 3339 text, a duration in nanoseconds; `None` for what has
/// no JSON form (bytes, a map with non-string keys, a non-finite float).
fn to_json(value: &expr::Value) -> Option<Value> {
    Some(match value {
        expr::Value::Nil => Value::Null,
        expr::Value::Bool(flag) => Value::Bool(*flag),
        expr::Value::Integer(int) => Value::from(*int),
        expr::Value::Float(float) => Value::Number(serde_json::Number::from_f64(*float)?),
        expr::Value::String(text) => Value::String(text.clone()),
        expr::Value::Array(items) => {
            Value::Array(items.iter().map(to_json).collect::<Option<Vec<_>>>()?)
        }
        expr::Value::Map(fields) => Value::Object(
            fields
                .iter()
                .map(|(name, value)| Some((name.clone(), to_json(value)?)))
                .collect::<Option<serde_json::Map<_, _>>>()?,
        ),
        expr::Value::DateTime(time) => Value::String(
            value
                .as_datetime()
                .map_or_else(|| time.to_string(), DateTime::to_rfc3339),
        ),
        expr::Value::Duration(nanos) => Value::from(*nanos),
        expr::Value::Timezone(_) | expr::Value::Month(_) | expr::Value::Weekday(_) => {
            Value::String(value.to_string())
        }
        expr::Value::KeyedMap(pairs) => Value::Object(
            pairs
                .iter()
                .map(|(key, value)| Some((key.as_string()?.to_owned(), to_json(value)?)))
                .collect::<Option<serde_json::Map<_, _>>>()?,
        ),
        expr::Value::Bytes(_) => return None,
    })
}
