//! `sources lint --fix` and `--diff`: every safe fix of a file, applied through
//! `sources_check::fix_all` (which re-analyses until the document settles), then written back in
//! place or shown as a unified diff. Comments and formatting stay as written.

use sources_check::Fixed;
use sources_diagnostics::Applicability;
use sources_syntax::Syntax;

use crate::report::FileReport;

/// What `lint` does with the safe fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixMode {
    /// Write the fixed text back to the file (`--fix`).
    Write,
    /// Print a unified diff and write nothing (`--diff`).
    Diff,
}

/// The fixed document when `report` has a safe fix that changes its text.
pub fn repair(report: &FileReport, syntax: Syntax) -> Option<Fixed> {
    let fixable = report
        .diagnostics
        .iter()
        .flat_map(|diagnostic| &diagnostic.fixes)
        .any(|fix| fix.applicability == Applicability::Safe);
    if !fixable {
        return None;
    }
    let fixed = sources_check::fix_all(report.text(), syntax);
    (fixed.text != report.text()).then_some(fixed)
}
