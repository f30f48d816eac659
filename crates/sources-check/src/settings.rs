//! Project settings (`sources-lint.toml`): parsing and validating the file's text, and applying
//! its rule levels to diagnostics. Finding and reading the file on disk is `settings_file`'s job;
//! nothing here does I/O.

use sources_diagnostics::{Diagnostic, Rule, Severity, Span, did_you_mean, retain_or_stand_in};
use sources_syntax::LineIndex;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The settings file's name; it wins over [`HIDDEN_FILE_NAME`] in the same directory.
pub const FILE_NAME: &str = "sources-lint.toml";
/// The hidden spelling of the settings file's name.
pub const HIDDEN_FILE_NAME: &str = ".sources-lint.toml";

/// The tables a settings file may have.
const TABLES: &[&str] = &["rules", "files", "expressions"];
/// The keys of `[files]`.
pub const FILE_KEYS: &[&str] = &["include", "exclude"];
/// The keys of `[expressions]`.
pub const EXPRESSION_KEYS: &[&str] = &["language"];
/// The values of a rule in `[rules]`.
pub const LEVELS: &[&str] = &["error", "warning", "off"];

/// The language the expressions of `where`, `keep`, `compute`, `by`, `on` and `growing.while` are
/// written in, as `[expressions] language` selects it for a project: the one `sources_expr` owns.
pub use sources_expr::Language;

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

/// One glob of `[files]`, with where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    /// The pattern, relative to the settings file's directory.
    pub pattern: String,
    /// The 1-based line it is written on.
    pub line: u32,
    /// The 1-based column of the string.
    pub column: u32,
    /// The string's bytes in the file.
    pub span: Span,
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
    /// `[expressions] language`: the language of the project's expressions.
    pub language: Language,
    /// The 1-based line `[expressions] language` is written on (`None`: the default).
    pub language_line: Option<u32>,
}

/// Why a settings file cannot be used, at a place in it: one `invalid-settings` diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct SettingsError {
    /// The 1-based line.
    pub line: u32,
    /// The 1-based column.
    pub column: u32,
    /// The bytes it is about (the key or value that is wrong).
    pub span: Span,
    /// What is wrong and what to do.
    pub message: String,
}

impl SettingsError {
    /// The error at `span` of the text `index` indexes.
    pub fn at(index: &LineIndex, span: Span, message: String) -> SettingsError {
        let at = index.line_col(span.start());
        SettingsError {
            line: at.line,
            column: at.column,
            span,
            message,
        }
    }

    /// The error as a diagnostic of the settings file, as `sources lint` reports it.
    pub fn diagnostic(&self) -> Diagnostic {
        Diagnostic::new(Rule::InvalidSettings, self.span, self.message.clone())
    }
}

impl Settings {
    /// Parses and validates the text of a settings file: the settings, or every mistake found
    /// (in the order written; a TOML syntax error is the only one, as nothing after it is read).
    pub fn parse(text: &str) -> Result<Settings, Vec<SettingsError>> {
        let (settings, errors) = Settings::parse_all(text)?;
        if errors.is_empty() {
            Ok(settings)
        } else {
            Err(errors)
        }
    }

    /// Parses the text of a settings file: what it validly says, and every mistake found (an
    /// `Err` when it is not TOML at all).
    pub fn parse_all(text: &str) -> Result<(Settings, Vec<SettingsError>), Vec<SettingsError>> {
        let index = LineIndex::new(text);
        let mut errors = Vec::new();
        let mut error = |range: std::ops::Range<usize>, message: String| {
            errors.push(SettingsError::at(&index, Span::from(range), message));
        };
        let table = DeTable::parse(text).map_err(|e| {
            let range = e.span().unwrap_or(0..0);
            vec![SettingsError::at(
                &index,
                Span::from(range),
                e.message().trim_end().to_owned(),
            )]
        })?;
        let mut settings = Settings::default();
        for (key, value) in table.into_inner() {
            let name = key.get_ref().as_ref();
            let table = match (name, value.get_ref()) {
                ("rules" | "files" | "expressions", DeValue::Table(table)) => table,
                ("rules" | "files" | "expressions", _) => {
                    error(
                        value.span(),
                        format!("`{name}` must be a table: write `[{name}]`"),
                    );
                    continue;
                }
                _ => {
                    error(key.span(), unknown("table", name, TABLES.iter().copied()));
                    continue;
                }
            };
            for (key, value) in table {
                let line = index.line_col(key.span().start).line;
                if name == "rules" {
                    let code = key.get_ref().as_ref();
                    let Some(rule) = Rule::from_code(code) else {
                        let codes = Rule::ALL.iter().map(|rule| rule.code());
                        error(key.span(), unknown("rule", code, codes));
                        continue;
                    };
                    let level = match value.get_ref() {
                        DeValue::String(level) => match level.as_ref() {
                            "error" => Some(Level::Error),
                            "warning" => Some(Level::Warning),
                            "off" => Some(Level::Off),
                            _ => None,
                        },
                        _ => None,
                    };
                    match level {
                        Some(level) => settings.rules.push(RuleLevel { rule, level, line }),
                        None => error(
                            value.span(),
                            format!(
                                "`{code}` must be one of {}, not `{}`",
                                quoted(LEVELS),
                                text.get(value.span()).unwrap_or_default()
                            ),
                        ),
                    }
                } else if name == "expressions" {
                    match key.get_ref().as_ref() {
                        "language" => match language(text, value) {
                            Ok(language) => {
                                settings.language = language;
                                settings.language_line = Some(line);
                            }
                            Err((range, message)) => error(range, message),
                        },
                        other => {
                            let message = unknown(
                                "key in `[expressions]`",
                                other,
                                EXPRESSION_KEYS.iter().copied(),
                            );
                            error(key.span(), message);
                        }
                    }
                } else {
                    let globs = match key.get_ref().as_ref() {
                        "include" => &mut settings.include,
                        "exclude" => &mut settings.exclude,
                        other => {
                            let message =
                                unknown("key in `[files]`", other, FILE_KEYS.iter().copied());
                            error(key.span(), message);
                            continue;
                        }
                    };
                    match string_array(&index, key.get_ref().as_ref(), value) {
                        Ok(read) => *globs = read,
                        Err((range, message)) => error(range, message),
                    }
                }
            }
        }
        Ok((settings, errors))
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
        retain_or_stand_in(diagnostics, |diagnostic| {
            match self.level(diagnostic.rule).0 {
                Level::Off => false,
                Level::Error => {
                    diagnostic.severity = Severity::Error;
                    true
                }
                Level::Warning => {
                    diagnostic.severity = Severity::Warning;
                    true
                }
            }
        });
    }
}

/// The value of `[expressions] language`: a string naming a [`Language`].
fn language(
    text: &str,
    value: &Spanned<DeValue<'_>>,
) -> Result<Language, (std::ops::Range<usize>, String)> {
    let names = || Language::ALL.iter().map(|language| language.name());
    let DeValue::String(name) = value.get_ref() else {
        let names: Vec<&str> = names().collect();
        return Err((
            value.span(),
            format!(
                "`language` must be one of {}, not `{}`",
                quoted_strings(&names),
                text.get(value.span()).unwrap_or_default()
            ),
        ));
    };
    Language::from_name(name).ok_or_else(|| {
        let mut message = format!("unknown expression language `{name}`");
        match did_you_mean(name, names()).first() {
            Some(close) => message.push_str(&format!(": did you mean `\"{close}\"`?")),
            None => {
                let names: Vec<&str> = names().collect();
                message.push_str(&format!(": expected {}", quoted_strings(&names)));
            }
        }
        (value.span(), message)
    })
}

/// `` `"a"` or `"b"` ``: names as TOML strings.
fn quoted_strings(names: &[&str]) -> String {
    let strings: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    let strings: Vec<&str> = strings.iter().map(String::as_str).collect();
    quoted(&strings)
}

/// The globs of `include` or `exclude`: an array of strings.
fn string_array(
    index: &LineIndex,
    key: &str,
    value: &Spanned<DeValue<'_>>,
) -> Result<Vec<Glob>, (std::ops::Range<usize>, String)> {
    let not_strings = |range| {
        (
            range,
            format!("`{key}` must be an array of glob strings, such as `[\"dashboards/**\"]`"),
        )
    };
    let DeValue::Array(items) = value.get_ref() else {
        return Err(not_strings(value.span()));
    };
    items
        .iter()
        .map(|item| match item.get_ref() {
            DeValue::String(pattern) => {
                let at = index.line_col(item.span().start);
                Ok(Glob {
                    pattern: pattern.to_string(),
                    line: at.line,
                    column: at.column,
                    span: Span::from(item.span()),
                })
            }
            _ => Err(not_strings(item.span())),
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
        let errors = Settings::parse(text).expect_err("rejected");
        assert_eq!(errors.len(), 1, "{errors:?}");
        errors[0].to_string()
    }

    #[test]
    fn every_mistake_is_reported_in_one_parse() {
        let errors = Settings::parse(
            "[rules]\nunknown-feild = \"off\"\nunknown-field = \"warn\"\n\n[files]\nexclud = []\n[rulez]\n",
        )
        .expect_err("rejected");
        let found: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            found,
            [
                "2:1: unknown rule `unknown-feild`: did you mean `unknown-field`?",
                "3:17: `unknown-field` must be one of `error`, `warning` or `off`, not `\"warn\"`",
                "6:1: unknown key in `[files]` `exclud`: did you mean `exclude`?",
                "7:2: unknown table `rulez`: did you mean `rules`?",
            ]
        );
        assert_eq!(errors[1].span, Span::new(46, 52));
        assert_eq!(errors[1].diagnostic().rule, Rule::InvalidSettings);
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
    fn the_expression_language_is_read_with_its_line() {
        assert_eq!(Settings::default().language, Language::Cel);
        let settings =
            Settings::parse("[rules]\n\n[expressions]\nlanguage = \"expr\"\n").expect("valid");
        assert_eq!(settings.language, Language::Expr);
        assert_eq!(settings.language_line, Some(4));
        let settings = Settings::parse("[expressions]\nlanguage = \"cel\"\n").expect("valid");
        assert_eq!(settings.language, Language::Cel);
    }

    #[test]
    fn an_unknown_expression_language_gets_a_did_you_mean() {
        assert_eq!(
            error("[expressions]\nlanguage = \"exp\"\n"),
            "2:12: unknown expression language `exp`: did you mean `\"expr\"`?"
        );
        assert_eq!(
            error("[expressions]\nlanguage = \"javascript\"\n"),
            "2:12: unknown expression language `javascript`: expected `\"cel\"` or `\"expr\"`"
        );
        assert_eq!(
            error("[expressions]\nlanguage = 1\n"),
            "2:12: `language` must be one of `\"cel\"` or `\"expr\"`, not `1`"
        );
        assert_eq!(
            error("[expressions]\nlangauge = \"expr\"\n"),
            "2:1: unknown key in `[expressions]` `langauge`: did you mean `language`?"
        );
        assert_eq!(
            error("expressions = \"expr\"\n"),
            "1:15: `expressions` must be a table: write `[expressions]`"
        );
    }

    #[test]
    fn a_toml_syntax_error_points_at_its_line() {
        assert!(error("[rules\n").starts_with("1:"));
    }
}
