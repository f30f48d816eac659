//! `pipe` stages and single-input operators, compiled once per evaluation and applied to a value or
//! to each streamed event.

use super::*;
use sources_expr::Language;

/// One `pipe` stage or single-input operator, compiled.
pub(super) enum Step {
    Filter(Expr),
    Project(Vec<(String, Expr)>),
    Derive(Vec<(String, Expr)>),
    Sort(Expr, bool),
    Hold,
}

impl Step {
    pub(super) fn apply(&self, value: Value, params: &operators::Params) -> Result<Value, Cause> {
        match self {
            Step::Filter(condition) => operators::filter(value, condition, params),
            Step::Project(keep) => operators::project(value, keep, params),
            Step::Derive(compute) => operators::derive(value, compute, params),
            Step::Sort(by, descending) => operators::sort(value, by, *descending, params),
            Step::Hold => Ok(value),
        }
    }

    /// Its expressions.
    fn exprs(&self) -> Vec<&Expr> {
        match self {
            Step::Filter(expr) | Step::Sort(expr, _) => vec![expr],
            Step::Project(exprs) | Step::Derive(exprs) => {
                exprs.iter().map(|(_, expr)| expr).collect()
            }
            Step::Hold => Vec::new(),
        }
    }

    /// Applies to one streamed event: `None` when a filter drops it.
    fn apply_event(
        &self,
        event: Value,
        params: &operators::Params,
    ) -> Option<Result<Value, Cause>> {
        match self {
            Step::Filter(condition) => match condition.eval_bool(&event, params) {
                Ok(true) => Some(Ok(event)),
                Ok(false) => None,
                Err(cause) => Some(Err(cause)),
            },
            Step::Sort(..) | Step::Hold => Some(Ok(event)),
            other => Some(other.apply(event, params)),
        }
    }
}

pub(super) fn compile_map(
    language: Language,
    field: &str,
    map: Option<&Field<NamedMap<Template>>>,
) -> Result<Vec<(String, Expr)>, Cause> {
    map.map(|map| {
        map.value
            .iter()
            .map(|item| {
                Expr::compile(
                    language,
                    format!("{field}.{}", item.name.value),
                    &item.value.value.text,
                )
                .map(|expr| (item.name.value.clone(), expr))
            })
            .collect()
    })
    .unwrap_or_else(|| Ok(Vec::new()))
}

pub(super) fn missing(field: &str) -> Cause {
    Cause::Unsupported(format!("`{field}` is missing{}", crate::error::RUN_LINT))
}

/// Compiles the step of a single-input operator body or a `pipe` stage.
pub(super) fn compile_step(language: Language, body: &Body) -> Result<Option<Step>, Cause> {
    Ok(Some(match body {
        Body::Filter(filter) => {
            let condition = text(filter.condition.as_ref()).ok_or_else(|| missing("where"))?;
            Step::Filter(Expr::compile(language, "where", condition)?)
        }
        Body::Project(project) => {
            Step::Project(compile_map(language, "keep", project.keep.as_ref())?)
        }
        Body::Derive(derive) => {
            Step::Derive(compile_map(language, "compute", derive.compute.as_ref())?)
        }
        Body::Sort(sort) => {
            let by = text(sort.by.as_ref()).ok_or_else(|| missing("by"))?;
            let descending = sort
                .order
                .as_ref()
                .is_some_and(|order| order.value == Order::Desc);
            Step::Sort(Expr::compile(language, "by", by)?, descending)
        }
        Body::Cache(_) | Body::Passthrough(_) => Step::Hold,
        _ => return Ok(None),
    }))
}

pub(super) fn compile_pipe(
    language: Language,
    source: &Source,
) -> Result<Vec<(Option<usize>, Step)>, Cause> {
    let Some(pipe) = source.body.common().and_then(|common| common.pipe.as_ref()) else {
        return Ok(Vec::new());
    };
    let mut steps = Vec::new();
    for (index, stage) in pipe.value.iter().enumerate() {
        let stage: &Stage = &stage.value;
        match compile_step(language, &stage.body) {
            Ok(Some(step)) => steps.push((Some(index), step)),
            Ok(None) => {
                return Err(Cause::Unsupported(format!(
                    "pipe stage {index} is not a filter, project, derive, sort or cache stage"
                )));
            }
            Err(cause) => return Err(in_stage(Some(index), cause)),
        }
    }
    Ok(steps)
}

pub(super) fn in_stage(index: Option<usize>, cause: Cause) -> Cause {
    match (index, cause) {
        (
            Some(index),
            Cause::Expression {
                field,
                expression,
                detail,
            },
        ) => Cause::Expression {
            field: format!("pipe[{index}].{field}"),
            expression,
            detail,
        },
        (_, other) => other,
    }
}

/// Runs one streamed event through the stages: `None` when a filter drops it.
pub(super) fn pipe_event(
    entry: &str,
    pipe: &[(Option<usize>, Step)],
    mut value: Value,
    params: &operators::Params,
) -> Option<Result<Value, EvalError>> {
    for (index, step) in pipe {
        match step.apply_event(value, params)? {
            Ok(next) => value = next,
            Err(cause) => return Some(Err(EvalError::new(entry, in_stage(*index, cause)))),
        }
    }
    Some(Ok(value))
}

impl Engine<'_> {
    /// Says once a run, as a warning, each field a step's expressions read that some rows did not
    /// have: it read as null there, as the format's origin has it, which may be what was meant
    /// (an optional key) or a misspelling (missing on every row).
    pub(super) fn say_missing(&self, entry: &str, stage: Option<usize>, step: &Step) {
        for expr in step.exprs() {
            let field = match stage {
                Some(index) => format!("pipe[{index}].{}", expr.field()),
                None => expr.field().to_owned(),
            };
            for missing in expr.missing_fields() {
                let key = (entry.to_owned(), field.clone(), missing.path.clone());
                let first = self
                    .said_missing
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(key);
                if first {
                    self.trace.warn(&missing_line(entry, &field, &missing));
                }
            }
        }
    }
}

/// The warning for one field an expression read that rows lacked.
fn missing_line(entry: &str, field: &str, missing: &crate::expr::MissingField) -> String {
    let path = &missing.path;
    let (count, items) = (missing.missing, missing.items);
    if count < items {
        return format!(
            "`{entry}`: `{field}` reads `{path}`, missing on {count} of {items} rows: it is null there"
        );
    }
    let first = path.split('.').next().unwrap_or(path);
    let keys = &missing.keys;
    let suggestion = sources_diagnostics::did_you_mean(first, keys.iter().map(String::as_str))
        .first()
        .map(|best| format!("; did you mean `{best}`?"))
        .unwrap_or_default();
    let listed = if keys.is_empty() {
        "none".to_owned()
    } else {
        keys.iter()
            .take(12)
            .map(|key| format!("`{key}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let none = if items == 1 {
        "the row does not have".to_owned()
    } else {
        format!("none of the {items} rows has")
    };
    format!(
        "`{entry}`: `{field}` reads `{path}`, which {none}: it is null on every row (their keys: {listed}){suggestion}"
    )
}
