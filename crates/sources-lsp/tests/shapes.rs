//! The shapes of entries' data in the editor, through the protocol: hover on an entry name shows
//! its shape and where it comes from, completion inside expressions and component paths offers
//! the data's keys (nested after a dot), and references into the data are diagnosed, from exact
//! shapes and from samples recorded beside the document.

mod support;

use serde_json::{Value, json};
use support::{TestClient, complete_at, cursor, utf16_position};

const CONFIG: &str = "\
tui:
  components:
    people_table:
      type: table
      source: people
      columns:
        - {title: Name, value: $NAME}
data:
  sources:
    people:
      type: static
      data:
        - {name: Ada, owner: {team: core, since: 2020}}
        - {name: Bob}
    core:
      type: filter
      from: people
      where: $WHERE
";

fn fixture(name: &str, condition: &str) -> String {
    CONFIG.replace("$NAME", name).replace("$WHERE", condition)
}

async fn labels_at(fixture: &str) -> Vec<String> {
    complete_at(fixture, "f.yaml", "yaml").await.0
}

#[tokio::test]
async fn hover_on_an_entry_name_shows_its_shape_and_where_it_comes_from() {
    let (text, offset) =
        cursor(&fixture("name", "name != ''").replace("from: people", "from: peo$0ple"));
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", &text).await;
    let hover = client
        .at(
            "textDocument/hover",
            "f.yaml",
            utf16_position(&text, offset),
            json!({}),
        )
        .await
        .expect("a hover");
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.contains("Data (exact, from static data)"), "{value}");
    assert!(
        value.contains("[{name: string, owner?: {since: number, team: string}}]"),
        "{value}"
    );
}

#[tokio::test]
async fn completion_offers_the_datas_keys_in_expressions_and_paths() {
    assert_eq!(labels_at(&fixture("name", "na$0")).await, ["name", "owner"]);
    assert_eq!(
        labels_at(&fixture("name", "owner.t$0")).await,
        ["since", "team"]
    );
    assert_eq!(
        labels_at(&fixture("owner.$0", "name != ''")).await,
        ["since", "team"]
    );
}

#[tokio::test]
async fn a_reference_the_data_does_not_have_is_diagnosed_with_its_keys() {
    let mut client = TestClient::utf16().await;
    client
        .open("f.yaml", "yaml", &fixture("nme", "owner.tem == 'core'"))
        .await;
    let published = client.diagnostics("f.yaml").await;
    let messages: Vec<(String, String)> = published
        .diagnostics
        .iter()
        .map(|diagnostic| {
            let code = match &diagnostic.code {
                Some(tower_lsp_server::ls_types::NumberOrString::String(code)) => code.clone(),
                _ => String::new(),
            };
            (code, diagnostic.message.clone())
        })
        .collect();
    assert_eq!(
        messages,
        [
            (
                "unknown-data-field".to_owned(),
                "the `value` of column `Name` reads `nme`, but the rows of `people` have no such \
                 key (keys: `name`, `owner`)\nhelp: did you mean `name`? (the shape comes from \
                 static data)"
                    .to_owned()
            ),
            (
                "unknown-data-field".to_owned(),
                "`where` reads `tem`, but `owner` in the rows of `people` has no such key (keys: \
                 `since`, `team`)\nhelp: did you mean `team`? (the shape comes from static data)"
                    .to_owned()
            ),
        ]
    );
}

#[tokio::test]
async fn samples_beside_the_document_are_read_and_their_findings_are_warnings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("sources.yaml");
    let text = "\
data:
  sources:
    issues:
      type: http
      url: https://api.example.com/issues
    open:
      type: filter
      from: issues
      where: stat == 'open'
";
    std::fs::write(&path, text).expect("write");
    support::record_sample(
        &path,
        text,
        "issues",
        &json!([{"title": "a", "state": "open"}]),
    );
    let uri = format!("file://{}", path.display());
    let mut client = TestClient::utf16().await;
    client.open_uri(&uri, "yaml", text).await;
    let published = loop {
        let params = client.publication().await;
        if params.uri.as_str() == uri {
            break params;
        }
    };
    let found: Vec<(Value, String)> = published
        .diagnostics
        .iter()
        .map(|diagnostic| (json!(diagnostic.severity), diagnostic.message.clone()))
        .collect();
    assert_eq!(
        found,
        [(
            json!(2),
            "`where` reads `stat`, but the rows of `issues` have no such key (keys: `state`, \
             `title`)\nhelp: did you mean `state`? (the shape comes from a sample recorded \
             2026-11-26T07:00:00Z)"
                .to_owned()
        )]
    );
}

/// The hover on the entry name ending `needle` (a reference, `from: NAME`) in `name`.
async fn hover_on(client: &mut TestClient, name: &str, text: &str, needle: &str) -> String {
    let offset = support::offset_of(text, needle) + needle.len() - 2;
    let position = utf16_position(text, offset);
    client.hover_text(&support::uri(name), position).await
}

#[tokio::test]
async fn after_an_edit_hover_shows_the_shapes_a_freshly_opened_document_shows() {
    let first = format!(
        "{}    recent:\n      type: sort\n      from: core\n      by: name\n    \
         last:\n      type: cache\n      from: recent\n",
        fixture("name", "name != ''")
    );
    // Each edit changes one entry: the data of `people`, whose shape the others read (all are
    // worked out again), or only `core`'s condition (the shape of `people` is the one kept).
    let second = first.replace("{name: Bob}", "{name: Bob, age: 3}");
    let third = second.replace("where: name != ''", "where: name != 'x'");
    let fourth = third.replace("age: 3}", "age: 3, city: Oslo}");
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", &first).await;
    client.diagnostics("f.yaml").await;
    for (version, text) in [(2, &second), (3, &third), (4, &fourth)] {
        client.replace("f.yaml", version, text).await;
        client.diagnostics("f.yaml").await;
        let fresh = format!("fresh-{version}.yaml");
        client.open(&fresh, "yaml", text).await;
        client.diagnostics(&fresh).await;
        for needle in ["from: people", "from: core", "from: recent"] {
            let edited = hover_on(&mut client, "f.yaml", text, needle).await;
            assert!(edited.contains("age?: number"), "{needle}: {edited}");
            assert_eq!(
                edited,
                hover_on(&mut client, &fresh, text, needle).await,
                "{needle}, version {version}"
            );
        }
    }
}
