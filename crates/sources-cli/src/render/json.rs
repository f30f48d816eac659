//! `json`: one versioned document (`"version": 1`) with every diagnostic and a summary.
//!
//! Lines and columns are 1-based, columns in Unicode scalar values; `start`/`end` are byte offsets.
//! Adding a field is a compatible change and keeps the version; removing or changing one bumps it.

use std::io::{self, Write};

use serde::Serialize;
use sources_diagnostics::Diagnostic;

use crate::report::{FileReport, Summary};

/// The version of the JSON format; bumped on any incompatible change.
pub const VERSION: u32 = 1;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: JsonSummary,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    path: &'a str,
    code: &'static str,
    severity: &'static str,
    message: &'a str,
    /// The primary label's text (what the span itself is), `null` when there is none.
    label: Option<&'a str>,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    start: usize,
    end: usize,
    labels: Vec<JsonLabel<'a>>,
    help: Option<&'a str>,
    fixes: Vec<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    message: &'a str,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    title: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    start: usize,
    end: usize,
    replacement: &'a str,
}

#[derive(Serialize)]
struct JsonSummary {
    files: usize,
    errors: usize,
    warnings: usize,
}

fn diagnostic<'a>(report: &'a FileReport, diagnostic: &'a Diagnostic) -> JsonDiagnostic<'a> {
    let (start, end) = report.line_cols(diagnostic.span);
    JsonDiagnostic {
        path: &report.path,
        code: diagnostic.rule.code(),
        severity: diagnostic.severity.as_str(),
        message: &diagnostic.message,
        label: Some(diagnostic.label.as_str()).filter(|label| !label.is_empty()),
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
        start: diagnostic.span.start(),
        end: diagnostic.span.end(),
        labels: diagnostic
            .labels
            .iter()
            .map(|label| {
                let (start, end) = report.line_cols(label.span);
                JsonLabel {
                    message: &label.message,
                    line: start.line,
                    column: start.column,
                    end_line: end.line,
                    end_column: end.column,
                }
            })
            .collect(),
        help: diagnostic.help.as_deref(),
        fixes: diagnostic
            .fixes
            .iter()
            .map(|fix| JsonFix {
                title: &fix.title,
                edits: fix
                    .edits
                    .iter()
                    .map(|edit| JsonEdit {
                        start: edit.span.start(),
                        end: edit.span.end(),
                        replacement: &edit.replacement,
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Writes the document, pretty-printed, followed by a newline.
pub fn render(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    let summary = Summary::of(reports);
    let document = Document {
        version: VERSION,
        diagnostics: reports
            .iter()
            .flat_map(|report| {
                report
                    .diagnostics
                    .iter()
                    .map(move |d| diagnostic(report, d))
            })
            .collect(),
        summary: JsonSummary {
            files: summary.files,
            errors: summary.errors,
            warnings: summary.warnings,
        },
    };
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::render::fixtures;

    #[test]
    fn every_field_of_the_versioned_document() {
        let mut out = Vec::new();
        super::render(&[fixtures::report(), fixtures::warning_report()], &mut out).expect("render");
        let document: Value = serde_json::from_slice(&out).expect("valid JSON");
        assert_eq!(document["version"], 1);
        assert_eq!(
            document["summary"],
            json!({"files": 2, "errors": 3, "warnings": 1})
        );
        let text = fixtures::TEXT;
        let urll = text.find("urll").expect("urll");
        assert_eq!(
            document["diagnostics"][0],
            json!({
                "path": "conf/app, 1.yaml",
                "code": "unknown-field",
                "severity": "error",
                "message": "unknown field `urll` on an http source",
                "label": "not a field of http",
                "line": 5, "column": 7, "end_line": 5, "end_column": 11,
                "start": urll, "end": urll + 4,
                "labels": [],
                "help": "did you mean `url`?",
                "fixes": [{"title": "Rename `urll` to `url`",
                           "edits": [{"start": urll, "end": urll + 4, "replacement": "url"}]}],
            })
        );
        let cycle = &document["diagnostics"][2];
        assert_eq!(
            (cycle["line"].as_u64(), cycle["column"].as_u64()),
            (Some(9), Some(13))
        );
        assert_eq!(cycle["end_column"], 17, "the emoji counts as one column");
        assert_eq!(
            cycle["labels"],
            json!([{"message": "a source with a similar name", "line": 3, "column": 5, "end_line": 3, "end_column": 9}])
        );
        assert_eq!(
            document["diagnostics"][1]["help"],
            "write a Go-style duration such as `5m`"
        );
        assert_eq!(document["diagnostics"][3]["help"], Value::Null);
        assert_eq!(document["diagnostics"][3]["label"], Value::Null);
        assert_eq!(document["diagnostics"][3]["severity"], "warning");
        assert_eq!(document["diagnostics"][3]["path"], "b.yaml");
    }
}
