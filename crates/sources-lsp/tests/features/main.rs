//! Protocol tests for hover, completion, definition, references, rename and document symbols,
//! from fixtures with a `$0` cursor marker: one module for each, over the fixtures below.

mod completion;
mod hover;
mod references;
#[path = "../support/mod.rs"]
mod support;
mod symbols;

use serde_json::json;
use support::{TestClient, cursor, utf16_position};

const CONFIG: &str = "\
data:
  sources:
    apps:
      type: http
      url: https://example.invalid/apps/${params.region}
      refresh: 30s
      parameters:
        region:
          type: string
          default: eu
          description: Where the apps run
      window:
        page_size: 50
        offset_param: offset
        limit_param: limit
        search_param: q
    detail:
      type: http
      url: https://example.invalid/apps/${params.id}?region=${params.id}
      parameters:
        id:
          required: true
    listing:
      type: static
      data: [{name: a}, {name: b}]
    healthy:
      type: filter
      from: listing
      where: name != \"\"
    joined:
      type: join
      driver:
        from: healthy
      lookups:
        info:
          from: detail
          on:
            id: name
tui:
  components:
    - kind: table
      source: apps
";

/// Opens `fixture` (with its `$0` removed) and returns the client, the text and the cursor.
async fn open(fixture: &str) -> (TestClient, String, tower_lsp_server::ls_types::Position) {
    let (text, offset) = cursor(fixture);
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", &text).await;
    client.diagnostics("f.yaml").await;
    let position = utf16_position(&text, offset);
    (client, text, position)
}

/// `CONFIG` with `$0` inserted before the `nth` occurrence of `needle`, shifted by `shift` bytes.
fn at(needle: &str, nth: usize, shift: usize) -> String {
    let offset = CONFIG
        .match_indices(needle)
        .nth(nth)
        .map(|(index, _)| index)
        .expect("the needle is in CONFIG");
    let mut fixture = CONFIG.to_owned();
    fixture.insert_str(offset + shift, "$0");
    fixture
}

async fn hover_text(fixture: &str) -> String {
    let (mut client, _, position) = open(fixture).await;
    let hover = client
        .at("textDocument/hover", "f.yaml", position, json!({}))
        .await
        .expect("a hover response");
    hover["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}
