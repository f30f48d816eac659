//! The `sources.try` command behind the "▶ try" code lens: fetches one entry through the same run
//! as `sources try` (`sources_eval::run::Run`), through its I/O seam — the system's, or the in-process demo
//! backend's for the demo address when the `demo` setting is on.
//!
//! This is the only place the server performs I/O on a configuration's behalf, and only when the
//! user runs the command. The result is written to a file in a private temporary directory
//! ([`Results`]) the client is asked to open;
//! asked to record (`{"record": true}`), the server also writes it as a sample beside the document
//! (`server/try_entry.rs`, through `sources_eval::samples::record`).

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use sources_config::Enumeration;
use sources_eval::engine::{EngineOptions, Output};
use sources_eval::error::EvalError;
use sources_eval::params::Bound;
use sources_eval::run::{Ask, Run};
use sources_eval::snapshot::{Follow, SnapshotWindow};
use sources_eval::trace::Silent;
use tower_lsp_server::ls_types::{DiagnosticSeverity, Uri};

use crate::document::Analyzed;

/// The command's name in `workspace/executeCommand`.
pub(crate) const COMMAND: &str = "sources.try";

/// How long one try may take before it is abandoned.
const DEADLINE: Duration = Duration::from_secs(30);
/// How long a streamed entry is listened to (also when it is read for a snapshot, as a child of a
/// merge that polls).
const LISTEN: Duration = Duration::from_secs(5);
/// How many events of a stream are kept (also in a snapshot of it).
const MAX_EVENTS: usize = 20;

/// The command's arguments: `[uri, entry name, {param: value}?, {"record": true}?]`.
#[derive(Debug, PartialEq)]
pub(crate) struct Arguments {
    /// The document.
    pub(crate) uri: String,
    /// The entry to fetch.
    pub(crate) name: String,
    /// Parameters the client supplied.
    pub(crate) params: BTreeMap<String, String>,
    /// Whether to record what was fetched as a sample beside the document, as `sources try
    /// --record` does.
    pub(crate) record: bool,
}

/// Reads the command's arguments, or says what is wrong with them.
pub(crate) fn arguments(arguments: &[Value]) -> Result<Arguments, String> {
    let usage =
        "`sources.try` takes [document URI, entry name, {parameter: value}, {\"record\": true}]";
    let (Some(uri), Some(name)) = (
        arguments.first().and_then(Value::as_str),
        arguments.get(1).and_then(Value::as_str),
    ) else {
        return Err(usage.to_owned());
    };
    let mut params = BTreeMap::new();
    match arguments.get(2) {
        None | Some(Value::Null) => {}
        Some(Value::Object(given)) => {
            for (key, value) in given {
                let value = match value {
                    Value::String(text) => text.clone(),
                    Value::Number(_) | Value::Bool(_) => value.to_string(),
                    _ => return Err(format!("{usage}: parameter `{key}` must be a string")),
                };
                params.insert(key.clone(), value);
            }
        }
        Some(_) => return Err(usage.to_owned()),
    }
    let record = match arguments.get(3) {
        None | Some(Value::Null) => false,
        Some(options) => match options.get("record") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(record)) => *record,
            Some(_) => return Err(format!("{usage}: `record` must be true or false")),
        },
    };
    Ok(Arguments {
        uri: uri.to_owned(),
        name: name.to_owned(),
        params,
        record,
    })
}

/// What a try produced.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The value the dashboard would receive (for a stream: the events heard, as a list).
    Fetched {
        /// The value.
        value: Value,
        /// A one-line summary.
        summary: String,
    },
    /// The entry could not be tried.
    Refused(Refusal),
}

/// Why an entry cannot be tried yet.
#[derive(Debug, PartialEq)]
pub(crate) struct Refusal {
    /// What is wrong and what to do.
    pub(crate) message: String,
    /// Required parameters without a default that the request does not give (a client that can
    /// ask the user for them runs the command again with them).
    pub(crate) missing: Vec<String>,
    /// Those of `missing` whose values are secret (`mask: true` or a credential-like name): a
    /// client asks for them as passwords.
    pub(crate) masked: Vec<String>,
}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal {
            message,
            missing: Vec::new(),
            masked: Vec::new(),
        }
    }
}

/// Refuses a document with errors, an unknown entry, or missing parameters; else the entry's
/// parameters, bound once for [`run`]. The errors are those the editor shows as errors (its
/// analysis drops rules turned off; its levels set the others' severity, as `sources try` applies
/// the settings file) and those past the diagnostics it keeps, which it counts.
pub(crate) fn check(analyzed: &Analyzed, request: &Arguments) -> Result<Bound, Refusal> {
    let analysis = &analyzed.analysis;
    let config = &analysis.config;
    let errors: Vec<&sources_diagnostics::Diagnostic> = analysis
        .diagnostics
        .iter()
        .filter(|diagnostic| {
            analyzed
                .levels
                .severity(diagnostic.rule, diagnostic.severity)
                == Some(DiagnosticSeverity::ERROR)
        })
        .collect();
    let count = errors.len() + analysis.omitted_errors;
    if count > 0 {
        let first = match errors.first() {
            Some(first) => format!("the first: {}", first.message),
            None => {
                "past the first problems the editor shows; `sources lint` lists them".to_owned()
            }
        };
        return Err(Refusal::from(format!(
            "the document has {count} error{} ({first}): fix {} before trying `{}`",
            if count == 1 { "" } else { "s" },
            if count == 1 { "it" } else { "them" },
            request.name
        )));
    }
    let Some(source) = config.get(&request.name) else {
        return Err(Refusal::from(format!(
            "`{}` is not an entry of `data.sources`",
            request.name
        )));
    };
    let declared = sources_config::accepted::accepted_params(config, source);
    let unset: Vec<&sources_config::accepted::ParamDecl> = declared
        .iter()
        .filter(|decl| decl.must_be_given() && !request.params.contains_key(&decl.name))
        .collect();
    let missing: Vec<String> = unset
        .iter()
        .map(|decl| format!("`{}` ({})", decl.name, decl.kind.as_str()))
        .collect();
    if let Some(first) = unset.first() {
        let message = format!(
            "`{}` needs {} without a default: {}; give {} as the command's third argument, e.g. {{\"{}\": \"…\"}}",
            request.name,
            if missing.len() == 1 {
                "a parameter"
            } else {
                "parameters"
            },
            missing.join(", "),
            if missing.len() == 1 { "it" } else { "them" },
            first.name,
        );
        let secret: Vec<String> = sources_config::secret::secret_params(config)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        return Err(Refusal {
            message,
            missing: unset.iter().map(|decl| decl.name.clone()).collect(),
            masked: unset
                .iter()
                .filter(|decl| secret.contains(&decl.name))
                .map(|decl| decl.name.clone())
                .collect(),
        });
    }
    sources_eval::params::bind_entry(config, source, &request.params)
        .map_err(|message| Refusal::from(format!("`{}`: {message}", request.name)))
}

/// Fetches the entry of the document at `uri` analysed as `analyzed`. Blocking: it runs its own runtime on a thread of its own, whose stack is
/// large enough for the deepest chain (`sources_eval::stack`), so call it off the server's threads.
pub(crate) fn run(analyzed: &Analyzed, uri: &Uri, bound: &Bound, demo: bool) -> Outcome {
    sources_eval::stack::with_evaluation_stack(|| run_here(analyzed, uri, bound, demo))
        .unwrap_or_else(|error| {
            Outcome::Refused(format!("trying `{}` failed: {error}", bound.entry()).into())
        })
}

/// [`run`] on the calling thread.
fn run_here(analyzed: &Analyzed, uri: &Uri, bound: &Bound, demo: bool) -> Outcome {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            return Outcome::Refused(format!("cannot start the try runtime: {error}").into());
        }
    };
    runtime.block_on(async {
        match tokio::time::timeout(DEADLINE, fetch(analyzed, uri, bound, demo)).await {
            Ok(outcome) => outcome,
            Err(_) => Outcome::Refused(
                format!(
                    "`{}` did not answer within {}s",
                    bound.entry(),
                    DEADLINE.as_secs()
                )
                .into(),
            ),
        }
    })
}

async fn fetch(analyzed: &Analyzed, uri: &Uri, bound: &Bound, demo: bool) -> Outcome {
    let config = &analyzed.analysis.config;
    let name = bound.entry();
    let run = Run::new(Ask {
        config,
        text: analyzed.analysis.line_index.text(),
        params: bound.values().clone(),
        demo,
        max_body: sources_eval::io::DEFAULT_MAX_BODY,
        options: EngineOptions {
            language: analyzed.analysis.language,
            snapshot: SnapshotWindow {
                events: Some(MAX_EVENTS),
                within: LISTEN,
            },
            ..EngineOptions::default()
        },
        trace: Arc::new(Silent),
    });
    let run = match run {
        Ok(run) => run,
        Err(error) => return Outcome::Refused(error.to_string().into()),
    };
    let output = match run.evaluate(bound).await {
        Ok(output) => output,
        Err(error) => {
            return Outcome::Refused(describe_failure(analyzed, uri, name, &error).into());
        }
    };
    match output {
        Output::Value(value) => {
            let summary = match &value {
                Value::Array(rows) => format!("`{name}`: {} rows", rows.len()),
                _ => format!("`{name}`: one value"),
            };
            Outcome::Fetched { value, summary }
        }
        Output::Stream(mut events) => {
            let mut heard = Vec::new();
            let bounds = Follow {
                events: Some(MAX_EVENTS),
                within: Some(LISTEN),
            };
            run.follow(&mut events, bounds, |event| {
                heard.push(event.unwrap_or_else(|error| json!({ "error": error.to_string() })));
                ControlFlow::Continue(())
            })
            .await;
            let summary = format!(
                "`{name}`: {} events in the first {}s (at most {MAX_EVENTS})",
                heard.len(),
                LISTEN.as_secs()
            );
            Outcome::Fetched {
                value: Value::Array(heard),
                summary,
            }
        }
    }
}

/// What the editor says of a failed try of `name` in the document at `uri` analysed as `analyzed`:
/// the error, naming the lint error that predicts it when the evaluator refused the entry before
/// any I/O for what an error the settings file or a suppression comment hides says, as `sources
/// try` does (`sources_eval::error::naming_hidden`). The analysis that keeps every diagnostic,
/// which that needs, is made only then.
pub(crate) fn describe_failure(
    analyzed: &Analyzed,
    uri: &Uri,
    name: &str,
    error: &EvalError,
) -> String {
    let said = error.refused_before_io().and_then(|_| {
        let path = uri.to_file_path();
        let shown = path.as_ref().map_or_else(
            || uri.as_str().to_owned(),
            |path| path.display().to_string(),
        );
        let settings = path
            .as_ref()
            .and_then(|path| path.parent())
            .and_then(|dir| sources_check::settings_file::find(dir).ok().flatten());
        let language = settings
            .as_ref()
            .map_or_else(Default::default, |found| found.settings.language);
        let inputs = crate::samples::for_uri(uri, language);
        let full = sources_check::analyze_with(analyzed.text(), analyzed.syntax, &inputs);
        let hidden = sources_check::hidden::find(&full, &shown, settings.as_ref());
        sources_eval::error::naming_hidden(error, &hidden, &full.config)
    });
    format!("`{name}`: {}", said.unwrap_or_else(|| error.to_string()))
}

/// Where "▶ try" results are written: a private directory (mode 0700, a random name, made on
/// first use), removed with the server. Another local user can neither read the results nor plant
/// a link at a name the server will write.
#[derive(Debug, Default)]
pub(crate) struct Results(std::sync::OnceLock<tempfile::TempDir>);

impl Results {
    /// Writes a fetched value to a file named after the entry (through
    /// `sources_eval::files`), and returns its path.
    pub(crate) fn write(&self, name: &str, value: &Value) -> std::io::Result<PathBuf> {
        if self.0.get().is_none() {
            let mut builder = tempfile::Builder::new();
            builder.prefix("sources-try-");
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                builder.permissions(std::fs::Permissions::from_mode(0o700));
            }
            let made = builder.tempdir()?;
            // Another thread's directory may have won: this one is then removed as it drops.
            let _ = self.0.set(made);
        }
        let directory = self
            .0
            .get()
            .map(tempfile::TempDir::path)
            .ok_or_else(|| std::io::Error::other("no results directory"))?;
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)? + "\n";
        sources_eval::files::write(
            &directory.join(format!("{safe}.json")),
            text.as_bytes(),
            Some(directory),
        )
        .map_err(std::io::Error::other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_read_or_refused_with_the_usage() {
        let read = arguments(&[
            json!("file:///a.yaml"),
            json!("apps"),
            json!({ "n": 3, "s": "x" }),
        ])
        .expect("valid arguments");
        assert_eq!(read.name, "apps");
        assert_eq!(read.params.get("n").map(String::as_str), Some("3"));
        assert!(!read.record, "no recording unless asked");
        let usage = "`sources.try` takes [document URI, entry name, {parameter: value}, {\"record\": true}]";
        assert_eq!(arguments(&[json!("file:///a.yaml")]), Err(usage.to_owned()));
        assert_eq!(
            arguments(&[json!("u"), json!("a"), json!({ "p": [1] })]),
            Err(format!("{usage}: parameter `p` must be a string"))
        );
        let recording = arguments(&[json!("u"), json!("a"), json!(null), json!({"record": true})])
            .expect("valid arguments");
        assert!(recording.record);
        assert_eq!(
            arguments(&[json!("u"), json!("a"), json!({}), json!({"record": "yes"})]),
            Err(format!("{usage}: `record` must be true or false"))
        );
    }
}
