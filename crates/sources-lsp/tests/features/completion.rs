//! Completion: fields, values, entry names, template tokens, in YAML, TOML and half-typed text;
//! an item resolved to its documentation; long lists cut; a pipe stage's fields.

use serde_json::json;

use super::support::{TestClient, complete_at, cursor, offset_of, utf16_position};
use super::*;

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
