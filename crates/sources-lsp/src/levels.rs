//! Which diagnostics the editor shows, and with what severity: the project's settings file
//! (`sources-lint.toml`) first, then the client's `sources.severity` settings, which win. An
//! analysis is made with one [`Levels`]: it drops what is not shown as each diagnostic is found
//! (so a rule turned off takes no place among the first diagnostics kept), and publishing sets
//! the severities from the same value.

use std::collections::HashMap;

use sources_check::settings::{Level, Settings};
use sources_diagnostics::{Diagnostic, Rule, Severity};
use tower_lsp_server::ls_types::DiagnosticSeverity;

use crate::settings::Override;

/// The rule levels in force for one document.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Levels {
    /// The project's settings file, when there is a usable one.
    project: Option<Settings>,
    /// The client's overrides by rule code.
    client: HashMap<String, Override>,
}

impl Levels {
    /// The levels of `project` overridden by the client's `client`.
    pub(crate) fn new(project: Option<Settings>, client: HashMap<String, Override>) -> Levels {
        Levels { project, client }
    }

    /// The severity a diagnostic of `rule` with `severity` is shown with; `None` when its rule is
    /// turned off (by the settings file, or by the client).
    pub(crate) fn severity(&self, rule: Rule, severity: Severity) -> Option<DiagnosticSeverity> {
        let mut shown = match severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        };
        if let Some(project) = &self.project {
            shown = match project.level(rule).0 {
                Level::Off => return None,
                Level::Error => DiagnosticSeverity::ERROR,
                Level::Warning => DiagnosticSeverity::WARNING,
            };
        }
        match self.client.get(rule.code()) {
            None => Some(shown),
            Some(Override::Off) => None,
            Some(Override::Severity(severity)) => Some(*severity),
        }
    }

    /// Whether `diagnostic` is shown at all.
    pub(crate) fn shows(&self, diagnostic: &Diagnostic) -> bool {
        self.severity(diagnostic.rule, diagnostic.severity)
            .is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_wins_over_the_settings_file_except_where_the_file_turns_a_rule_off() {
        let project = Settings::parse(
            "[rules]\nunknown-field = \"off\"\nunknown-source = \"warning\"\nmissing-field = \"error\"\n",
        )
        .expect("valid settings");
        let client = HashMap::from([
            (
                "unknown-field".to_owned(),
                Override::Severity(DiagnosticSeverity::HINT),
            ),
            (
                "unknown-source".to_owned(),
                Override::Severity(DiagnosticSeverity::INFORMATION),
            ),
            ("invalid-value".to_owned(), Override::Off),
        ]);
        let levels = Levels::new(Some(project), client);
        assert_eq!(levels.severity(Rule::UnknownField, Severity::Error), None);
        assert_eq!(
            levels.severity(Rule::UnknownSource, Severity::Error),
            Some(DiagnosticSeverity::INFORMATION)
        );
        assert_eq!(
            levels.severity(Rule::MissingField, Severity::Warning),
            Some(DiagnosticSeverity::ERROR)
        );
        assert_eq!(levels.severity(Rule::InvalidValue, Severity::Error), None);
        assert_eq!(
            Levels::default().severity(Rule::Syntax, Severity::Error),
            Some(DiagnosticSeverity::ERROR)
        );
    }
}
