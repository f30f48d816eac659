//! The properties every input must keep, checked through the code the front ends run: the CLI's
//! `lint_bytes` (which the language server shares), its JSON renderer, `fix_all`, the editor's
//! incremental reparse (`sources_syntax::Tree` from the seed's text to the input and back), and
//! the fast YAML reader against saphyr's path.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use sources_check::shape::{Field, Shape};
use sources_check::shapes::{Sample, ShapeInputs, fingerprint};
use sources_check::{Analysis, Bounded, Memo};
use sources_cli::lint::{Linted, lint_bytes};
use sources_cli::report::FileReport;
use sources_diagnostics::{Diagnostic, Rule, Severity, Span, retain_or_stand_in};
use sources_syntax::Syntax;

use crate::mutate::Input;

/// A broken property, with what shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Which property (`span`, `json`, `fix`, `incremental`, `edited`, `reader`, `lsp`, `panic`,
    /// `hang`).
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
        if input.syntax == Syntax::Yaml {
            check_reader(text)?;
        }
    }
    Ok(report)
}

/// The fast YAML reader either leaves `text` to saphyr's path or reads it into the very tree that
/// path gives (values, spans, styles).
pub fn check_reader(text: &str) -> Result<(), Failure> {
    sources_syntax::compare_yaml_readers(text)
        .map(|_| ())
        .map_err(|difference| Failure::new("reader", format!("on\n{text}\n{difference}")))
}

/// The editor's reparse of an edit is the whole parse: a tree built from `before` and updated to
/// `after` (then back) equals `parse` of the new text, spans and errors included, and when only an
/// entry was reparsed, `analyze_parsed` on it gives `analyze`'s diagnostics. The editor's
/// reusing analysis gives the fresh one's results at each version ([`check_edited`]).
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
    check_edited(before, after, syntax)
}

/// The limit of the bounded reusing analysis: small, so that the bound cuts.
const EDITED_LIMIT: usize = 3;

/// The editor's analysis of `before`, then `after`, then `before` again, each from the tree
/// updated to it and the memo the previous version left (`analyze_edited`), unbounded and
/// bounded, gives what a fresh `analyze_with` of the same text gives: the diagnostics in the same
/// order (for the bounded one, the first few the editor keeps, and how many it left out), the
/// model with its spans, the shapes and the line index. Every other entry of `before` has a
/// recorded sample, so an edit that changes an entry makes its sample stale and changes its
/// shape and its readers'.
pub fn check_edited(before: &str, after: &str, syntax: Syntax) -> Result<(), Failure> {
    let seeded = seeded(before, syntax);
    let (inputs, fresh_before) = (&seeded.0, &seeded.1);
    let fresh_after;
    let fresh_after = if after == before {
        fresh_before
    } else {
        fresh_after = sources_check::analyze_with(after, syntax, inputs);
        &fresh_after
    };
    let mut tree = sources_syntax::Tree::new(before, syntax);
    let (mut memo, mut bounded_memo) = (Memo::default(), Memo::default());
    let versions = [
        (before, fresh_before),
        (after, fresh_after),
        (before, fresh_before),
    ];
    let mut previous: Option<&str> = None;
    for (step, (text, want)) in versions.into_iter().enumerate() {
        if let Some(old) = previous {
            tree.update(old, text);
        }
        previous = Some(text);
        let shared = Arc::new(text.to_owned());
        let got = sources_check::analyze_edited(&shared, &tree, &mut memo, None, inputs);
        let differs = |what: &str, got: &dyn std::fmt::Debug, want: &dyn std::fmt::Debug| {
            Failure::new(
                "edited",
                format!(
                    "version {step} (before, after, before) of the edit from\n{before}\nto\n{after}\n\
                     the reusing analysis gives other {what}:\n{got:#?}\nnot\n{want:#?}"
                ),
            )
        };
        if got.diagnostics != want.diagnostics {
            return Err(differs("diagnostics", &got.diagnostics, &want.diagnostics));
        }
        if !same(&got.config, &want.config) {
            return Err(differs("model", &got.config, &want.config));
        }
        if !same(&got.shapes, &want.shapes) {
            return Err(differs("shapes", &got.shapes, &want.shapes));
        }
        if got.line_index != want.line_index {
            return Err(differs("line index", &got.line_index, &want.line_index));
        }
        let got = sources_check::analyze_edited(
            &shared,
            &tree,
            &mut bounded_memo,
            Some(editor_bound()),
            inputs,
        );
        // The editor's filter hides unknown-field; a hidden one gives way to its stand-in.
        let mut shown = want.diagnostics.clone();
        retain_or_stand_in(&mut shown, |d| d.rule != Rule::UnknownField);
        let shown: Vec<&Diagnostic> = shown.iter().collect();
        let kept = EDITED_LIMIT.min(shown.len());
        let left_out = &shown[kept..];
        let errors_left_out = left_out
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        let got_bounded = (
            got.diagnostics.iter().collect::<Vec<_>>(),
            got.omitted,
            got.omitted_errors,
        );
        let want_bounded = (shown[..kept].to_vec(), left_out.len(), errors_left_out);
        if got_bounded != want_bounded {
            return Err(differs(
                "bounded diagnostics (kept, omitted, omitted errors)",
                &got_bounded,
                &want_bounded,
            ));
        }
    }
    Ok(())
}

/// Whether two models (or shapes) are the same: equal, or written the same (a number value that
/// is not a number, NaN, is unequal to itself).
fn same<T: PartialEq + std::fmt::Debug>(got: &T, want: &T) -> bool {
    got == want || format!("{got:?}") == format!("{want:?}")
}

/// The editor's kind of bound: the first few diagnostics, without one rule.
fn editor_bound() -> Bounded {
    Bounded {
        limit: EDITED_LIMIT,
        keep: Box::new(|diagnostic| diagnostic.rule != Rule::UnknownField),
    }
}

/// How many seeds' samples and fresh analyses a worker thread keeps.
const SEEDED_KEPT: usize = 1024;

/// A seed text's samples and its fresh analysis with them.
type Seeded = Rc<(ShapeInputs, Analysis)>;

thread_local! {
    /// The samples and the fresh analysis of each seed text this thread checked an edit of (most
    /// inputs are edits of one of a few hundred seeds), forgotten once there are too many.
    static SEEDED: RefCell<HashMap<(String, Syntax), Seeded>> =
        RefCell::new(HashMap::new());
}

/// The samples of `before` ([`samples`]) and its fresh analysis with them.
fn seeded(before: &str, syntax: Syntax) -> Seeded {
    SEEDED.with_borrow_mut(|seeded| {
        let key = (before.to_owned(), syntax);
        if let Some(found) = seeded.get(&key) {
            return Rc::clone(found);
        }
        if seeded.len() >= SEEDED_KEPT {
            seeded.clear();
        }
        let inputs = samples(before, syntax);
        let fresh = sources_check::analyze_with(before, syntax, &inputs);
        Rc::clone(seeded.entry(key).or_insert(Rc::new((inputs, fresh))))
    })
}

/// The rows recorded samples hold, in turn: names the seeds' expressions and columns read (so
/// that some reads are known, some unknown), of several shapes.
const SAMPLE_ROWS: &[&[(&str, Shape)]] = &[
    &[("id", Shape::Number), ("name", Shape::String)],
    &[("name", Shape::String), ("restarts", Shape::Number)],
    &[
        ("user", Shape::String),
        ("repo", Shape::String),
        ("size", Shape::Number),
    ],
];

/// A recorded sample, as the front end hands it in, for every other entry of `text` (an array of
/// rows, the next of [`SAMPLE_ROWS`] each time), fingerprinted as that entry is written there.
fn samples(text: &str, syntax: Syntax) -> ShapeInputs {
    let config = sources_check::analyze(text, syntax).config;
    let mut inputs = ShapeInputs::default();
    for (source, fields) in config
        .entries
        .iter()
        .step_by(2)
        .zip(SAMPLE_ROWS.iter().cycle())
    {
        let row = fields
            .iter()
            .map(|(key, shape)| ((*key).to_owned(), Field::required(shape.clone())));
        inputs.samples.insert(
            source.name.value.to_string(),
            Sample {
                shape: Shape::Array(Box::new(Shape::Object(row.collect()))),
                recorded: "2026-11-26T12:00:00Z".to_owned(),
                fingerprint: fingerprint(text, source),
            },
        );
    }
    inputs
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
    fn the_reusing_analysis_of_an_edit_that_renames_a_read_entry_gives_the_fresh_one() {
        let before = "data:\n  sources:\n    apps: {type: static, data: [{id: 1}]}\n    \
                      busy: {type: filter, from: apps, where: id > 0}\n    \
                      sorted: {type: sort, from: busy, by: id}\n";
        let after = before.replace("apps: {", "apss: {");
        assert!(
            sources_check::analyze(&after, Syntax::Yaml)
                .diagnostics
                .iter()
                .any(|d| d.rule == Rule::UnknownSource)
        );
        assert_eq!(check_edited(before, &after, Syntax::Yaml), Ok(()));
        assert_eq!(check_edited(&after, before, Syntax::Yaml), Ok(()));
    }

    #[test]
    fn a_model_holding_nan_is_the_same_as_itself() {
        let before = "[data.sources.a]\ntype = \"static\"\ndata = [{x = nan}]\n";
        let after = format!("{before}[data.sources.b]\ntype = \"sort\"\nfrom = \"a\"\n");
        let config = sources_check::analyze(before, Syntax::Toml).config;
        assert_ne!(config, config.clone(), "NaN is unequal to itself");
        assert_eq!(check_edited(before, &after, Syntax::Toml), Ok(()));
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
