//! Applying safe fixes to the original text, and showing the result as a unified diff.
//!
//! [`apply_safe_fixes`] is pure: it takes the text and the diagnostics found in it and returns the
//! repaired text with a record of what it changed. Fixes never overlap in the result: when two
//! fixes touch the same bytes, the first one (in the order given) wins and the other is left for
//! the next run.

use crate::{Applicability, Diagnostic, Edit, Rule, Span};

/// One fix that was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedFix {
    /// The rule of the diagnostic it repaired.
    pub rule: Rule,
    /// The fix's title ("Rename `urll` to `url`").
    pub title: String,
    /// Where the diagnostic pointed, in the original text.
    pub span: Span,
}

/// The result of [`apply_safe_fixes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixOutcome {
    /// The text with every applied fix.
    pub text: String,
    /// The fixes applied, in the order of the diagnostics.
    pub applied: Vec<AppliedFix>,
    /// Safe fixes left out because they overlapped an earlier one or did not fit the text.
    pub skipped: Vec<AppliedFix>,
}

impl FixOutcome {
    /// Whether the text changed.
    pub fn changed(&self) -> bool {
        !self.applied.is_empty()
    }
}

/// Whether two edits touch the same bytes (two insertions at one offset count as touching, since
/// their order would matter).
fn overlaps(a: &Edit, b: &Edit) -> bool {
    (a.span.start() < b.span.end() && b.span.start() < a.span.end())
        || a.span.start() == b.span.start()
}

/// Whether an edit can be applied to `text`: inside it, on character boundaries, well-ordered.
fn fits(edit: &Edit, text: &str) -> bool {
    edit.span.start() <= edit.span.end()
        && edit.span.end() <= text.len()
        && text.is_char_boundary(edit.span.start())
        && text.is_char_boundary(edit.span.end())
}

/// Applies the first safe fix of each diagnostic to `text`, in the order of `diagnostics`; a fix
/// whose edits overlap an already accepted edit is skipped (first wins), except that an edit
/// identical to one already accepted counts as done.
pub fn apply_safe_fixes<'d>(
    text: &str,
    diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
) -> FixOutcome {
    let mut accepted: Vec<Edit> = Vec::new();
    let mut applied = Vec::new();
    let mut skipped = Vec::new();
    for diagnostic in diagnostics {
        let Some(fix) = diagnostic
            .fixes
            .iter()
            .find(|fix| fix.applicability == Applicability::Safe)
        else {
            continue;
        };
        let record = AppliedFix {
            rule: diagnostic.rule,
            title: fix.title.clone(),
            span: diagnostic.span,
        };
        let new_edits: Vec<&Edit> = fix
            .edits
            .iter()
            .filter(|edit| !accepted.contains(edit))
            .collect();
        let self_overlap = new_edits.iter().enumerate().any(|(index, edit)| {
            new_edits[index + 1..]
                .iter()
                .any(|other| overlaps(edit, other))
        });
        let clashes = new_edits
            .iter()
            .any(|edit| !fits(edit, text) || accepted.iter().any(|done| overlaps(edit, done)));
        if fix.edits.is_empty() || self_overlap || clashes {
            skipped.push(record);
            continue;
        }
        accepted.extend(new_edits.into_iter().cloned());
        applied.push(record);
    }
    accepted.sort_by_key(|edit| std::cmp::Reverse(edit.span.start()));
    let mut out = text.to_owned();
    for edit in &accepted {
        out.replace_range(edit.span.range(), &edit.replacement);
    }
    FixOutcome {
        text: out,
        applied,
        skipped,
    }
}

/// A unified diff (three lines of context) from `old` to `new`; empty when the texts are equal.
/// The headers name `path` as `a/path` and `b/path` (as `git diff` does) when it is relative, and
/// as written when it is absolute.
pub fn unified_diff(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let (before, after) = if path.starts_with('/') {
        (path.to_owned(), path.to_owned())
    } else {
        (format!("a/{path}"), format!("b/{path}"))
    };
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&before, &after)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Diagnostic, Fix};

    fn rename(span: Span, to: &str) -> Diagnostic {
        Diagnostic::new(Rule::UnknownField, span, "unknown field").with_replacement(
            format!("Rename to `{to}`"),
            span,
            to,
        )
    }

    #[test]
    fn applies_non_overlapping_fixes_and_keeps_the_rest_of_the_text() {
        let text = "urll: x # keep\nmethd: GET\n";
        let diagnostics = [
            rename(Span::new(0, 4), "url"),
            rename(Span::new(15, 20), "method"),
        ];
        let outcome = apply_safe_fixes(text, &diagnostics);
        assert_eq!(outcome.text, "url: x # keep\nmethod: GET\n");
        assert_eq!(outcome.applied.len(), 2);
        assert!(outcome.skipped.is_empty());
    }

    #[test]
    fn first_fix_wins_on_overlap_and_identical_edits_count_once() {
        let text = "abcdef";
        let diagnostics = [
            rename(Span::new(1, 3), "X"),
            rename(Span::new(2, 4), "Y"),
            rename(Span::new(1, 3), "X"),
            rename(Span::new(9, 12), "out of range"),
        ];
        let outcome = apply_safe_fixes(text, &diagnostics);
        assert_eq!(outcome.text, "aXdef");
        assert_eq!(outcome.applied.len(), 2);
        assert_eq!(outcome.skipped.len(), 2);
    }

    #[test]
    fn unsafe_fixes_and_diagnostics_without_fixes_are_ignored() {
        let text = "abc";
        let mut unsafe_fix = rename(Span::new(0, 1), "Z");
        unsafe_fix.fixes = vec![Fix {
            title: "maybe".into(),
            edits: vec![Edit {
                span: Span::new(0, 1),
                replacement: "Z".into(),
            }],
            applicability: Applicability::Unsafe,
        }];
        let plain = Diagnostic::new(Rule::Syntax, Span::new(0, 3), "bad");
        let outcome = apply_safe_fixes(text, &[unsafe_fix, plain]);
        assert_eq!(outcome.text, "abc");
        assert!(!outcome.changed());
    }

    #[test]
    fn deletions_and_insertions_apply_together() {
        let text = "a: 1\nb: 2\nc: 3\n";
        let delete = Diagnostic::new(Rule::ConflictingFields, Span::new(5, 9), "x")
            .with_replacement("Remove `b`", Span::new(5, 10), "");
        let insert = Diagnostic::new(Rule::MissingField, Span::new(10, 10), "y").with_replacement(
            "Add `d`",
            Span::new(15, 15),
            "d: 4\n",
        );
        let outcome = apply_safe_fixes(text, &[delete, insert]);
        assert_eq!(outcome.text, "a: 1\nc: 3\nd: 4\n");
    }

    #[test]
    fn diff_shows_changed_lines_with_headers() {
        let diff = unified_diff("s.yaml", "a\nurll: x\nc\n", "a\nurl: x\nc\n");
        assert!(diff.contains("--- a/s.yaml"));
        assert!(diff.contains("+++ b/s.yaml"));
        assert!(diff.contains("-urll: x\n+url: x\n"));
        assert_eq!(unified_diff("s.yaml", "same", "same"), "");
        let absolute = unified_diff("/tmp/s.yaml", "a\n", "b\n");
        assert!(
            absolute.starts_with("--- /tmp/s.yaml\n+++ /tmp/s.yaml\n"),
            "{absolute}"
        );
    }
}
