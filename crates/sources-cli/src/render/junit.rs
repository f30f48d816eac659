//! `junit`: JUnit XML for CI systems that show test results, one test case per file and rule.
//!
//! One `<testsuite>` per file. A file with diagnostics has one failing `<testcase>` per rule that
//! reported there (`name` the rule code, `classname` the path), the `<failure>` listing every
//! finding of that rule as `line:column: severity: message`; a clean file has one passing test case
//! named `sources lint`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use sources_diagnostics::{Diagnostic, Severity};

use crate::report::FileReport;

/// Writes the XML document.
pub fn render(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    let mut suites = String::new();
    let mut tests = 0;
    let mut failures = 0;
    for report in reports {
        let mut by_rule: BTreeMap<&str, Vec<&Diagnostic>> = BTreeMap::new();
        for diagnostic in &report.diagnostics {
            by_rule
                .entry(diagnostic.rule.code())
                .or_default()
                .push(diagnostic);
        }
        let path = escape(&report.path);
        let cases = by_rule.len().max(1);
        tests += cases;
        failures += by_rule.len();
        let _ = writeln!(
            suites,
            "  <testsuite name=\"{path}\" tests=\"{cases}\" failures=\"{}\" errors=\"0\" skipped=\"0\">",
            by_rule.len()
        );
        if by_rule.is_empty() {
            let _ = writeln!(
                suites,
                "    <testcase name=\"sources lint\" classname=\"{path}\"/>"
            );
        }
        for (code, diagnostics) in &by_rule {
            let worst = if diagnostics.iter().any(|d| d.severity == Severity::Error) {
                "error"
            } else {
                "warning"
            };
            let findings: Vec<String> = diagnostics
                .iter()
                .map(|diagnostic| {
                    let (start, _) = report.line_cols(diagnostic.span);
                    format!(
                        "{}:{}:{}: {}: {}",
                        report.path,
                        start.line,
                        start.column,
                        diagnostic.severity.as_str(),
                        diagnostic.message
                    )
                })
                .collect();
            let count = diagnostics.len();
            let message = format!(
                "{count} {worst}{} of rule {code}",
                if count == 1 { "" } else { "s" }
            );
            let _ = writeln!(
                suites,
                "    <testcase name=\"{code}\" classname=\"{path}\">\n      <failure message=\"{}\" type=\"{worst}\">{}</failure>\n    </testcase>",
                escape(&message),
                escape(&findings.join("\n"))
            );
        }
        suites.push_str("  </testsuite>\n");
    }
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
    writeln!(
        out,
        "<testsuites name=\"sources lint\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">"
    )?;
    out.write_all(suites.as_bytes())?;
    writeln!(out, "</testsuites>")
}

/// Escapes text for XML content and attribute values; control characters XML 1.0 cannot carry
/// become U+FFFD.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            '\n' => escaped.push_str("&#10;"),
            '\t' | '\r' => {
                let _ = write!(escaped, "&#{};", u32::from(c));
            }
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                escaped.push('\u{FFFD}')
            }
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::fixtures;

    fn rendered(reports: &[FileReport]) -> String {
        let mut out = Vec::new();
        render(reports, &mut out).expect("render");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn one_case_per_file_and_rule_and_a_passing_case_for_a_clean_file() {
        let mut clean = fixtures::warning_report();
        clean.path = "clean.yaml".into();
        clean.diagnostics.clear();
        fixtures::assert_expected(
            "junit.xml",
            &rendered(&[fixtures::report(), fixtures::warning_report(), clean]),
        );
    }

    #[test]
    fn markup_and_control_characters_are_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&'\n\u{1}"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&#10;\u{FFFD}"
        );
    }
}
