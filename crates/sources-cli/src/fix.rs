//! `sources lint --fix` and `--diff`: every safe fix of a file, applied through
//! `sources_check::fix_all` (which re-analyses until the document settles), then written back in
//! place or shown as a unified diff. Comments and formatting stay as written.

use sources_check::{AppliedFix, Fixed};
use sources_diagnostics::Applicability;
use sources_syntax::{LineCol, Syntax};

use crate::report::FileReport;

/// What `lint` does with the safe fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixMode {
    /// Write the fixed text back to the file (`--fix`).
    Write,
    /// Print a unified diff and write nothing (`--diff`).
    Diff,
}

/// The outcome of fixing `report`'s document when it has a safe fix (the text may come back
/// unchanged: every fix unsafe, or syntax errors).
pub fn repair(report: &FileReport, syntax: Syntax) -> Option<Fixed> {
    let fixable = report
        .diagnostics
        .iter()
        .flat_map(|diagnostic| &diagnostic.fixes)
        .any(|fix| fix.applicability == Applicability::Safe);
    fixable.then(|| sources_check::fix_all(report.text(), syntax))
}

/// Leaves safe only the fixes of `report` that `--fix` would apply to its text: one that
/// `sources_check::fix_all` leaves out (it would not settle its finding, or a fix of the same
/// finding came first) becomes a suggestion, so every output and the summary's "fixable with
/// --fix" count only what `--fix` does.
pub fn keep_applied_fixes_safe(report: &mut FileReport, syntax: Syntax) {
    let Some(fixed) = repair(report, syntax) else {
        return;
    };
    let mut applied: Vec<&AppliedFix> = fixed.applied.iter().collect();
    for diagnostic in &mut report.diagnostics {
        for fix in &mut diagnostic.fixes {
            if fix.applicability != Applicability::Safe {
                continue;
            }
            let same = applied
                .iter()
                .position(|done| done.rule == diagnostic.rule && done.title == fix.title);
            match same {
                Some(at) => {
                    applied.swap_remove(at);
                }
                None => fix.applicability = Applicability::Unsafe,
            }
        }
    }
}

/// What `--fix` or `--diff` says on standard error about one file, in line order: each fix
/// applied (`applied` true, for `--fix`), each fix left out as unsafe, or why nothing was fixed.
pub fn notes(path: &str, fixed: &Fixed, applied: bool) -> Vec<String> {
    if fixed.syntax_errors {
        return vec![format!(
            "sources: not fixing `{path}`: it has syntax errors; correct them, then run --fix again"
        )];
    }
    let mut lines: Vec<(LineCol, String)> = Vec::new();
    if applied {
        lines.extend(fixed.applied.iter().map(|fix| {
            let at = fix.position;
            (
                at,
                format!(
                    "sources: fixed {path}:{}:{}: {} [{}]",
                    at.line, at.column, fix.title, fix.rule
                ),
            )
        }));
    }
    lines.extend(fixed.unsafe_fixes.iter().map(|fix| {
        let at = fix.position;
        (
            at,
            format!(
                "sources: not applied {path}:{}:{}: {} [{}]: unsafe, it would not settle its finding without adding another; fix it by hand",
                at.line, at.column, fix.title, fix.rule
            ),
        )
    }));
    lines.sort_by_key(|(at, _)| (at.line, at.column));
    lines.into_iter().map(|(_, line)| line).collect()
}

#[cfg(test)]
mod tests {
    use sources_diagnostics::Rule;

    use super::*;

    fn at(line: u32, column: u32, title: &str) -> AppliedFix {
        AppliedFix {
            rule: Rule::UnknownField,
            title: title.into(),
            position: LineCol { line, column },
        }
    }

    #[test]
    fn notes_are_in_line_order_and_name_unsafe_fixes_and_syntax_errors() {
        let fixed = Fixed {
            text: String::new(),
            applied: vec![at(9, 7, "Rename `b`"), at(2, 7, "Rename `a`")],
            unsafe_fixes: vec![at(5, 3, "Replace `c`")],
            syntax_errors: false,
        };
        assert_eq!(
            notes("s.yaml", &fixed, true),
            [
                "sources: fixed s.yaml:2:7: Rename `a` [unknown-field]",
                "sources: not applied s.yaml:5:3: Replace `c` [unknown-field]: unsafe, it would not settle its finding without adding another; fix it by hand",
                "sources: fixed s.yaml:9:7: Rename `b` [unknown-field]",
            ]
        );
        assert_eq!(notes("s.yaml", &fixed, false).len(), 1);
        let broken = Fixed {
            syntax_errors: true,
            ..fixed
        };
        assert_eq!(
            notes("s.yaml", &broken, true),
            [
                "sources: not fixing `s.yaml`: it has syntax errors; correct them, then run --fix again"
            ]
        );
    }
}
