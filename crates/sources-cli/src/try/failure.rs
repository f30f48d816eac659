//! What `try` adds to the engine's one-line error so the user knows where to act: the `timeout`
//! that ran out (or the default one) with the file and line to change it, `--demo` when the
//! demo backend's address refused the connection, and, when the entry is refused before any I/O
//! for what a lint error hidden by the settings file or a suppression comment says, that error
//! and what hides it (`sources_eval::error::naming_hidden`, which the editor's "▶ try" calls too).

use sources_check::hidden::Hidden;
use sources_check::settings_file::Found;
use sources_config::Config;
use sources_eval::error::{Cause, EvalError};
use sources_eval::io::IoError;
use sources_syntax::LineIndex;

use crate::selection::Selection;

/// Applies to `analysis` what `sources lint` applies to the file at `path`: the levels of
/// `found`, the settings file found for it (suppression comments applied in the analysis).
/// Returns every error that this hides, with the setting or comment that hides it.
pub fn hide_as_lint_does(
    path: &str,
    analysis: &mut sources_check::Analysis,
    found: Option<&Found>,
) -> Vec<Hidden> {
    let hidden = sources_check::hidden::find(analysis, path, found);
    if let Some(found) = found {
        Selection::default().apply(Some(&found.settings), &mut analysis.diagnostics);
    }
    hidden
}

/// The file an evaluation read, for pointing into it.
pub struct Tried<'a> {
    /// The configuration.
    pub config: &'a Config,
    /// Its line index.
    pub line_index: &'a LineIndex,
    /// The path as shown.
    pub path: &'a str,
    /// Whether `--demo` was given.
    pub demo: bool,
    /// The lint errors the settings file and suppression comments hide.
    pub hidden: &'a [Hidden],
    /// The language its expressions are written in (the settings file's).
    pub language: sources_check::settings::Language,
}

impl Tried<'_> {
    /// `error` as one line, with a hint where one helps.
    pub fn describe(&self, error: &EvalError) -> String {
        if let Some(said) = sources_eval::error::naming_hidden(error, self.hidden, self.config) {
            return said;
        }
        let mut innermost = error;
        while let Cause::Child(child) = &innermost.cause {
            innermost = child;
        }
        let hint = match &innermost.cause {
            Cause::Io(IoError::Timeout(_)) => self.timeout_hint(&innermost.entry),
            Cause::Io(IoError::Connect { address, .. }) if !self.demo && is_demo(address) => Some(
                "is the demo backend running? `--demo` serves its address in-process".to_owned(),
            ),
            _ => None,
        };
        match hint {
            Some(hint) => format!("{error} ({hint})"),
            None => error.to_string(),
        }
    }

    /// Where the `timeout` of `entry` is written, or where to write one.
    fn timeout_hint(&self, entry: &str) -> Option<String> {
        let source = self.config.get(entry)?;
        let at = |offset: usize| {
            let position = self.line_index.line_col(offset);
            format!("{}:{}:{}", self.path, position.line, position.column)
        };
        Some(match source.keys.iter().find(|key| key.name == "timeout") {
            Some(key) => format!(
                "`timeout` of `{entry}` at {}: raise it there",
                at(key.span.start())
            ),
            None => format!(
                "the default `timeout` of `{entry}`, which sets none: add `timeout:` to it at {}",
                at(source.name.span.start())
            ),
        })
    }
}

/// Whether `address` (`host:port`) is the demo backend's.
fn is_demo(address: &str) -> bool {
    ["127.0.0.1:8099", "localhost:8099"].contains(&address)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sources_syntax::Syntax;
    use std::time::Duration;

    const TEXT: &str = "data:\n  sources:\n    slow:\n      type: http\n      url: http://127.0.0.1:8099/apps\n      timeout: 300ms\n    plain:\n      type: http\n      url: http://127.0.0.1:8099/apps\n    reader:\n      type: passthrough\n      from: slow\n";

    fn describe(error: &EvalError, demo: bool) -> String {
        let analysis = sources_check::analyze(TEXT, Syntax::Yaml);
        let tried = Tried {
            config: &analysis.config,
            line_index: &analysis.line_index,
            path: "dash.yaml",
            demo,
            hidden: &[],
            language: analysis.language,
        };
        tried.describe(error)
    }

    #[test]
    fn a_timeout_points_at_the_timeout_that_ran_out_or_where_to_write_one() {
        let timeout = Cause::Io(IoError::Timeout(Duration::from_millis(300)));
        let inner = EvalError::new("slow", timeout);
        let outer = EvalError::new("reader", Cause::Child(Box::new(inner)));
        assert_eq!(
            describe(&outer, false),
            "source `reader`: source `slow`: timed out after 300ms (`timeout` of `slow` at dash.yaml:6:7: raise it there)"
        );
        assert_eq!(
            describe(
                &EvalError::new(
                    "plain",
                    Cause::Io(IoError::Timeout(Duration::from_secs(10)))
                ),
                false
            ),
            "source `plain`: timed out after 10s (the default `timeout` of `plain`, which sets none: add `timeout:` to it at dash.yaml:7:5)"
        );
    }

    #[test]
    fn a_refused_demo_address_suggests_demo_unless_it_was_given() {
        let refused = EvalError::new(
            "plain",
            Cause::Io(IoError::Connect {
                address: "127.0.0.1:8099".to_owned(),
                detail: "Connection refused (os error 111)".to_owned(),
            }),
        );
        assert!(
            describe(&refused, false)
                .ends_with("(is the demo backend running? `--demo` serves its address in-process)"),
            "{}",
            describe(&refused, false)
        );
        assert!(!describe(&refused, true).contains("--demo"));
    }
}
