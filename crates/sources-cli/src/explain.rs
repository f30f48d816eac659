//! `sources explain CODE`: prints a rule's declaration — code, severity, summary, explanation —
//! as Markdown, laid out for the terminal when standard output is one (`markdown`).

use std::io::{self, Write};

use sources_diagnostics::{Rule, did_you_mean};

use crate::Outcome;
use crate::markdown::{self, Look};
use crate::terminal::{self, Stream};

/// Arguments of `sources explain`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule code, as printed in brackets by `sources lint` (`unknown-field`), an entry kind
    /// (`http`), or a field path (`http.paginate.next_path`).
    #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::rule_codes))]
    pub code: String,
    /// Never colour the text (as `--color never`). Without either, on a terminal the Markdown is laid out (wrapped to the
    /// width, tables drawn, code highlighted) and coloured unless `NO_COLOR` is set; piped, it is
    /// printed as it is written, unless `FORCE_COLOR` or `CLICOLOR_FORCE` is set (not `0`).
    #[arg(long)]
    pub no_color: bool,
}

/// Why `sources explain` could not print an explanation (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No rule has this code.
    #[error("{}", unknown_rule_message(.code, .suggestions))]
    UnknownRule {
        /// The code asked for.
        code: String,
        /// Close codes, best first (the message names the best).
        suggestions: Vec<&'static str>,
    },
    /// A field path (`http.paginate.next_path`) that names no field.
    #[error("{0}")]
    UnknownField(String),
    /// The explanation could not be written.
    #[error("cannot write the explanation")]
    Write(#[from] io::Error),
}

fn unknown_rule_message(code: &str, suggestions: &[&str]) -> String {
    let hint = match suggestions.first() {
        Some(best) => format!("; did you mean `{best}`?"),
        None => String::new(),
    };
    format!("no rule has the code `{code}`{hint} (`sources rules` lists every rule)")
}

/// The rule with `code` (in any case), or an error with did-you-mean suggestions.
pub fn find_rule(code: &str) -> Result<Rule, Error> {
    let code = code.trim();
    Rule::from_code(&code.to_ascii_lowercase()).ok_or_else(|| Error::UnknownRule {
        code: code.to_owned(),
        suggestions: did_you_mean(code, Rule::ALL.iter().map(|rule| rule.code())),
    })
}

/// A rule's explanation as plain Markdown (see [`Rule::explanation_markdown`]).
pub fn explanation(rule: Rule) -> String {
    rule.explanation_markdown()
}

/// The Markdown `sources explain` prints for `code`: a rule by code, else an entry kind or field
/// path (`http.paginate`).
pub fn text(code: &str) -> Result<String, Error> {
    let rule = match find_rule(code) {
        Ok(rule) => rule,
        Err(error) => match crate::explain_field::explain(code) {
            Some(text) => return Ok(text),
            None if code.contains('.') => {
                return Err(Error::UnknownField(crate::explain_field::unknown_message(
                    code,
                )));
            }
            // Neither a rule nor a kind: a misspelled kind is suggested when no code is close.
            None => {
                return match &error {
                    Error::UnknownRule { suggestions, .. }
                        if suggestions.is_empty() && !kind_hint_is_list(code) =>
                    {
                        Err(Error::UnknownField(format!(
                            "no rule has the code `{}` and no entry kind is named so{}",
                            code.trim(),
                            crate::explain_field::kind_hint(code.trim())
                        )))
                    }
                    _ => Err(error),
                };
            }
        },
    };
    Ok(format!(
        "{} ({})\n\n{}\n\n{}\n",
        rule.code(),
        rule.default_severity().as_str(),
        rule.summary(),
        explanation(rule)
    ))
}

/// Whether no entry kind is close to `code` (the kind hint would list them all).
fn kind_hint_is_list(code: &str) -> bool {
    crate::explain_field::kind_hint(code.trim()).starts_with(" (")
}

/// How a terminal shows the text: laid out when standard output is a terminal or colour is forced,
/// coloured as [`crate::terminal`] decides; `None` to print the Markdown as it is.
pub fn look(no_color: bool) -> Option<Look> {
    let to_terminal = Stream::Stdout.is_terminal();
    let color = !no_color && terminal::color(to_terminal);
    let width = Stream::Stdout
        .width()
        .filter(|&columns| columns >= 20)
        .unwrap_or(100);
    (to_terminal || color).then_some(Look { width, color })
}

/// Runs `sources explain`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<Outcome, Error> {
    let text = text(&args.code)?;
    match look(args.no_color) {
        Some(look) => write!(out, "{}", markdown::render(&text, look))?,
        None => write!(out, "{text}")?,
    }
    Ok(Outcome::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_the_declaration() {
        let mut out = Vec::new();
        write!(out, "{}", text("unknown-field").expect("known rule")).expect("write");
        let text = String::from_utf8(out).expect("utf-8");
        assert!(
            text.starts_with(
                "unknown-field (error)\n\nA field this kind of entry does not have.\n\n"
            )
        );
        assert!(text.ends_with(&format!("{}\n", explanation(Rule::UnknownField))));
        assert!(
            text.contains("\n```yaml lint=unknown-field\ndata:\n  sources:\n"),
            "{text}"
        );
    }

    #[test]
    fn a_misspelled_kind_is_suggested_when_no_code_is_close() {
        let Err(Error::UnknownField(message)) = text("htp") else {
            panic!("`htp` is neither a rule nor a kind");
        };
        assert_eq!(
            message,
            "no rule has the code `htp` and no entry kind is named so; did you mean `http`?"
        );
        assert!(matches!(text("qqqq"), Err(Error::UnknownRule { .. })));
    }

    #[test]
    fn an_unknown_code_suggests_close_ones() {
        let error = find_rule("unknown-feild").expect_err("unknown");
        assert_eq!(
            error.to_string(),
            "no rule has the code `unknown-feild`; did you mean `unknown-field`? (`sources rules` lists every rule)"
        );
        let error = find_rule("zzz").expect_err("unknown");
        assert_eq!(
            error.to_string(),
            "no rule has the code `zzz` (`sources rules` lists every rule)"
        );
    }
}
