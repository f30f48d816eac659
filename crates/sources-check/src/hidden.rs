//! The lint errors that the settings file or a suppression comment hides from a front end, each
//! with what hides it, and how a front end names one inside an entry: `sources try` and the
//! editor's "▶ try" say the same sentence when the evaluator refuses an entry for what a hidden
//! error predicts.

use sources_config::Config;
use sources_diagnostics::{Diagnostic, Severity};

use crate::Analysis;
use crate::settings::Level;
use crate::settings_file::Found;

/// A lint error a front end does not count, and what hides it.
#[derive(Clone, Debug, PartialEq)]
pub struct Hidden {
    /// The error as lint reports it without the setting or comment.
    pub diagnostic: Diagnostic,
    /// Where it is (`dash.yaml:3:26`).
    pub at: String,
    /// What hides it (`` `invalid-value = "off"` in sources-lint.toml:2 ``).
    pub by: String,
}

/// The errors of `analysis` (an analysis that kept every diagnostic, suppression comments
/// applied) of the file shown as `path` that the suppression comments silenced, then those that
/// `settings` (the settings file in force for it) turns off or down to a warning.
pub fn find(analysis: &Analysis, path: &str, settings: Option<&Found>) -> Vec<Hidden> {
    let at = |offset: usize| {
        let position = analysis.line_index.line_col(offset);
        format!("{path}:{}:{}", position.line, position.column)
    };
    let silenced = analysis.silenced.iter().map(|silenced| Hidden {
        diagnostic: silenced.diagnostic.clone(),
        at: at(silenced.diagnostic.span.start()),
        by: format!("the suppression comment at {}", at(silenced.by.start())),
    });
    let set = settings.into_iter().flat_map(|found| {
        analysis.diagnostics.iter().filter_map(move |diagnostic| {
            if diagnostic.severity != Severity::Error {
                return None;
            }
            // Only a level the file writes changes a diagnostic (as `sources lint` applies it).
            let (level, line) = found.settings.level(diagnostic.rule);
            let line = line?;
            if level == Level::Error {
                return None;
            }
            Some(Hidden {
                diagnostic: diagnostic.clone(),
                at: at(diagnostic.span.start()),
                by: format!(
                    "`{} = \"{}\"` in {}:{line}",
                    diagnostic.rule.code(),
                    level.as_str(),
                    found.path.display()
                ),
            })
        })
    });
    silenced.chain(set).collect()
}

/// The first of `hidden` inside the entry `entry` of `config`, said with where it is and what
/// hides it: what a front end adds to a refusal of that entry that the error predicts.
pub fn name_in(hidden: &[Hidden], config: &Config, entry: &str) -> Option<String> {
    let source = config.get(entry)?;
    let inside = |offset: usize| source.span.contains(offset) || source.name.span.contains(offset);
    let hidden = hidden
        .iter()
        .find(|hidden| inside(hidden.diagnostic.span.start()))?;
    Some(format!(
        "lint's `{}` error at {} says so: {}; {} hides it",
        hidden.diagnostic.rule.code(),
        hidden.at,
        hidden.diagnostic.message,
        hidden.by
    ))
}
