//! `--select`, `--extend-select` and `--ignore` of `sources lint`, as ruff has them: rule codes or
//! prefixes of codes (`window` is every `window-…` rule, `ALL` every rule), applied on top of the
//! levels of the settings file.

use sources_check::settings::{Level, Settings};
use sources_diagnostics::{Diagnostic, Rule, Severity, retain_or_stand_in};

/// The rules chosen on the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// `--select`: only these rules are reported (every rule when absent).
    select: Option<Vec<String>>,
    /// `--extend-select`: these rules too, even where the settings file turns them off.
    extend: Vec<String>,
    /// `--ignore`: these rules are never reported (it wins over both selections).
    ignore: Vec<String>,
}

/// A `--select`, `--extend-select` or `--ignore` value that names no rule.
#[derive(Debug, thiserror::Error)]
#[error("`{flag} {value}` names no rule{hint}: `sources rules` lists the codes")]
pub struct UnknownRule {
    /// The flag.
    flag: &'static str,
    /// The value as given.
    value: String,
    /// A did-you-mean, when a code is close.
    hint: String,
}

impl Selection {
    /// The selection of the three flags' values (each a list; commas separate codes too), every
    /// value checked to be a rule code, a prefix of one or `ALL`.
    pub fn new(
        select: &[String],
        extend: &[String],
        ignore: &[String],
    ) -> Result<Selection, UnknownRule> {
        Ok(Selection {
            select: if select.is_empty() {
                None
            } else {
                Some(checked("--select", select)?)
            },
            extend: checked("--extend-select", extend)?,
            ignore: checked("--ignore", ignore)?,
        })
    }

    /// Applies the settings file's levels (when there is one) and this selection to one file's
    /// diagnostics: drops what is ignored, not selected or turned off (unless `--extend-select`
    /// names it), and sets the severity of the rules the settings file gives a level.
    pub fn apply(&self, settings: Option<&Settings>, diagnostics: &mut Vec<Diagnostic>) {
        retain_or_stand_in(diagnostics, |diagnostic| {
            let rule = diagnostic.rule;
            if matches(&self.ignore, rule) {
                return false;
            }
            let extended = matches(&self.extend, rule);
            if !extended
                && self
                    .select
                    .as_ref()
                    .is_some_and(|select| !matches(select, rule))
            {
                return false;
            }
            // Only a level the settings file writes changes a diagnostic: the analysis already gave
            // each its default severity (or a lower one, as for a finding read from a sample).
            let written = settings.and_then(|settings| {
                let (level, line) = settings.level(rule);
                line.map(|_| level)
            });
            match written {
                None => true,
                Some(Level::Off) => extended,
                Some(Level::Error) => {
                    diagnostic.severity = Severity::Error;
                    true
                }
                Some(Level::Warning) => {
                    diagnostic.severity = Severity::Warning;
                    true
                }
            }
        });
    }
}

/// Whether one of `patterns` (codes, prefixes or `ALL`) names `rule`.
fn matches(patterns: &[String], rule: Rule) -> bool {
    patterns
        .iter()
        .any(|pattern| pattern == "ALL" || rule.code().starts_with(pattern.as_str()))
}

/// The values of one flag split at commas, each checked to name at least one rule.
fn checked(flag: &'static str, values: &[String]) -> Result<Vec<String>, UnknownRule> {
    let mut patterns = Vec::new();
    for value in values.iter().flat_map(|value| value.split(',')) {
        let value = value.trim();
        if value.is_empty() {
            continue;
        }
        if value != "ALL" && !Rule::ALL.iter().any(|rule| rule.code().starts_with(value)) {
            let codes = Rule::ALL.iter().map(|rule| rule.code());
            let hint = sources_diagnostics::did_you_mean(value, codes)
                .first()
                .map(|best| format!(" (did you mean `{best}`?)"))
                .unwrap_or_default();
            return Err(UnknownRule {
                flag,
                value: value.to_owned(),
                hint,
            });
        }
        patterns.push(value.to_owned());
    }
    Ok(patterns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sources_diagnostics::Span;

    fn diagnostics() -> Vec<Diagnostic> {
        [
            Rule::UnknownField,
            Rule::WindowMissingToken,
            Rule::UnknownSource,
        ]
        .into_iter()
        .map(|rule| Diagnostic::new(rule, Span::new(0, 1), rule.code()))
        .collect()
    }

    fn kept(selection: &Selection, settings: Option<&Settings>) -> Vec<&'static str> {
        let mut diagnostics = diagnostics();
        selection.apply(settings, &mut diagnostics);
        diagnostics.iter().map(|d| d.rule.code()).collect()
    }

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|value| (*value).to_owned()).collect()
    }

    #[test]
    fn select_narrows_extend_adds_and_ignore_wins() {
        let all = Selection::default();
        assert_eq!(
            kept(&all, None),
            ["unknown-field", "window-missing-token", "unknown-source"]
        );
        let unknown = Selection::new(&strings(&["unknown"]), &[], &[]).expect("valid");
        assert_eq!(kept(&unknown, None), ["unknown-field", "unknown-source"]);
        let both = Selection::new(&strings(&["unknown-field"]), &strings(&["window"]), &[])
            .expect("valid");
        assert_eq!(kept(&both, None), ["unknown-field", "window-missing-token"]);
        let ignored = Selection::new(
            &strings(&["ALL"]),
            &[],
            &strings(&["unknown-source,window"]),
        )
        .expect("valid");
        assert_eq!(kept(&ignored, None), ["unknown-field"]);
    }

    #[test]
    fn extend_select_turns_on_a_rule_the_settings_file_turns_off() {
        let settings = Settings::parse("[rules]\nunknown-field = \"off\"\n").expect("settings");
        assert_eq!(
            kept(&Selection::default(), Some(&settings)),
            ["window-missing-token", "unknown-source"]
        );
        let extended = Selection::new(&[], &strings(&["unknown-field"]), &[]).expect("valid");
        assert_eq!(
            kept(&extended, Some(&settings)),
            ["unknown-field", "window-missing-token", "unknown-source"]
        );
    }

    #[test]
    fn a_code_that_names_no_rule_is_refused_with_a_suggestion() {
        let error = Selection::new(&[], &[], &strings(&["unknown-feild"])).expect_err("unknown");
        assert_eq!(
            error.to_string(),
            "`--ignore unknown-feild` names no rule (did you mean `unknown-field`?): `sources rules` lists the codes"
        );
    }
}
