//! No request crashes the server: mangled versions of a realistic configuration (characters
//! deleted, YAML/TOML punctuation and template openers inserted) get every request at many
//! positions, and every answer is a result, never an error. Each version's publication is that
//! version's, with exactly the diagnostics `sources lint` reports for its text.

mod support;

use serde_json::json;
use sources_diagnostics::Severity;
use sources_syntax::{PositionEncoding, Syntax};
use sources_testkit::random::Random;
use support::{TestClient, utf16_position};
use tower_lsp_server::ls_types::{Diagnostic, DiagnosticSeverity, NumberOrString};

const YAML: &str = "\
data:
  sources:
    apps:
      type: http
      url: https://example.invalid/apps/${params.region}
      refresh: 30s
      parameters:
        region: {type: string, default: eu}
      window: {offset_param: o, limit_param: l, search_param: q, cursor: id}
    view:
      type: join
      driver: {from: apps}
      lookups:
        info: {from: apps, on: {region: name}}
tui:
  components:
    - {kind: table, source: apps}
";

const TOML: &str = "\
[data.sources.apps]
type = \"exec\"
command = [\"ls\", \"${window.offset}\", \"${params.dir}\"]
parameters.dir = { required = true }
[data.sources.top]
type = \"sort\"
from = \"apps\"
by = \"name\"
";

fn boundary(text: &str, offset: usize) -> usize {
    (0..=offset.min(text.len()))
        .rev()
        .find(|index| text.is_char_boundary(*index))
        .unwrap_or(0)
}

fn mangle(text: &str, random: &mut Random) -> String {
    let mut text = text.to_owned();
    for _ in 0..=random.below(3) {
        let at = boundary(&text, random.below(text.len() + 1));
        if random.below(2) == 0 {
            let end = boundary(&text, at + 1 + random.below(6));
            text.replace_range(at..end.max(at), "");
        } else {
            let pieces = [
                ":",
                "[",
                "{",
                "${",
                "${params.",
                "\"",
                "- ",
                "\n  ",
                "=",
                "é😀",
                "}",
                "]",
            ];
            text.insert_str(at, pieces[random.below(pieces.len())]);
        }
    }
    text
}

/// One diagnostic as both front ends must show it: code, severity, UTF-16 range and message.
type Shown = (String, DiagnosticSeverity, [u32; 4], String);

/// What `sources lint` reports for `text`, as the editor must publish it: nothing when lint does
/// not take the text as a configuration (a walked file that is not one).
fn linted(text: &str, syntax: Syntax) -> Vec<Shown> {
    let analysis = sources_check::analyze(text, syntax);
    if !analysis.is_configuration() {
        return Vec::new();
    }
    let index = &analysis.line_index;
    let mut shown: Vec<Shown> = analysis
        .diagnostics
        .iter()
        .map(|diagnostic| {
            let (start_line, start) =
                index.position(diagnostic.span.start(), PositionEncoding::Utf16);
            let (end_line, end) = index.position(diagnostic.span.end(), PositionEncoding::Utf16);
            let severity = match diagnostic.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
            };
            let mut message = diagnostic.message.clone();
            if let Some(help) = &diagnostic.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            (
                diagnostic.rule.code().to_owned(),
                severity,
                [start_line, start, end_line, end],
                message,
            )
        })
        .collect();
    shown.sort_by(|a, b| (&a.0, a.2, &a.3).cmp(&(&b.0, b.2, &b.3)));
    shown
}

/// What the server published, in the same form.
fn published(diagnostics: &[Diagnostic]) -> Vec<Shown> {
    let mut shown: Vec<Shown> = diagnostics
        .iter()
        .map(|diagnostic| {
            let code = match &diagnostic.code {
                Some(NumberOrString::String(code)) => code.clone(),
                other => panic!("a diagnostic without a rule code: {other:?}"),
            };
            let range = diagnostic.range;
            (
                code,
                diagnostic.severity.expect("a severity"),
                [
                    range.start.line,
                    range.start.character,
                    range.end.line,
                    range.end.character,
                ],
                diagnostic.message.clone(),
            )
        })
        .collect();
    shown.sort_by(|a, b| (&a.0, a.2, &a.3).cmp(&(&b.0, b.2, &b.3)));
    shown
}

async fn survive(name: &str, language: &str, original: &str, seed: u64) {
    let syntax = if language == "toml" {
        Syntax::Toml
    } else {
        Syntax::Yaml
    };
    let mut client = TestClient::utf16().await;
    client.open(name, language, original).await;
    let opened = client.diagnostics(name).await;
    assert_eq!(opened.version, Some(1));
    assert_eq!(published(&opened.diagnostics), linted(original, syntax));
    let mut random = Random::new(seed);
    let mut with_problems = 0;
    for version in 2..60 {
        let text = mangle(original, &mut random);
        client.replace(name, version, &text).await;
        let publication = client.diagnostics(name).await;
        assert_eq!(publication.version, Some(version), "{text:?}");
        assert_eq!(
            published(&publication.diagnostics),
            linted(&text, syntax),
            "version {version} publishes what lint reports for {text:?}"
        );
        with_problems += usize::from(!publication.diagnostics.is_empty());
        for _ in 0..4 {
            let offset = boundary(&text, random.below(text.len() + 1));
            let position = utf16_position(&text, offset);
            for method in [
                "textDocument/hover",
                "textDocument/completion",
                "textDocument/definition",
                "textDocument/prepareRename",
            ] {
                let answer = client.at(method, name, position, json!({})).await;
                // prepareRename refuses a position on no name, saying why; nothing else may fail.
                let refused = |error: &tower_lsp_server::jsonrpc::Error| {
                    method == "textDocument/prepareRename"
                        && error.message.starts_with("nothing to rename here")
                };
                assert!(
                    answer.as_ref().map_or_else(refused, |_| true),
                    "{method} at {offset} of {text:?}: {answer:?}"
                );
            }
            let references = client
                .at(
                    "textDocument/references",
                    name,
                    position,
                    json!({ "context": { "includeDeclaration": true } }),
                )
                .await;
            assert!(
                references.is_ok(),
                "references at {offset} of {text:?}: {references:?}"
            );
        }
        let uri = json!({ "uri": support::uri(name) });
        let symbols = client
            .request(
                "textDocument/documentSymbol",
                json!({ "textDocument": uri }),
            )
            .await;
        assert!(symbols.is_ok(), "symbols of {text:?}: {symbols:?}");
        let whole = json!({ "start": { "line": 0, "character": 0 }, "end": utf16_position(&text, text.len()) });
        let actions = client
            .request(
                "textDocument/codeAction",
                json!({ "textDocument": uri, "range": whole, "context": { "diagnostics": [] } }),
            )
            .await;
        assert!(actions.is_ok(), "code actions of {text:?}: {actions:?}");
    }
    // Most mangled versions have problems, so the comparison is of real content.
    assert!(
        with_problems > 40,
        "only {with_problems} versions had diagnostics"
    );
}

#[tokio::test]
async fn mangled_yaml_never_gets_an_error() {
    survive("f.yaml", "yaml", YAML, 0x9e37_79b9_7f4a_7c15).await;
}

#[tokio::test]
async fn mangled_toml_never_gets_an_error() {
    survive("f.toml", "toml", TOML, 0x2545_f491_4f6c_dd1d).await;
}
