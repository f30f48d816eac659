//! `sources-lint.toml` in the language server: a rule turned off there is not published, and an
//! edit to the file applies at the next change, through a real client connection.

mod support;

use serde_json::json;
use support::TestClient;

const TEXT: &str = "data:\n  sources:\n    a: {type: static, data: [], bogus: 1}\n";

#[tokio::test]
async fn a_rule_turned_off_in_the_settings_file_is_not_published() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    let settings = dir.path().join("sources-lint.toml");
    std::fs::write(&settings, "[rules]\nunknown-field = \"warning\"\n").expect("write settings");
    let path = dir.path().join("sub/app.yaml");
    let uri = format!("file://{}", path.display());
    let mut client = TestClient::utf16().await;
    client
        .notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": TEXT } }),
        )
        .await;
    let published = client.publication().await;
    assert_eq!(published.uri.as_str(), uri);
    let codes: Vec<_> = published
        .diagnostics
        .iter()
        .map(|d| (d.code.clone(), d.severity))
        .collect();
    assert_eq!(
        codes,
        [(
            Some(tower_lsp_server::ls_types::NumberOrString::String(
                "unknown-field".into()
            )),
            Some(tower_lsp_server::ls_types::DiagnosticSeverity::WARNING)
        )]
    );
    std::fs::write(&settings, "[rules]\nunknown-field = \"off\"\n").expect("write settings");
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": TEXT }] }),
        )
        .await;
    let published = client.publication().await;
    assert!(
        published.diagnostics.is_empty(),
        "{:?}",
        published.diagnostics
    );
    std::fs::write(&settings, "[rules]\nunknown-fild = \"off\"\n").expect("write settings");
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 3 }, "contentChanges": [{ "text": TEXT }] }),
        )
        .await;
    let shown = client.message("window/showMessage").await;
    let message = shown
        .params()
        .map(|params| params["message"].to_string())
        .unwrap_or_default();
    assert!(
        message.contains(
            "sources-lint.toml:2:1`: unknown rule `unknown-fild`: did you mean `unknown-field`?"
        ),
        "{message}"
    );
}
