//! One run of `try`, for every front end (`sources try NAME`, `--all`, `--screen` and the editor's
//! "▶ try"): the I/O world, the parameters given and the secrets of the run, and the engine over
//! them, built once by [`Run::new`]; entries are then bound and evaluated through it, and streams
//! followed by its clock. [`try_entry`] is the whole of `sources try NAME` below the front end, in
//! one call: the front end only shows what it hands to a [`Show`]. Every line the engine reports
//! reaches the front end's trace with control characters escaped; the run's secret values
//! ([`Run::secrets`]) are hidden by the front end where it shows anything (the command line's
//! outputs, the editor's messages).

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::Arc;

use serde_json::Value;
use sources_config::{Config, Source};

use crate::engine::{Engine, EngineOptions, Output};
use crate::error::EvalError;
use crate::params::{Bound, Example, bind_entry};
use crate::snapshot::{EventStream, Follow, Stop};
use crate::trace::{Progress, Redactor, Trace, escape_controls};
use crate::window_flags::{WindowAsk, WindowFlags, window_ask};
use crate::world::{World, WorldError};

/// What a front end asks of a run.
pub struct Ask<'a> {
    /// The configuration, analysed without errors.
    pub config: &'a Config,
    /// Its text: the values of the environment variables it reads are secrets of the run.
    pub text: &'a str,
    /// The parameter values given (`--param NAME=VALUE`, the lens's arguments).
    pub params: BTreeMap<String, String>,
    /// Whether the demo backend answers in front of the real world.
    pub demo: bool,
    /// The most one response body, output, file or message may hold, in bytes.
    pub max_body: usize,
    /// How the engine evaluates.
    pub options: EngineOptions,
    /// Where the engine reports (control characters escaped).
    pub trace: Arc<dyn Trace>,
}

/// Why an entry was not evaluated.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Its parameters could not be bound (a required one missing or empty); the message names
    /// the parameter.
    #[error("{0}")]
    Unbound(String),
    /// The evaluation failed.
    #[error(transparent)]
    Failed(#[from] EvalError),
}

/// One run: its world, parameters, secrets and engine.
pub struct Run<'c> {
    config: &'c Config,
    world: World,
    params: BTreeMap<String, String>,
    secrets: Redactor,
    engine: Engine<'c>,
}

impl<'c> Run<'c> {
    /// The run `ask` describes. Call it inside a Tokio runtime: the in-process demo backend
    /// starts its world there.
    pub fn new(ask: Ask<'c>) -> Result<Run<'c>, WorldError> {
        Run::with_window(ask, WindowAsk::default())
    }

    /// [`Run::new`], with the user's part of the tried entry's window (`--search`, `--sort`,
    /// `--filter`).
    fn with_window(ask: Ask<'c>, window: WindowAsk) -> Result<Run<'c>, WorldError> {
        let world = World::new(ask.demo, ask.max_body)?;
        let io = world.io.clone();
        let secrets = Redactor::for_run(ask.config, ask.text, &ask.params, |name| io.env_var(name));
        let trace = Arc::new(Escaping { inner: ask.trace });
        let engine =
            Engine::new(ask.config, world.io.clone(), trace, ask.options).with_window(window);
        Ok(Run {
            config: ask.config,
            world,
            params: ask.params,
            secrets,
            engine,
        })
    }

    /// The run's secret values, for a front end to hide wherever it shows anything.
    pub fn secrets(&self) -> &Redactor {
        &self.secrets
    }

    /// The parameter values given.
    pub fn params(&self) -> &BTreeMap<String, String> {
        &self.params
    }

    /// The world the run reaches.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Binds `values` to the parameters the entry `source` takes.
    fn bind(&self, source: &Source, values: &BTreeMap<String, String>) -> Result<Bound, RunError> {
        bind_entry(self.config, source, values).map_err(RunError::Unbound)
    }

    /// Evaluates an entry whose parameters are bound.
    pub async fn evaluate(&self, bound: &Bound) -> Result<Output<'_>, EvalError> {
        self.engine.evaluate(bound).await
    }

    /// Binds `values` to the entry `source` and evaluates it.
    pub async fn evaluate_with(
        &self,
        source: &Source,
        values: &BTreeMap<String, String>,
    ) -> Result<Output<'_>, RunError> {
        let bound = self.bind(source, values)?;
        Ok(self.evaluate(&bound).await?)
    }

    /// The required parameters `source` takes (its own, or those of the inputs it passes them
    /// through to) that `values` leave out or give empty, each with a value the demo world
    /// answers for it.
    pub async fn missing(
        &self,
        source: &Source,
        values: &BTreeMap<String, String>,
    ) -> Vec<Missing> {
        let mut missing = Vec::new();
        for accepted in self.config.accepted_params(&source.name.value) {
            let name = accepted.name();
            if !accepted.is_required() || values.get(name).is_some_and(|value| !value.is_empty()) {
                continue;
            }
            missing.push(Missing {
                name: name.to_owned(),
                example: self.world.example(accepted.entry, name).await,
            });
        }
        missing
    }

    /// Follows `events`, an output of this run, by the run's clock ([`crate::snapshot::follow`]).
    pub async fn follow(
        &self,
        events: &mut EventStream<'_>,
        follow: Follow,
        each: impl FnMut(Result<Value, EvalError>) -> ControlFlow<()>,
    ) -> (Stop, usize) {
        crate::snapshot::follow(self.world.io.as_ref(), events, follow, each).await
    }
}

/// A required parameter that was not given.
#[derive(Debug)]
pub struct Missing {
    /// Its name.
    pub name: String,
    /// A value the demo world answers for it; `None` without the demo, or when it has none.
    pub example: Option<Example>,
}

/// The entry [`try_entry`] tries, as the user asked for it.
pub struct Entry<'a> {
    /// The entry.
    pub source: &'a Source,
    /// The window flags given (`--search`, `--sort`, `--filter`).
    pub flags: &'a WindowFlags,
    /// How long to follow it, when it streams.
    pub follow: Follow,
}

/// What a front end does with what [`try_entry`] gives: [`Show::started`] once, then
/// [`Show::value`] once, or [`Show::event`] for each event and [`Show::stopped`] once.
pub trait Show {
    /// The run started: `secrets` are to be hidden wherever anything is shown from now on;
    /// `world` describes the demo backend when the run reaches one.
    fn started(&mut self, secrets: &Redactor, world: Option<&str>);
    /// The entry gave its value.
    fn value(&mut self, value: Value);
    /// The streamed entry gave an event (a failed one does not end the stream); `Break` stops
    /// following it.
    fn event(&mut self, event: Result<Value, EvalError>) -> ControlFlow<()>;
    /// Following the stream stopped, for `stop`, after `events` events.
    fn stopped(&mut self, stop: Stop, events: usize);
}

/// Why [`try_entry`] gave nothing.
#[derive(Debug, thiserror::Error)]
pub enum TryError {
    /// The window flags ask what the entry's window cannot take (the sentence names the flag).
    #[error("{0}")]
    Window(String),
    /// The world the run reaches could not be built.
    #[error(transparent)]
    World(#[from] WorldError),
    /// The parameters could not be bound; `missing` are the required ones not given.
    #[error("{message}")]
    Unbound {
        /// Why, naming the parameter.
        message: String,
        /// The required parameters not given, each with a value the demo world answers.
        missing: Vec<Missing>,
    },
    /// The evaluation failed.
    #[error(transparent)]
    Failed(EvalError),
}

/// Tries one entry, the whole of `sources try NAME` below the front end: checks the window flags
/// against the entry's window, starts the run `ask` describes, binds the parameters given,
/// evaluates the entry and, when it streams, follows it; `show` is handed each thing to show.
/// Call it inside a Tokio runtime ([`Run::new`]).
pub async fn try_entry(
    ask: Ask<'_>,
    entry: Entry<'_>,
    show: &mut dyn Show,
) -> Result<(), TryError> {
    let source = entry.source;
    let titles = ask.config.table_titles(&source.name.value);
    let window = window_ask(source, entry.flags, &titles).map_err(TryError::Window)?;
    let run = Run::with_window(ask, window.unwrap_or_default())?;
    show.started(&run.secrets, run.world.describe().as_deref());
    let output = match run.evaluate_with(source, &run.params).await {
        Ok(output) => output,
        Err(RunError::Unbound(message)) => {
            let missing = run.missing(source, &run.params).await;
            return Err(TryError::Unbound { message, missing });
        }
        Err(RunError::Failed(error)) => return Err(TryError::Failed(error)),
    };
    match output {
        Output::Value(value) => show.value(value),
        Output::Stream(mut events) => {
            let (stop, events) = run
                .follow(&mut events, entry.follow, |event| show.event(event))
                .await;
            show.stopped(stop, events);
        }
    }
    Ok(())
}

/// A trace that escapes control characters (what a server or a program sent) before passing each
/// line on.
struct Escaping {
    inner: Arc<dyn Trace>,
}

impl Trace for Escaping {
    fn note(&self, line: &str) {
        self.inner.note(&escape_controls(line));
    }

    fn warn(&self, line: &str) {
        self.inner.warn(&escape_controls(line));
    }

    fn progress(&self, progress: Progress) {
        self.inner.progress(progress);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Collect;

    fn config(text: &str) -> Config {
        let parse = sources_syntax::parse(text, sources_syntax::Syntax::Yaml);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        sources_config::decode(parse.root.expect("parses")).0
    }

    fn ask<'a>(config: &'a Config, text: &'a str, pin: &str, trace: Arc<Collect>) -> Ask<'a> {
        Ask {
            config,
            text,
            params: BTreeMap::from([("pin".to_owned(), pin.to_owned())]),
            demo: false,
            max_body: 1 << 20,
            options: EngineOptions {
                explain: true,
                ..EngineOptions::default()
            },
            trace,
        }
    }

    #[tokio::test]
    async fn what_the_engine_reports_is_hidden_by_the_run_s_secrets() {
        let text = "data:\n  sources:\n    t:\n      type: exec\n      command: [echo, '${params.pin}']\n      format: text\n      parameters:\n        pin: {required: true, mask: true}\n";
        let config = config(text);
        let trace = Arc::new(Collect::default());
        let run = Run::new(ask(&config, text, "4711-masked", trace.clone())).expect("a run");
        let source = config.get("t").expect("the entry");
        let output = run.evaluate_with(source, run.params()).await;
        assert!(matches!(output, Ok(Output::Value(_))), "{output:?}");
        let lines: Vec<String> = trace
            .lines()
            .iter()
            .map(|line| run.secrets().redact(line))
            .collect();
        assert!(
            lines.iter().any(|line| line.contains("[redacted]")),
            "the command is reported, the pin hidden: {lines:?}"
        );
        assert!(
            lines.iter().all(|line| !line.contains("4711-masked")),
            "{lines:?}"
        );
    }

    #[tokio::test]
    async fn a_refused_binding_says_why_and_the_run_s_secrets_hide_the_value() {
        let text = "data:\n  sources:\n    t:\n      type: static\n      data: []\n      parameters:\n        pin: {type: int, mask: true}\n";
        let config = config(text);
        let run = Run::new(ask(&config, text, "not-a-number-4711", Arc::default())).expect("a run");
        let source = config.get("t").expect("the entry");
        let refused = run
            .bind(source, run.params())
            .err()
            .map(|error| run.secrets().redact(&error.to_string()));
        let refused = refused.expect("an int parameter refuses text");
        assert!(refused.contains("pin"), "{refused}");
        assert!(!refused.contains("not-a-number-4711"), "{refused}");
        assert!(refused.contains("[redacted]"), "{refused}");
    }

    /// Keeps what [`try_entry`] hands to be shown, in order.
    #[derive(Default)]
    struct Shown {
        said: Vec<String>,
    }

    impl Show for Shown {
        fn started(&mut self, secrets: &Redactor, world: Option<&str>) {
            self.said.push(format!(
                "started {} {world:?}",
                secrets.redact("pin 4711-masked")
            ));
        }

        fn value(&mut self, value: Value) {
            self.said.push(format!("value {value}"));
        }

        fn event(&mut self, event: Result<Value, EvalError>) -> ControlFlow<()> {
            self.said
                .push(format!("event {}", event.expect("an event")));
            ControlFlow::Continue(())
        }

        fn stopped(&mut self, stop: Stop, events: usize) {
            self.said.push(format!("stopped {stop:?} {events}"));
        }
    }

    fn try_one<'a>(
        config: &'a Config,
        text: &'a str,
        name: &str,
        flags: &WindowFlags,
        shown: &mut Shown,
    ) -> Result<(), TryError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let entry = Entry {
            source: config.get(name).expect("the entry"),
            flags,
            follow: Follow {
                events: Some(2),
                within: None,
            },
        };
        runtime.block_on(try_entry(
            ask(config, text, "4711-masked", Arc::default()),
            entry,
            shown,
        ))
    }

    #[test]
    fn trying_an_entry_starts_the_run_then_shows_its_value_or_follows_its_stream() {
        let text = "data:\n  sources:\n    t:\n      type: static\n      data: [{id: 1}]\n      parameters:\n        pin: {mask: true}\n    lines:\n      type: exec\n      command: [printf, 'a\\nb\\nc\\n']\n      follow: true\n      format: text\n      parameters:\n        pin: {mask: true}\n";
        let config = config(text);
        let mut shown = Shown::default();
        try_one(&config, text, "t", &WindowFlags::default(), &mut shown).expect("tried");
        assert_eq!(
            shown.said,
            ["started pin [redacted] None", "value [{\"id\":1}]"]
        );

        let mut shown = Shown::default();
        try_one(&config, text, "lines", &WindowFlags::default(), &mut shown).expect("tried");
        assert_eq!(shown.said.len(), 4, "{:?}", shown.said);
        assert!(shown.said[1].starts_with("event "), "{:?}", shown.said);
        assert_eq!(shown.said[3], "stopped Events 2");
    }

    #[test]
    fn trying_an_entry_refuses_flags_its_window_cannot_take_and_names_missing_parameters() {
        let text = "data:\n  sources:\n    t:\n      type: static\n      data: []\n      parameters:\n        id: {required: true}\n        pin: {mask: true}\n";
        let config = config(text);
        let flags = WindowFlags {
            search: Some("x".to_owned()),
            ..WindowFlags::default()
        };
        let mut shown = Shown::default();
        let refused = try_one(&config, text, "t", &flags, &mut shown);
        assert!(
            matches!(&refused, Err(TryError::Window(message)) if message.contains("`--search`")),
            "{refused:?}"
        );
        assert!(shown.said.is_empty(), "nothing started: {:?}", shown.said);

        let refused = try_one(&config, text, "t", &WindowFlags::default(), &mut shown);
        let Err(TryError::Unbound { message, missing }) = refused else {
            panic!("unbound: {refused:?}");
        };
        assert!(message.contains("id"), "{message}");
        assert_eq!(missing.len(), 1);
        assert_eq!(missing[0].name, "id");
        assert!(missing[0].example.is_none(), "no demo, no example");
        assert_eq!(shown.said, ["started pin [redacted] None"]);
    }
}
