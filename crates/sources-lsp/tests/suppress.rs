//! The "Suppress `RULE` on this line" code action, through a real client connection.

mod support;

use support::{TestClient, apply_edits};

const TEXT: &str = "\
data:
  sources:
    apps:
      type: http
      url: https://example.invalid/apps
      urll: https://example.invalid/apps
";

#[tokio::test]
async fn suppressing_a_diagnostic_silences_it_and_nothing_is_left_unused() {
    let mut client = TestClient::utf16().await;
    client.open("app.yaml", "yaml", TEXT).await;
    client.diagnostics("app.yaml").await;
    let actions = client.code_actions("app.yaml", TEXT, "urll").await;
    let suppress = actions
        .iter()
        .find(|action| action["title"] == "Suppress `unknown-field` on this line")
        .unwrap_or_else(|| panic!("a suppress action among {actions:#?}"));
    assert_eq!(suppress["kind"], "quickfix");
    assert_eq!(suppress["isPreferred"], false);
    let edits = suppress["edit"]["changes"][support::uri("app.yaml")]
        .as_array()
        .expect("edits")
        .clone();
    let suppressed = apply_edits(TEXT, &edits);
    assert!(
        suppressed.contains(
            "      urll: https://example.invalid/apps  # sources: ignore[unknown-field]\n"
        ),
        "{suppressed}"
    );
    client.replace("app.yaml", 2, &suppressed).await;
    let published = client.diagnostics("app.yaml").await;
    assert!(
        published.diagnostics.is_empty(),
        "{:#?}",
        published.diagnostics
    );
}
