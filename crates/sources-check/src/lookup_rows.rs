//! `failing-row` for a `join` whose driver's rows lint knows exactly (see `rows`): each `on`
//! expression is evaluated over each driver row, in the order `try` binds them, and the first row
//! that would stop the join is reported at the expression: one the expression fails on, or, unless
//! `on_error: skip` drops such rows, one on which a required parameter of the lookup gets nothing
//! (a field the row lacks is `null`, and `try` never sends a missing value as the text `null`).

use serde_json::Value;
use sources_config::enums::OnError;
use sources_config::model::{Body, Source};
use sources_config::{Config, accepted::must_be_given};
use sources_diagnostics::{Collector, Diagnostic, Rule};
use sources_expr::operators::{Params, RowError};
use sources_expr::{Compiled, EvalError};

use crate::expressions::ExpressionSite;
use crate::rows::{self, MAX_EVALUATIONS, MAX_ROWS, Runs};
use crate::shapes::EntryShapes;

/// One `on` expression compiled, with what its parameter needs.
struct Bound<'s> {
    site: ExpressionSite<'s>,
    lookup: &'s str,
    param: &'s str,
    target: &'s str,
    /// Whether the lookup's entry requires the parameter (no default).
    required: bool,
    /// `None` when lint does not evaluate it (it reads parameters, or does not compile).
    compiled: Option<Compiled>,
}

/// The first driver row `source`, a `join`, stops on, reported at the `on` expression (`shapes`
/// the join's shapes).
/// Not when the shape checks report a mistake inside that expression (one mistake, one
/// diagnostic).
pub(crate) fn check_lookup_rows(
    runs: &Runs,
    config: &Config,
    source: &Source,
    shapes: Option<&EntryShapes>,
    file: &str,
    out: &mut Collector,
) {
    let Body::Join(join) = &source.body else {
        return;
    };
    let Some(driver) = join
        .driver
        .as_ref()
        .and_then(|driver| driver.value.from.as_ref())
    else {
        return;
    };
    let Some(value) = config
        .position(&driver.value)
        .and_then(|index| runs.value(config, file, index))
    else {
        return;
    };
    let language = runs.language();
    let skip = join
        .on_error
        .as_ref()
        .is_some_and(|on_error| on_error.value == OnError::Skip);
    let mut bound = Vec::new();
    for lookup in join.lookups.iter().flat_map(|lookups| lookups.value.iter()) {
        let Some(target) = lookup
            .value
            .value
            .from
            .as_ref()
            .and_then(|from| config.get(&from.value))
        else {
            return;
        };
        let required = must_be_given(config, target);
        for item in lookup.value.value.on.iter().flat_map(|on| on.value.iter()) {
            let compiled = sources_expr::compile_to_run(language, &item.value.value.text)
                .ok()
                .filter(|compiled| !rows::reads_params(compiled));
            bound.push(Bound {
                site: ExpressionSite {
                    field: format!("lookups.{}.on.{}", lookup.name.value, item.name.value),
                    text: &item.value.value,
                    span: item.value.span,
                },
                lookup: &lookup.name.value,
                param: &item.name.value,
                target: &target.name.value,
                required: required.contains(&item.name.value),
                compiled,
            });
        }
    }
    let driver_rows: Vec<&Value> = match &*value {
        Value::Array(items) => items.iter().collect(),
        Value::Null => Vec::new(),
        single => vec![single],
    };
    if driver_rows.len() > MAX_ROWS
        || driver_rows.len().saturating_mul(bound.len()) > MAX_EVALUATIONS
    {
        return;
    }
    if let Some(found) = first_stop(
        &bound,
        &driver_rows,
        skip,
        |on, index, row, error| match error {
            Some(error) => failed(file, &source.name.value, on, &value, index, error),
            None => nothing(file, &source.name.value, &driver.value, on, row, index),
        },
    ) && !rows::said_inside(source, shapes, file, language, found.span)
    {
        out.push(found);
    }
}

/// The diagnostic `report` makes of the first driver row the join stops on: at the `on`
/// expression that fails on it (with the error) or gives a required parameter nothing (`None`),
/// in the order the join binds them; a row `skip` drops is bound no further.
fn first_stop(
    bound: &[Bound<'_>],
    driver_rows: &[&Value],
    skip: bool,
    report: impl Fn(&Bound<'_>, usize, &Value, Option<EvalError>) -> Diagnostic,
) -> Option<Diagnostic> {
    let params = Params::new();
    for (index, row) in driver_rows.iter().copied().enumerate() {
        for on in bound {
            let Some(compiled) = &on.compiled else {
                continue;
            };
            match compiled.evaluate(row, &params) {
                Err(error) => return Some(report(on, index, row, Some(error))),
                Ok(Value::Null) if on.required && skip => break,
                Ok(Value::Null) if on.required => return Some(report(on, index, row, None)),
                Ok(_) => {}
            }
        }
    }
    None
}

/// `failing-row` for an `on` expression that fails on the driver row `index` of `input`.
fn failed(
    file: &str,
    entry: &str,
    on: &Bound<'_>,
    input: &Value,
    index: usize,
    error: EvalError,
) -> Diagnostic {
    let failure = RowError {
        error,
        row: Some(index),
        expression: 0,
    };
    rows::failed(file, entry, &on.site, on.compiled.as_ref(), input, failure)
}

/// `failing-row` for an `on` expression that gives nothing on the driver row `index` (`row`) to
/// a required parameter.
fn nothing(
    file: &str,
    entry: &str,
    driver: &str,
    on: &Bound<'_>,
    row: &Value,
    index: usize,
) -> Diagnostic {
    let read = on
        .compiled
        .as_ref()
        .map(|compiled| rows::read_values(compiled, row))
        .unwrap_or_default();
    Diagnostic::new(
        Rule::FailingRow,
        on.site.span_of(file, 0..on.site.text.text.len()),
        format!(
            "`{}` of `{entry}` gives nothing (null) on row {index} of `{driver}`'s static data, and \
             `{}` is a required parameter of `{}`: `sources try` fails the join at that row{read}",
            on.site.field, on.param, on.target
        ),
    )
    .with_label(format!("null on row {index}"))
    .with_help(format!(
        "give every row of `{driver}` what lookup `{}` binds, or set `on_error: skip` on `{entry}` \
         to leave such rows out (a missing value is never sent as the text `null`)",
        on.lookup
    ))
}
