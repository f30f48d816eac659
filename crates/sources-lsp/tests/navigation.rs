//! Protocol tests for document highlight, folding and selection ranges, pull diagnostics and
//! workspace symbols.

mod support;

use serde_json::{Value, json};
use support::{TestClient, uri, utf16_position};

const CONFIG: &str = "\
data:
  sources:
    apps:
      type: http
      url: http://x.invalid/apps
      window:
        page_size: 10
        offset_param: o
        limit_param: l
    up:
      type: filter
      from: apps
      where: ok
tui:
  components:
    - kind: table
      source: apps
";

async fn open() -> TestClient {
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", CONFIG).await;
    client.diagnostics("f.yaml").await;
    client
}

fn lines(ranges: &Value, field: &str) -> Vec<(u64, u64)> {
    ranges
        .as_array()
        .expect("a list")
        .iter()
        .map(|range| {
            (
                range[field]["start"]["line"].as_u64().expect("a line"),
                range[field]["start"]["character"]
                    .as_u64()
                    .expect("a character"),
            )
        })
        .collect()
}

#[tokio::test]
async fn highlight_marks_the_declaration_and_every_use() {
    let mut client = open().await;
    let at = utf16_position(CONFIG, CONFIG.find("from: apps").expect("from") + 7);
    let highlights = client
        .at("textDocument/documentHighlight", "f.yaml", at, json!({}))
        .await
        .expect("highlights");
    assert_eq!(lines(&highlights, "range"), [(2, 4), (11, 12), (16, 14)]);
    let kinds: Vec<u64> = highlights
        .as_array()
        .expect("a list")
        .iter()
        .map(|highlight| highlight["kind"].as_u64().expect("a kind"))
        .collect();
    assert_eq!(kinds, [3, 2, 2], "write at the declaration, read at uses");
}

#[tokio::test]
async fn folding_ranges_cover_entries_and_blocks() {
    let mut client = open().await;
    let ranges = client
        .request(
            "textDocument/foldingRange",
            json!({ "textDocument": { "uri": uri("f.yaml") } }),
        )
        .await
        .expect("folding ranges");
    let spans: Vec<(u64, u64)> = ranges
        .as_array()
        .expect("a list")
        .iter()
        .map(|range| {
            (
                range["startLine"].as_u64().expect("start"),
                range["endLine"].as_u64().expect("end"),
            )
        })
        .collect();
    assert_eq!(spans, [(2, 8), (5, 8), (9, 12)]);
}

#[tokio::test]
async fn selection_grows_from_the_name_to_the_block_to_the_entry() {
    let mut client = open().await;
    let at = utf16_position(CONFIG, CONFIG.find("page_size").expect("page_size") + 2);
    let result = client
        .request(
            "textDocument/selectionRange",
            json!({ "textDocument": { "uri": uri("f.yaml") }, "positions": [at] }),
        )
        .await
        .expect("selection ranges");
    let mut chain = Vec::new();
    let mut range = &result[0];
    while !range.is_null() {
        chain.push((
            range["range"]["start"]["line"].as_u64().expect("a line"),
            range["range"]["end"]["line"].as_u64().expect("a line"),
        ));
        range = &range["parent"];
    }
    // The window block (lines 5–8), then the whole entry from its name (lines 2–8 or 9).
    assert_eq!(chain[0], (5, 8), "{result}");
    assert_eq!(chain.last().map(|(start, _)| *start), Some(2), "{result}");
}

#[tokio::test]
async fn pull_diagnostics_match_the_pushed_ones() {
    let mut client = TestClient::utf16().await;
    let broken = CONFIG.replace("from: apps", "from: apss");
    client.open("f.yaml", "yaml", &broken).await;
    let pushed = client.diagnostics("f.yaml").await;
    let pulled = client
        .request(
            "textDocument/diagnostic",
            json!({ "textDocument": { "uri": uri("f.yaml") } }),
        )
        .await
        .expect("a report");
    assert_eq!(pulled["kind"], "full");
    assert_eq!(
        pulled["items"],
        serde_json::to_value(&pushed.diagnostics).expect("JSON")
    );
    let codes: Vec<&str> = pulled["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["code"].as_str().expect("a code"))
        .collect();
    assert!(codes.contains(&"unknown-source"), "{codes:?}");
    let workspace = client
        .request("workspace/diagnostic", json!({ "previousResultIds": [] }))
        .await
        .expect("a workspace report");
    assert_eq!(workspace["items"][0]["uri"], uri("f.yaml"));
    assert_eq!(workspace["items"][0]["version"], 1);
    assert_eq!(workspace["items"][0]["items"], pulled["items"]);
}

#[tokio::test]
async fn workspace_symbols_come_from_open_documents_and_files_on_disk() {
    let root = std::env::temp_dir().join(format!("sources-lsp-symbols-{}", std::process::id()));
    let nested = root.join("dashboards");
    std::fs::create_dir_all(&nested).expect("a temporary folder");
    std::fs::write(
        nested.join("ops.toml"),
        "[data.sources.apple_pies]\ntype = \"static\"\ndata = []\n",
    )
    .expect("a file");
    std::fs::write(nested.join("notes.yaml"), "apps: not a configuration\n").expect("a file");
    let root_uri = format!("file://{}", root.display());
    let mut client = TestClient::start_in(&root_uri).await;
    client.open("f.yaml", "yaml", CONFIG).await;
    client.diagnostics("f.yaml").await;
    let symbols = client
        .request("workspace/symbol", json!({ "query": "ap" }))
        .await
        .expect("symbols");
    let found: Vec<(String, String)> = symbols
        .as_array()
        .expect("a list")
        .iter()
        .map(|symbol| {
            (
                symbol["name"].as_str().expect("a name").to_owned(),
                symbol["location"]["uri"]
                    .as_str()
                    .expect("a URI")
                    .to_owned(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("apps".to_owned(), uri("f.yaml")),
            (
                "apple_pies".to_owned(),
                format!("{root_uri}/dashboards/ops.toml")
            ),
        ]
    );
    std::fs::remove_dir_all(&root).expect("cleaned up");
}
