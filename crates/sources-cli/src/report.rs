//! What linting one file produced, and positions in the forms each output format needs.

use sources_diagnostics::{Applicability, Diagnostic, Severity, Span};
use sources_syntax::{LineCol, LineIndex, PositionEncoding};

/// One linted file: its displayed path, its text (inside the line index) and its diagnostics.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The path as shown to the user (`/`-separated, as given or as walked), or the stdin name.
    pub path: String,
    /// Positions for the file's text; [`LineIndex::text`] is the text itself.
    pub line_index: LineIndex,
    /// Every diagnostic, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether the file has a `data.sources` block (a named file without one is linted, with a note).
    pub has_sources: bool,
}

impl FileReport {
    /// The file's text.
    pub fn text(&self) -> &str {
        self.line_index.text()
    }

    /// 1-based line and Unicode-scalar column of both ends of `span`.
    pub fn line_cols(&self, span: Span) -> (LineCol, LineCol) {
        (
            self.line_index.line_col(span.start()),
            self.line_index.line_col(span.end()),
        )
    }

    /// 1-based line and UTF-16 column of `offset` (SARIF's default column kind).
    pub fn utf16_line_col(&self, offset: usize) -> LineCol {
        let (line, character) = self.line_index.position(offset, PositionEncoding::Utf16);
        LineCol {
            line: line + 1,
            column: character + 1,
        }
    }
}

/// Counts over a whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files linted.
    pub files: usize,
    /// Diagnostics of severity error.
    pub errors: usize,
    /// Diagnostics of severity warning.
    pub warnings: usize,
    /// Files with at least one diagnostic.
    pub files_with_problems: usize,
    /// Diagnostics that `sources lint --fix` repairs (they carry a safe fix).
    pub fixable: usize,
}

impl Summary {
    /// Counts the files and diagnostics of `reports`.
    pub fn of(reports: &[FileReport]) -> Summary {
        let mut summary = Summary {
            files: reports.len(),
            ..Summary::default()
        };
        for report in reports {
            if !report.diagnostics.is_empty() {
                summary.files_with_problems += 1;
            }
            for diagnostic in &report.diagnostics {
                match diagnostic.severity {
                    Severity::Error => summary.errors += 1,
                    Severity::Warning => summary.warnings += 1,
                }
                if is_fixable(diagnostic) {
                    summary.fixable += 1;
                }
            }
        }
        summary
    }
}

/// Whether `sources lint --fix` repairs `diagnostic`: it carries a safe fix.
pub fn is_fixable(diagnostic: &Diagnostic) -> bool {
    diagnostic
        .fixes
        .iter()
        .any(|fix| fix.applicability == Applicability::Safe)
}
