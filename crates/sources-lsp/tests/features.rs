//! Protocol tests for hover, completion, definition, references, rename and document symbols,
//! from fixtures with a `$0` cursor marker.

mod support;

use serde_json::{Value, json};
use support::{TestClient, complete_at, cursor, offset_of, utf16_position};

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
/// Renames the symbol at `position` of `file` (whose text is `text`) to `new_name` and returns the
/// text with the server's edits applied.
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

#[tokio::test]
async fn hover_on_a_field_key_shows_its_documentation() {
    let text = hover_text(&at("refresh: 30s", 0, 3)).await;
    assert!(text.contains("**`refresh`**"), "{text}");
    assert!(text.contains("Poll interval"), "{text}");
    let text = hover_text(&at("page_size", 0, 2)).await;
    assert!(text.contains("Rows per request"), "{text}");
    let text = hover_text(&at("default: eu", 0, 1)).await;
    assert!(text.contains("Not with `required`"), "{text}");
}

#[tokio::test]
async fn hover_on_a_type_value_shows_the_kind_summary() {
    let text = hover_text(&at("type: join", 0, 8)).await;
    assert!(text.contains("**`join`** — operator kind"), "{text}");
    assert!(text.contains("lookup"), "{text}");
}

#[tokio::test]
async fn hover_on_a_reference_shows_kind_cadence_and_parameters() {
    let text = hover_text(&at("source: apps", 0, 10)).await;
    assert!(
        text.contains("**`apps`** — `http`, polled every `30s`; windowed"),
        "{text}"
    );
    assert!(
        text.contains("`region`: string, default `eu` — Where the apps run"),
        "{text}"
    );
    let text = hover_text(&at("from: detail", 0, 8)).await;
    assert!(text.contains("`id`: string, required"), "{text}");
    let text = hover_text(&at("from: listing", 0, 8)).await;
    assert!(text.contains("one-shot"), "{text}");
}

#[tokio::test]
async fn hover_on_a_parameter_token_shows_its_declaration() {
    let text = hover_text(&at("${params.region}", 0, 11)).await;
    assert!(text.contains("parameter of `apps`"), "{text}");
    assert!(text.contains("default `eu`"), "{text}");
}

#[tokio::test]
async fn completion_offers_the_kinds_fields_not_yet_written_with_docs() {
    let fixture = CONFIG.replace("      refresh: 30s\n", "      re$0\n");
    let (labels, items) = complete_at(&fixture, "f.yaml", "yaml").await;
    for expected in ["refresh", "method", "headers", "timeout", "paginate"] {
        assert!(
            labels.contains(&expected.to_owned()),
            "{expected} in {labels:?}"
        );
    }
    for written in ["url", "type", "window", "parameters"] {
        assert!(
            !labels.contains(&written.to_owned()),
            "{written} is already written: {labels:?}"
        );
    }
    let refresh = items
        .as_array()
        .into_iter()
        .flatten()
        .find(|item| item["label"] == "refresh")
        .expect("refresh");
    assert!(
        refresh["documentation"]["value"]
            .as_str()
            .unwrap_or_default()
            .contains("Poll interval")
    );
    assert_eq!(refresh["textEdit"]["newText"], "refresh: ");
}

#[tokio::test]
async fn completion_in_a_section_offers_its_fields() {
    let fixture = CONFIG.replace(
        "        search_param: q\n",
        "        search_param: q\n        $0\n",
    );
    let (labels, _) = complete_at(&fixture, "f.yaml", "yaml").await;
    assert!(labels.contains(&"sort_param".to_owned()), "{labels:?}");
    assert!(labels.contains(&"cursor".to_owned()), "{labels:?}");
    assert!(!labels.contains(&"page_size".to_owned()), "{labels:?}");
    assert!(!labels.contains(&"url".to_owned()), "{labels:?}");
}

#[tokio::test]
async fn completion_offers_type_and_enumeration_values() {
    let (labels, _) = complete_at(
        &CONFIG.replace("type: static", "type: $0"),
        "f.yaml",
        "yaml",
    )
    .await;
    for kind in ["http", "exec", "static", "join", "cache"] {
        assert!(labels.contains(&kind.to_owned()), "{kind} in {labels:?}");
    }
    let fixture = CONFIG.replace(
        "        page_size: 50\n",
        "        page_size: 50\n        anchor: $0\n",
    );
    let (labels, _) = complete_at(&fixture, "f.yaml", "yaml").await;
    assert_eq!(labels, ["newest", "oldest"]);
    let fixture = CONFIG.replace("          type: string\n", "          type: $0\n");
    let (labels, _) = complete_at(&fixture, "f.yaml", "yaml").await;
    assert_eq!(labels, ["string", "int", "bool", "duration"]);
}

#[tokio::test]
async fn completion_offers_source_names_where_a_reference_is_expected() {
    let (labels, _) = complete_at(
        &CONFIG.replace("from: listing", "from: li$0"),
        "f.yaml",
        "yaml",
    )
    .await;
    assert_eq!(
        labels,
        ["apps", "detail", "listing", "joined"],
        "every other entry"
    );
    let (labels, _) = complete_at(
        &CONFIG.replace("source: apps", "source: $0"),
        "f.yaml",
        "yaml",
    )
    .await;
    assert!(labels.contains(&"healthy".to_owned()), "{labels:?}");
    let fixture = CONFIG.replace(
        "    listing:\n",
        "    both:\n      type: merge\n      sources:\n        - apps\n        - $0\n    listing:\n",
    );
    let (labels, _) = complete_at(&fixture, "f.yaml", "yaml").await;
    assert!(labels.contains(&"listing".to_owned()), "{labels:?}");
}

#[tokio::test]
async fn completion_offers_parameters_and_window_tokens_inside_templates() {
    let fixture = CONFIG.replace("apps/${params.region}", "apps/${params.$0");
    let (labels, items) = complete_at(&fixture, "f.yaml", "yaml").await;
    assert_eq!(labels, ["region"]);
    assert_eq!(items[0]["textEdit"]["newText"], "region}");
    // A non-anchored http window sets query parameters: no window token resolves in its `url`.
    let fixture = CONFIG.replace("apps/${params.region}", "apps/${window.$0}");
    let (labels, _) = complete_at(&fixture, "f.yaml", "yaml").await;
    assert!(labels.is_empty(), "{labels:?}");
    // In an exec window's `command`, the offset window's tokens.
    let exec = "\
data:
  sources:
    rows:
      type: exec
      command: [list, \"${window.$0}\"]
      window:
        page_size: 10
";
    let (labels, items) = complete_at(exec, "f.yaml", "yaml").await;
    assert_eq!(
        labels,
        ["offset", "limit", "search", "sort", "sort_dir", "filters"]
    );
    assert_eq!(
        items[0]["textEdit"]["newText"], "offset",
        "the token is already closed"
    );
    // On an anchored window's `body`: the cursor and direction, no offsets or sorts.
    let anchored = "\
data:
  sources:
    logs:
      type: http
      url: http://x.invalid/logs
      method: POST
      body: '{\"after\": \"${window.$0}\"}'
      window:
        cursor: id
        older: {before: \"${window.cursor}\"}
        newer: {after: \"${window.cursor}\"}
";
    let (labels, _) = complete_at(anchored, "f.yaml", "yaml").await;
    assert_eq!(labels, ["limit", "search", "cursor", "dir", "filters"]);
    // `${env.` offers nothing: the environment is not the configuration's.
    let fixture = CONFIG.replace("apps/${params.region}", "apps/${env.$0");
    let (labels, _) = complete_at(&fixture, "f.yaml", "yaml").await;
    assert!(labels.is_empty(), "{labels:?}");
    let fixture = CONFIG.replace("apps/${params.region}", "apps/${$0");
    let (labels, _) = complete_at(&fixture, "f.yaml", "yaml").await;
    assert_eq!(labels, ["params", "env", "window"]);
}

#[tokio::test]
async fn completion_works_in_toml() {
    let fixture = "[data.sources.apps]\ntype = \"http\"\nurl = \"https://example.invalid\"\nfo$0\n";
    let (labels, items) = complete_at(fixture, "f.toml", "toml").await;
    assert!(
        labels.contains(&"follow".to_owned()) && labels.contains(&"format".to_owned()),
        "{labels:?}"
    );
    assert!(!labels.contains(&"url".to_owned()), "{labels:?}");
    let follow = items
        .as_array()
        .into_iter()
        .flatten()
        .find(|item| item["label"] == "follow")
        .expect("follow");
    assert_eq!(follow["textEdit"]["newText"], "follow = ");
    let fixture = "[data.sources.apps]\ntype = \"http\"\nurl = \"https://example.invalid\"\nformat = \"$0\"\n";
    let (labels, _) = complete_at(fixture, "f.toml", "toml").await;
    assert_eq!(labels, ["json", "text"]);
}

#[tokio::test]
async fn completion_works_in_a_half_typed_document() {
    let fixture = "data:\n  sources:\n    apps:\n      type: http\n      url: https://example.invalid\n    top:\n      type: passthrough\n      from: $0";
    let (labels, _) = complete_at(fixture, "f.yaml", "yaml").await;
    assert_eq!(labels, ["apps"]);
    let fixture = "data:\n  sources:\n    apps:\n      type: http\n      ur$0\n";
    let (labels, _) = complete_at(fixture, "f.yaml", "yaml").await;
    assert!(labels.contains(&"url".to_owned()), "{labels:?}");
}

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

#[tokio::test]
async fn a_source_name_item_resolves_to_the_sources_description() {
    let (text, offset) = cursor(&CONFIG.replace("from: listing", "from: $0"));
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", &text).await;
    let items = client
        .at(
            "textDocument/completion",
            "f.yaml",
            utf16_position(&text, offset),
            json!({}),
        )
        .await
        .expect("a completion response")["items"]
        .clone();
    let apps = items[0].clone();
    assert_eq!(apps["label"], "apps");
    assert_eq!(apps["detail"], "http");
    assert!(
        apps.get("documentation").is_none(),
        "documentation comes on resolve"
    );
    let resolved = client
        .request("completionItem/resolve", apps)
        .await
        .expect("a resolved item");
    let doc = resolved["documentation"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(doc.contains("`http`, polled every `30s`"), "{doc}");
}

#[tokio::test]
async fn long_lists_are_cut_and_marked_incomplete() {
    let mut text = String::from("data:\n  sources:\n");
    for index in 0..150 {
        text.push_str(&format!(
            "    apps_{index}:\n      type: static\n      data: []\n"
        ));
    }
    text.push_str("    top:\n      type: passthrough\n      from: apps_14\n");
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", &text).await;
    let from = offset_of(&text, "from: ") + "from: ".len();
    let all = client
        .at(
            "textDocument/completion",
            "f.yaml",
            utf16_position(&text, from),
            json!({}),
        )
        .await
        .expect("a completion response");
    assert_eq!(all["isIncomplete"], true);
    assert_eq!(all["items"].as_array().map(Vec::len), Some(100));
    let typed = client
        .at(
            "textDocument/completion",
            "f.yaml",
            utf16_position(&text, from + "apps_14".len()),
            json!({}),
        )
        .await
        .expect("a completion response");
    let labels: Vec<&str> = typed["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item["label"].as_str())
        .collect();
    assert_eq!(
        labels,
        [
            "apps_14", "apps_104", "apps_114", "apps_124", "apps_134", "apps_140", "apps_141",
            "apps_142", "apps_143", "apps_144", "apps_145", "apps_146", "apps_147", "apps_148",
            "apps_149"
        ],
        "the names the typed text matches as a subsequence, as clients filter"
    );
    assert_eq!(typed["isIncomplete"], false);
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

#[tokio::test]
async fn completion_and_hover_know_the_fields_of_a_pipe_stage() {
    let fixture = "\
data:
  sources:
    rows:
      type: static
      data: [{name: a}]
      pipe:
        - type: sort
          by: name
          $0
";
    let (labels, _) = complete_at(fixture, "f.yaml", "yaml").await;
    assert_eq!(labels, ["order"], "a sort stage's fields, without `from`");
    let fixture = fixture
        .replace("        - type: sort\n", "        - type: $0\n")
        .replacen("          $0\n", "", 1);
    let (labels, _) = complete_at(&fixture, "f.yaml", "yaml").await;
    assert_eq!(labels, ["filter", "project", "derive", "sort", "cache"]);
    let text = hover_text(&CONFIG.replace(
        "      data: [{name: a}, {name: b}]\n",
        "      data: [{name: a}, {name: b}]\n      pipe:\n        - type: filter\n          wh$0ere: name != \"\"\n",
    ))
    .await;
    assert!(text.contains("**`where`** (required)"), "{text}");
}
