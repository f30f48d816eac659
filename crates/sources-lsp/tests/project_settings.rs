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
    client.open_uri(&uri, "yaml", TEXT).await;
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
    client.replace_uri(&uri, 2, TEXT).await;
    let published = client.publication().await;
    assert!(
        published.diagnostics.is_empty(),
        "{:?}",
        published.diagnostics
    );
    std::fs::write(&settings, "[rules]\nunknown-fild = \"off\"\n").expect("write settings");
    client.replace_uri(&uri, 3, TEXT).await;
    let shown = client.message("window/showMessage").await;
    let message = shown
        .params()
        .map(|params| params["message"].to_string())
        .unwrap_or_default();
    assert!(
        message.contains(
            "sources-lint.toml:2:1: error[invalid-settings]: unknown rule `unknown-fild`: did you \
             mean `unknown-field`?"
        ),
        "{message}"
    );
}

/// Opens `text` as `sub/app.yaml` under `dir` in a client that watches files for the server,
/// and returns the client, the document's URI and its first publication.
async fn open_watched(
    dir: &std::path::Path,
    text: &str,
) -> (
    TestClient,
    String,
    tower_lsp_server::ls_types::PublishDiagnosticsParams,
) {
    let path = dir.join("sub/app.yaml");
    let uri = format!("file://{}", path.display());
    let mut client = TestClient::start(
        sources_lsp::Options::default(),
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } }),
    )
    .await;
    let registration = client.message("client/registerCapability").await;
    let registrations = registration
        .params()
        .map(|params| params["registrations"].clone())
        .unwrap_or_default();
    assert_eq!(
        registrations,
        json!([{
            "id": "workspace/didChangeWatchedFiles",
            "method": "workspace/didChangeWatchedFiles",
            "registerOptions": { "watchers": [
                { "globPattern": "**/sources-lint.toml" },
                { "globPattern": "**/.sources-lint.toml" },
            ] },
        }])
    );
    client.open_uri(&uri, "yaml", text).await;
    let published = client.publication().await;
    (client, uri, published)
}

/// Tells the server that `path` changed (LSP file change type 2).
async fn changed(client: &mut TestClient, path: &std::path::Path) {
    client
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": format!("file://{}", path.display()), "type": 2 }] }),
        )
        .await;
}

#[tokio::test]
async fn a_changed_settings_file_republishes_open_documents_without_an_edit() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    let (mut client, uri, published) = open_watched(dir.path(), TEXT).await;
    assert_eq!(published.uri.as_str(), uri);
    assert_eq!(published.version, Some(1));
    assert_eq!(
        published.diagnostics[0].severity,
        Some(tower_lsp_server::ls_types::DiagnosticSeverity::ERROR)
    );
    // The hidden name, created next to the document: the same version, now a warning.
    let hidden = dir.path().join("sub/.sources-lint.toml");
    std::fs::write(&hidden, "[rules]\nunknown-field = \"warning\"\n").expect("write settings");
    changed(&mut client, &hidden).await;
    let published = client.publication().await;
    assert_eq!(
        (published.uri.as_str(), published.version),
        (uri.as_str(), Some(1))
    );
    let severities: Vec<_> = published.diagnostics.iter().map(|d| d.severity).collect();
    assert_eq!(
        severities,
        [Some(
            tower_lsp_server::ls_types::DiagnosticSeverity::WARNING
        )]
    );
    // The plain name wins over the hidden one in the same directory: off.
    let plain = dir.path().join("sub/sources-lint.toml");
    std::fs::write(&plain, "[rules]\nunknown-field = \"off\"\n").expect("write settings");
    changed(&mut client, &plain).await;
    let published = client.publication().await;
    assert_eq!(published.version, Some(1));
    assert!(
        published.diagnostics.is_empty(),
        "{:?}",
        published.diagnostics
    );
}

#[tokio::test]
async fn a_settings_file_made_invalid_is_reported_when_it_changes() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    let (mut client, _, _) = open_watched(dir.path(), TEXT).await;
    let settings = dir.path().join("sources-lint.toml");
    std::fs::write(&settings, "[rules]\nunknown-field = \"of\"\n").expect("write settings");
    changed(&mut client, &settings).await;
    let shown = client.message("window/showMessage").await;
    let message = shown
        .params()
        .map(|params| params["message"].to_string())
        .unwrap_or_default();
    assert!(
        message.contains(&format!(
            "{}:2:17: error[invalid-settings]: ",
            settings.display()
        )) && message.contains("`error`, `warning` or `off`"),
        "{message}"
    );
    // Without the settings, the document's diagnostics are published at their default level.
    let published = client.publication().await;
    assert_eq!(published.version, Some(1));
    assert_eq!(
        published.diagnostics[0].severity,
        Some(tower_lsp_server::ls_types::DiagnosticSeverity::ERROR)
    );
}

#[tokio::test]
async fn a_changed_expression_language_republishes_open_documents_read_in_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    let text = "data:\n  sources:\n    users: {type: static, data: [{name: ada}]}\n    \
                long:\n      type: filter\n      from: users\n      where: \"len(name) > 2\"\n";
    let (mut client, uri, published) = open_watched(dir.path(), text).await;
    let codes = |published: &tower_lsp_server::ls_types::PublishDiagnosticsParams| {
        published
            .diagnostics
            .iter()
            .map(|diagnostic| format!("{:?}", diagnostic.code))
            .collect::<Vec<_>>()
    };
    // CEL has no `len`: one `unknown-function`, and the file's note naming the setting.
    let found = codes(&published);
    assert!(
        found.iter().any(|code| code.contains("unknown-function")),
        "{found:?}"
    );
    let settings = dir.path().join("sources-lint.toml");
    std::fs::write(&settings, "[expressions]\nlanguage = \"expr\"\n").expect("write settings");
    changed(&mut client, &settings).await;
    let published = client.publication().await;
    assert_eq!(
        (published.uri.as_str(), published.version),
        (uri.as_str(), Some(1))
    );
    assert!(published.diagnostics.is_empty(), "{:?}", codes(&published));
    // And back: read as CEL again.
    std::fs::write(&settings, "[expressions]\nlanguage = \"cel\"\n").expect("write settings");
    changed(&mut client, &settings).await;
    let published = client.publication().await;
    let found = codes(&published);
    assert!(
        found.iter().any(|code| code.contains("unknown-function")),
        "{found:?}"
    );
}
