//! The properties every input must keep, checked through the code the front ends run: the CLI's
//! `lint_bytes` (which the language server shares), its JSON renderer, `fix_all`, and the editor's
//! incremental reparse (`sources_syntax::Tree` from the seed's text to the input and back).

use sources_cli::lint::{Linted, lint_bytes};
use sources_cli::report::FileReport;
use sources_diagnostics::{Diagnostic, Rule, Severity, Span};
use sources_syntax::Syntax;

use crate::mutate::Input;

/// A broken property, with what shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Which property (`span`, `json`, `fix`, `incremental`, `lsp`, `panic`, `hang`).
    pub property: &'static str,
    /// What was found.
    pub detail: String,
}

impl Failure {
    fn new(property: &'static str, detail: impl Into<String>) -> Failure {
        Failure {
            property,
            detail: detail.into(),
        }
    }
}

/// The name an input is linted under, which picks its syntax.
pub fn file_name(syntax: Syntax) -> &'static str {
    match syntax {
        Syntax::Yaml => "fuzz.yaml",
        Syntax::Toml => "fuzz.toml",
    }
}

/// Lints `input` as the CLI does for a named file; the report (always present for a named file).
pub fn lint(input: &Input) -> Result<FileReport, Failure> {
    match lint_bytes(file_name(input.syntax), &input.bytes, input.syntax, true) {
        Linted::Report(report) => Ok(report),
        other => Err(Failure::new(
            "lint",
            format!("a named file must be reported, got {other:?}"),
        )),
    }
}

/// Checks spans, JSON output and `--fix` for one input; returns its report for further checks.
pub fn check(input: &Input) -> Result<FileReport, Failure> {
    let report = lint(input)?;
    check_spans(&report)?;
    check_json(&report)?;
    if let Ok(text) = std::str::from_utf8(&input.bytes) {
        if !text.contains('\0') {
            check_fix(text, input.syntax, &report.diagnostics)?;
        }
        check_incremental(&input.before, text, input.syntax)?;
    }
    Ok(report)
}

/// The editor's reparse of an edit is the whole parse: a tree built from `before` and updated to
/// `after` (then back) equals `parse` of the new text, spans and errors included, and when only an
/// entry was reparsed, `analyze_parsed` on it gives `analyze`'s diagnostics.
pub fn check_incremental(before: &str, after: &str, syntax: Syntax) -> Result<(), Failure> {
    let mut tree = sources_syntax::Tree::new(before, syntax);
    for (old, new) in [(before, after), (after, before)] {
        let how = tree.update(old, new);
        let whole = sources_syntax::parse(new, syntax);
        let (got, want) = (format!("{:?}", tree.parse()), format!("{whole:?}"));
        if got != want {
            return Err(Failure::new(
                "incremental",
                format!("{how:?} reparse of\n{new}\ngives\n{got}\nnot\n{want}"),
            ));
        }
        if matches!(how, sources_syntax::Reparse::Spliced { .. }) {
            let got = sources_check::analyze_parsed(new, syntax, tree.parse().clone()).diagnostics;
            if got != sources_check::analyze(new, syntax).diagnostics {
                return Err(Failure::new(
                    "incremental",
                    format!("the reparsed tree of\n{new}\ngives other diagnostics: {got:?}"),
                ));
            }
        }
    }
    Ok(())
}

/// Every span of every diagnostic, label and fix edit is inside the text and on char boundaries.
pub fn check_spans(report: &FileReport) -> Result<(), Failure> {
    let text = report.text();
    for diagnostic in &report.diagnostics {
        let mut spans = vec![("primary", diagnostic.span)];
        spans.extend(diagnostic.labels.iter().map(|label| ("label", label.span)));
        for fix in &diagnostic.fixes {
            spans.extend(fix.edits.iter().map(|edit| ("fix edit", edit.span)));
        }
        for (what, span) in spans {
            if !span_ok(text, span) {
                return Err(Failure::new(
                    "span",
                    format!(
                        "{what} span {}..{} of `{}` ({}) is outside the {}-byte text or not on a character boundary",
                        span.start(),
                        span.end(),
                        diagnostic.rule.code(),
                        diagnostic.message,
                        text.len()
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn span_ok(text: &str, span: Span) -> bool {
    span.start() <= span.end()
        && span.end() <= text.len()
        && text.is_char_boundary(span.start())
        && text.is_char_boundary(span.end())
}

/// The JSON output parses and carries every diagnostic with its code.
pub fn check_json(report: &FileReport) -> Result<(), Failure> {
    let mut out = Vec::new();
    sources_cli::render::json::render(std::slice::from_ref(report), &mut out)
        .map_err(|error| Failure::new("json", format!("rendering failed: {error}")))?;
    let value: serde_json::Value = serde_json::from_slice(&out)
        .map_err(|error| Failure::new("json", format!("the output does not parse: {error}")))?;
    let codes: Vec<&str> = value["diagnostics"]
        .as_array()
        .map(|all| all.iter().filter_map(|d| d["code"].as_str()).collect())
        .unwrap_or_default();
    let expected: Vec<&str> = report.diagnostics.iter().map(|d| d.rule.code()).collect();
    if codes != expected {
        return Err(Failure::new(
            "json",
            format!("the output carries codes {codes:?}, the report {expected:?}"),
        ));
    }
    Ok(())
}

fn errors(diagnostics: &[Diagnostic]) -> usize {
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}

fn has_syntax_error(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.rule == Rule::Syntax)
}

/// `fix_all` never raises the error count, never breaks a file that parsed, leaves a file with
/// syntax errors untouched, and settles: a second run changes nothing.
pub fn check_fix(text: &str, syntax: Syntax, before: &[Diagnostic]) -> Result<(), Failure> {
    let fixed = sources_check::fix_all(text, syntax);
    if fixed.text == text {
        return Ok(());
    }
    if has_syntax_error(before) {
        return Err(Failure::new(
            "fix",
            "a file with syntax errors was edited by --fix",
        ));
    }
    let after = sources_check::analyze(&fixed.text, syntax).diagnostics;
    if let Some(syntax_error) = after.iter().find(|d| d.rule == Rule::Syntax) {
        return Err(Failure::new(
            "fix",
            format!(
                "--fix made a file that parsed unparsable: {}\n--- fixed text:\n{}",
                syntax_error.message, fixed.text
            ),
        ));
    }
    if errors(&after) > errors(before) {
        return Err(Failure::new(
            "fix",
            format!(
                "--fix raised the error count from {} to {}\n--- fixed text:\n{}",
                errors(before),
                errors(&after),
                fixed.text
            ),
        ));
    }
    let again = sources_check::fix_all(&fixed.text, syntax);
    if again.text != fixed.text {
        return Err(Failure::new(
            "fix",
            format!(
                "a second --fix changed the text again ({} more fixes)",
                again.applied.len()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use sources_diagnostics::{Diagnostic, Rule, Span};
    use sources_syntax::{LineIndex, Syntax};

    use super::*;

    /// A report of `text` with one `invalid-value` diagnostic at `span`.
    fn report(text: &str, span: Span) -> FileReport {
        FileReport {
            path: "fuzz.yaml".to_owned(),
            line_index: LineIndex::new(text),
            diagnostics: vec![Diagnostic::new(Rule::InvalidValue, span, "bad")],
            has_sources: true,
        }
    }

    #[test]
    fn a_span_inside_a_character_or_past_the_text_breaks_the_span_property() {
        let text = "a: é\n";
        assert_eq!(check_spans(&report(text, Span::new(3, 5))), Ok(()));
        for span in [Span::new(3, 4), Span::new(4, 9)] {
            let failure = check_spans(&report(text, span)).expect_err("a broken span");
            assert_eq!(failure.property, "span");
            assert_eq!(
                failure.detail,
                format!(
                    "primary span {}..{} of `invalid-value` (bad) is outside the 6-byte text or \
                     not on a character boundary",
                    span.start(),
                    span.end()
                )
            );
        }
    }

    #[test]
    fn the_json_output_carries_every_code() {
        assert_eq!(check_json(&report("a: 1\n", Span::new(0, 1))), Ok(()));
    }

    #[test]
    fn a_fix_on_a_file_with_a_syntax_error_breaks_the_fix_property() {
        let broken = "data:\n  sources:\n    apps:\n      type: http\n      urll: x\n  [\n";
        let syntax_error = [Diagnostic::new(Rule::Syntax, Span::new(0, 1), "broken")];
        let fixable =
            "data:\n  sources:\n    apps:\n      type: http\n      urll: https://e.invalid\n";
        // The real diagnostics of a fixable file: --fix applies, and the property holds.
        let diagnostics = sources_check::analyze(fixable, Syntax::Yaml).diagnostics;
        assert_ne!(sources_check::fix_all(fixable, Syntax::Yaml).text, fixable);
        assert_eq!(check_fix(fixable, Syntax::Yaml, &diagnostics), Ok(()));
        // Told the same text had a syntax error, an edit by --fix is a failure.
        let failure =
            check_fix(fixable, Syntax::Yaml, &syntax_error).expect_err("edited despite an error");
        assert_eq!(
            failure,
            Failure::new("fix", "a file with syntax errors was edited by --fix")
        );
        // A file that really has one is left alone.
        assert_eq!(sources_check::fix_all(broken, Syntax::Yaml).text, broken);
    }
}
