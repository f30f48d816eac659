//! What `sources try NAME` shows while and after the evaluator runs the entry: the trace on
//! standard error (warnings, `--verbose` notes, a progress line on a terminal) and the
//! [`Presenter`], the command line's [`Show`], which prints the value or each event.

#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::Value;
use sources_eval::error::EvalError;
use sources_eval::run::{Missing, Show, TryError};
use sources_eval::snapshot::Stop;
use sources_eval::trace::{Progress, Redactor, Trace};
use sources_eval::world::WorldError;

use super::Error;
use super::failure::Tried;
use super::output::{self, Printing};
use crate::Outcome;
use crate::outputs::{Outputs, Stderr};
use crate::terminal::Stream;

/// Reports on stderr: warnings always (counted, for `--strict`), `--verbose` lines, and on a
/// terminal a progress line (pages walked, rows read, events received, elapsed time) that is
/// cleared before the output.
pub(super) struct StderrTrace {
    err: Stderr,
    verbose: bool,
    /// Warnings said so far.
    warnings: AtomicUsize,
    bar: Option<indicatif::ProgressBar>,
}

impl StderrTrace {
    /// A trace for trying `entry`, saying `--verbose` notes when `verbose`.
    pub(super) fn new(err: Stderr, verbose: bool, entry: &str) -> StderrTrace {
        let bar = Stream::Stderr.is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            {
                bar.set_style(style);
            }
            bar.set_message(format!("fetching `{entry}`"));
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        StderrTrace {
            err,
            verbose,
            warnings: AtomicUsize::new(0),
            bar,
        }
    }

    /// Runs `write` with the progress line out of the way.
    pub(super) fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// Says `line` on standard error, with the progress line out of the way.
    pub(super) fn say(&self, line: &str) {
        self.suspend(|| self.err.line(line));
    }

    /// Counts events received while following.
    fn events(&self, count: usize) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{count} events received"));
        }
    }

    /// How many warnings were said.
    pub(super) fn warnings(&self) -> usize {
        self.warnings.load(Ordering::Relaxed)
    }

    /// Clears the progress line for good.
    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Trace for StderrTrace {
    fn note(&self, line: &str) {
        if self.verbose {
            self.say(&format!("· {line}"));
        }
    }

    fn warn(&self, line: &str) {
        self.warnings.fetch_add(1, Ordering::Relaxed);
        self.say(&format!("sources: warning: {line}"));
    }

    fn progress(&self, progress: Progress) {
        let Some(bar) = &self.bar else { return };
        match progress {
            Progress::Pages { pages, items } => {
                bar.set_message(format!("{pages} page(s) walked, {items} rows read"));
            }
        }
    }
}

/// Hides a run's secrets in `outputs` from now on, and says the demo backend it reaches
/// (`world`), if any, on standard error.
pub(super) fn announce(outputs: &Outputs, secrets: &Redactor, world: Option<&str>) {
    outputs.hide(secrets.clone());
    if let Some(world) = world {
        outputs.err.line(&format!("sources: {world}"));
    }
}

/// Why the world of a run could not be built, as a usage error.
pub(super) fn world_error(error: WorldError) -> Error {
    match error {
        WorldError::Demo(error) => Error::Usage(format!("--demo: {error}")),
        error => Error::Usage(error.to_string()),
    }
}

/// A line `try NAME` says on standard error once its run started.
pub(super) enum Said {
    /// A `--verbose` note.
    Note(String),
    /// A line said always.
    Line(String),
}

/// Shows what `try NAME` fetches: the value, or each event as it comes, on standard output in
/// the format asked for, with the trace's notes and warnings on standard error.
pub(super) struct Presenter<'a> {
    outputs: &'a mut Outputs,
    trace: &'a StderrTrace,
    printing: &'a Printing<'a>,
    /// Said once the run started, after the demo backend is.
    preface: Vec<Said>,
    /// Whether to keep what is shown for `--record`.
    record: bool,
    /// With `--record`: the value, or the first events as a sample's rows.
    recorded: Option<Value>,
    /// With `--record`, of a streamed entry: the first events.
    kept: Vec<Value>,
    /// Events printed.
    printed: usize,
    /// Whether an event failed.
    failed: bool,
    /// The first failed write to standard output, which stops the showing.
    written: io::Result<()>,
}

impl Show for Presenter<'_> {
    fn started(&mut self, secrets: &Redactor, world: Option<&str>) {
        announce(self.outputs, secrets, world);
        for said in self.preface.drain(..) {
            match said {
                Said::Note(line) => self.trace.note(&line),
                Said::Line(line) => self.trace.say(&line),
            }
        }
    }

    fn value(&mut self, value: Value) {
        let trace = self.trace;
        trace.finish();
        if let (Some(limit), Value::Array(rows)) = (self.printing.limit, &value) {
            if rows.len() > limit {
                trace.note(&format!(
                    "printing {limit} of {} rows (--limit)",
                    rows.len()
                ));
            }
        }
        // Whatever the output format, so `--strict` gives one verdict on a terminal and piped.
        if let Some(component) = self.printing.component {
            for warning in super::view::warnings(component, &value) {
                trace.warn(&warning);
            }
        }
        let out = &mut self.outputs.out;
        self.written = output::write_value(out, &value, self.printing).and_then(|()| out.flush());
        if self.record {
            self.recorded = Some(value);
        }
    }

    fn event(&mut self, event: Result<Value, EvalError>) -> ControlFlow<()> {
        if let (true, Ok(value)) = (self.record, &event)
            && self.kept.len() < sources_eval::samples::MAX_ROWS
        {
            self.kept.push(value.clone());
        }
        let out = &mut self.outputs.out;
        let printing = self.printing;
        let written = self.trace.suspend(|| match event {
            Ok(value) => output::write_event(out, &value, printing),
            Err(error) => {
                self.failed = true;
                let line = serde_json::json!({ "error": error.to_string() });
                writeln!(out, "{line}")
            }
        });
        self.written = written.and_then(|()| out.flush());
        if self.written.is_err() {
            return ControlFlow::Break(());
        }
        self.printed += 1;
        self.trace.events(self.printed);
        ControlFlow::Continue(())
    }

    fn stopped(&mut self, stop: Stop, events: usize) {
        if self.record {
            self.recorded = Some(Value::Array(std::mem::take(&mut self.kept)));
        }
        match stop {
            Stop::Events | Stop::Cap => {
                self.trace
                    .note(&format!("stopped after --limit {events} events"));
            }
            Stop::Elapsed => {
                self.trace
                    .note(&format!("stopped after --for with {events} events"));
            }
            Stop::Ended => {
                self.trace
                    .note(&format!("the stream ended after {events} events"));
            }
            Stop::Reader => {}
        }
        self.trace.finish();
    }
}

impl<'a> Presenter<'a> {
    /// Shows on `outputs` in the way `printing` says, reporting on `trace`; `preface` is said once
    /// the run started, and with `record` what is shown is kept for `--record`.
    pub(super) fn new(
        outputs: &'a mut Outputs,
        trace: &'a StderrTrace,
        printing: &'a Printing<'a>,
        preface: Vec<Said>,
        record: bool,
    ) -> Presenter<'a> {
        Presenter {
            outputs,
            trace,
            printing,
            preface,
            record,
            recorded: None,
            kept: Vec::new(),
            printed: 0,
            failed: false,
            written: Ok(()),
        }
    }

    /// What `try NAME` ends with, given what [`try_entry`] returned for the entry `name`, and
    /// what `--record` keeps. Parameters that do not bind are a usage error (with `--demo`,
    /// naming values the demo world answers); a failed fetch is said and fails the run.
    pub(super) fn outcome(
        self,
        tried_entry: Result<(), TryError>,
        tried: &Tried<'_>,
        demo: bool,
        name: &str,
    ) -> Result<(Outcome, Option<Value>), Error> {
        match tried_entry {
            Ok(()) => {}
            Err(TryError::Window(message)) => return Err(Error::Usage(message)),
            Err(TryError::World(error)) => return Err(world_error(error)),
            Err(TryError::Unbound { message, missing }) => {
                return Err(Error::Usage(match demo_hint(&missing) {
                    Some(hint) if demo => format!("`{name}` {hint}"),
                    _ => format!("`{name}`: {message}"),
                }));
            }
            Err(TryError::Failed(error)) => {
                self.trace
                    .say(&format!("sources: {}", tried.describe(&error)));
                return Ok((Outcome::Failure, None));
            }
        }
        match self.written {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
            written => written.map_err(Error::Write)?,
        }
        let outcome = if self.failed {
            Outcome::Failure
        } else {
            Outcome::Success
        };
        Ok((outcome, self.recorded))
    }
}

/// For an entry missing required parameters under `--demo`: `needs --param NAME=…; for example
/// --param NAME=VALUE, what it is` for each, with values the demo world answers.
fn demo_hint(missing: &[Missing]) -> Option<String> {
    let hints: Vec<String> = missing
        .iter()
        .map(|missing| {
            let name = &missing.name;
            match &missing.example {
                Some(example) => {
                    let what = example
                        .what
                        .as_ref()
                        .map(|what| format!(", {what}"))
                        .unwrap_or_default();
                    format!(
                        "needs --param {name}=…; for example --param {name}={}{what}",
                        example.value
                    )
                }
                None => format!("needs --param {name}=… (the demo world has no example for it)"),
            }
        })
        .collect();
    (!hints.is_empty()).then(|| hints.join("; it also "))
}
