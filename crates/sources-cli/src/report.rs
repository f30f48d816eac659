//! What linting one file produced, and positions in the forms each output format needs.

use sources_diagnostics::{Diagnostic, Severity, Span};
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
            self.line_index.line_col(span.start),
            self.line_index.line_col(span.end),
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
}

impl Summary {
    /// Counts the files and diagnostics of `reports`.
    pub fn of(reports: &[FileReport]) -> Summary {
        let mut summary = Summary {
            files: reports.len(),
            ..Summary::default()
        };
        for diagnostic in reports.iter().flat_map(|report| &report.diagnostics) {
            match diagnostic.severity {
                Severity::Error => summary.errors += 1,
                Severity::Warning => summary.warnings += 1,
            }
        }
        summary
    }
}
