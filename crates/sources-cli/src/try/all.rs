//! `sources try --all`: every entry of the file tried in turn, one summary line each, so a whole
//! dashboard is smoke-tested in one command.
//!
//! Each entry gets the parameters it needs from `--param` (each given to the entries that declare
//! it), its defaults or, with `--demo`, a value the demo world answers. A one-shot or polled entry
//! counts what it returns; a streamed one is read until `--limit` events (1 unless given) or `--for`
//! elapses (2s unless given). Nothing fetched is printed; each warning is printed under its
//! entry's line. Exit 1 when any entry fails, or with `--strict` when any warns.

#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use serde_json::Value;
use sources_config::Source;
use sources_config::accepted::{accepted_params, declared_params};
use sources_eval::engine::Output;
use sources_eval::run::{Run, RunError};
use sources_eval::snapshot::{DEFAULT_WINDOW, Follow};
use sources_eval::trace::{Collect, Trace, escape_controls};

use crate::Outcome;
use crate::outputs::Outputs;
use crate::r#try::failure::Tried;
use crate::r#try::{self, Args, Error};

/// Runs `sources try --all` over `config`'s entries, in the file's order.
pub fn run(
    tried: &Tried<'_>,
    args: &Args,
    text: &str,
    supplied: BTreeMap<String, String>,
    outputs: &mut Outputs,
) -> Result<Outcome, Error> {
    let config = tried.config;
    if let Some(name) = supplied.keys().find(|name| {
        !config.entries.iter().any(|source| {
            declared_params(source)
                .iter()
                .any(|decl| &decl.name == *name)
        })
    }) {
        return Err(Error::Usage(format!(
            "`--param {name}`: no entry of the file declares a parameter `{name}`"
        )));
    }
    let within = r#try::for_duration(args)?.unwrap_or(DEFAULT_WINDOW);
    let runtime = r#try::runtime()?;
    // One trace for the run, its warnings taken entry by entry.
    let (run, trace) = r#try::start_for_many(&runtime, tried, text, supplied, args, outputs)?;
    let out = &mut outputs.out;
    let width = config
        .names()
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(0);
    let (mut failed, mut warned) = (0, 0);
    for source in &config.entries {
        let started = Instant::now();
        let outcome = runtime.block_on(try_entry(
            tried,
            source,
            &run,
            trace.as_ref(),
            args.limit,
            within,
        ));
        let time = format_seconds(started.elapsed());
        let warnings = trace.take_warnings();
        let name = source.name.value.as_str();
        let line = match outcome {
            Ok(what) if warnings.is_empty() => format!("ok    {name:<width$}  {what}, {time}"),
            Ok(what) => {
                warned += 1;
                format!(
                    "warn  {name:<width$}  {what}, {time}, {}",
                    plural(warnings.len(), "warning")
                )
            }
            Err(error) => {
                failed += 1;
                format!("FAIL  {name:<width$}  {error} ({time})")
            }
        };
        writeln!(out, "{}", escape_controls(&line)).map_err(Error::Write)?;
        for warning in warnings {
            writeln!(out, "      warning: {}", escape_controls(&warning)).map_err(Error::Write)?;
        }
        out.flush().map_err(Error::Write)?;
    }
    let total = config.entries.len();
    writeln!(
        out,
        "{}: {} ok, {warned} with warnings, {failed} failed",
        plural(total, "entry"),
        total - warned - failed
    )
    .map_err(Error::Write)?;
    let fails = failed > 0 || (args.strict && warned > 0);
    Ok(if fails {
        Outcome::Failure
    } else {
        Outcome::Success
    })
}

/// Binds, fetches and measures one entry: what it returned (`50 rows`, `1 event`), or why it
/// failed.
async fn try_entry(
    tried: &Tried<'_>,
    source: &Source,
    run: &Run<'_>,
    trace: &Collect,
    limit: Option<usize>,
    within: Duration,
) -> Result<String, String> {
    let config = tried.config;
    let accepted = accepted_params(config, source);
    let mut values: BTreeMap<String, String> = run
        .params()
        .iter()
        .filter(|(name, _)| accepted.iter().any(|decl| &decl.name == *name))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    let mut from_demo = Vec::new();
    for missing in run.missing(source, &values).await {
        let name = missing.name;
        if !run.world().is_demo() {
            return Err(format!("needs --param {name}=VALUE"));
        }
        let Some(example) = missing.example else {
            return Err(format!(
                "needs --param {name}=… (the demo world has no example for it)"
            ));
        };
        from_demo.push(format!("{name}={}", example.value));
        values.insert(name, example.value);
    }
    let evaluated = run.evaluate_with(source, &values).await;
    let what = match evaluated.map_err(|error| match error {
        RunError::Unbound(message) => message,
        RunError::Failed(error) => tried.describe(&error),
    })? {
        Output::Value(Value::Array(rows)) => plural(rows.len(), "row"),
        Output::Value(Value::String(text)) => format!("{} of text", plural(text.len(), "byte")),
        Output::Value(_) => "1 value".to_owned(),
        Output::Stream(mut events) => {
            let bounds = Follow {
                events: Some(limit.unwrap_or(1)),
                within: Some(within),
            };
            let mut failed = None;
            let (_, received) = run
                .follow(&mut events, bounds, |event| match event {
                    Ok(_) => ControlFlow::Continue(()),
                    Err(error) => {
                        failed = Some(error.to_string());
                        ControlFlow::Break(())
                    }
                })
                .await;
            if let Some(failed) = failed {
                return Err(failed);
            }
            if received == 0 {
                trace.warn(&format!(
                    "no event within {} (`--for` reads longer)",
                    sources_eval::format_duration(within)
                ));
            }
            format!("{} (streamed)", plural(received, "event"))
        }
    };
    Ok(if from_demo.is_empty() {
        what
    } else {
        format!("{what} with --param {}", from_demo.join(" --param "))
    })
}

/// `1 row`, `2 rows`, `1 entry`, `3 entries`.
fn plural(count: usize, noun: &str) -> String {
    match (count, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{count} {stem}ies"),
        (_, None) => format!("{count} {noun}s"),
    }
}

/// A duration as seconds with two decimals (`0.12s`).
fn format_seconds(elapsed: Duration) -> String {
    format!("{:.2}s", elapsed.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_english() {
        assert_eq!(plural(1, "row"), "1 row");
        assert_eq!(plural(0, "event"), "0 events");
        assert_eq!(plural(3, "entry"), "3 entries");
        assert_eq!(format_seconds(Duration::from_millis(1234)), "1.23s");
    }
}
