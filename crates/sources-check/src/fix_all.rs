//! `fix_all`: applies every safe fix to a document, re-analysing after each round until nothing
//! more can be fixed, so that fixes skipped for overlapping an earlier one get their turn.
//!
//! `--fix` never makes things worse: a document with syntax errors is not edited, and every fix is
//! re-checked: it must remove its diagnostic and add none that has no safe fix of its own (nor make
//! the document unparsable). When a round's fixes together do not, they are tried one by one and
//! each that does not is left out and reported as unsafe.

use sources_diagnostics::{Applicability, Diagnostic, Rule, Severity, apply_safe_fixes};
use sources_syntax::{LineCol, LineIndex, Span, Syntax};

use crate::analyze;

/// At most this many analyse-and-fix rounds: each round applies at least one fix, and fixes do not
/// reintroduce what they repaired, so real documents settle in two or three.
const MAX_ROUNDS: usize = 16;

/// One fix that `fix_all` applied (or left out as unsafe).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedFix {
    /// The rule of the diagnostic it repaired.
    pub rule: Rule,
    /// What it did ("Rename `urll` to `url`").
    pub title: String,
    /// Where the diagnostic was, in the text of the round that applied it.
    pub position: LineCol,
}

/// The result of [`fix_all`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixed {
    /// The document with every safe fix applied.
    pub text: String,
    /// The fixes applied, in order.
    pub applied: Vec<AppliedFix>,
    /// Safe fixes left out because they would not settle their finding (they would make the
    /// document unparsable, or add a finding that has no safe fix); positions are in the
    /// returned text.
    pub unsafe_fixes: Vec<AppliedFix>,
    /// Whether the document was left as it is because it has syntax errors.
    pub syntax_errors: bool,
}

/// Whether `after`, the diagnostics of the text with some fixes applied, settles what they
/// repaired without making anything else worse: it parses, has no more diagnostics nor errors
/// than `before`, a diagnostic of `before` is gone (by rule, severity and message), and each
/// diagnostic it has that `before` lacks carries a safe fix of its own, which the next round
/// applies and checks in turn (a corrected `filtr` reveals its misspelled `from`).
fn settles(before: &[Diagnostic], after: &[Diagnostic]) -> bool {
    let errors = |diagnostics: &[Diagnostic]| {
        diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    };
    if after.iter().any(|d| d.rule == Rule::Syntax)
        || after.len() > before.len()
        || errors(after) > errors(before)
    {
        return false;
    }
    let mut unmatched: Vec<&Diagnostic> = before.iter().collect();
    let each_new_one_fixable = after.iter().all(|diagnostic| {
        let same = unmatched.iter().position(|earlier| {
            earlier.rule == diagnostic.rule
                && earlier.severity == diagnostic.severity
                && earlier.message == diagnostic.message
        });
        match same {
            Some(at) => {
                unmatched.swap_remove(at);
                true
            }
            None => diagnostic
                .fixes
                .iter()
                .any(|fix| fix.applicability == Applicability::Safe),
        }
    });
    each_new_one_fixable && !unmatched.is_empty()
}

/// Applies every safe fix of `text` (as `sources lint --fix` does), keeping every other byte:
/// comments, formatting and the order of fields stay as written. A document with syntax errors is
/// returned unchanged, and no fix that would break the document or add an error is applied.
pub fn fix_all(text: &str, syntax: Syntax) -> Fixed {
    let mut fixed = Fixed {
        text: text.to_owned(),
        applied: Vec::new(),
        unsafe_fixes: Vec::new(),
        syntax_errors: false,
    };
    let mut diagnostics = analyze(text, syntax).diagnostics;
    if diagnostics.iter().any(|d| d.rule == Rule::Syntax) {
        fixed.syntax_errors = true;
        return fixed;
    }
    for _ in 0..MAX_ROUNDS {
        let index = LineIndex::new(&fixed.text);
        let record = |rule: Rule, title: String, span: Span| AppliedFix {
            rule,
            title,
            position: index.line_col(span.start()),
        };
        let outcome = apply_safe_fixes(&fixed.text, &diagnostics);
        if !outcome.changed() {
            break;
        }
        let after = analyze(&outcome.text, syntax).diagnostics;
        let mut round = Vec::new();
        let mut unsafe_fixes = Vec::new();
        let (text, after) = if settles(&diagnostics, &after) {
            round.extend(outcome.applied);
            (outcome.text, after)
        } else {
            // Together they do not settle: add them one at a time, each checked against the
            // text with the ones accepted before it.
            let mut accepted: Vec<&Diagnostic> = Vec::new();
            let mut best: Option<(String, Vec<Diagnostic>)> = None;
            for diagnostic in &diagnostics {
                let trial =
                    apply_safe_fixes(&fixed.text, accepted.iter().copied().chain([diagnostic]));
                // Each accepted diagnostic applied one fix: one more means this one applied too.
                if trial.applied.len() <= round.len() {
                    continue;
                }
                let Some(fix) = trial.applied.last().cloned() else {
                    continue;
                };
                let checked = analyze(&trial.text, syntax).diagnostics;
                let current = best.as_ref().map_or(&diagnostics, |(_, checked)| checked);
                if settles(current, &checked) {
                    accepted.push(diagnostic);
                    round.push(fix);
                    best = Some((trial.text, checked));
                } else {
                    unsafe_fixes.push(fix);
                }
            }
            match best {
                Some(best) => best,
                None => {
                    fixed.unsafe_fixes = unsafe_fixes
                        .into_iter()
                        .map(|fix| record(fix.rule, fix.title, fix.span))
                        .collect();
                    break;
                }
            }
        };
        fixed.applied.extend(
            round
                .into_iter()
                .map(|fix| record(fix.rule, fix.title, fix.span)),
        );
        fixed.text = text;
        diagnostics = after;
    }
    fixed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixes_every_misspelling_and_keeps_comments() {
        let text = "\
data:
  sources:
    # the list
    apps:
      type: htp
      urll: http://127.0.0.1:8099/apps?region=${params.regoin}  # keep me
      parameters:
        region: {default: eu-west}
";
        let fixed = fix_all(text, Syntax::Yaml);
        assert_eq!(
            fixed.text,
            text.replace("htp", "http")
                .replace("urll", "url")
                .replace("regoin", "region")
        );
        assert!(fixed.applied.len() >= 3, "{:?}", fixed.applied);
        assert!(analyze(&fixed.text, Syntax::Yaml).diagnostics.is_empty());
    }

    #[test]
    fn two_misspellings_of_one_field_never_write_it_twice() {
        let text = "data:\n  sources:\n    a:\n      type: http\n      urll: https://x/a\n      ulr: https://x/b\n";
        let fixed = fix_all(text, Syntax::Yaml);
        assert_eq!(fixed.text, text.replacen("urll", "url", 1));
        assert_eq!(fixed.applied.len(), 1, "{:?}", fixed.applied);
        let after = analyze(&fixed.text, Syntax::Yaml).diagnostics;
        assert!(after.iter().all(|d| d.rule != Rule::Syntax), "{after:?}");
        assert_eq!(fix_all(&fixed.text, Syntax::Yaml).text, fixed.text);
    }

    #[test]
    fn a_document_with_syntax_errors_is_not_edited() {
        let text = "data:\n  sources:\n    a:\n      type: htp\n      urll: x\n    b: [\n";
        let fixed = fix_all(text, Syntax::Yaml);
        assert_eq!(fixed.text, text);
        assert!(fixed.syntax_errors);
        assert!(fixed.applied.is_empty());
    }

    #[test]
    fn a_fix_that_would_add_errors_is_left_out_as_unsafe() {
        // Correcting the kind makes the window checked, which finds three errors in it.
        let text = "data:\n  sources:\n    logs:\n      type: htpp\n      url: https://x/logs\n      window:\n        page_size: 10\n    b:\n      type: static\n      dta: [1]\n";
        let fixed = fix_all(text, Syntax::Yaml);
        assert_eq!(fixed.text, text.replace("dta", "data"));
        assert_eq!(fixed.applied.len(), 1, "{:?}", fixed.applied);
        assert_eq!(
            fixed.unsafe_fixes,
            [AppliedFix {
                rule: Rule::UnknownKind,
                title: "Replace `htpp` with `http`".into(),
                position: LineCol {
                    line: 4,
                    column: 13
                },
            }]
        );
        assert_eq!(fix_all(&fixed.text, Syntax::Yaml).text, fixed.text);
    }

    #[test]
    fn a_fix_that_reveals_a_fixable_finding_is_applied_and_so_is_that_one() {
        // Correcting the kind makes `from` checked, whose misspelling has a safe fix of its own.
        let text = "data:\n  sources:\n    base:\n      type: static\n      data: [3]\n    f:\n      type: filtr\n      from: bsae\n      where: \"true\"\n";
        let fixed = fix_all(text, Syntax::Yaml);
        assert_eq!(
            fixed.text,
            text.replace("filtr", "filter").replace("bsae", "base")
        );
        assert!(fixed.unsafe_fixes.is_empty(), "{:?}", fixed.unsafe_fixes);
        assert!(analyze(&fixed.text, Syntax::Yaml).diagnostics.is_empty());
    }

    #[test]
    fn a_fix_that_reveals_more_findings_than_it_removes_is_left_out() {
        // `data` corrected, the anchor's `timout` is found in both entries that merge it, and its
        // rename would give both an invalid duration.
        let text = "x-defaults: &defaults\n  type: http\n  timout: |\n      5.0\ndaata:\n  sources:\n    apps:\n      <<: *defaults\n      url: https://x/apps\n    pods:\n      <<: *defaults\n      url: https://x/pods\n";
        let fixed = fix_all(text, Syntax::Yaml);
        assert_eq!(fixed.text, text);
        assert_eq!(fixed.unsafe_fixes.len(), 1, "{:?}", fixed.unsafe_fixes);
    }

    #[test]
    fn a_clean_document_is_left_alone() {
        let text = "data:\n  sources:\n    a: {type: static, data: [1]}\n";
        let fixed = fix_all(text, Syntax::Yaml);
        assert_eq!(fixed.text, text);
        assert!(fixed.applied.is_empty());
    }
}
