//! Project settings (`sources-lint.toml`): parsing and validating the file's text, and applying
//! its rule levels to diagnostics. Finding and reading the file on disk is `settings_file`'s job;
//! nothing here does I/O.

use sources_diagnostics::{Diagnostic, Rule, Severity, did_you_mean};
use sources_syntax::LineIndex;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The settings file's name; it wins over [`HIDDEN_FILE_NAME`] in the same directory.
pub const FILE_NAME: &str = "sources-lint.toml";
/// The hidden spelling of the settings file's name.
pub const HIDDEN_FILE_NAME: &str = ".sources-lint.toml";

/// The tables a settings file may have.
const TABLES: &[&str] = &["rules", "files"];
/// The keys of `[files]`.
pub const FILE_KEYS: &[&str] = &["include", "exclude"];
/// The values of a rule in `[rules]`.
pub const LEVELS: &[&str] = &["error", "warning", "off"];

/// What a settings file sets a rule to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Report the rule's findings as errors.
    Error,
    /// Report the rule's findings as warnings.
    Warning,
    /// Do not report the rule's findings.
    Off,
}

impl Level {
    /// `error`, `warning` or `off`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Off => "off",
        }
    }

    /// The level a rule has when no settings name it.
    pub fn default_for(rule: Rule) -> Level {
        match rule.default_severity() {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        }
    }
}

/// One rule's level as written in a settings file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleLevel {
    /// The rule.
    pub rule: Rule,
    /// Its level.
    pub level: Level,
    /// The 1-based line it is written on.
    pub line: u32,
}

/// One glob of `[files]`, with the line it is written on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    /// The pattern, relative to the settings file's directory.
    pub pattern: String,
    /// The 1-based line it is written on.
    pub line: u32,
}

/// A validated settings file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `[rules]`, in the order written.
    pub rules: Vec<RuleLevel>,
    /// `[files] include`: a walked file must match one of them (when there are any).
    pub include: Vec<Glob>,
    /// `[files] exclude`: a walked file matching one of them is skipped.
    pub exclude: Vec<Glob>,
}

/// Why a settings file was rejected, at a 1-based line and column of it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct SettingsError {
    /// The 1-based line.
    pub line: u32,
    /// The 1-based column.
    pub column: u32,
    /// What is wrong and what to do.
    pub message: String,
}

impl Settings {
    /// Parses and validates the text of a settings file.
    pub fn parse(text: &str) -> Result<Settings, SettingsError> {
        let index = LineIndex::new(text);
        let error = |offset: usize, message: String| {
            let at = index.line_col(offset);
            SettingsError {
                line: at.line,
                column: at.column,
                message,
            }
        };
        let table = DeTable::parse(text).map_err(|e| {
            let offset = e.span().map_or(0, |span| span.start);
            error(offset, e.message().trim_end().to_owned())
        })?;
        let mut settings = Settings::default();
        for (key, value) in table.into_inner() {
            let name = key.get_ref().as_ref();
            let table = match (name, value.get_ref()) {
                ("rules" | "files", DeValue::Table(table)) => table,
                ("rules" | "files", _) => {
                    return Err(error(
                        value.span().start,
                        format!("`{name}` must be a table: write `[{name}]`"),
                    ));
                }
                _ => {
                    return Err(error(
                        key.span().start,
                        unknown("table", name, TABLES.iter().copied()),
                    ));
                }
            };
            for (key, value) in table {
                let line = index.line_col(key.span().start).line;
                if name == "rules" {
                    let code = key.get_ref().as_ref();
                    let Some(rule) = Rule::from_code(code) else {
                        let codes = Rule::ALL.iter().map(|rule| rule.code());
                        return Err(error(key.span().start, unknown("rule", code, codes)));
                    };
                    let level = match value.get_ref() {
                        DeValue::String(level) => match level.as_ref() {
                            "error" => Some(Level::Error),
                            "warning" => Some(Level::Warning),
                            "off" => Some(Level::Off),
                            _ => None,
                        },
                        _ => None,
                    }
                    .ok_or_else(|| {
                        error(
                            value.span().start,
                            format!(
                                "`{code}` must be one of {}, not `{}`",
                                quoted(LEVELS),
                                &text[value.span()]
                            ),
                        )
                    })?;
                    settings.rules.push(RuleLevel { rule, level, line });
                } else {
                    let globs = match key.get_ref().as_ref() {
                        "include" => &mut settings.include,
                        "exclude" => &mut settings.exclude,
                        other => {
                            let message =
                                unknown("key in `[files]`", other, FILE_KEYS.iter().copied());
                            return Err(error(key.span().start, message));
                        }
                    };
                    *globs = string_array(&index, key.get_ref().as_ref(), value)
                        .map_err(|(offset, message)| error(offset, message))?;
                }
            }
        }
        Ok(settings)
    }

    /// The level `rule` has under these settings, and the line setting it (`None`: the default).
    pub fn level(&self, rule: Rule) -> (Level, Option<u32>) {
        self.rules
            .iter()
            .rev()
            .find(|setting| setting.rule == rule)
            .map_or((Level::default_for(rule), None), |setting| {
                (setting.level, Some(setting.line))
            })
    }

    /// Applies the rule levels: drops the diagnostics of rules turned off and sets the severity of
    /// the others.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.rules.is_empty() {
            return;
        }
        diagnostics.retain_mut(|diagnostic| match self.level(diagnostic.rule).0 {
            Level::Off => false,
            Level::Error => {
                diagnostic.severity = Severity::Error;
                true
            }
            Level::Warning => {
                diagnostic.severity = Severity::Warning;
                true
            }
        });
    }
}

/// The globs of `include` or `exclude`: an array of strings.
fn string_array(
    index: &LineIndex,
    key: &str,
    value: &Spanned<DeValue<'_>>,
) -> Result<Vec<Glob>, (usize, String)> {
    let not_strings = |offset| {
        (
            offset,
            format!("`{key}` must be an array of glob strings, such as `[\"dashboards/**\"]`"),
        )
    };
    let DeValue::Array(items) = value.get_ref() else {
        return Err(not_strings(value.span().start));
    };
    items
        .iter()
        .map(|item| match item.get_ref() {
            DeValue::String(pattern) => Ok(Glob {
                pattern: pattern.to_string(),
                line: index.line_col(item.span().start).line,
            }),
            _ => Err(not_strings(item.span().start)),
        })
        .collect()
}

/// "unknown {what} `name`", with a did-you-mean or the list of what is known.
fn unknown<'a>(what: &str, name: &str, known: impl IntoIterator<Item = &'a str> + Clone) -> String {
    let mut message = format!("unknown {what} `{name}`");
    match did_you_mean(name, known.clone()).first() {
        Some(close) => message.push_str(&format!(": did you mean `{close}`?")),
        None if what == "rule" => {
            message.push_str(": `sources rules` lists the rule codes");
        }
        None => {
            let known: Vec<&str> = known.into_iter().collect();
            message.push_str(&format!(": expected one of {}", quoted(&known)));
        }
    }
    message
}

/// `` `a`, `b` or `c` ``.
fn quoted(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        Settings::parse(text).expect_err("rejected").to_string()
    }

    #[test]
    fn rules_and_files_are_read_with_their_lines() {
        let settings = Settings::parse(
            "[rules]\nunknown-field = \"off\"\n\n[files]\ninclude = [\"dash/**\"]\nexclude = [\"old/*\"]\n",
        )
        .expect("valid settings");
        assert_eq!(settings.level(Rule::UnknownField), (Level::Off, Some(2)));
        assert_eq!(settings.include[0].pattern, "dash/**");
        assert_eq!(settings.exclude[0].line, 6);
    }

    #[test]
    fn an_unknown_rule_code_gets_a_did_you_mean() {
        assert_eq!(
            error("[rules]\nunknown-fild = \"off\"\n"),
            "2:1: unknown rule `unknown-fild`: did you mean `unknown-field`?"
        );
    }

    #[test]
    fn a_bad_level_names_the_allowed_ones() {
        assert_eq!(
            error("[rules]\nunknown-field = \"silent\"\n"),
            "2:17: `unknown-field` must be one of `error`, `warning` or `off`, not `\"silent\"`"
        );
    }

    #[test]
    fn an_unknown_table_or_files_key_is_named() {
        assert_eq!(
            error("[ruls]\n"),
            "1:2: unknown table `ruls`: did you mean `rules`?"
        );
        assert_eq!(
            error("[files]\nexclud = []\n"),
            "2:1: unknown key in `[files]` `exclud`: did you mean `exclude`?"
        );
        assert_eq!(
            error("[files]\ninclude = \"a\"\n"),
            "2:11: `include` must be an array of glob strings, such as `[\"dashboards/**\"]`"
        );
    }

    #[test]
    fn a_toml_syntax_error_points_at_its_line() {
        assert!(error("[rules\n").starts_with("1:"));
    }
}
