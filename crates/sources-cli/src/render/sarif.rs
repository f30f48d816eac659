//! `sarif`: a SARIF 2.1.0 log with one run, rule metadata from the registry, and results whose
//! regions count columns in UTF-16 code units (`columnKind: utf16CodeUnits`, SARIF's default).
//!
//! Every artifact URI is relative to `%SRCROOT%`, declared in `originalUriBaseIds`: the working
//! directory, or its closest ancestor that holds every file reported, so that no URI is absolute or
//! climbs with `..` (paths given as `/abs/x.yaml` or `../x.yaml` included).

use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

use serde_json::{Value, json};
use sources_diagnostics::{Diagnostic, Rule, Severity, Span};
use url::Url;

use crate::report::FileReport;

/// The SARIF schema this output follows.
pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The base id relative artifact URIs resolve against.
const SRCROOT: &str = "%SRCROOT%";

/// Writes the SARIF log, pretty-printed, followed by a newline.
pub fn render(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    render_from(reports, std::env::current_dir().ok().as_deref(), out)
}

/// Writes the SARIF log with paths resolved against `cwd` (the working directory, when known).
fn render_from(reports: &[FileReport], cwd: Option<&Path>, out: &mut dyn Write) -> io::Result<()> {
    let base = cwd.map(|cwd| Base::new(cwd, reports));
    let results: Vec<Value> = reports
        .iter()
        .flat_map(|report| {
            let artifact = artifact_location(base.as_ref(), &report.path);
            report
                .diagnostics
                .iter()
                .map(move |d| result(report, &artifact, d))
        })
        .collect();
    let mut run = json!({
        "tool": { "driver": driver() },
        "columnKind": "utf16CodeUnits",
        "results": results,
    });
    if let Some(root) = base.as_ref().and_then(|base| directory_uri(&base.root)) {
        run["originalUriBaseIds"] = json!({ SRCROOT: { "uri": root } });
    }
    let log = json!({ "$schema": SCHEMA, "version": "2.1.0", "runs": [run] });
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}

/// What `%SRCROOT%` stands for, and the working directory relative paths start from.
struct Base {
    cwd: PathBuf,
    root: PathBuf,
}

impl Base {
    /// The working directory, or its closest ancestor holding every reported file.
    fn new(cwd: &Path, reports: &[FileReport]) -> Base {
        let cwd = normalize(cwd, Path::new(""));
        let mut root = cwd.clone();
        for report in reports {
            let file = normalize(&cwd, Path::new(&report.path));
            while !file.starts_with(&root) && root.pop() {}
        }
        Base { cwd, root }
    }
}

/// `path` made absolute against `cwd`, with `.` and `..` resolved as written (no file access).
fn normalize(cwd: &Path, path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in cwd.join(path).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
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

fn result(report: &FileReport, artifact: &Value, diagnostic: &Diagnostic) -> Value {
    let rule_index = Rule::ALL.iter().position(|rule| *rule == diagnostic.rule);
    let message = match &diagnostic.help {
        Some(help) => format!("{}\nhelp: {help}", diagnostic.message),
        None => diagnostic.message.clone(),
    };
    let mut primary = physical_location(report, artifact, diagnostic.span);
    let snippet = report.text().get(diagnostic.span.range());
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
                    "physicalLocation": physical_location(report, artifact, label.span),
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
                        "artifactLocation": artifact,
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

fn physical_location(report: &FileReport, artifact: &Value, span: Span) -> Value {
    json!({
        "artifactLocation": artifact,
        "region": region(report, span),
    })
}

/// 1-based lines and UTF-16 columns of `span`.
fn region(report: &FileReport, span: Span) -> Value {
    let start = report.utf16_line_col(span.start());
    let end = report.utf16_line_col(span.end());
    json!({
        "startLine": start.line,
        "startColumn": start.column,
        "endLine": end.line,
        "endColumn": end.column,
    })
}

/// A path as a URI relative to `%SRCROOT%`. Without a working directory, the path as written,
/// percent-encoded.
fn artifact_location(base: Option<&Base>, path: &str) -> Value {
    let relative = base.and_then(|base| {
        let file = normalize(&base.cwd, Path::new(path));
        if !file.starts_with(&base.root) {
            return None;
        }
        let root = Url::from_directory_path(&base.root).ok()?;
        root.make_relative(&Url::from_file_path(&file).ok()?)
    });
    let uri = relative.unwrap_or_else(|| written_uri(path));
    json!({ "uri": uri, "uriBaseId": SRCROOT })
}

/// A path as written (`<stdin>`, or relative to an unknown directory), percent-encoded as the
/// segments of a relative URI.
fn written_uri(path: &str) -> String {
    let mut url = Url::parse("file:///").expect("a constant URL parses");
    if let Ok(mut segments) = url.path_segments_mut() {
        segments.clear().extend(path.replace('\\', "/").split('/'));
    }
    url.path().trim_start_matches('/').to_owned()
}

/// The working directory as a `file://` URI ending in `/`.
fn directory_uri(dir: &Path) -> Option<String> {
    Url::from_directory_path(dir).ok().map(String::from)
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
        render_from(
            &[fixtures::report(), fixtures::warning_report()],
            Some(Path::new("/work/repo")),
            &mut out,
        )
        .expect("render");
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
            json!({"uri": "conf/app,%201.yaml", "uriBaseId": "%SRCROOT%"})
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
    fn every_uri_is_relative_to_srcroot_which_holds_every_file() {
        let log = log();
        assert_eq!(
            log["runs"][0]["originalUriBaseIds"],
            json!({"%SRCROOT%": {"uri": "file:///work/repo/"}})
        );
        let cwd = Path::new("/work/repo/sub");
        let reports = [
            "a b.yaml",
            "/work/repo/sub/x/y.yaml",
            "../other/z.toml",
            "./w/../v.yaml",
        ]
        .map(|path| FileReport {
            path: path.into(),
            line_index: sources_syntax::LineIndex::new(""),
            diagnostics: Vec::new(),
            has_sources: true,
        });
        let base = Base::new(cwd, &reports);
        assert_eq!(base.root, Path::new("/work/repo"));
        let uris: Vec<Value> = reports
            .iter()
            .map(|report| artifact_location(Some(&base), &report.path)["uri"].clone())
            .collect();
        assert_eq!(
            uris,
            [
                "sub/a%20b.yaml",
                "sub/x/y.yaml",
                "other/z.toml",
                "sub/v.yaml"
            ]
        );
        let alone = Base::new(cwd, &reports[..2]);
        assert_eq!(alone.root, cwd);
        assert_eq!(
            artifact_location(Some(&alone), "/work/repo/sub/x/y.yaml"),
            json!({"uri": "x/y.yaml", "uriBaseId": "%SRCROOT%"})
        );
        assert_eq!(artifact_location(None, "<stdin>")["uri"], "%3Cstdin%3E");
        assert_eq!(
            directory_uri(Path::new("/work/x/")).as_deref(),
            Some("file:///work/x/")
        );
        assert_eq!(
            pascal_case("window-sort-without-sort-param"),
            "WindowSortWithoutSortParam"
        );
    }
}
