//! The project settings file (`sources-lint.toml`) for a `file://` document: found by walking up
//! from the document's directory and read again on every analysis, so an edit to it applies at the
//! next change. Its rule levels apply first; the client's `sources.severity` overrides them.

use std::path::Path;

use sources_check::settings::{FILE_NAME, HIDDEN_FILE_NAME, Level, Settings};
use sources_diagnostics::Rule;
use tower_lsp_server::ls_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Uri};

/// The settings in force for `uri`: `Ok(None)` when it is not a file or no settings file is
/// above it; `Err` says which settings file is invalid and why.
pub(crate) fn for_uri(uri: &Uri) -> Result<Option<Settings>, String> {
    let Some(path) = uri.to_file_path() else {
        return Ok(None);
    };
    let Some(dir) = path.parent() else {
        return Ok(None);
    };
    find(dir)
}

/// The nearest settings file at or above `dir` (`sources-lint.toml` before `.sources-lint.toml`).
fn find(dir: &Path) -> Result<Option<Settings>, String> {
    for dir in dir.ancestors() {
        for name in [FILE_NAME, HIDDEN_FILE_NAME] {
            let candidate = dir.join(name);
            if !candidate.is_file() {
                continue;
            }
            let shown = candidate.display();
            let text = std::fs::read_to_string(&candidate)
                .map_err(|error| format!("cannot read the settings file `{shown}`: {error}"))?;
            return Settings::parse(&text).map(Some).map_err(|error| {
                format!(
                    "invalid settings file `{shown}:{}:{}`: {}",
                    error.line, error.column, error.message
                )
            });
        }
    }
    Ok(None)
}

/// A published diagnostic after the settings file's level for its rule: `None` when it is `off`.
pub(crate) fn apply(settings: Option<&Settings>, mut diagnostic: Diagnostic) -> Option<Diagnostic> {
    let Some(settings) = settings else {
        return Some(diagnostic);
    };
    let rule = match &diagnostic.code {
        Some(NumberOrString::String(code)) => Rule::from_code(code),
        _ => None,
    };
    let Some(rule) = rule else {
        return Some(diagnostic);
    };
    match settings.level(rule).0 {
        Level::Off => None,
        Level::Error => {
            diagnostic.severity = Some(DiagnosticSeverity::ERROR);
            Some(diagnostic)
        }
        Level::Warning => {
            diagnostic.severity = Some(DiagnosticSeverity::WARNING);
            Some(diagnostic)
        }
    }
}
