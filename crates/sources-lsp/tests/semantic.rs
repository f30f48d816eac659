//! Protocol tests for semantic tokens (full, range, delta) through the server's JSON-RPC service.

mod support;

use serde_json::{Value, json};
use support::{TestClient, uri};

const CONFIG: &str = "\
data:
  sources:
    apps:
      type: http
      url: \"https://example.invalid/${params.region}?c=${window.cursor}&k=${env.API_KEY}\"
      refresh: 10s
      parameters:
        region:
          default: eu
    up:
      type: filter
      from: apps
      where: \"status == 'up' && size(tags) > 2\"
";

/// One decoded token: its text in the document, type name and modifier names.
#[derive(Debug, PartialEq)]
struct Token {
    text: String,
    kind: String,
    modifiers: Vec<String>,
}

/// Decodes the relative integers of a tokens result against the legend (UTF-16 columns; the test
/// texts are ASCII, so columns are bytes).
fn decode(text: &str, legend: &Value, data: &[Value]) -> Vec<Token> {
    let lines: Vec<&str> = text.split('\n').collect();
    let types = legend["tokenTypes"].as_array().expect("token types");
    let modifiers = legend["tokenModifiers"]
        .as_array()
        .expect("token modifiers");
    let numbers: Vec<u64> = data
        .iter()
        .map(|n| n.as_u64().expect("an integer"))
        .collect();
    let (mut line, mut column) = (0usize, 0usize);
    numbers
        .chunks(5)
        .map(|chunk| {
            let [delta_line, delta_start, length, kind, bits] = chunk else {
                panic!("tokens come in fives: {chunk:?}");
            };
            if *delta_line > 0 {
                column = 0;
            }
            line += *delta_line as usize;
            column += *delta_start as usize;
            Token {
                text: lines[line][column..column + *length as usize].to_owned(),
                kind: types[*kind as usize].as_str().expect("a type").to_owned(),
                modifiers: modifiers
                    .iter()
                    .enumerate()
                    .filter(|(index, _)| bits & (1 << index) != 0)
                    .map(|(_, name)| name.as_str().expect("a modifier").to_owned())
                    .collect(),
            }
        })
        .collect()
}

fn token(text: &str, kind: &str, modifiers: &[&str]) -> Token {
    Token {
        text: text.to_owned(),
        kind: kind.to_owned(),
        modifiers: modifiers.iter().map(|m| (*m).to_owned()).collect(),
    }
}

async fn open(text: &str) -> (TestClient, Value) {
    let mut client = TestClient::utf16().await;
    let legend = client.initialized["capabilities"]["semanticTokensProvider"]["legend"].clone();
    client.open("f.yaml", "yaml", text).await;
    client.diagnostics("f.yaml").await;
    (client, legend)
}

async fn full(client: &mut TestClient) -> Value {
    client
        .request(
            "textDocument/semanticTokens/full",
            json!({ "textDocument": { "uri": uri("f.yaml") } }),
        )
        .await
        .expect("semantic tokens")
}

#[tokio::test]
async fn full_tokens_mark_names_kinds_keys_templates_cel_and_durations() {
    let (mut client, legend) = open(CONFIG).await;
    let capabilities = &client.initialized["capabilities"]["semanticTokensProvider"];
    assert_eq!(capabilities["range"], json!(true));
    assert_eq!(capabilities["full"], json!({ "delta": true }));
    let result = full(&mut client).await;
    let tokens = decode(CONFIG, &legend, result["data"].as_array().expect("data"));
    let expected = [
        token("apps", "variable", &["declaration"]),
        token("type", "property", &[]),
        token("http", "type", &[]),
        token("url", "property", &[]),
        token("${", "operator", &[]),
        token("params", "namespace", &[]),
        token("region", "parameter", &[]),
        token("}", "operator", &[]),
        token("window", "namespace", &[]),
        token("cursor", "property", &["defaultLibrary"]),
        token("env", "namespace", &[]),
        token("API_KEY", "variable", &["readonly"]),
        token("refresh", "property", &[]),
        token("10s", "number", &[]),
        token("region", "parameter", &["declaration"]),
        token("default", "property", &[]),
        token("up", "variable", &["declaration"]),
        token("filter", "type", &[]),
        token("apps", "variable", &[]),
        token("status", "variable", &[]),
        token("==", "operator", &[]),
        token("'up'", "string", &[]),
        token("&&", "operator", &[]),
        token("size", "function", &[]),
        token("tags", "variable", &[]),
        token("2", "number", &[]),
    ];
    // In document order, each expected token appears after the previous one.
    let mut rest = tokens.iter();
    for wanted in &expected {
        assert!(
            rest.any(|found| found == wanted),
            "{wanted:?} is among the tokens, in order: {tokens:#?}"
        );
    }
}

#[tokio::test]
async fn range_tokens_stay_inside_the_range() {
    let (mut client, legend) = open(CONFIG).await;
    let result = client
        .request(
            "textDocument/semanticTokens/range",
            json!({
                "textDocument": { "uri": uri("f.yaml") },
                "range": { "start": { "line": 10, "character": 0 }, "end": { "line": 12, "character": 0 } }
            }),
        )
        .await
        .expect("range tokens");
    let data = result["data"].as_array().expect("data");
    // The first token's line is relative to the document start.
    assert_eq!(
        data[0],
        json!(10),
        "the first token is on line 10: {data:?}"
    );
    let texts: Vec<String> = decode(CONFIG, &legend, data)
        .into_iter()
        .map(|token| token.text)
        .collect();
    assert_eq!(texts, ["type", "filter", "from", "apps"].map(str::to_owned));
}

#[tokio::test]
async fn delta_edits_turn_the_previous_result_into_the_new_one() {
    let (mut client, _) = open(CONFIG).await;
    let first = full(&mut client).await;
    let previous: Vec<Value> = first["data"].as_array().expect("data").clone();
    let changed = CONFIG.replace("size(tags) > 2", "size(tags) > 2 || ok");
    client.replace("f.yaml", 2, &changed).await;
    client.diagnostics("f.yaml").await;
    let delta = client
        .request(
            "textDocument/semanticTokens/full/delta",
            json!({
                "textDocument": { "uri": uri("f.yaml") },
                "previousResultId": first["resultId"],
            }),
        )
        .await
        .expect("a delta");
    assert_ne!(delta["resultId"], first["resultId"]);
    let edits = delta["edits"].as_array().expect("edits, not full tokens");
    assert_eq!(edits.len(), 1, "one edit: {delta}");
    let mut patched = previous;
    let start = edits[0]["start"].as_u64().expect("start") as usize;
    let delete = edits[0]["deleteCount"].as_u64().expect("deleteCount") as usize;
    let inserted = edits[0]["data"].as_array().cloned().unwrap_or_default();
    patched.splice(start..start + delete, inserted);
    let now = full(&mut client).await;
    assert_eq!(&patched, now["data"].as_array().expect("data"));
    // An unknown previous result gets the full tokens.
    let stale = client
        .request(
            "textDocument/semanticTokens/full/delta",
            json!({ "textDocument": { "uri": uri("f.yaml") }, "previousResultId": "nope" }),
        )
        .await
        .expect("full tokens");
    assert_eq!(stale["data"], now["data"]);
}

#[tokio::test]
async fn toml_templates_and_expressions_are_tokenized_through_escapes() {
    let text = "\
[data.sources.apps]
type = \"http\"
url = \"https://x.invalid/\\u0041/${params.id}\"
parameters = { id = { default = \"1\" } }

[data.sources.ok]
type = \"filter\"
from = \"apps\"
where = 'state == \"ok\"'
";
    let mut client = TestClient::utf16().await;
    let legend = client.initialized["capabilities"]["semanticTokensProvider"]["legend"].clone();
    client.open("f.toml", "toml", text).await;
    client.diagnostics("f.toml").await;
    let result = client
        .request(
            "textDocument/semanticTokens/full",
            json!({ "textDocument": { "uri": uri("f.toml") } }),
        )
        .await
        .expect("tokens");
    let tokens = decode(text, &legend, result["data"].as_array().expect("data"));
    for wanted in [
        token("id", "parameter", &[]),
        token("state", "variable", &[]),
        token("\"ok\"", "string", &[]),
        token("apps", "variable", &[]),
    ] {
        assert!(tokens.contains(&wanted), "{wanted:?} in {tokens:#?}");
    }
}

#[tokio::test]
async fn cel_in_compute_and_while_is_tokenized() {
    let text = "\
data:
  sources:
    job:
      type: http
      url: http://x.invalid/job
      refresh: 5s
    events:
      type: exec
      command: [page, \"--cursor=${window.cursor}\", \"--dir=${window.dir}\", \"--limit=${window.limit}\"]
      window:
        cursor: id
        growing:
          source: job
          while: status == 'running'
    sized:
      type: derive
      from: job
      compute:
        big: bytes > 1024
";
    let (mut client, legend) = open(text).await;
    let result = full(&mut client).await;
    let tokens = decode(text, &legend, result["data"].as_array().expect("data"));
    let expected = [
        token("while", "property", &[]),
        token("status", "variable", &[]),
        token("==", "operator", &[]),
        token("'running'", "string", &[]),
        token("compute", "property", &[]),
        token("bytes", "variable", &[]),
        token(">", "operator", &[]),
        token("1024", "number", &[]),
    ];
    let mut rest = tokens.iter();
    for wanted in &expected {
        assert!(
            rest.any(|found| found == wanted),
            "{wanted:?} is among the tokens, in order: {tokens:#?}"
        );
    }
}
