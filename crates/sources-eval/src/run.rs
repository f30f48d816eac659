//! One run of `try`, for every front end (`sources try NAME`, `--all`, `--screen` and the editor's
//! "▶ try"): the I/O world, the parameters given and the secrets of the run, and the engine over
//! them, built once by [`Run::new`]; entries are then bound and evaluated through it. Every line
//! the engine reports reaches the front end's trace with control characters escaped; the run's
//! secret values ([`Run::secrets`]) are hidden by the front end where it shows anything (the
//! command line's outputs, the editor's messages).

use std::collections::BTreeMap;
use std::sync::Arc;

use sources_config::{Config, Source};

use crate::engine::{Engine, EngineOptions, Output};
use crate::error::EvalError;
use crate::params::{Bound, Example, bind_entry};
use crate::trace::{Progress, Redactor, Trace, escape_controls};
use crate::window_flags::WindowAsk;
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
    /// The user's part of the named entry's window (`--search`, `--sort`, `--filter`).
    pub window: WindowAsk,
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
        let world = World::new(ask.demo, ask.max_body)?;
        let io = world.io.clone();
        let secrets = Redactor::for_run(ask.config, ask.text, &ask.params, |name| io.env_var(name));
        let trace = Arc::new(Escaping { inner: ask.trace });
        let engine =
            Engine::new(ask.config, world.io.clone(), trace, ask.options).with_window(ask.window);
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

    /// A value for the parameter `name` of `source` that the demo world answers; `None` without
    /// the demo.
    pub async fn example(&self, source: &Source, name: &str) -> Option<Example> {
        self.world.example(source, name).await
    }
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
            window: WindowAsk::default(),
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
}
