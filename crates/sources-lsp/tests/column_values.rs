//! A table column's sample value in the editor, through the protocol: hover on a column's `value`
//! path shows the value the first row gives there (a sample recorded beside the document, or
//! inline static data), else the type the shape gives; an inlay hint after each column's `value`
//! shows it only when `sources.inlayHints.sampleValues` is on.

mod support;

use serde_json::json;
use support::{TestClient, offset_of, utf16_position};

const TEXT: &str = "\
tui:
  components:
    issues_table:
      type: table
      source: issues
      columns:
        - {title: Title, value: title}
        - {title: State, value: [status.label, state]}
    people_table:
      type: table
      source: people
      columns:
        - {title: Name, value: name}
    apps_table:
      type: table
      source: apps
      columns:
        - {title: Name, value: name}
data:
  sources:
    issues:
      type: http
      url: https://api.example.com/issues
    people:
      type: static
      data:
        - {name: Ada Lovelace, team: core}
    apps:
      type: project
      from: people
      keep: {name: name}
";

/// The document written beside a sample of `issues`, opened; the client and the document's URI.
async fn opened(dir: &std::path::Path) -> (TestClient, String) {
    let path = dir.join("sources.yaml");
    std::fs::write(&path, TEXT).expect("write");
    support::record_sample(
        &path,
        TEXT,
        "issues",
        &json!([{"title": "Crash on start", "state": "open"}, {"title": "b"}]),
    );
    let uri = format!("file://{}", path.display());
    let mut client = TestClient::utf16().await;
    client.open_uri(&uri, "yaml", TEXT).await;
    (client, uri)
}

async fn hover(client: &mut TestClient, uri: &str, needle: &str) -> String {
    let position = utf16_position(TEXT, offset_of(TEXT, needle) + 1);
    client.hover_text(uri, position).await
}

#[tokio::test]
async fn hover_on_a_column_value_shows_the_first_rows_value_or_the_type() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut client, uri) = opened(dir.path()).await;
    assert_eq!(
        hover(&mut client, &uri, "title}").await,
        "**`title`** — sample value `\"Crash on start\"` (the first row of `issues`, from a \
         sample recorded 2026-11-26T07:00:00Z)"
    );
    assert_eq!(
        hover(&mut client, &uri, "status.label").await,
        "**`status.label`** — no value in the sample row (the first row of `issues`, from a \
         sample recorded 2026-11-26T07:00:00Z)"
    );
    assert_eq!(
        hover(&mut client, &uri, "name}\n    apps_table").await,
        "**`name`** — sample value `\"Ada Lovelace\"` (the first row of `people`, from static \
         data)"
    );
    assert_eq!(
        hover(&mut client, &uri, "name}\ndata").await,
        "**`name`** — string (no sample value: the type, from static data)"
    );
}

async fn hints(client: &mut TestClient, uri: &str) -> Vec<(u64, String)> {
    let hints = client.inlay_hints(uri, 0, 19).await;
    hints
        .iter()
        .filter_map(|hint| {
            let label = hint["label"].as_str()?;
            label.starts_with("= ").then(|| {
                (
                    hint["position"]["line"].as_u64().expect("a line"),
                    label.to_owned(),
                )
            })
        })
        .collect()
}

#[tokio::test]
async fn sample_value_hints_are_off_until_the_setting_turns_them_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut client, uri) = opened(dir.path()).await;
    assert_eq!(hints(&mut client, &uri).await, [], "off by default");
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": { "sources": { "inlayHints": { "sampleValues": true } } } }),
        )
        .await;
    let shown: Vec<(u64, String)> = hints(&mut client, &uri).await;
    assert_eq!(
        shown,
        [
            (6, "= \"Crash on start\"".to_owned()),
            (7, "= \"open\"".to_owned()),
            (12, "= \"Ada Lovelace\"".to_owned()),
        ],
        "the fallback list gives its first non-empty value; an operator has no row"
    );
}
