//! Document symbols: the outline of entries with their kinds, parameters and window.

use serde_json::Value;

use super::*;

fn outline_names(symbols: &Value) -> Vec<String> {
    symbols
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["name"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn document_symbols_list_sources_with_kinds_parameters_and_window() {
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", CONFIG).await;
    client.diagnostics("f.yaml").await;
    let params = json!({ "textDocument": { "uri": support::uri("f.yaml") } });
    let symbols = client
        .request("textDocument/documentSymbol", params.clone())
        .await
        .expect("symbols");
    assert_eq!(
        outline_names(&symbols),
        ["apps", "detail", "listing", "healthy", "joined"]
    );
    let apps = &symbols[0];
    assert!(
        apps["detail"]
            .as_str()
            .unwrap_or_default()
            .starts_with("http · polled every `30s`"),
        "{apps}"
    );
    assert_eq!(outline_names(&apps["children"]), ["region", "window"]);
    assert_eq!(apps["children"][0]["detail"], "string");
    assert_eq!(symbols[3]["detail"], "filter · operator over `listing`");

    // Half-typed: the broken version keeps the last clean outline.
    client
        .replace(
            "f.yaml",
            2,
            &CONFIG.replace("    detail:\n", "    detail: [\n"),
        )
        .await;
    let published = client.diagnostics("f.yaml").await;
    assert!(
        published.diagnostics.iter().any(|d| d.code
            == Some(tower_lsp_server::ls_types::NumberOrString::String(
                "syntax".into()
            ))),
        "the edit breaks the syntax: {:?}",
        published.diagnostics
    );
    let symbols = client
        .request("textDocument/documentSymbol", params)
        .await
        .expect("symbols");
    assert_eq!(
        outline_names(&symbols),
        ["apps", "detail", "listing", "healthy", "joined"]
    );
}
