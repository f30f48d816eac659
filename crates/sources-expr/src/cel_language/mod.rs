//! CEL, through the `cel` crate: parsing on a stack big enough for its recursive parser, its
//! errors reworded and located, its functions, evaluation over a JSON row (a missing field is
//! `null`, also under a missing parent) and its predicate truthiness.

pub(crate) mod facts;
pub(crate) mod lex;
pub(crate) mod params;

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use cel::objects::{Key, Map};
use cel::{Context, Program};
use serde_json::Value;

use crate::{CompileError, EvalError};

/// Stack for compiling any expression that is not trivially small: the parser's recursion at the
/// guard's limits needs far less, in debug builds too, and the pages are only touched when used.
const COMPILE_STACK: usize = 64 * 1024 * 1024;

/// Parses `source` (already past [`crate::guard::check`]) as CEL. Anything but a small expression
/// is compiled on a thread with a large stack, so no expression can overflow the caller's stack
/// (an LSP or tokio worker's is small). The first error, located.
pub(crate) fn parse(source: &str) -> Result<Program, CompileError> {
    let (depth, _) = crate::guard::nesting(source);
    let compiled = if depth <= 4 && source.len() <= 256 {
        Program::compile(source).map_err(|errors| errors.errors)
    } else {
        let owned = source.to_owned();
        std::thread::Builder::new()
            .name("cel-compile".to_owned())
            .stack_size(COMPILE_STACK)
            .spawn(move || Program::compile(&owned).map_err(|errors| errors.errors))
            .ok()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_else(|| Err(Vec::new()))
    };
    let errors = match compiled {
        Ok(program) => return Ok(program),
        Err(errors) => errors,
    };
    Err(errors
        .first()
        .map(|error| CompileError {
            message: readable(&error.msg),
            range: locate(source, error.pos),
        })
        .unwrap_or_else(|| CompileError {
            message: "the expression does not compile".to_owned(),
            range: 0..source.len(),
        }))
}

/// Converts the parser's 1-based line and 1-based Unicode-scalar column into a byte range of the
/// character there (an empty range at the end when the position is past the text).
fn locate(source: &str, (line, column): (isize, isize)) -> Range<usize> {
    let line_index = usize::try_from(line.saturating_sub(1)).unwrap_or(0);
    let column_index = usize::try_from(column.saturating_sub(1)).unwrap_or(0);
    let mut line_start = 0;
    for (index, text) in source.split_inclusive('\n').enumerate() {
        if index == line_index {
            break;
        }
        line_start += text.len();
    }
    let line_start = line_start.min(source.len());
    let line_text = source[line_start..].split('\n').next().unwrap_or("");
    match line_text.char_indices().nth(column_index) {
        Some((offset, ch)) => {
            let start = line_start + offset;
            start..start + ch.len_utf8()
        }
        None => {
            let end = source.trim_end().len();
            end..end
        }
    }
}

/// Rewords the ANTLR messages the `cel` parser produces ("mismatched input '<EOF>' expecting
/// {…}") into short sentences.
fn readable(message: &str) -> String {
    let message = message.strip_prefix("Syntax error: ").unwrap_or(message);
    let quoted = |rest: &str| -> Option<String> {
        let rest = rest.strip_prefix('\'')?;
        let end = rest.rfind("' expecting").or_else(|| rest.rfind('\''))?;
        Some(rest[..end].to_owned())
    };
    for prefix in [
        "mismatched input ",
        "extraneous input ",
        "no viable alternative at input ",
    ] {
        if let Some(rest) = message.strip_prefix(prefix) {
            return match quoted(rest) {
                Some(token) if token == "<EOF>" => {
                    "the expression ends too early: an operand or `)` is missing".to_owned()
                }
                Some(token) => format!("unexpected `{token}`"),
                None => message.to_owned(),
            };
        }
    }
    if let Some(rest) = message.strip_prefix("token recognition error at: ") {
        let token = rest.trim_matches('\'');
        return match token.chars().next() {
            Some('\'' | '"') => "unterminated string literal".to_owned(),
            _ => format!("unexpected character `{token}`"),
        };
    }
    if message == "invalid argument to has() macro" {
        return "`has()` takes a field selection, such as `has(status.health)`".to_owned();
    }
    message.to_owned()
}

/// CEL's functions offered to users (each is checked to exist by a unit test).
pub(crate) const FUNCTIONS: &[&str] = &[
    "size",
    "contains",
    "startsWith",
    "endsWith",
    "matches",
    "string",
    "int",
    "uint",
    "double",
    "bool",
    "bytes",
    "type",
    "dyn",
    "duration",
    "timestamp",
    "getFullYear",
    "getMonth",
    "getDayOfMonth",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getDayOfWeek",
];

/// Whether the evaluation context has a function `name`: asked of `cel` itself, whose context
/// refuses to declare a function it already has.
pub(crate) fn has_function(name: &str) -> bool {
    static KNOWN: Mutex<Option<HashMap<String, bool>>> = Mutex::new(None);
    let mut known = KNOWN.lock().unwrap_or_else(PoisonError::into_inner);
    let known = known.get_or_insert_with(HashMap::new);
    if let Some(answer) = known.get(name) {
        return *answer;
    }
    let answer = Context::default()
        .add_function(name, |value: i64| value)
        .is_err();
    if known.len() < 4096 {
        known.insert(name.to_owned(), answer);
    }
    answer
}

/// A predicate's truth: true for `true`, a non-zero number or a non-empty string; false for
/// anything else (`false`, `null`, zero, `""`, a list or a map).
pub(crate) fn truthy(value: &Value) -> bool {
    match value {
        Value::Bool(flag) => *flag,
        Value::Number(number) => number.as_f64().is_some_and(|number| number != 0.0),
        Value::String(text) => !text.is_empty(),
        _ => false,
    }
}

thread_local! {
    /// CEL's standard environment, built once per thread: `Context::default()` builds the whole
    /// standard library, which costs far more than evaluating an expression over one row. Each
    /// evaluation binds its variables in a scope of its own above it.
    static ROOT: Context<'static, 'static> = Context::default();
}

/// Runs `with` on a fresh scope of the thread's standard environment ([`ROOT`]).
pub(crate) fn in_scope<T>(with: impl FnOnce(Context<'_, 'static>) -> T) -> T {
    ROOT.with(|root| with(root.new_inner_scope()))
}

/// Evaluates `program` over `row` with `params`; `paths` are the row paths it reads, filled with
/// `null` (and maps on the way) where the row lacks them.
pub(crate) fn evaluate(
    program: &Program,
    paths: &[Vec<String>],
    row: &Value,
    params: &BTreeMap<String, Value>,
) -> Result<Value, EvalError> {
    in_scope(|context| evaluate_in(context, program, paths, row, params))
}

/// [`evaluate`] in `context`.
fn evaluate_in(
    mut context: Context<'_, 'static>,
    program: &Program,
    paths: &[Vec<String>],
    row: &Value,
    params: &BTreeMap<String, Value>,
) -> Result<Value, EvalError> {
    let empty = serde_json::Map::new();
    let fields = match row {
        Value::Object(fields) => fields,
        _ => &empty,
    };
    let filled = filled(paths, fields);
    for (name, value) in filled.as_ref().unwrap_or(fields) {
        context.add_variable_from_value(name.as_str(), to_cel(value));
    }
    if !fields.contains_key("item") {
        context.add_variable_from_value("item", to_cel(row));
    }
    context.add_variable_from_value("params", params_variable(params));
    let result = program
        .execute(&context)
        .map_err(|error| EvalError::Failed {
            message: error.to_string(),
        })?;
    result.json().map_err(|_| EvalError::NoJsonForm {
        what: "result",
        shown: format!("{result:?}"),
    })
}

/// `fields` with every path of `paths` it lacks filled in (`null` at the end, maps on the way),
/// or `None` when nothing is missing.
pub(crate) fn filled(
    paths: &[Vec<String>],
    fields: &serde_json::Map<String, Value>,
) -> Option<serde_json::Map<String, Value>> {
    let mut missing = paths
        .iter()
        .filter(|path| !present(fields, path))
        .peekable();
    missing.peek()?;
    let mut filled = fields.clone();
    for path in missing {
        fill(&mut filled, path);
    }
    Some(filled)
}

/// Whether `fields` has every step of `path` (a `null` on the way counts as missing).
fn present(fields: &serde_json::Map<String, Value>, path: &[String]) -> bool {
    let Some((first, rest)) = path.split_first() else {
        return true;
    };
    match (fields.get(first), rest.is_empty()) {
        (Some(_), true) => true,
        (Some(Value::Object(inner)), false) => present(inner, rest),
        // A scalar or list on the way is the item's own value: selecting into it is the
        // expression's error to report, not a missing field.
        (Some(Value::Null) | None, _) => false,
        (Some(_), false) => true,
    }
}

/// Fills `path` into `fields`: maps where a step is missing or `null`, `null` at the end.
fn fill(fields: &mut serde_json::Map<String, Value>, path: &[String]) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let slot = fields.entry(first.clone()).or_insert(Value::Null);
    if rest.is_empty() {
        return;
    }
    if slot.is_null() {
        *slot = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(inner) = slot {
        fill(inner, rest);
    }
}

/// A JSON value as CEL sees it: integers stay integers, other numbers are doubles.
fn to_cel(value: &Value) -> cel::Value {
    match value {
        Value::Null => cel::Value::Null,
        Value::Bool(flag) => cel::Value::Bool(*flag),
        Value::Number(number) => {
            if let Some(int) = number.as_i64() {
                cel::Value::Int(int)
            } else if let Some(uint) = number.as_u64() {
                cel::Value::UInt(uint)
            } else {
                cel::Value::Float(number.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(text) => cel::Value::String(Arc::new(text.clone())),
        Value::Array(items) => cel::Value::List(Arc::new(items.iter().map(to_cel).collect())),
        Value::Object(fields) => cel::Value::Map(Map {
            map: Arc::new(
                fields
                    .iter()
                    .map(|(name, value)| (Key::String(Arc::new(name.clone())), to_cel(value)))
                    .collect(),
            ),
        }),
    }
}

/// The `params` variable of an expression: the operator's own bound parameters, typed.
fn params_variable(params: &BTreeMap<String, Value>) -> cel::Value {
    cel::Value::Map(Map {
        map: Arc::new(
            params
                .iter()
                .map(|(name, value)| (Key::String(Arc::new(name.clone())), to_cel(value)))
                .collect(),
        ),
    })
}
