//! The parts of row expressions over parameters alone: `expression` where such a part, evaluated
//! whatever the row, fails for the values the parameters it reads are judged with (a name the
//! entry does
//! not declare, which is absent from `params`; a `string` default added to a number; a method its
//! type lacks). Each part is evaluated by the interpreter the evaluator runs (`cel`), with `params`
//! built as the evaluator builds it ([`params_variable`], from
//! `sources_config::param_value::expression_value`): a parameter with a default at its default
//! (what every run that does not give it binds, as `runnable` renders it), one without at values
//! of its type a caller may give. Only parts evaluated for every row are
//! judged: not a branch of `&&`, `||` or `?:` past its first operand, nor the body of a macro.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use cel::common::ast::{EntryExpr, Expr};
use cel::objects::{Key, Map};
use cel::{Context, IdedExpr};
use serde_json::Value;
use sources_config::enums::{Enumeration, ParamType};
use sources_config::param_value::expression_value;
use sources_config::{NamedMap, Parameter, Source};
use sources_diagnostics::{Collector, Diagnostic, Rule, did_you_mean};

use crate::expression_refs::{after_dot, clamp};
use crate::expressions::{self, ExpressionSite};

/// A JSON value as CEL sees it.
pub fn to_cel(value: &Value) -> cel::Value {
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

/// The `params` variable of an expression: the entry's own bound parameters, typed.
pub fn params_variable(params: &BTreeMap<String, Value>) -> cel::Value {
    cel::Value::Map(Map {
        map: Arc::new(
            params
                .iter()
                .map(|(name, value)| (Key::String(Arc::new(name.clone())), to_cel(value)))
                .collect(),
        ),
    })
}

/// The most value combinations one part is evaluated with.
const MAX_COMBINATIONS: usize = 64;

/// `expression` at each part over parameters alone that fails for every value they can have, over
/// the expressions of `source` and its pipe stages (`sites`, from `expressions::entry_sites`).
pub(crate) fn check_param_expressions(
    source: &Source,
    sites: &[ExpressionSite<'_>],
    file: &str,
    out: &mut Collector,
) {
    let declared = crate::params::declared(source);
    for site in sites {
        check_site(source, declared, site, file, out);
    }
}

fn check_site(
    source: &Source,
    declared: Option<&NamedMap<Parameter>>,
    site: &ExpressionSite<'_>,
    file: &str,
    out: &mut Collector,
) {
    let text = site.text.text.as_str();
    // A part over parameters alone names `params`: an expression that never writes the word has
    // none, and is not parsed again (the CEL parser is the checker's most expensive step).
    // Expressions that do not compile are reported by `expressions` (its outcome is memoised).
    if !text.contains("params") || expressions::compile(text).is_err() {
        return;
    }
    let Ok(program) = expressions::parse_program(text) else {
        return;
    };
    let info = program.source_info();
    let range = |id: u64| -> Range<usize> {
        info.offset_for(id)
            .map(|(start, stop)| clamp(text, start as usize)..clamp(text, stop as usize + 1))
            .unwrap_or(0..0)
    };
    let mut parts = Vec::new();
    unconditional_parts(program.expression(), &mut parts);
    for part in parts {
        let Some(names) = names_read(part) else {
            continue;
        };
        let Some(failure) = refused_every_time(part, &names, declared, |_| Ok(())) else {
            continue;
        };
        let undeclared = names
            .iter()
            .find(|(name, _)| declared.is_none_or(|declared| declared.get(name).is_none()));
        let diagnostic = match undeclared {
            Some((name, id)) => {
                let at = site.span_of(file, after_dot(text, range(*id).start, name));
                undeclared_diagnostic(source, declared, site, name, at, &failure)
            }
            None => {
                let at = range(part.id);
                let about: Vec<String> = names
                    .iter()
                    .map(|(name, _)| describe(name, declared))
                    .collect();
                Diagnostic::new(
                    Rule::Expression,
                    site.span_of(file, at),
                    format!(
                        "`{}` fails on every row with {}: {failure}",
                        site.field,
                        about.join(" and ")
                    ),
                )
                .with_label("fails for every value of the parameter")
                .with_help(format!(
                    "convert the parameter where it is used (`int(params.{name})`, `string(params.{name})`), or declare it with the `type` the expression needs",
                    name = names[0].0
                ))
            }
        };
        out.push(diagnostic);
    }
}

/// The diagnostic for `params.NAME` where the entry does not declare `name`.
fn undeclared_diagnostic(
    source: &Source,
    declared: Option<&NamedMap<Parameter>>,
    site: &ExpressionSite<'_>,
    name: &str,
    at: sources_diagnostics::Span,
    failure: &str,
) -> Diagnostic {
    let entry = &source.name.value;
    let names = crate::params::declared_names(declared);
    let help = match did_you_mean(name, names.iter().copied()).first() {
        Some(best) => format!("did you mean `params.{best}`?"),
        None if names.is_empty() => format!(
            "an expression sees only the parameters its entry declares (not those it passes through to what it reads): declare `{name}` under `parameters` of `{entry}`"
        ),
        None => format!(
            "declare `{name}` under `parameters` of `{entry}`, or read one it declares ({})",
            names
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Diagnostic::new(
        Rule::Expression,
        at,
        format!(
            "`{}` reads `params.{name}`, which `{entry}` does not declare: it fails on every row ({failure})",
            site.field
        ),
    )
    .with_label(format!("`{name}` is not a parameter of `{entry}`"))
    .with_help(help)
}

/// The values a parameter was judged with, for a message (`` `n` at its default `3` ``).
fn describe(name: &str, declared: Option<&NamedMap<Parameter>>) -> String {
    let Some(param) = declared.and_then(|declared| declared.get(name)) else {
        return format!("`{name}`");
    };
    let declaration = &param.value.value;
    let kind = declaration
        .kind
        .as_ref()
        .map_or(ParamType::String, |kind| kind.value);
    match &declaration.default {
        Some(default) => format!("`{name}` at its default `{}`", default.value),
        None => format!("every `{}` value of `{name}`", kind.as_str()),
    }
}

/// Whether the expression `text` reads the driver's or the item's row (a field, `item`, a
/// macro's variable): its value is then known only at run time. `false` for one that does not
/// compile (reported as such).
pub fn reads_row(text: &str) -> bool {
    expressions::parse_program(text).is_ok_and(|program| reads(program.expression()) == Reads::Row)
}

/// What refuses the value of the expression `text` (one that does not read the row) for every
/// value of the parameters of `declared` it reads: its evaluation, or `accept` on the value as
/// text (as the engine binds a join lookup's `on` value); `None` when one is accepted, or when
/// what it reads is not known.
pub(crate) fn refused_for_every_value(
    text: &str,
    declared: Option<&NamedMap<Parameter>>,
    accept: impl Fn(String) -> Result<(), String>,
) -> Option<String> {
    let program = expressions::parse_program(text).ok()?;
    let root = program.expression();
    if reads(root) == Reads::Row {
        return None;
    }
    let names = names_read(root)?;
    refused_every_time(root, &names, declared, |value| {
        let value = value
            .json()
            .map_err(|_| format!("the value ({value:?}) has no JSON form"))?;
        accept(match value {
            Value::String(text) => text,
            other => other.to_string(),
        })
    })
}

/// The first refusal of `part`, for every combination of values of `names` (each declared one
/// takes each value it can have, the default first): its evaluation's error, or what `accept`
/// says of its value; `None` when one is accepted (or there are too many combinations to try).
fn refused_every_time(
    part: &IdedExpr,
    names: &[(String, u64)],
    declared: Option<&NamedMap<Parameter>>,
    accept: impl Fn(&cel::Value) -> Result<(), String>,
) -> Option<String> {
    // Every declared name is bound (empty when nobody supplies it).
    let mut fixed: BTreeMap<String, Value> = BTreeMap::new();
    let mut varying: Vec<(String, Vec<Value>)> = Vec::new();
    for param in declared.iter().flat_map(|declared| declared.iter()) {
        let name = param.name.value.to_string();
        let values = values_of(&param.value.value);
        if names.iter().any(|(read, _)| *read == name) {
            varying.push((name, values));
        } else if let Some(first) = values.into_iter().next() {
            fixed.insert(name, first);
        }
    }
    let combinations = varying.iter().try_fold(1_usize, |count, (_, values)| {
        count.checked_mul(values.len())
    })?;
    if combinations == 0 || combinations > MAX_COMBINATIONS {
        return None;
    }
    let mut first = None;
    for index in 0..combinations {
        let mut params = fixed.clone();
        let mut rest = index;
        for (name, values) in &varying {
            params.insert(name.clone(), values[rest % values.len()].clone());
            rest /= values.len();
        }
        let mut context = Context::default();
        context.add_variable_from_value("params", params_variable(&params));
        let refusal = match cel::Value::resolve(part, &context) {
            Ok(value) => match accept(&value) {
                Ok(()) => return None,
                Err(refusal) => refusal,
            },
            Err(error) => error.to_string(),
        };
        first.get_or_insert(refusal);
    }
    first
}

/// The values a parameter is judged with, as an expression sees them: its default alone, else
/// values of its type a caller may give (and none, for an optional one).
fn values_of(declaration: &Parameter) -> Vec<Value> {
    let kind = declaration
        .kind
        .as_ref()
        .map_or(ParamType::String, |kind| kind.value);
    let samples: &[&str] = match kind {
        ParamType::String => &["", "x", "7", "-1", "true", "1s", "2026-01-01T00:00:00Z"],
        ParamType::Int => &["0", "7", "-1"],
        ParamType::Bool => &["true", "false"],
        ParamType::Duration => &["1s", "90m"],
    };
    // A default is what every run that does not give the parameter binds (as `runnable` renders
    // it): judged alone.
    if let Some(default) = &declaration.default {
        return vec![expression_value(kind, &default.value)];
    }
    let required = declaration
        .required
        .as_ref()
        .is_some_and(|required| required.value);
    let empty = (!required).then_some("");
    let mut values: Vec<Value> = Vec::new();
    for text in empty.into_iter().chain(samples.iter().copied()) {
        let value = expression_value(kind, text);
        if !values.contains(&value) {
            values.push(value);
        }
    }
    values
}

/// The parts of `node` evaluated for every row, outermost first, that read nothing but `params`
/// (and literals): the largest such parts, each once.
fn unconditional_parts<'e>(node: &'e IdedExpr, out: &mut Vec<&'e IdedExpr>) {
    // An explicit stack: a long chain of operators is a deep tree.
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match reads(node) {
            Reads::ParamsOnly => {
                out.push(node);
                continue;
            }
            Reads::Nothing => continue,
            Reads::Row => {}
        }
        match &node.expr {
            Expr::Call(call) => {
                if matches!(
                    call.func_name.as_str(),
                    "_&&_" | "_||_" | "_?_:_" | "@not_strictly_false"
                ) {
                    stack.extend(call.args.first());
                } else {
                    stack.extend(call.args.iter().rev());
                    stack.extend(call.target.as_deref());
                }
            }
            Expr::Select(select) => stack.push(&select.operand),
            Expr::Comprehension(comprehension) => stack.push(&comprehension.iter_range),
            Expr::List(list) => stack.extend(list.elements.iter().rev()),
            Expr::Map(map) => stack.extend(map.entries.iter().rev().flat_map(entry_parts)),
            Expr::Struct(structure) => {
                stack.extend(structure.entries.iter().rev().flat_map(entry_parts));
            }
            Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
}

fn entry_parts(entry: &cel::common::ast::IdedEntryExpr) -> Vec<&IdedExpr> {
    match &entry.expr {
        EntryExpr::MapEntry(map) => vec![&map.value, &map.key],
        EntryExpr::StructField(field) => vec![&field.value],
    }
}

/// What a part reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reads {
    /// Literals only.
    Nothing,
    /// `params` and literals.
    ParamsOnly,
    /// The row (a field, `item`, a macro's variable).
    Row,
}

/// What `node` reads, walking it on an explicit stack.
fn reads(node: &IdedExpr) -> Reads {
    let mut found = Reads::Nothing;
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.expr {
            Expr::Ident(name) if name == "params" => found = Reads::ParamsOnly,
            Expr::Ident(_) | Expr::Comprehension(_) => return Reads::Row,
            Expr::Call(call) => {
                stack.extend(call.args.iter());
                stack.extend(call.target.as_deref());
            }
            Expr::Select(select) => stack.push(&select.operand),
            Expr::List(list) => stack.extend(list.elements.iter()),
            Expr::Map(map) => stack.extend(map.entries.iter().flat_map(entry_parts)),
            Expr::Struct(structure) => {
                stack.extend(structure.entries.iter().flat_map(entry_parts));
            }
            Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
    found
}

/// The names a part reads as `params.NAME`, each with the id of its select, in order; `None`
/// when it reads `params` in any other way (`params[k]`, `size(params)`): what it reads is then
/// not known.
fn names_read(part: &IdedExpr) -> Option<Vec<(String, u64)>> {
    let mut names: Vec<(String, u64)> = Vec::new();
    let mut stack = vec![part];
    while let Some(node) = stack.pop() {
        match &node.expr {
            Expr::Select(select) => match &select.operand.expr {
                Expr::Ident(name) if name == "params" => {
                    if !names.iter().any(|(read, _)| *read == select.field) {
                        names.push((select.field.clone(), node.id));
                    }
                }
                _ => stack.push(&select.operand),
            },
            Expr::Ident(name) if name == "params" => return None,
            Expr::Call(call) => {
                stack.extend(call.args.iter().rev());
                stack.extend(call.target.as_deref());
            }
            Expr::List(list) => stack.extend(list.elements.iter().rev()),
            Expr::Map(map) => stack.extend(map.entries.iter().rev().flat_map(entry_parts)),
            Expr::Struct(structure) => {
                stack.extend(structure.entries.iter().rev().flat_map(entry_parts));
            }
            Expr::Ident(_) | Expr::Comprehension(_) | Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
    Some(names)
}
