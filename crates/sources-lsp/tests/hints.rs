//! Protocol tests for inlay hints.

mod support;

use serde_json::{Value, json};
use support::{TestClient, uri};

const CONFIG: &str = "\
data:
  sources:
    apps:
      type: http
      url: http://x.invalid/apps?region=${params.region}&n=${params.n}
      refresh: 10s
      parameters:
        region:
          default: eu
        n:
          type: int
          default: \"3\"
      paginate:
        strategy: next_link
        next_path: next
    events:
      type: websocket
      url: wss://x.invalid/events
      timeout: 3s
    rows:
      type: static
      data: [1, 2]
";

/// The hints as (line, column, label), in order.
fn labels(hints: &Value) -> Vec<(u64, u64, String)> {
    hints
        .as_array()
        .expect("a list")
        .iter()
        .map(|hint| {
            (
                hint["position"]["line"].as_u64().expect("a line"),
                hint["position"]["character"].as_u64().expect("a character"),
                hint["label"].as_str().expect("a label").to_owned(),
            )
        })
        .collect()
}

async fn hints(client: &mut TestClient, start: u32, end: u32) -> Value {
    client
        .request(
            "textDocument/inlayHint",
            json!({
                "textDocument": { "uri": uri("f.yaml") },
                "range": { "start": { "line": start, "character": 0 }, "end": { "line": end, "character": 0 } }
            }),
        )
        .await
        .expect("hints")
}

#[tokio::test]
async fn cadence_unwritten_defaults_and_parameter_types() {
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", CONFIG).await;
    client.diagnostics("f.yaml").await;
    let url_line = CONFIG.lines().nth(4).expect("the url line");
    let after_region = (url_line.find("${params.region}").expect("region") + 16) as u64;
    let after_n = (url_line.find("${params.n}").expect("n") + 11) as u64;
    assert_eq!(
        labels(&hints(&mut client, 0, 30).await),
        [
            (2, 9, "polled every 10s · timeout: 10s".to_owned()),
            (4, after_region, ": string".to_owned()),
            (4, after_n, ": int".to_owned()),
            (12, 15, "max_pages: 20".to_owned()),
            (15, 11, "streamed".to_owned()),
            (19, 9, "one-shot".to_owned()),
        ]
    );
    // Only the hints inside the range asked for.
    assert_eq!(
        labels(&hints(&mut client, 15, 17).await),
        [(15, 11, "streamed".to_owned())]
    );
}

#[tokio::test]
async fn windows_show_their_page_size_and_anchor_defaults() {
    let text = "\
data:
  sources:
    logs:
      type: http
      url: http://x.invalid/logs?cursor=${window.cursor}&dir=${window.dir}&n=${window.limit}
      timeout: 5s
      window:
        cursor: id
        older: {before: \"${window.cursor}\"}
        newer: {after: \"${window.cursor}\"}
";
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", text).await;
    client.diagnostics("f.yaml").await;
    let found = labels(&hints(&mut client, 0, 20).await);
    assert!(
        found.contains(&(6, 13, "page_size: 100 · anchor: newest".to_owned())),
        "{found:?}"
    );
    assert!(found.contains(&(2, 9, "one-shot".to_owned())), "{found:?}");
}
