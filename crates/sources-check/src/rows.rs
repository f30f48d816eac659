//! `failing-row`: lint runs every pipeline whose input it knows exactly (`static` data after its
//! `root`, and the single-input operators `filter`, `project`, `derive`, `sort`, `passthrough` and
//! `cache` and the `pipe` stages above it) with the evaluator's own operators
//! (`sources_expr::operators`), and reports the first row an expression fails on, at that
//! expression, naming the row and the values the expression read from it.
//!
//! Bounded so that a large inline table does not slow the editor: an entry whose rows at some
//! step are more than [`MAX_ROWS`], or whose run from its static data up takes more than
//! [`MAX_EVALUATIONS`] evaluations, is not run. An entry not run for that reason, or because its
//! expressions read parameters (their values are not known) or it is an operator lint does not
//! run, is listed by [`not_run`] (`sources lint --verbose`). The run of an entry depends only on
//! the entries it reads, so the editor's analysis of an edit gives what a fresh one gives.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;
use sources_config::model::{Body, Source};
use sources_config::{Config, Enumeration, Order, json_path};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span};
use sources_expr::operators::{self, Params, RowError};
use sources_expr::{Compiled, EvalError, Language};

use crate::data_refs;
use crate::expressions::{self, ExpressionSite};
use crate::shapes::EntryShapes;

/// The most rows lint runs an operator over.
pub const MAX_ROWS: usize = 1_000;
/// The most expression evaluations lint spends on one entry, from its static data up.
pub const MAX_EVALUATIONS: usize = 20_000;
/// The most characters of a value a message shows.
const MAX_SHOWN: usize = 60;

/// What lint knows of an entry's value by running it.
#[derive(Clone, Debug)]
enum Ran {
    /// Its value, and how many evaluations it took from static data up.
    Value(Rc<Value>, usize),
    /// An expression of it failed on a row (reported at it; what reads it is not run).
    Failed(Box<Diagnostic>),
    /// Not run, for this reason.
    NotRun(String),
    /// Its data is not known exactly (fetched, or read from an entry not run).
    Unknown,
}

/// The runs of one analysis's entries, each computed once, as the checks ask for them.
#[derive(Debug)]
pub(crate) struct Runs {
    /// The language the expressions are run in.
    language: Language,
    runs: RefCell<HashMap<usize, Ran>>,
    /// Whether the configuration has any `static` data: without any, no entry is known exactly
    /// and nothing is run (asked once).
    any_data: OnceCell<bool>,
}

impl Runs {
    /// No entry run yet; expressions in `language`.
    pub(crate) fn new(language: Language) -> Runs {
        Runs {
            language,
            runs: RefCell::default(),
            any_data: OnceCell::new(),
        }
    }

    /// The language expressions are run in.
    pub(crate) fn language(&self) -> Language {
        self.language
    }

    /// The value of the entry at `index` of `config`, when lint knows it exactly.
    pub(crate) fn value(&self, config: &Config, file: &str, index: usize) -> Option<Rc<Value>> {
        match self.run(config, file, index) {
            Ran::Value(value, _) => Some(value),
            _ => None,
        }
    }

    /// The run of the entry at `index` of `config`.
    fn run(&self, config: &Config, file: &str, index: usize) -> Ran {
        let any_data = self.any_data.get_or_init(|| {
            config.entries.iter().any(|entry| {
                entry.read_unmoved(
                    |source| matches!(&source.body, Body::Static(data) if data.data.is_some()),
                )
            })
        });
        if !any_data {
            return Ran::Unknown;
        }
        if let Some(run) = self.runs.borrow().get(&index) {
            return run.clone();
        }
        // An entry that reads itself, directly or not, is unknown (the cycle is reported).
        self.runs.borrow_mut().insert(index, Ran::Unknown);
        let run = match config.entries.get(index) {
            Some(source) => self.compute(config, file, source),
            None => Ran::Unknown,
        };
        self.runs.borrow_mut().insert(index, run.clone());
        run
    }

    /// Runs `source` over what it reads, then its `pipe`.
    fn compute(&self, config: &Config, file: &str, source: &Source) -> Ran {
        let input = match &source.body {
            Body::Static(data) => {
                let Some(data) = &data.data else {
                    return Ran::Unknown;
                };
                let value = data.value.to_json();
                match data_root(source) {
                    None => Ran::Value(Rc::new(value), 0),
                    Some(root) => match json_path::lookup(&value, root) {
                        Ok(rooted) => Ran::Value(Rc::new(rooted.clone()), 0),
                        Err(_) => Ran::Unknown,
                    },
                }
            }
            body if combines(body) => return self.not_combined(config, file, source),
            body => match body.from().and_then(|from| config.position(&from.value)) {
                Some(read) => {
                    let input = self.run(config, file, read);
                    self.step(file, &source.name.value, body, input)
                }
                None => Ran::Unknown,
            },
        };
        let stages = source.body.common().and_then(|common| common.pipe.as_ref());
        stages
            .iter()
            .flat_map(|pipe| pipe.value.iter())
            .fold(input, |value, stage| {
                self.step(file, &source.name.value, &stage.value.body, value)
            })
    }

    /// An operator of several inputs (`union`, `merge`, `compose`, `join`), which lint does not
    /// run: said when every entry it reads is known exactly, unknown otherwise.
    fn not_combined(&self, config: &Config, file: &str, source: &Source) -> Ran {
        let references = source.references();
        let known = !references.is_empty()
            && references.iter().all(|reference| {
                config
                    .position(&reference.name.value)
                    .is_some_and(|read| matches!(self.run(config, file, read), Ran::Value(..)))
            });
        match (known, &source.kind) {
            (true, Some(kind)) => Ran::NotRun(format!(
                "lint runs `filter`, `project`, `derive`, `sort`, `passthrough` and `cache` over \
                 static data, not `{}`",
                kind.value.as_str()
            )),
            _ => Ran::Unknown,
        }
    }

    /// Applies one operator body (an entry's or a pipe stage's) of the entry `entry` to `input`.
    fn step(&self, file: &str, entry: &str, body: &Body, input: Ran) -> Ran {
        let (value, spent) = match input {
            Ran::Value(value, spent) => (value, spent),
            Ran::Failed(_) | Ran::Unknown => return Ran::Unknown,
            not_run @ Ran::NotRun(_) => return not_run,
        };
        let language = self.language;
        let sites = expressions::sites(body);
        let mut compiled: Vec<(String, Compiled)> = Vec::with_capacity(sites.len());
        for site in &sites {
            match sources_expr::compile_to_run(language, &site.text.text) {
                // Other checks report an expression that does not compile.
                Err(_) => return Ran::Unknown,
                Ok(expression) if reads_params(&expression) => {
                    return Ran::NotRun(format!(
                        "`{}` reads parameters, whose values lint does not know",
                        site.field
                    ));
                }
                Ok(expression) => {
                    let key = site.field.split_once('.').map_or("", |(_, key)| key);
                    compiled.push((key.to_owned(), expression));
                }
            }
        }
        let rows = match &*value {
            Value::Array(rows) => rows.len(),
            _ => 1,
        };
        if rows > MAX_ROWS && !compiled.is_empty() {
            return Ran::NotRun(format!(
                "its input has {rows} rows; lint runs operators over at most {MAX_ROWS}"
            ));
        }
        let spent = spent + rows * compiled.len();
        if spent > MAX_EVALUATIONS {
            return Ran::NotRun(format!(
                "running it takes {spent} evaluations; lint spends at most {MAX_EVALUATIONS} on an \
                 entry"
            ));
        }
        let input = (*value).clone();
        let params = Params::new();
        let result = match (body, compiled.first()) {
            (Body::Filter(_), Some((_, condition))) => operators::filter(input, condition, &params),
            (Body::Project(_), Some(_)) => operators::project(input, &compiled, &params),
            (Body::Derive(_), Some(_)) => operators::derive(input, &compiled, &params),
            (Body::Sort(sort), Some((_, by))) => {
                let descending = sort
                    .order
                    .as_ref()
                    .is_some_and(|order| order.value == Order::Desc);
                operators::sort(input, by, descending, &params)
            }
            (Body::Passthrough(_) | Body::Cache(_), _) => Ok(input),
            _ => return Ran::Unknown,
        };
        match result {
            Ok(value) => Ran::Value(Rc::new(value), spent),
            Err(failure) => match sites.get(failure.expression) {
                Some(site) => Ran::Failed(Box::new(failed(
                    file,
                    entry,
                    site,
                    compiled
                        .get(failure.expression)
                        .map(|(_, expression)| expression),
                    &value,
                    failure,
                ))),
                None => Ran::Unknown,
            },
        }
    }
}

/// `root` of a `static` entry, when set.
fn data_root(source: &Source) -> Option<&str> {
    let root = source.body.leaf()?.root.as_ref()?;
    Some(root.value.as_str()).filter(|root| !root.is_empty())
}

/// Whether an expression reads `params`.
pub(crate) fn reads_params(expression: &Compiled) -> bool {
    expression.facts().fields.iter().any(|path| {
        path.segments
            .first()
            .is_some_and(|(name, _)| name == "params")
    })
}

/// The `failing-row` diagnostic of `failure`, at `site` of the entry `entry`, whose input was
/// `input`.
pub(crate) fn failed(
    file: &str,
    entry: &str,
    site: &ExpressionSite<'_>,
    expression: Option<&Compiled>,
    input: &Value,
    failure: RowError<EvalError>,
) -> Diagnostic {
    let row = match (failure.row, input) {
        (Some(index), Value::Array(rows)) => rows.get(index),
        _ => Some(input),
    };
    let which = match failure.row {
        Some(index) => format!("row {index}"),
        None => "its one row".to_owned(),
    };
    let values = match (expression, row) {
        (Some(expression), Some(row)) => read_values(expression, row),
        _ => String::new(),
    };
    Diagnostic::new(
        Rule::FailingRow,
        site.span_of(file, 0..site.text.text.len()),
        format!(
            "`{}` of `{entry}` fails on {which} of its static data: {}{values}",
            site.field, failure.error
        ),
    )
    .with_label(format!("fails on {which}"))
    .with_help(
        "guard the expression for such rows (`count == 0 ? 0 : total / count`), or correct the \
         data; `sources try` stops at this row",
    )
}

/// What `expression` read from `row` (`; it read `n` = 0, …`), empty when it read no field.
pub(crate) fn read_values(expression: &Compiled, row: &Value) -> String {
    let read: Vec<String> = expression
        .row_paths()
        .iter()
        .map(|path| {
            let value = path
                .iter()
                .try_fold(row, |value, key| value.get(key))
                .map_or_else(|| "missing (null)".to_owned(), shown);
            format!("`{}` = {value}", path.join("."))
        })
        .collect();
    if read.is_empty() {
        String::new()
    } else {
        format!("; it read {}", read.join(", "))
    }
}

/// A value as JSON, cut short when long.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(MAX_SHOWN) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// `failing-row` for `source`, the entry at `index` (`shapes` its shapes): the row its run fails
/// on, unless the shape checks already report a mistake inside that expression (one mistake, one
/// diagnostic).
pub(crate) fn check_rows(
    runs: &Runs,
    config: &Config,
    index: usize,
    source: &Source,
    shapes: Option<&EntryShapes>,
    file: &str,
    out: &mut Collector,
) {
    if !runs_expressions(source) {
        return;
    }
    let Ran::Failed(diagnostic) = runs.run(config, file, index) else {
        return;
    };
    if !said_inside(source, shapes, file, runs.language, diagnostic.span) {
        out.push(*diagnostic);
    }
}

/// Whether the shape checks of `source` (`shapes` its shapes, expressions in `language`) report a
/// mistake inside `span`.
pub(crate) fn said_inside(
    source: &Source,
    shapes: Option<&EntryShapes>,
    file: &str,
    language: Language,
    span: Span,
) -> bool {
    let mut said = Collector::unbounded();
    data_refs::check_data_refs(source, shapes, file, language, &mut said);
    said.finish()
        .diagnostics
        .iter()
        .any(|found| span.start() <= found.span.start() && found.span.end() <= span.end())
}

/// Whether a body combines several inputs (`union`, `merge`, `compose`, `join`).
fn combines(body: &Body) -> bool {
    matches!(
        body,
        Body::Union(_) | Body::Merge(_) | Body::Compose(_) | Body::Join(_)
    )
}

/// Whether an entry runs expressions of its own: an operator, or a `pipe`.
fn runs_expressions(source: &Source) -> bool {
    source.body.from().is_some()
        || source
            .body
            .common()
            .and_then(|common| common.pipe.as_ref())
            .is_some_and(|pipe| !pipe.value.is_empty())
}

/// An entry lint did not run, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotRun {
    /// The entry's name.
    pub entry: String,
    /// Where its name is written.
    pub span: Span,
    /// Why it was not run.
    pub reason: String,
}

/// The entries over static data that lint did not run (`sources lint --verbose` lists them), in
/// document order, with expressions in `language`.
pub fn not_run(config: &Config, file: &str, language: Language) -> Vec<NotRun> {
    let runs = Runs::new(language);
    config
        .entries
        .iter()
        .enumerate()
        .filter(|(_, source)| runs_expressions(source) || combines(&source.body))
        .filter_map(|(index, source)| match runs.run(config, file, index) {
            Ran::NotRun(reason) if runs_own(&runs, config, file, source) => Some(NotRun {
                entry: source.name.value.to_string(),
                span: source.name.span,
                reason,
            }),
            _ => None,
        })
        .collect()
}

/// Whether lint knows the value of the entry named `entry` exactly (static data and the operators
/// it runs over it, with CEL expressions), as the checks that judge rows (`failing-row`) do.
pub fn knows_value(config: &Config, file: &str, entry: &str) -> bool {
    let runs = Runs::new(Language::Cel);
    config
        .position(entry)
        .and_then(|index| runs.value(config, file, index))
        .is_some()
}

/// Whether the reason an entry was not run is its own, not that of an entry it reads (which is
/// listed itself).
fn runs_own(runs: &Runs, config: &Config, file: &str, source: &Source) -> bool {
    let read = source
        .body
        .from()
        .and_then(|from| config.position(&from.value));
    !matches!(
        read.map(|read| runs.run(config, file, read)),
        Some(Ran::NotRun(_))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use sources_syntax::Syntax;

    fn lint(text: &str) -> (Vec<Diagnostic>, Vec<NotRun>) {
        let analysis = crate::analyze(text, Syntax::Yaml);
        let not_run = not_run(&analysis.config, text, Language::Cel);
        (analysis.diagnostics, not_run)
    }

    /// `rows` rows of static data under a `derive` of `computed` keys.
    fn derived(rows: usize, computed: usize) -> String {
        let data: Vec<String> = (0..rows).map(|n| format!("{{n: {n}}}")).collect();
        let compute: Vec<String> = (0..computed)
            .map(|key| format!("        k{key}: n + {key}\n"))
            .collect();
        format!(
            "data:\n  sources:\n    rows:\n      type: static\n      data: [{}]\n    \
             more:\n      type: derive\n      from: rows\n      compute:\n{}",
            data.join(", "),
            compute.concat()
        )
    }

    #[test]
    fn an_entry_over_the_evaluation_bound_is_not_run_and_says_so() {
        let (diagnostics, not_run) = lint(&derived(900, 22));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert!(not_run.is_empty(), "{not_run:?}");
        let (_, not_run) = lint(&derived(900, 23));
        let reasons: Vec<&str> = not_run.iter().map(|entry| entry.reason.as_str()).collect();
        assert_eq!(
            reasons,
            ["running it takes 20700 evaluations; lint spends at most 20000 on an entry"]
        );
        assert_eq!(not_run[0].entry, "more");
    }

    #[test]
    fn a_failure_is_reported_once_at_the_entry_that_fails() {
        let text = "data:\n  sources:\n    rows:\n      type: static\n      data: [{n: 0}]\n    \
                    inverse:\n      type: derive\n      from: rows\n      compute:\n        \
                    x: 1 / n\n    again:\n      type: passthrough\n      from: inverse\n      \
                    pipe:\n        - type: derive\n          compute:\n            y: 1 / n\n";
        let (diagnostics, not_run) = lint(text);
        let found: Vec<(Rule, &str)> = diagnostics
            .iter()
            .map(|diagnostic| (diagnostic.rule, diagnostic.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [(
                Rule::FailingRow,
                "`compute.x` of `inverse` fails on row 0 of its static data: Division by zero of \
                 Int(1); it read `n` = 0"
            )]
        );
        assert!(not_run.is_empty(), "{not_run:?}");
    }
}
