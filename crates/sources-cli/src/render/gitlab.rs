//! `gitlab`: a GitLab Code Quality report, a JSON array with one issue per diagnostic.
//!
//! Each issue has `description`, `check_name` (the rule code), `fingerprint`, `severity` (`major`
//! for errors, `minor` for warnings) and `location` (`path`, `lines.begin`). The fingerprint
//! hashes the path, the rule, the message and how many identical findings came before it in the
//! file, not the line: a finding keeps its fingerprint when lines above it move, so GitLab does not
//! report it as fixed and found again.

use std::collections::HashMap;
use std::io::{self, Write};

use serde::Serialize;
use sha2::{Digest, Sha256};
use sources_diagnostics::Severity;

use crate::report::FileReport;

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'static str,
    fingerprint: String,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
}

/// Writes the report, pretty-printed, followed by a newline.
pub fn render(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    let mut issues = Vec::new();
    for report in reports {
        let mut seen: HashMap<(&str, &str), u64> = HashMap::new();
        for diagnostic in &report.diagnostics {
            let code = diagnostic.rule.code();
            let occurrence = seen.entry((code, &diagnostic.message)).or_default();
            let (start, _) = report.line_cols(diagnostic.span);
            issues.push(Issue {
                description: format!("{} [{code}]", diagnostic.message),
                check_name: code,
                fingerprint: fingerprint(&[
                    &report.path,
                    code,
                    &diagnostic.message,
                    &occurrence.to_string(),
                ]),
                severity: match diagnostic.severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                },
                location: Location {
                    path: &report.path,
                    lines: Lines { begin: start.line },
                },
            });
            *occurrence += 1;
        }
    }
    serde_json::to_writer_pretty(&mut *out, &issues)?;
    writeln!(out)
}

/// SHA-256 over the parts (each followed by a NUL), as 64 hex digits: the same input gives the
/// same fingerprint on every run and every machine.
fn fingerprint(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::fixtures;

    fn rendered(reports: &[FileReport]) -> serde_json::Value {
        let mut out = Vec::new();
        render(reports, &mut out).expect("render");
        serde_json::from_slice(&out).expect("json")
    }

    #[test]
    fn one_issue_per_diagnostic_with_every_field() {
        let issues = rendered(&[fixtures::report(), fixtures::warning_report()]);
        let issues = issues.as_array().expect("array");
        assert_eq!(issues.len(), 4);
        let first = &issues[0];
        assert_eq!(
            first["description"],
            "unknown field `urll` on an http source [unknown-field]"
        );
        assert_eq!(first["check_name"], "unknown-field");
        assert_eq!(first["severity"], "major");
        assert_eq!(first["location"]["path"], "conf/app, 1.yaml");
        assert_eq!(first["location"]["lines"]["begin"], 5);
        assert_eq!(issues[3]["severity"], "minor");
        let fingerprint = first["fingerprint"].as_str().expect("fingerprint");
        assert_eq!(fingerprint.len(), 64);
        let distinct: std::collections::HashSet<&str> = issues
            .iter()
            .map(|issue| issue["fingerprint"].as_str().expect("string"))
            .collect();
        assert_eq!(distinct.len(), 4, "every finding has its own fingerprint");
    }

    #[test]
    fn fingerprints_survive_moved_lines_and_tell_repeats_apart() {
        let before = rendered(&[fixtures::report()]);
        let mut moved = fixtures::report();
        let shift = "# a comment above\n".len();
        let text = format!("# a comment above\n{}", moved.text());
        moved.line_index = sources_syntax::LineIndex::new(&text);
        for diagnostic in &mut moved.diagnostics {
            diagnostic.span = sources_diagnostics::Span::new(
                diagnostic.span.start() + shift,
                diagnostic.span.end() + shift,
            );
        }
        let after = rendered(&[moved]);
        assert_eq!(after[0]["location"]["lines"]["begin"], 6);
        assert_eq!(before[0]["fingerprint"], after[0]["fingerprint"]);
        let mut repeated = fixtures::report();
        let again = repeated.diagnostics[0].clone();
        repeated.diagnostics.insert(1, again);
        let issues = rendered(&[repeated]);
        assert_ne!(issues[0]["fingerprint"], issues[1]["fingerprint"]);
        assert_eq!(issues[0]["fingerprint"], before[0]["fingerprint"]);
    }

    #[test]
    fn a_fingerprint_is_the_sha256_of_the_parts_each_ended_by_nul() {
        assert_eq!(
            fingerprint(&["a", "b"]),
            "8fb20ef63ced4145fc2e983ffe597d1dcff39154c3bf21f0fa9dde6a0c50fdc9"
        );
    }

    #[test]
    fn a_clean_run_is_an_empty_array() {
        assert_eq!(rendered(&[]), serde_json::json!([]));
    }
}
