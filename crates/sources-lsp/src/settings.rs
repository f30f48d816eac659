//! The client's settings (from `initializationOptions` and `workspace/didChangeConfiguration`)
//! and what the client said it can do.
//!
//! Settings are read from `{"sources": {…}}` or the bare object: `demo` (the "▶ try" command
//! sends requests for the demo address to the in-process demo backend), `severity` (a map
//! from rule code to `error`, `warning`, `information`, `hint` or `off`) and
//! `inlayHints.sampleValues` (an inlay hint after each column `value` with its sample value; off
//! unless set).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use serde_json::Value;
use sources_diagnostics::Rule;
use tower_lsp_server::ls_types::{ClientCapabilities, DiagnosticSeverity};

/// What a severity override does to a rule's diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Override {
    /// Report them with this severity.
    Severity(DiagnosticSeverity),
    /// Do not report them.
    Off,
}

/// The settings in force.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Values {
    /// Whether "▶ try" uses the in-process demo backend for the demo address.
    pub(crate) demo: bool,
    /// Severity overrides by rule code.
    pub(crate) severity: HashMap<String, Override>,
    /// Whether inlay hints show each table column's sample value.
    pub(crate) sample_values: bool,
}

/// The settings and client capabilities of one connection.
#[derive(Debug, Default)]
pub(crate) struct Settings {
    values: Mutex<Values>,
    show_document: Mutex<bool>,
    watch_files: Mutex<bool>,
    delivery: Mutex<Delivery>,
    roots: Mutex<Vec<std::path::PathBuf>>,
}

/// How diagnostics reach the client: each diagnostic once, by the one way the client takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Delivery {
    /// The client does not pull: the server publishes every version's diagnostics.
    #[default]
    Push,
    /// The client pulls (`textDocument/diagnostic`): nothing is published; a change of settings
    /// asks the client to pull again when `refresh` (it takes `workspace/diagnostic/refresh`).
    Pull {
        /// Whether the client accepts `workspace/diagnostic/refresh`.
        refresh: bool,
    },
}

impl Settings {
    /// Records what the client supports.
    pub(crate) fn client(&self, capabilities: &ClientCapabilities) {
        let supported = capabilities
            .window
            .as_ref()
            .and_then(|window| window.show_document.as_ref())
            .is_some_and(|show| show.support);
        *self
            .show_document
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = supported;
        let watch = capabilities
            .workspace
            .as_ref()
            .and_then(|workspace| workspace.did_change_watched_files.as_ref())
            .and_then(|watched| watched.dynamic_registration)
            .unwrap_or(false);
        *self
            .watch_files
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = watch;
        let delivery = match capabilities
            .text_document
            .as_ref()
            .and_then(|document| document.diagnostic.as_ref())
        {
            None => Delivery::Push,
            Some(_) => Delivery::Pull {
                refresh: capabilities
                    .workspace
                    .as_ref()
                    .and_then(|workspace| workspace.diagnostics.as_ref())
                    .and_then(|diagnostics| diagnostics.refresh_support)
                    .unwrap_or(false),
            },
        };
        *self.delivery.lock().unwrap_or_else(PoisonError::into_inner) = delivery;
    }

    /// How the client takes diagnostics (decided at `initialize`; push until then).
    pub(crate) fn delivery(&self) -> Delivery {
        *self.delivery.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the client accepts file watchers registered by the server
    /// (`workspace/didChangeWatchedFiles` with dynamic registration).
    pub(crate) fn can_watch_files(&self) -> bool {
        *self
            .watch_files
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Records the workspace folders (local ones only).
    pub(crate) fn workspace(&self, roots: Vec<std::path::PathBuf>) {
        *self.roots.lock().unwrap_or_else(PoisonError::into_inner) = roots;
    }

    /// The workspace folders.
    pub(crate) fn roots(&self) -> Vec<std::path::PathBuf> {
        self.roots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Whether the client can open a document the server names (`window/showDocument`).
    pub(crate) fn can_show_document(&self) -> bool {
        *self
            .show_document
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The settings in force.
    pub(crate) fn values(&self) -> Values {
        self.values
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Replaces the settings with those in `settings`; returns what was wrong in it (unknown
    /// rule codes, unknown severities), each once, for the client's log. Settings that are not
    /// given keep their defaults.
    pub(crate) fn update(&self, settings: &Value) -> Vec<String> {
        let (values, problems) = parse(settings);
        *self.values.lock().unwrap_or_else(PoisonError::into_inner) = values;
        problems
    }
}

/// Reads settings, collecting what is wrong.
fn parse(settings: &Value) -> (Values, Vec<String>) {
    let settings = settings.get("sources").unwrap_or(settings);
    let mut values = Values::default();
    let mut problems = Vec::new();
    match settings.get("demo") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(demo)) => values.demo = *demo,
        Some(other) => problems.push(format!(
            "setting `sources.demo` must be true or false, not {other}"
        )),
    }
    match settings
        .get("inlayHints")
        .and_then(|hints| hints.get("sampleValues"))
    {
        None | Some(Value::Null) => {}
        Some(Value::Bool(on)) => values.sample_values = *on,
        Some(other) => problems.push(format!(
            "setting `sources.inlayHints.sampleValues` must be true or false, not {other}"
        )),
    }
    if let Some(overrides) = settings.get("severity").and_then(Value::as_object) {
        for (code, level) in overrides {
            if Rule::from_code(code).is_none() {
                problems.push(format!(
                    "setting `sources.severity`: `{code}` is not a rule (`sources rules` lists them)"
                ));
                continue;
            }
            let parsed = match level.as_str() {
                Some("error") => Override::Severity(DiagnosticSeverity::ERROR),
                Some("warning") => Override::Severity(DiagnosticSeverity::WARNING),
                Some("information" | "info") => Override::Severity(DiagnosticSeverity::INFORMATION),
                Some("hint") => Override::Severity(DiagnosticSeverity::HINT),
                Some("off") => Override::Off,
                _ => {
                    problems.push(format!(
                        "setting `sources.severity.{code}` must be one of error, warning, information, hint, off; not {level}"
                    ));
                    continue;
                }
            };
            values.severity.insert(code.clone(), parsed);
        }
    }
    (values, problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_are_read_wrapped_or_bare_and_problems_are_named() {
        let (values, problems) = parse(&json!({ "sources": { "demo": true, "severity": {
            "unknown-field": "off", "missing-field": "hint", "nope": "error", "syntax": "loud"
        } } }));
        assert!(values.demo);
        assert!(!values.sample_values, "off unless set");
        assert_eq!(values.severity.get("unknown-field"), Some(&Override::Off));
        assert_eq!(
            values.severity.get("missing-field"),
            Some(&Override::Severity(DiagnosticSeverity::HINT))
        );
        assert_eq!(
            problems,
            [
                "setting `sources.severity`: `nope` is not a rule (`sources rules` lists them)",
                "setting `sources.severity.syntax` must be one of error, warning, information, hint, off; not \"loud\"",
            ]
        );
        let (bare, problems) =
            parse(&json!({ "demo": "yes", "inlayHints": { "sampleValues": 1 } }));
        assert!(!bare.demo);
        assert_eq!(
            problems,
            [
                "setting `sources.demo` must be true or false, not \"yes\"",
                "setting `sources.inlayHints.sampleValues` must be true or false, not 1",
            ]
        );
        let (on, _) = parse(&json!({ "inlayHints": { "sampleValues": true } }));
        assert!(on.sample_values);
    }
}
