//! The real language server process (`sources lsp`), driven through the workspace's stdio client,
//! to check that the editor shows exactly what `lint` reports for the same text.

use std::io;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sources_cli::report::FileReport;
use sources_diagnostics::Severity;
use sources_syntax::{PositionEncoding, Syntax};
use sources_testkit::lsp_client::{LspClient, Stderr};

use crate::properties::Failure;

/// How long the server may take to publish one document's diagnostics.
const PUBLISH_TIMEOUT: Duration = Duration::from_secs(20);

/// Above this many diagnostics the server publishes a capped list, so the lists are not compared.
pub const COMPARED_AT_MOST: usize = 1_000;

/// A running `sources lsp` with an initialised session, through the workspace's one stdio client.
pub struct LspProcess {
    client: LspClient,
    documents: u64,
}

impl LspProcess {
    /// Starts `binary lsp` and initialises it (UTF-16 positions, the protocol's default).
    pub fn start(binary: &Path) -> io::Result<LspProcess> {
        let mut command = Command::new(binary);
        command.arg("lsp");
        let mut client = LspClient::start(command, Stderr::Discarded)?;
        client.initialize(json!({}))?;
        Ok(LspProcess {
            client,
            documents: 0,
        })
    }

    /// Opens `text` as a new document and returns the diagnostics the server publishes for it.
    pub fn diagnostics(&mut self, text: &str, syntax: Syntax) -> io::Result<Vec<Value>> {
        self.documents += 1;
        let (extension, language) = match syntax {
            Syntax::Yaml => ("yaml", "yaml"),
            Syntax::Toml => ("toml", "toml"),
        };
        let uri = format!("file:///fuzz/{}.{extension}", self.documents);
        self.client.notify(
            "textDocument/didOpen",
            json!({ "textDocument": {
                "uri": uri, "languageId": language, "version": 1, "text": text
            } }),
        )?;
        let deadline = Instant::now() + PUBLISH_TIMEOUT;
        let published = loop {
            let message = self.client.next(deadline)?;
            if message.get("id").is_some() && message.get("method").is_some() {
                // A request from the server (configuration, capability registration): answer it.
                let id = message["id"].clone();
                self.client
                    .send(&json!({ "jsonrpc": "2.0", "id": id, "result": null }))?;
                continue;
            }
            if message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri.as_str()
            {
                break message["params"]["diagnostics"].clone();
            }
        };
        self.client.notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        )?;
        Ok(published.as_array().cloned().unwrap_or_default())
    }
}

/// One diagnostic reduced to what both front ends must agree on.
type Key = (String, u64, [u64; 4], String);

/// Compares what the server published with the CLI's report of the same text.
pub fn compare(report: &FileReport, published: &[Value]) -> Result<(), Failure> {
    if report.diagnostics.len() > COMPARED_AT_MOST {
        return Ok(());
    }
    let index = &report.line_index;
    let mut expected: Vec<Key> = report
        .diagnostics
        .iter()
        .map(|d| {
            let (sl, sc) = index.position(d.span.start(), PositionEncoding::Utf16);
            let (el, ec) = index.position(d.span.end(), PositionEncoding::Utf16);
            let severity = match d.severity {
                Severity::Error => 1,
                Severity::Warning => 2,
            };
            (
                d.rule.code().to_owned(),
                severity,
                [sl.into(), sc.into(), el.into(), ec.into()],
                d.message.clone(),
            )
        })
        .collect();
    let mut actual: Vec<Key> = published
        .iter()
        .map(|d| {
            let at = |end: &str, field: &str| d["range"][end][field].as_u64().unwrap_or(u64::MAX);
            let message = d["message"].as_str().unwrap_or_default();
            let message = message.split("\nhelp: ").next().unwrap_or_default();
            (
                d["code"].as_str().unwrap_or_default().to_owned(),
                d["severity"].as_u64().unwrap_or(0),
                [
                    at("start", "line"),
                    at("start", "character"),
                    at("end", "line"),
                    at("end", "character"),
                ],
                message.to_owned(),
            )
        })
        .collect();
    expected.sort();
    actual.sort();
    if expected == actual {
        return Ok(());
    }
    let missing: Vec<&Key> = expected.iter().filter(|d| !actual.contains(d)).collect();
    let extra: Vec<&Key> = actual.iter().filter(|d| !expected.contains(d)).collect();
    Err(Failure {
        property: "lsp",
        detail: format!(
            "the language server and lint disagree\n  lint only: {missing:?}\n  server only: {extra:?}"
        ),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use sources_diagnostics::{Diagnostic, Rule, Span};
    use sources_syntax::LineIndex;

    use super::*;

    #[test]
    fn the_server_must_publish_exactly_what_lint_reports() {
        // `é` is one UTF-16 unit: the span 3..5 is columns 3..4.
        let report = FileReport {
            path: "fuzz.yaml".to_owned(),
            line_index: LineIndex::new("a: é\n"),
            diagnostics: vec![
                Diagnostic::new(Rule::InvalidValue, Span::new(3, 5), "bad")
                    .with_help("write it well"),
            ],
            has_sources: true,
        };
        let published = json!({
            "code": "invalid-value",
            "severity": 1,
            "range": { "start": { "line": 0, "character": 3 }, "end": { "line": 0, "character": 4 } },
            "message": "bad\nhelp: write it well",
        });
        assert_eq!(compare(&report, std::slice::from_ref(&published)), Ok(()));
        let missing = compare(&report, &[]).expect_err("nothing published");
        assert_eq!(missing.property, "lsp");
        assert!(
            missing
                .detail
                .contains("lint only: [(\"invalid-value\", 1, [0, 3, 0, 4], \"bad\")]"),
            "{}",
            missing.detail
        );
        let mut elsewhere = published;
        elsewhere["range"]["end"]["character"] = json!(5);
        let moved = compare(&report, &[elsewhere]).expect_err("a byte column");
        assert!(
            moved
                .detail
                .contains("server only: [(\"invalid-value\", 1, [0, 3, 0, 5]"),
            "{}",
            moved.detail
        );
    }
}
