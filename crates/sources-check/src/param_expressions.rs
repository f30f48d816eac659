//! The parts of row expressions over parameters alone: `expression` where such a part, evaluated
//! whatever the row, fails for the values the parameters it reads are judged with (a name the
//! entry does
//! not declare, which is absent from `params`; a `string` default added to a number; a method its
//! type lacks). Each part (`sources_expr::Compiled::param_parts`: only parts evaluated for every
//! row) is evaluated by the evaluator's own code, with `params` as the evaluator binds them (from
//! `sources_config::param_value::expression_value`): a parameter with a default at its default
//! (what every run that does not give it binds, as `runnable` renders it), one without at values
//! of its type a caller may give.

use std::collections::BTreeMap;

use serde_json::Value;
use sources_config::enums::{Enumeration, ParamType};
use sources_config::param_value::expression_value;
use sources_config::{NamedMap, Parameter, Source};
use sources_diagnostics::{Collector, Diagnostic, Rule, did_you_mean};
use sources_expr::{Compiled, EvalError, Language, ParamPart, TextParam};

use crate::expressions::{self, ExpressionSite};

/// The most value combinations one part is evaluated with.
const MAX_COMBINATIONS: usize = 64;

/// `expression` at each part over parameters alone that fails for every value they can have, over
/// the expressions of `source` and its pipe stages (`sites`, from `expressions::entry_sites`).
pub(crate) fn check_param_expressions(
    source: &Source,
    sites: &[ExpressionSite<'_>],
    file: &str,
    language: Language,
    out: &mut Collector,
) {
    let declared = crate::params::declared(source);
    for site in sites {
        check_site(source, declared, site, file, language, out);
    }
}

fn check_site(
    source: &Source,
    declared: Option<&NamedMap<Parameter>>,
    site: &ExpressionSite<'_>,
    file: &str,
    language: Language,
    out: &mut Collector,
) {
    let text = site.text.text.as_str();
    // A part over parameters alone names `params`: an expression that never writes the word has
    // none, and is not parsed again (the parser is the checker's most expensive step).
    // Expressions that do not compile are reported by `expressions` (its outcome is memoised).
    if !text.contains("params") || expressions::facts(language, text).is_err() {
        return;
    }
    let Ok(compiled) = expressions::compiled(language, text) else {
        return;
    };
    for part in compiled.param_parts() {
        let Some(failure) = refused_every_time(&compiled, &part, declared, |_| Ok(())) else {
            continue;
        };
        let names = &part.names;
        let undeclared = names
            .iter()
            .find(|(name, _)| declared.is_none_or(|declared| declared.get(name).is_none()));
        let diagnostic = match undeclared {
            Some((name, range)) => {
                let at = site.span_of(file, range.clone());
                undeclared_diagnostic(source, declared, site, name, at, &failure)
            }
            None => {
                let at = part.range.clone();
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
    // One over parameters alone was evaluated whole above.
    if compiled.reads_row() {
        for misuse in compiled.text_params() {
            out.push(text_param_diagnostic(site, file, &misuse));
        }
    }
}

/// The diagnostic for a parameter read where its text cannot go (expr-lang).
fn text_param_diagnostic(site: &ExpressionSite<'_>, file: &str, misuse: &TextParam) -> Diagnostic {
    let (name, operator) = (&misuse.name, &misuse.operator);
    Diagnostic::new(
        Rule::Expression,
        site.span_of(file, misuse.range.clone()),
        format!(
            "`{}` applies `{operator}` to `params.{name}`, which expr-lang reads as text whatever its declared type: it fails on every row",
            site.field
        ),
    )
    .with_label("a string here")
    .with_secondary(
        site.span_of(file, misuse.operator_range.clone()),
        format!("`{operator}` needs a number"),
    )
    .with_help(format!(
        "convert it where it is read: `int(params.{name})` (or `float(params.{name})`), as the dashboard passes parameters as strings"
    ))
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
/// compile (reported as such). Read as CEL, the default language; [`reads_row_in`] for another.
pub fn reads_row(text: &str) -> bool {
    reads_row_in(Language::Cel, text)
}

/// [`reads_row`] with `text` read in `language`.
pub fn reads_row_in(language: Language, text: &str) -> bool {
    expressions::compiled(language, text).is_ok_and(|compiled| compiled.reads_row())
}

/// What refuses the value of the expression `text` (one that does not read the row) for every
/// value of the parameters of `declared` it reads: its evaluation, or `accept` on the value as
/// text (as the engine binds a join lookup's `on` value); `None` when one is accepted, or when
/// what it reads is not known.
pub(crate) fn refused_for_every_value(
    language: Language,
    text: &str,
    declared: Option<&NamedMap<Parameter>>,
    accept: impl Fn(String) -> Result<(), String>,
) -> Option<String> {
    let compiled = expressions::compiled(language, text).ok()?;
    let whole = compiled.as_param_part()?;
    refused_every_time(&compiled, &whole, declared, |value| {
        let value = value.map_err(ToString::to_string)?;
        accept(match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })
    })
}

/// The first refusal of `part` of `compiled`, for every combination of values of the names it
/// reads (each declared one takes each value it can have, the default first): its evaluation's
/// error, or what `accept` says of its value (or of its having no JSON form); `None` when one is
/// accepted (or there are too many combinations to try).
fn refused_every_time(
    compiled: &Compiled,
    part: &ParamPart,
    declared: Option<&NamedMap<Parameter>>,
    accept: impl Fn(Result<&Value, &EvalError>) -> Result<(), String>,
) -> Option<String> {
    let names = &part.names;
    // Every declared name is bound (empty when nobody supplies it).
    let mut fixed: BTreeMap<String, Value> = BTreeMap::new();
    let mut varying: Vec<(String, Vec<Value>)> = Vec::new();
    for param in declared.iter().flat_map(|declared| declared.iter()) {
        let name = param.name.value.to_string();
        let values = values_of(&param.value.value, compiled.language());
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
        let refusal = match compiled.evaluate_part(part, &params) {
            Err(error @ EvalError::Failed { .. }) => error.to_string(),
            outcome => match accept(outcome.as_ref()) {
                Ok(()) => return None,
                Err(refusal) => refusal,
            },
        };
        first.get_or_insert(refusal);
    }
    first
}

/// The values a parameter is judged with, as an expression in `language` sees them (typed under
/// CEL, text under expr-lang): its default alone, else values of its type a caller may give (and
/// none, for an optional one).
fn values_of(declaration: &Parameter, language: Language) -> Vec<Value> {
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
        let default = default.value.as_str();
        return vec![language.param_value(expression_value(kind, default), default)];
    }
    let required = declaration
        .required
        .as_ref()
        .is_some_and(|required| required.value);
    let empty = (!required).then_some("");
    let mut values: Vec<Value> = Vec::new();
    for text in empty.into_iter().chain(samples.iter().copied()) {
        let value = language.param_value(expression_value(kind, text), text);
        if !values.contains(&value) {
            values.push(value);
        }
    }
    values
}
