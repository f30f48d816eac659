//! `sarif`: a SARIF 2.1.0 log with one run, rule metadata from the registry, and results whose
//! regions count columns in UTF-16 code units (`columnKind: utf16CodeUnits`, SARIF's default).
//!
//! Relative paths are relative URIs against `%SRCROOT%` (the working directory); absolute paths are
//! `file://` URIs.

use std::io::{self, Write};

use serde_json::{Value, json};
use sources_diagnostics::{Diagnostic, Rule, Severity, Span};

use crate::report::FileReport;

/// The SARIF schema this output follows.
pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The base id relative artifact URIs resolve against.
const SRCROOT: &str = "%SRCROOT%";

/// Writes the SARIF log, pretty-printed, followed by a newline.
pub fn render(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    let results: Vec<Value> = reports
        .iter()
        .flat_map(|report| report.diagnostics.iter().map(move |d| result(report, d)))
        .collect();
    let mut run = json!({
        "tool": { "driver": driver() },
        "columnKind": "utf16CodeUnits",
        "results": results,
    });
    if let Some(root) = std::env::current_dir()
        .ok()
        .and_then(|dir| directory_uri(&dir))
    {
        run["originalUriBaseIds"] = json!({ SRCROOT: { "uri": root } });
    }
    let log = json!({ "$schema": SCHEMA, "version": "2.1.0", "runs": [run] });
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}

/// The tool description, with every rule of the registry (a result's `ruleIndex` indexes it).
fn driver() -> Value {
    let rules: Vec<Value> = Rule::ALL
        .iter()
        .map(|rule| {
            let explanation = crate::explain::explanation(*rule);
            let full = explanation
                .split("\n\n")
                .next()
                .filter(|first| !first.is_empty());
            let full = full.map(|paragraph| paragraph.replace('\n', " "));
            let mut descriptor = json!({
                "id": rule.code(),
                "shortDescription": { "text": rule.summary() },
                "fullDescription": { "text": full.as_deref().unwrap_or(rule.summary()) },
                "help": { "text": explanation, "markdown": explanation },
                "defaultConfiguration": { "level": level(rule.default_severity()) },
            });
            // SARIF1001: a `name` that only repeats the `id` (`syntax` → `Syntax`) is left out.
            let name = pascal_case(rule.code());
            if !name.eq_ignore_ascii_case(rule.code())
                && let Value::Object(object) = &mut descriptor
            {
                object.insert("name".into(), Value::from(name));
            }
            descriptor
        })
        .collect();
    json!({
        "name": "sources",
        "informationUri": env!("CARGO_PKG_REPOSITORY"),
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    })
}

fn result(report: &FileReport, diagnostic: &Diagnostic) -> Value {
    let rule_index = Rule::ALL.iter().position(|rule| *rule == diagnostic.rule);
    let message = match &diagnostic.help {
        Some(help) => format!("{}\nhelp: {help}", diagnostic.message),
        None => diagnostic.message.clone(),
    };
    let mut primary = physical_location(report, diagnostic.span);
    let snippet = report
        .text()
        .get(diagnostic.span.start..diagnostic.span.end);
    if let Some(snippet) = snippet.filter(|snippet| !snippet.is_empty()) {
        primary["region"]["snippet"] = json!({ "text": snippet });
    }
    let mut result = json!({
        "ruleId": diagnostic.rule.code(),
        "ruleIndex": rule_index,
        "level": level(diagnostic.severity),
        "message": { "text": message },
        "locations": [{ "physicalLocation": primary }],
    });
    if !diagnostic.labels.is_empty() {
        result["relatedLocations"] = diagnostic
            .labels
            .iter()
            .enumerate()
            .map(|(id, label)| {
                json!({
                    "id": id,
                    "physicalLocation": physical_location(report, label.span),
                    "message": { "text": label.message },
                })
            })
            .collect();
    }
    if !diagnostic.fixes.is_empty() {
        result["fixes"] = diagnostic
            .fixes
            .iter()
            .map(|fix| {
                let replacements: Vec<Value> = fix
                    .edits
                    .iter()
                    .map(|edit| {
                        json!({
                            "deletedRegion": region(report, edit.span),
                            "insertedContent": { "text": edit.replacement },
                        })
                    })
                    .collect();
                json!({
                    "description": { "text": fix.title },
                    "artifactChanges": [{
                        "artifactLocation": artifact_location(&report.path),
                        "replacements": replacements,
                    }],
                })
            })
            .collect();
    }
    result
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn physical_location(report: &FileReport, span: Span) -> Value {
    json!({
        "artifactLocation": artifact_location(&report.path),
        "region": region(report, span),
    })
}

/// 1-based lines and UTF-16 columns of `span`.
fn region(report: &FileReport, span: Span) -> Value {
    let start = report.utf16_line_col(span.start);
    let end = report.utf16_line_col(span.end);
    json!({
        "startLine": start.line,
        "startColumn": start.column,
        "endLine": end.line,
        "endColumn": end.column,
    })
}

/// A relative path as a relative URI against `%SRCROOT%`; an absolute one as a `file://` URI.
fn artifact_location(path: &str) -> Value {
    if path.starts_with('/') {
        json!({ "uri": format!("file://{}", percent_encode(path)) })
    } else {
        json!({ "uri": percent_encode(path), "uriBaseId": SRCROOT })
    }
}

/// The working directory as a `file://` URI ending in `/`.
fn directory_uri(dir: &std::path::Path) -> Option<String> {
    let path = dir.to_str()?.replace('\\', "/");
    let path = if path.starts_with('/') {
        path
    } else {
        format!("/{path}")
    };
    let path = path.trim_end_matches('/');
    Some(format!("file://{}/", percent_encode(path)))
}

/// Percent-encodes everything in a path but unreserved characters and `/`.
fn percent_encode(path: &str) -> String {
    let mut encoded = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            encoded.push(byte as char);
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

/// `unknown-field` → `UnknownField`, SARIF's friendly rule name.
fn pascal_case(code: &str) -> String {
    code.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use sources_diagnostics::Rule;

    use super::*;
    use crate::render::fixtures;

    fn log() -> Value {
        let mut out = Vec::new();
        render(&[fixtures::report(), fixtures::warning_report()], &mut out).expect("render");
        serde_json::from_slice(&out).expect("valid JSON")
    }

    #[test]
    fn one_run_with_every_rule_of_the_registry() {
        let log = log();
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(log["$schema"], SCHEMA);
        let runs = log["runs"].as_array().expect("runs");
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0]["columnKind"], "utf16CodeUnits");
        let driver = &runs[0]["tool"]["driver"];
        assert_eq!(driver["name"], "sources");
        let rules = driver["rules"].as_array().expect("rules");
        assert_eq!(rules.len(), Rule::ALL.len());
        let index = Rule::ALL
            .iter()
            .position(|r| *r == Rule::UndeclaredParamReference)
            .expect("rule");
        let rule = &rules[index];
        assert_eq!(rule["id"], "undeclared-param-reference");
        assert_eq!(rule["name"], "UndeclaredParamReference");
        assert_eq!(
            rule["shortDescription"]["text"],
            Rule::UndeclaredParamReference.summary()
        );
        assert_eq!(rule["defaultConfiguration"]["level"], "warning");
        let explanation = crate::explain::explanation(Rule::UndeclaredParamReference);
        assert_eq!(rule["help"]["markdown"], explanation);
        assert!(
            !rule["fullDescription"]["text"]
                .as_str()
                .expect("text")
                .is_empty()
        );
    }

    #[test]
    fn results_have_utf16_regions_related_locations_and_fixes() {
        let log = log();
        let results = log["runs"][0]["results"].as_array().expect("results");
        assert_eq!(results.len(), 4);
        let first = &results[0];
        assert_eq!(first["ruleId"], "unknown-field");
        let rules = &log["runs"][0]["tool"]["driver"]["rules"];
        let index = first["ruleIndex"].as_u64().expect("index") as usize;
        assert_eq!(rules[index]["id"], "unknown-field");
        assert_eq!(first["level"], "error");
        assert_eq!(
            first["message"]["text"],
            "unknown field `urll` on an http source\nhelp: did you mean `url`?"
        );
        let location = &first["locations"][0]["physicalLocation"];
        assert_eq!(
            location["artifactLocation"],
            json!({"uri": "conf/app%2C%201.yaml", "uriBaseId": "%SRCROOT%"})
        );
        assert_eq!(
            location["region"],
            json!({"startLine": 5, "startColumn": 7, "endLine": 5, "endColumn": 11, "snippet": {"text": "urll"}})
        );
        let replacement = &first["fixes"][0]["artifactChanges"][0]["replacements"][0];
        assert_eq!(replacement["insertedContent"]["text"], "url");
        assert_eq!(replacement["deletedRegion"]["endColumn"], 11);

        let emoji = &results[2];
        let region = &emoji["locations"][0]["physicalLocation"]["region"];
        assert_eq!(
            (region["startColumn"].as_u64(), region["endColumn"].as_u64()),
            (Some(13), Some(18)),
            "😀 is two UTF-16 units"
        );
        assert_eq!(
            emoji["relatedLocations"][0]["message"]["text"],
            "a source with a similar name"
        );
        assert_eq!(
            emoji["relatedLocations"][0]["physicalLocation"]["region"]["startLine"],
            3
        );
        assert_eq!(results[3]["level"], "warning");
        assert!(results[3].get("fixes").is_none());
    }

    #[test]
    fn uris_are_percent_encoded_and_absolute_paths_are_file_uris() {
        assert_eq!(
            artifact_location("/tmp/a b.yaml"),
            json!({"uri": "file:///tmp/a%20b.yaml"})
        );
        assert_eq!(artifact_location("<stdin>")["uri"], "%3Cstdin%3E");
        assert_eq!(
            directory_uri(std::path::Path::new("/work/x/")).as_deref(),
            Some("file:///work/x/")
        );
        assert_eq!(
            pascal_case("window-sort-without-sort-param"),
            "WindowSortWithoutSortParam"
        );
    }
}
