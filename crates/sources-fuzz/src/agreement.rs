//! The property that lint and `try` agree: a configuration lint reports no error for runs, under
//! `try` with the scripted seam (`sources_eval::testing::FakeIo`: no network, no process, no file),
//! past every check `try` makes before it sends a request, starts a process or reads a file.
//!
//! Every entry of a clean configuration is evaluated, with each parameter it takes that has no
//! default given a placeholder (`sources_check::placeholders::sample`), as a user would pass one:
//! of the strictest type among the declarations the value reaches (an operator passing one value
//! through to two entries that declare the name as `string` and `bool` is given a `bool`); so is
//! the `source` of each `growing` condition, as the condition reads it: with no parameters. A
//! refusal before any I/O (`Cause::Refused`, a parameter that cannot be bound, an unknown entry, a
//! cycle, an unsupported combination) is a disagreement, unless what the entry
//! sends depends on values only the run supplies (see [`judged_at_run_time`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::StreamExt;
use serde_json::json;
use sources_config::enums::ParamType;
use sources_config::{Body, Config, Field, Growing, NamedMap, Template};
use sources_diagnostics::Severity;
use sources_eval::engine::{Engine, EngineOptions, Output};
use sources_eval::error::{Cause, EvalError};
use sources_eval::io::CommandOutput;
use sources_eval::testing::{FakeIo, Reply};
use sources_eval::trace::Silent;
use sources_syntax::Syntax;

use crate::properties::Failure;

/// What the property found on one configuration that held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreed {
    /// Whether lint reported no error (only then was `try` run).
    pub clean: bool,
    /// How many entries `try` evaluated.
    pub evaluated: usize,
}

/// Runs the property on `text`: lint it, and when it has no error, evaluate every entry on
/// `runtime` against the scripted seam. A disagreement is a `Failure` of property `agreement`
/// naming each entry `try` refused and why.
pub fn check(
    runtime: &tokio::runtime::Runtime,
    text: &str,
    syntax: Syntax,
) -> Result<Agreed, Failure> {
    let analysis = sources_check::analyze(text, syntax);
    if analysis
        .diagnostics
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Error)
    {
        return Ok(Agreed::default());
    }
    let io = Arc::new(seam());
    let (evaluated, refused) = runtime.block_on(evaluate_all(&analysis.config, text, io));
    if refused.is_empty() {
        Ok(Agreed {
            clean: true,
            evaluated,
        })
    } else {
        Err(Failure {
            property: "agreement",
            detail: format!(
                "lint reports no error, but `try` refuses before any I/O:\n{}",
                refused.join("\n")
            ),
        })
    }
}

/// A runtime for [`check`]: one thread, time driven by the seam's clock (which jumps).
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

fn rows() -> serde_json::Value {
    json!([{"id": 1, "name": "a", "size": 1, "status": "ok", "ts": "2026-01-01T00:00:00Z"}])
}

/// The scripted seam: every request, command and websocket answered with one row, every variable
/// set. What cannot be sent is refused before the seam is called, by the constructors lint judges
/// values with (`sources_check::request`).
fn seam() -> FakeIo {
    FakeIo::new()
        .with_every_env(sources_check::placeholders::ENV_SAMPLE)
        .with_http(|_| Reply::json(rows()))
        .with_run(|_| {
            Ok(CommandOutput {
                code: Some(0),
                stdout: rows().to_string().into_bytes(),
                stderr: Vec::new(),
            })
        })
        .with_websocket(|_| Ok(vec![json!({"id": 1}).to_string()]))
}

/// Evaluates every entry; how many, and each refusal before I/O as "`entry`: why".
async fn evaluate_all(config: &Config, text: &str, io: Arc<FakeIo>) -> (usize, Vec<String>) {
    let engine = Engine::new(config, io, Arc::new(Silent), EngineOptions::default());
    let mut refused = Vec::new();
    for source in &config.entries {
        let name = &source.name.value;
        let supplied: BTreeMap<String, String> =
            sources_config::accepted::accepted_params(config, source)
                .into_iter()
                .filter(|decl| decl.default.is_none())
                .map(|decl| {
                    let sample =
                        sources_check::placeholders::sample(strictest(config, name, &decl.name));
                    (decl.name.clone(), sample.to_owned())
                })
                .collect();
        let evaluated = match engine.bind(name, &supplied) {
            Ok(bound) => engine.evaluate(&bound).await,
            Err(error) => Err(error),
        };
        let result = match evaluated {
            Ok(Output::Value(_)) => Ok(()),
            Ok(Output::Stream(events)) => {
                let events: Vec<_> = events.take(3).collect().await;
                events.into_iter().find_map(Result::err).map_or(Ok(()), Err)
            }
            Err(error) => Err(error),
        };
        if let Err(error) = result
            && let Some(why) = before_io(&error)
            && !judged_at_run_time(config, text, &error)
        {
            refused.push(format!("`{name}`: {why}"));
        }
    }
    // A growing window's condition reads its `source` as a snapshot with no parameters (as the
    // engine's explanation of it does).
    for (name, source) in config
        .entries
        .iter()
        .filter_map(|source| growing_source(source))
    {
        if let Err(error) = engine.snapshot(source, &BTreeMap::new()).await
            && let Some(why) = before_io(&error)
            && !judged_at_run_time(config, text, &error)
        {
            refused.push(format!("the `growing` condition of `{name}`: {why}"));
        }
    }
    (config.entries.len(), refused)
}

/// An entry's name and the entry its window's `growing` condition reads, when it has one.
fn growing_source(source: &sources_config::Source) -> Option<(&str, &str)> {
    let window = source.body.window()?;
    match &window.value.growing.as_ref()?.value {
        Growing::While(condition) => Some((
            source.name.value.as_str(),
            condition.source.as_ref()?.value.as_str(),
        )),
        Growing::Flag(_) => None,
    }
}

/// The strictest type among the declarations of `param` that a value given to `entry` reaches:
/// `bool`, else `int` (whose sample is also a duration), else `duration`, else `string`.
fn strictest(config: &Config, entry: &str, param: &str) -> ParamType {
    let kinds: Vec<ParamType> = config
        .accepted_declarations(entry)
        .iter()
        .filter(|accepted| accepted.name() == param)
        .map(|accepted| {
            accepted
                .param
                .value
                .value
                .kind
                .as_ref()
                .map_or(ParamType::String, |kind| kind.value)
        })
        .collect();
    [ParamType::Bool, ParamType::Int, ParamType::Duration]
        .into_iter()
        .find(|kind| kinds.contains(kind))
        .unwrap_or(ParamType::String)
}

/// Whether a join looks `entry` up with an `on` expression that reads the driver's row (data the
/// driver's I/O returned): lint judges the other `on` values (literals, expressions over the
/// join's own parameters), through the iterator `passed` reads them with.
fn bound_by_rows(config: &Config, entry: &str) -> bool {
    config.entries.iter().any(|source| {
        let Body::Join(join) = &source.body else {
            return false;
        };
        join.lookups_reading(entry)
            .flat_map(|lookup| lookup.on.iter())
            .flat_map(|on| on.value.iter())
            .any(|bound| sources_check::reads_row(&bound.value.value.text))
    })
}

/// Whether `source` is a join whose driver's rows lint does not know exactly.
fn driven_by_io(config: &Config, text: &str, source: &sources_config::Source) -> bool {
    let Body::Join(join) = &source.body else {
        return false;
    };
    join.driver
        .as_ref()
        .and_then(|driver| driver.value.from.as_ref())
        .is_some_and(|driver| !sources_check::knows_value(config, text, &driver.value))
}

/// Why `try` refused before any I/O, when it did.
fn before_io(error: &EvalError) -> Option<String> {
    match &error.cause {
        Cause::Child(inner) => before_io(inner),
        Cause::Unsupported(_)
        | Cause::Param(_)
        | Cause::Cycle(_)
        | Cause::UnknownSource(_)
        | Cause::Refused { .. } => Some(error.to_string()),
        _ => None,
    }
}

/// Whether what the failing entry sends depends on what only the run supplies: its url or program
/// starts with a `${…}` token (a base url or program from the environment), a value holds a
/// `${selection…}` token (filled in by the dashboard; `try` has no selection and leaves it as
/// written), or a parameter it refuses may come from a join lookup's `on` expression that reads
/// the driver's row (data the driver's I/O returned; lint evaluates every other `on` value), or
/// a join refuses a driver row that gives a required lookup parameter nothing and lint does not
/// know the driver's rows (over rows it knows, it evaluates `on` as the join does).
/// Lint cannot know these values and says nothing.
fn judged_at_run_time(config: &Config, text: &str, error: &EvalError) -> bool {
    if let Cause::Child(inner) = &error.cause {
        return judged_at_run_time(config, text, inner);
    }
    let Some(source) = config.get(&error.entry) else {
        return false;
    };
    if matches!(error.cause, Cause::Param(_))
        && (bound_by_rows(config, &error.entry) || driven_by_io(config, text, source))
    {
        return true;
    }
    let text = |field: Option<&Field<Template>>| field.map(|field| field.value.text.to_string());
    let map = |map: Option<&Field<NamedMap<Template>>>| {
        map.iter()
            .flat_map(|map| map.value.iter())
            .map(|item| item.value.value.text.to_string())
            .collect::<Vec<_>>()
    };
    let (first, mut values): (Option<String>, Vec<String>) = match &source.body {
        Body::Http(http) => (
            text(http.url.as_ref()),
            [text(http.method.as_ref()), text(http.body.as_ref())]
                .into_iter()
                .flatten()
                .chain(map(http.headers.as_ref()))
                .collect(),
        ),
        Body::Websocket(socket) => (text(socket.url.as_ref()), map(socket.headers.as_ref())),
        Body::Exec(exec) => {
            let argv: Vec<String> = exec
                .command
                .iter()
                .flat_map(|command| command.value.iter())
                .map(|arg| arg.value.text.to_string())
                .collect();
            (
                argv.first().cloned(),
                argv.into_iter().chain(map(exec.env.as_ref())).collect(),
            )
        }
        Body::File(file) => (None, text(file.path.as_ref()).into_iter().collect()),
        _ => (None, Vec::new()),
    };
    values.extend(first.clone());
    first.is_some_and(|text| text.trim_start().starts_with("${"))
        || values.iter().any(|value| value.contains("${selection"))
}
