//! Protocol tests: diagnostics, position encodings, publications in version order, quick fixes,
//! hover on a diagnostic, robustness on half-typed text.

mod support;

use serde_json::{Value, json};
use sources_diagnostics::Rule;
use sources_lsp::{Options, rule_docs_url};
use sources_syntax::Syntax;
use support::{TestClient, apply_edits, offset_of, utf8_position, utf16_position};
use tower_lsp_server::ls_types::{DiagnosticSeverity, PublishDiagnosticsParams};

/// An unknown reference after non-ASCII text on its line (`☕` and `😀` differ between UTF-8,
/// UTF-16 and scalar columns), and a misspelt field with a did-you-mean fix.
const MISTAKES: &str = "\
# Überwachung der Anwendungen
data:
  sources:
    ☕café😀:
      type: static
      data: [1, 2]
    apps:
      type: http
      urll: https://example.invalid/apps
    both:
      type: merge
      sources: [☕café😀, appz]
";

fn codes(diagnostics: &[tower_lsp_server::ls_types::Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .filter_map(|diagnostic| match &diagnostic.code {
            Some(tower_lsp_server::ls_types::NumberOrString::String(code)) => Some(code.clone()),
            _ => None,
        })
        .collect()
}

fn with_code<'a>(
    diagnostics: &'a [tower_lsp_server::ls_types::Diagnostic],
    code: &str,
) -> &'a tower_lsp_server::ls_types::Diagnostic {
    diagnostics
        .iter()
        .find(|diagnostic| {
            diagnostic.code
                == Some(tower_lsp_server::ls_types::NumberOrString::String(
                    code.into(),
                ))
        })
        .unwrap_or_else(|| panic!("a `{code}` diagnostic among {:?}", codes(diagnostics)))
}

#[tokio::test]
async fn the_server_picks_utf8_when_offered_and_utf16_otherwise() {
    let utf8 = TestClient::utf8().await;
    assert_eq!(
        utf8.initialized["capabilities"]["positionEncoding"],
        "utf-8"
    );
    let utf16 = TestClient::utf16().await;
    assert_eq!(
        utf16.initialized["capabilities"]["positionEncoding"],
        "utf-16"
    );
    assert_eq!(utf16.initialized["serverInfo"]["name"], "sources");
}

#[tokio::test]
async fn diagnostics_point_at_the_token_in_utf16_columns() {
    let mut client = TestClient::utf16().await;
    client.open("app.yaml", "yaml", MISTAKES).await;
    let published = client.diagnostics("app.yaml").await;
    assert_eq!(published.version, Some(1));
    let unknown = with_code(&published.diagnostics, "unknown-source");
    let appz = offset_of(MISTAKES, "appz");
    assert_eq!(unknown.range.start, utf16_position(MISTAKES, appz));
    assert_eq!(unknown.range.end, utf16_position(MISTAKES, appz + 4));
    // `      sources: [` is 16 units, `☕café` 5, `😀` a surrogate pair, `, ` 2.
    assert_eq!(unknown.range.start.character, 25);
    assert!(unknown.message.contains("appz"), "{}", unknown.message);
    assert_eq!(unknown.source.as_deref(), Some("sources"));
    let href = unknown
        .code_description
        .as_ref()
        .expect("a code description")
        .href
        .as_str();
    assert_eq!(href, rule_docs_url(Rule::UnknownSource));
    let field = with_code(&published.diagnostics, "unknown-field");
    assert_eq!(
        field.range.start,
        utf16_position(MISTAKES, offset_of(MISTAKES, "urll"))
    );
}

#[tokio::test]
async fn diagnostics_point_at_the_token_in_utf8_columns_when_negotiated() {
    let mut client = TestClient::utf8().await;
    client.open("app.yaml", "yaml", MISTAKES).await;
    let published = client.diagnostics("app.yaml").await;
    let unknown = with_code(&published.diagnostics, "unknown-source");
    let appz = offset_of(MISTAKES, "appz");
    assert_eq!(unknown.range.start, utf8_position(MISTAKES, appz));
    // `☕` is three bytes, `é` two, `😀` four.
    assert_eq!(unknown.range.start.character, 30);
}

#[tokio::test]
async fn toml_documents_are_analysed_too() {
    let text = "[data.sources.apps]\ntype = \"http\"\nurll = \"https://example.invalid\"\n";
    let mut client = TestClient::utf16().await;
    client.open("app.toml", "toml", text).await;
    let published = client.diagnostics("app.toml").await;
    let field = with_code(&published.diagnostics, "unknown-field");
    assert_eq!(
        field.range.start,
        utf16_position(text, offset_of(text, "urll"))
    );
}

#[tokio::test]
async fn a_document_without_data_sources_gets_no_diagnostics() {
    let mut client = TestClient::utf16().await;
    client
        .open(
            "workflow.yaml",
            "yaml",
            "on: push\njobs: {build: [unclosed\n",
        )
        .await;
    assert!(
        client
            .diagnostics("workflow.yaml")
            .await
            .diagnostics
            .is_empty()
    );
    client
        .open(
            "other.yaml",
            "yaml",
            "app:\n  name: demo\ntui:\n  anything: goes\n",
        )
        .await;
    assert!(
        client
            .diagnostics("other.yaml")
            .await
            .diagnostics
            .is_empty()
    );
}

#[tokio::test]
async fn secondary_labels_become_related_information() {
    let text = "\
data:
  sources:
    apps:
      type: http
      url: https://example.invalid/apps
      window:
        offset_param: offset
        limit_param: limit
        search_param: q
tui:
  components:
    - kind: chart
      source: apps
";
    let mut client = TestClient::utf16().await;
    client.open("bound.yaml", "yaml", text).await;
    let published = client.diagnostics("bound.yaml").await;
    let binding = with_code(&published.diagnostics, "window-binding");
    let related = binding
        .related_information
        .as_ref()
        .expect("related information");
    assert_eq!(related[0].message, "windowed here");
    assert_eq!(related[0].location.uri.as_str(), support::uri("bound.yaml"));
    assert_eq!(
        related[0].location.range.start,
        utf16_position(text, offset_of(text, "window:"))
    );
}

#[tokio::test]
async fn a_burst_of_changes_publishes_in_order_and_nothing_stale_follows() {
    let mut client = TestClient::utf16().await;
    client.open("app.yaml", "yaml", MISTAKES).await;
    assert_eq!(client.diagnostics("app.yaml").await.version, Some(1));
    client
        .replace("app.yaml", 2, &MISTAKES.replace("appz", "appy"))
        .await;
    client
        .replace("app.yaml", 3, &MISTAKES.replace("appz", "appx"))
        .await;
    client
        .replace("app.yaml", 4, &MISTAKES.replace("appz", "apps"))
        .await;
    let mut versions = Vec::new();
    let last = loop {
        let published = client.diagnostics("app.yaml").await;
        versions.push(published.version);
        if published.version == Some(4) {
            break published;
        }
    };
    assert!(
        versions.windows(2).all(|pair| pair[0] < pair[1]),
        "publications go forward: {versions:?}"
    );
    assert!(!codes(&last.diagnostics).contains(&"unknown-source".to_owned()));
    // Publications are sent in order, so a stale one would come before the next version's.
    client.replace("app.yaml", 5, MISTAKES).await;
    let next = client.diagnostics("app.yaml").await;
    assert_eq!(next.version, Some(5), "nothing stale follows version 4");
    assert!(codes(&next.diagnostics).contains(&"unknown-source".to_owned()));
}

/// Lines (0-based) of the diagnostics with `code`.
fn lines_with_code(diagnostics: &[tower_lsp_server::ls_types::Diagnostic], code: &str) -> Vec<u32> {
    diagnostics
        .iter()
        .filter(|diagnostic| {
            diagnostic.code
                == Some(tower_lsp_server::ls_types::NumberOrString::String(
                    code.into(),
                ))
        })
        .map(|diagnostic| diagnostic.range.start.line)
        .collect()
}

#[tokio::test]
async fn an_edit_in_one_entry_is_checked_against_every_other_entry() {
    // Two filters read `apps` with the same expression: what an earlier version found for the
    // untouched entries must not stand in for checking them against the edited one.
    const TEXT: &str = "\
data:
  sources:
    apps:
      type: static
      data: [{health: ok}]
    healthy:
      type: filter
      from: apps
      where: health == 'ok'
    also:
      type: filter
      from: apps
      where: health == 'ok'
";
    let mut client = TestClient::utf16().await;
    client.open("app.yaml", "yaml", TEXT).await;
    let clean = client.diagnostics("app.yaml").await;
    assert_eq!(codes(&clean.diagnostics), Vec::<String>::new());
    // Renaming `apps` (only its own line changes) breaks both references to it.
    client
        .replace("app.yaml", 2, &TEXT.replacen("    apps:", "    appz:", 1))
        .await;
    let renamed = client.diagnostics("app.yaml").await;
    assert_eq!(renamed.version, Some(2));
    assert_eq!(
        lines_with_code(&renamed.diagnostics, "unknown-source"),
        [7, 11]
    );
    // Breaking the second expression reports it there, and only there.
    let at = TEXT.rfind("health == 'ok'").expect("the second expression");
    let broken = format!("{}health == && 'ok'{}", &TEXT[..at], &TEXT[at + 14..]);
    client.replace("app.yaml", 3, &broken).await;
    let published = client.diagnostics("app.yaml").await;
    assert_eq!(published.version, Some(3));
    assert_eq!(lines_with_code(&published.diagnostics, "expression"), [12]);
    assert_eq!(
        lines_with_code(&published.diagnostics, "unknown-source"),
        Vec::<u32>::new()
    );
    client.replace("app.yaml", 4, TEXT).await;
    let repaired = client.diagnostics("app.yaml").await;
    assert_eq!(repaired.version, Some(4));
    assert_eq!(codes(&repaired.diagnostics), Vec::<String>::new());
}

#[tokio::test]
async fn incremental_changes_are_applied_in_the_negotiated_encoding() {
    let mut client = TestClient::utf16().await;
    client.open("app.yaml", "yaml", MISTAKES).await;
    client.diagnostics("app.yaml").await;
    let appz = offset_of(MISTAKES, "appz");
    let start = utf16_position(MISTAKES, appz);
    let end = utf16_position(MISTAKES, appz + 4);
    client
        .notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": support::uri("app.yaml"), "version": 2 },
                "contentChanges": [{ "range": { "start": start, "end": end }, "text": "apps" }],
            }),
        )
        .await;
    let published = client.diagnostics("app.yaml").await;
    assert_eq!(published.version, Some(2));
    let codes = codes(&published.diagnostics);
    assert!(codes.contains(&"unknown-field".to_owned()), "{codes:?}");
    assert!(!codes.contains(&"unknown-source".to_owned()), "{codes:?}");
}

#[tokio::test]
async fn closing_a_document_clears_its_diagnostics() {
    let mut client = TestClient::utf16().await;
    client.open("app.yaml", "yaml", MISTAKES).await;
    assert!(!client.diagnostics("app.yaml").await.diagnostics.is_empty());
    client
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": support::uri("app.yaml") } }),
        )
        .await;
    assert!(client.diagnostics("app.yaml").await.diagnostics.is_empty());
}

#[tokio::test]
async fn a_quick_fix_is_a_workspace_edit_that_repairs_the_diagnostic() {
    let mut client = TestClient::utf16().await;
    client.open("app.yaml", "yaml", MISTAKES).await;
    client.diagnostics("app.yaml").await;
    let actions = client.code_actions("app.yaml", MISTAKES, "urll").await;
    let rename = actions
        .iter()
        .find(|action| {
            action["title"]
                .as_str()
                .is_some_and(|title| title.contains("`url`"))
        })
        .unwrap_or_else(|| panic!("a rename to `url` among {actions:#?}"));
    assert_eq!(rename["kind"], "quickfix");
    assert_eq!(rename["isPreferred"], true);
    assert_eq!(rename["diagnostics"][0]["code"], "unknown-field");
    let edits = rename["edit"]["changes"][support::uri("app.yaml")]
        .as_array()
        .expect("edits for the document")
        .clone();
    let fixed = apply_edits(MISTAKES, &edits);
    assert!(
        fixed.contains("      url: https://example.invalid/apps\n"),
        "{fixed}"
    );
    client.replace("app.yaml", 2, &fixed).await;
    let published = client.diagnostics("app.yaml").await;
    assert!(!codes(&published.diagnostics).contains(&"unknown-field".to_owned()));
    assert!(
        client
            .code_actions("app.yaml", MISTAKES, "sources")
            .await
            .is_empty()
    );
}

#[tokio::test]
async fn quick_fixes_are_offered_only_to_clients_asking_for_them() {
    let mut client = TestClient::utf16().await;
    client.open("app.yaml", "yaml", MISTAKES).await;
    let offset = offset_of(MISTAKES, "urll");
    let answer = client
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": support::uri("app.yaml") },
                "range": { "start": utf16_position(MISTAKES, offset), "end": utf16_position(MISTAKES, offset) },
                "context": { "diagnostics": [], "only": ["refactor"] },
            }),
        )
        .await
        .expect("an answer");
    assert_eq!(answer, Value::Null);
}

#[tokio::test]
async fn hover_on_a_diagnostic_shows_its_rule_explanation() {
    let mut client = TestClient::utf16().await;
    client.open("app.yaml", "yaml", MISTAKES).await;
    let position = utf16_position(MISTAKES, offset_of(MISTAKES, "appz") + 2);
    let hover = client
        .at("textDocument/hover", "app.yaml", position, json!({}))
        .await
        .expect("a hover");
    let text = hover["contents"]["value"]
        .as_str()
        .expect("markdown contents");
    assert!(text.contains("`unknown-source`"), "{text}");
    assert!(
        text.contains(&Rule::UnknownSource.explanation_markdown()),
        "{text}"
    );
    assert_eq!(hover["contents"]["kind"], "markdown");
}

#[tokio::test]
async fn requests_about_documents_that_are_not_open_answer_nothing() {
    let mut client = TestClient::utf16().await;
    let position = tower_lsp_server::ls_types::Position::new(0, 0);
    let hover = client
        .at("textDocument/hover", "nowhere.yaml", position, json!({}))
        .await;
    assert_eq!(hover.expect("no error"), Value::Null);
}

#[tokio::test]
async fn every_prefix_of_a_document_is_answered_without_error() {
    // Half-typed text is the common case while editing: every prefix, hovered everywhere.
    let mut client = TestClient::utf16().await;
    client.open("app.yaml", "yaml", "").await;
    let boundaries: Vec<usize> = MISTAKES
        .char_indices()
        .map(|(index, _)| index)
        .step_by(3)
        .collect();
    let mut described = 0;
    for (version, end) in boundaries.iter().enumerate() {
        let prefix = &MISTAKES[..*end];
        client.replace("app.yaml", version as i32 + 2, prefix).await;
        for probe in [0, boundaries[version / 2], *end] {
            let position = utf16_position(prefix, probe);
            let hover = client
                .at("textDocument/hover", "app.yaml", position, json!({}))
                .await;
            let hover =
                hover.unwrap_or_else(|error| panic!("hover at {probe} of {prefix:?}: {error:?}"));
            // Nothing, or a markdown text that says something.
            assert!(
                hover.is_null()
                    || (hover["contents"]["kind"] == "markdown"
                        && hover["contents"]["value"]
                            .as_str()
                            .is_some_and(|text| !text.trim().is_empty())),
                "hover at {probe} of {prefix:?}: {hover}"
            );
            described += usize::from(!hover.is_null());
        }
    }
    // The probes land on keys and names often enough that hovers say something.
    assert!(described > 30, "only {described} hovers described anything");
}

#[tokio::test]
async fn the_syntax_comes_from_the_file_name_when_the_language_id_says_nothing() {
    let text = "[data.sources.apps]\ntype = \"http\"\nurll = \"https://example.invalid\"\n";
    let mut client = TestClient::utf16().await;
    client.open("app.toml", "plaintext", text).await;
    let published = client.diagnostics("app.toml").await;
    assert!(codes(&published.diagnostics).contains(&"unknown-field".to_owned()));
    client.open("notes.txt", "plaintext", text).await;
    client.open("after.toml", "toml", text).await;
    let next = client.publication().await;
    assert_eq!(
        next.uri.as_str(),
        support::uri("after.toml"),
        "a file that is neither YAML nor TOML is not ours: nothing is published for it"
    );
}

#[tokio::test]
async fn a_syntax_error_that_loses_the_sources_block_is_still_published() {
    let text = "a: b: c\ndata:\n  sources:\n    x: {type: http, url: \"https://e.invalid\"}\n";
    let mut client = TestClient::utf16().await;
    client.open("broken.yaml", "yaml", text).await;
    let published = client.diagnostics("broken.yaml").await;
    let linted = sources_check::analyze(text, Syntax::Yaml);
    assert!(!linted.has_sources, "the parser lost the block");
    let shown: Vec<(String, u32)> = published
        .diagnostics
        .iter()
        .map(|diagnostic| (diagnostic.message.clone(), diagnostic.range.start.line))
        .collect();
    assert_eq!(
        shown,
        vec![(
            "mapping values are not allowed in this context; a value that contains `: ` must be \
             quoted"
                .to_owned(),
            0
        )],
        "the editor shows what `sources lint` shows"
    );
    assert_eq!(linted.diagnostics.len(), 1);
}

#[tokio::test]
async fn past_the_limit_one_summary_says_how_many_were_left_out() {
    let mut text = "data:\n  sources:\n".to_owned();
    for index in 0..5 {
        text.push_str(&format!(
            "    s{index}:\n      type: http\n      url: https://e.invalid\n      urll: x\n"
        ));
    }
    let mut client = TestClient::start(
        Options {
            max_published_diagnostics: 3,
        },
        json!({}),
    )
    .await;
    client.open("many.yaml", "yaml", &text).await;
    let published = client.diagnostics("many.yaml").await;
    assert_eq!(
        published.diagnostics.len(),
        4,
        "{:?}",
        published.diagnostics
    );
    assert_eq!(codes(&published.diagnostics[..3]), vec!["unknown-field"; 3]);
    let summary = &published.diagnostics[3];
    assert_eq!(
        summary.message,
        "2 more problems from here on are not shown: the editor shows the first 3; run \
         `sources lint` on this file to see them all"
    );
    assert_eq!(summary.range.start.line, 17, "at the first one left out");
    assert_eq!(summary.severity, Some(DiagnosticSeverity::INFORMATION));
}

/// Asserts that `published` is only the refusal of a binary file, naming its NUL byte at `offset`.
fn assert_refused_as_binary_at(published: &PublishDiagnosticsParams, offset: usize) {
    let shown: Vec<&str> = published
        .diagnostics
        .iter()
        .map(|diagnostic| diagnostic.message.as_str())
        .collect();
    assert_eq!(
        shown,
        vec![format!(
            "this is a binary file (a NUL byte at offset {offset}), not YAML or TOML text\nhelp: \
             name a YAML or TOML configuration file"
        )]
    );
}

#[tokio::test]
async fn a_nul_byte_typed_into_an_edited_document_is_refused_and_its_removal_analysed_again() {
    let mut client = TestClient::utf16().await;
    let text = "data:\n  sources:\n    a:\n      type: http\n      url: x\n      refresh: 1s\n";
    client.open("typed.yaml", "yaml", text).await;
    client.diagnostics("typed.yaml").await;
    // Edited versions keep a tree: the next one is compared with the last analysed.
    client.replace("typed.yaml", 2, text).await;
    let clean = client.diagnostics("typed.yaml").await.diagnostics;
    let with_nul = text.replace("url: x", "url: \0x");
    client.replace("typed.yaml", 3, &with_nul).await;
    let published = client.diagnostics("typed.yaml").await;
    assert_refused_as_binary_at(&published, 52);
    client.replace("typed.yaml", 4, text).await;
    assert_eq!(client.diagnostics("typed.yaml").await.diagnostics, clean);
}

#[tokio::test]
async fn the_cli_checks_before_analysis_apply_in_the_editor() {
    let mut client = TestClient::utf16().await;
    client
        .open("binary.yaml", "yaml", "data:\n  sources:\0\n")
        .await;
    let published = client.diagnostics("binary.yaml").await;
    assert_refused_as_binary_at(&published, 16);
    let huge = format!("data:\n  sources:\n{}", "#".repeat(17 * 1024 * 1024));
    client.replace("binary.yaml", 2, &huge).await;
    let published = client.diagnostics("binary.yaml").await;
    assert_eq!(published.version, Some(2));
    assert_eq!(published.diagnostics.len(), 1);
    assert!(
        published.diagnostics[0]
            .message
            .starts_with("the file is 17.0 MiB, over the 16 MiB limit for configuration files"),
        "{}",
        published.diagnostics[0].message
    );
}
