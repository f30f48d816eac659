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

    /// `3 errors, 1 warning in 2 of 12 files; 2 fixable with --fix`, or `no problems found in 3 files`.
    pub fn line(&self) -> String {
        let plural = |count: usize, noun: &str| {
            format!("{count} {noun}{}", if count == 1 { "" } else { "s" })
        };
        if self.files == 0 {
            return "no configuration file with a `data.sources` block found".to_owned();
        }
        let files = plural(self.files, "file");
        let counts = match (self.errors, self.warnings) {
            (0, 0) => return format!("no problems found in {files}"),
            (errors, 0) => plural(errors, "error"),
            (0, warnings) => plural(warnings, "warning"),
            (errors, warnings) => format!(
                "{}, {}",
                plural(errors, "error"),
                plural(warnings, "warning")
            ),
        };
        let mut line = format!("{counts} in {} of {files}", self.files_with_problems);
        if self.fixable > 0 {
            line.push_str(&format!("; {} fixable with --fix", self.fixable));
        }
        line
    }
}

/// Whether `sources lint --fix` repairs `diagnostic`: it carries a safe fix.
pub fn is_fixable(diagnostic: &Diagnostic) -> bool {
    diagnostic
        .fixes
        .iter()
        .any(|fix| fix.applicability == Applicability::Safe)
}

#[cfg(test)]
mod tests {
    use super::Summary;

    #[test]
    fn summary_lines_count_errors_warnings_and_files() {
        let summary = |files, errors, warnings, files_with_problems, fixable| {
            Summary {
                files,
                errors,
                warnings,
                files_with_problems,
                fixable,
            }
            .line()
        };
        assert_eq!(summary(2, 1, 0, 1, 0), "1 error in 1 of 2 files");
        assert_eq!(summary(1, 0, 3, 1, 0), "3 warnings in 1 of 1 file");
        assert_eq!(
            summary(12, 3, 1, 2, 2),
            "3 errors, 1 warning in 2 of 12 files; 2 fixable with --fix"
        );
        assert_eq!(summary(3, 0, 0, 0, 0), "no problems found in 3 files");
    }
}
