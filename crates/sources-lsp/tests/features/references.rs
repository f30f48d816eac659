//! Definition, references and rename, of entries and parameters, in YAML and TOML.

use serde_json::{Value, json};

use super::support::{TestClient, cursor, offset_of, utf16_position};
use super::*;

fn range_text<'a>(text: &'a str, range: &Value) -> &'a str {
    let index = sources_syntax::LineIndex::new(text);
    let offset = |position: &Value| {
        index
            .offset(
                position["line"].as_u64().unwrap_or_default() as u32,
                position["character"].as_u64().unwrap_or_default() as u32,
                sources_syntax::PositionEncoding::Utf16,
            )
            .unwrap_or(text.len())
    };
    &text[offset(&range["start"])..offset(&range["end"])]
}

#[tokio::test]
async fn definition_jumps_from_references_and_tokens_to_declarations() {
    let (mut client, text, position) = open(&at("from: listing", 0, 9)).await;
    let location = client
        .at("textDocument/definition", "f.yaml", position, json!({}))
        .await
        .expect("a location");
    assert_eq!(
        location["range"]["start"],
        json!(utf16_position(&text, offset_of(&text, "listing:")))
    );
    assert_eq!(range_text(&text, &location["range"]), "listing");

    let (mut client, text, position) = open(&at("${params.id}", 1, 10)).await;
    let location = client
        .at("textDocument/definition", "f.yaml", position, json!({}))
        .await
        .expect("a location");
    assert_eq!(
        location["range"]["start"],
        json!(utf16_position(
            &text,
            offset_of(&text, "id:\n          required")
        ))
    );

    let (mut client, text, position) = open(&at("id: name", 0, 1)).await;
    let location = client
        .at("textDocument/definition", "f.yaml", position, json!({}))
        .await
        .expect("a location");
    assert_eq!(
        location["range"]["start"],
        json!(utf16_position(
            &text,
            offset_of(&text, "id:\n          required")
        ))
    );
}

#[tokio::test]
async fn references_find_every_use_of_a_source_and_a_parameter() {
    let (mut client, text, position) = open(&at("apps:", 0, 1)).await;
    let found = client.references("f.yaml", position).await;
    let lines: Vec<u64> = found
        .iter()
        .filter_map(|l| l["range"]["start"]["line"].as_u64())
        .collect();
    let expected = [
        offset_of(&text, "apps:"),
        offset_of(&text, "source: apps") + 8,
    ];
    assert_eq!(
        lines,
        expected.map(|offset| u64::from(utf16_position(&text, offset).line))
    );

    let (mut client, text, position) = open(&at("id:\n          required", 0, 0)).await;
    let found = client
        .at(
            "textDocument/references",
            "f.yaml",
            position,
            json!({ "context": { "includeDeclaration": false } }),
        )
        .await
        .expect("locations");
    let spans: Vec<&str> = found
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| range_text(&text, &l["range"]))
        .collect();
    assert_eq!(
        spans,
        ["id", "id", "id"],
        "two tokens and the join `on` key"
    );
}

#[tokio::test]
async fn rename_updates_the_declaration_and_every_reference() {
    let (mut client, text, position) = open(&at("from: listing", 0, 8)).await;
    let prepared = client
        .at("textDocument/prepareRename", "f.yaml", position, json!({}))
        .await
        .expect("a range");
    assert_eq!(prepared["placeholder"], "listing");
    let renamed = client
        .rename("f.yaml", &text, position, "rows")
        .await
        .expect("an edit");
    assert!(
        renamed.contains("    rows:\n      type: static"),
        "{renamed}"
    );
    assert!(renamed.contains("from: rows\n"), "{renamed}");
    assert!(!renamed.contains("listing"), "{renamed}");

    let refused = client
        .at(
            "textDocument/rename",
            "f.yaml",
            position,
            json!({ "newName": "apps" }),
        )
        .await;
    let error = refused.expect_err("`apps` is taken");
    assert!(
        error.message.contains("`apps` already exists"),
        "{}",
        error.message
    );
    let refused = client
        .at(
            "textDocument/rename",
            "f.yaml",
            position,
            json!({ "newName": "two words" }),
        )
        .await;
    let error = refused.expect_err("a name with a space is refused");
    assert!(
        error
            .message
            .contains("`two words` is not a valid name here"),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn rename_of_a_parameter_updates_tokens_and_join_keys() {
    let (mut client, text, position) = open(&at("${params.id}", 0, 10)).await;
    let renamed = client
        .rename("f.yaml", &text, position, "app_id")
        .await
        .expect("an edit");
    assert!(
        renamed.contains("apps/${params.app_id}?region=${params.app_id}"),
        "{renamed}"
    );
    assert!(
        renamed.contains("        app_id:\n          required: true"),
        "{renamed}"
    );
    assert!(renamed.contains("            app_id: name"), "{renamed}");
    assert!(
        renamed.contains("${params.region}"),
        "other parameters are untouched"
    );
}

#[tokio::test]
async fn rename_in_toml_updates_every_table_header_of_the_entry() {
    let fixture = "\
[data.sources.apps]
type = \"http\"
url = \"https://example.invalid\"
[data.sources.apps.window]
offset_param = \"o\"
limit_param = \"l\"
search_param = \"q\"
[data.sources.top]
type = \"passthrough\"
from = \"ap$0ps\"
";
    let (text, offset) = cursor(fixture);
    let mut client = TestClient::utf16().await;
    client.open("f.toml", "toml", &text).await;
    let position = utf16_position(&text, offset);
    let renamed = client
        .rename("f.toml", &text, position, "rows")
        .await
        .expect("an edit");
    assert!(renamed.contains("[data.sources.rows]\n"), "{renamed}");
    assert!(
        renamed.contains("[data.sources.rows.window]\n"),
        "{renamed}"
    );
    assert!(renamed.contains("from = \"rows\""), "{renamed}");
}

#[tokio::test]
async fn an_operators_parameters_are_found_in_its_expressions() {
    let fixture = "\
data:
  sources:
    rows:
      type: static
      data: [{name: a}]
    picked:
      type: filter
      from: rows
      where: name == params.wan$0ted || params.wanted == \"\"
      parameters:
        wanted:
          default: \"\"
";
    let (text, offset) = cursor(fixture);
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", &text).await;
    let position = utf16_position(&text, offset);
    let location = client
        .at("textDocument/definition", "f.yaml", position, json!({}))
        .await
        .expect("a location");
    assert_eq!(
        location["range"]["start"],
        json!(utf16_position(&text, offset_of(&text, "wanted:")))
    );
    let renamed = client
        .rename("f.yaml", &text, position, "choice")
        .await
        .expect("an edit");
    assert!(
        renamed.contains("where: name == params.choice || params.choice == \"\""),
        "{renamed}"
    );
    assert!(renamed.contains("        choice:\n"), "{renamed}");
}
