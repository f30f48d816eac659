//! The dashboard's vocabulary in the editor, through the protocol: completion of the keys of a
//! component, a column and a screen's layout; of component, screen and action names and of
//! `theme:` colors as values; hover on a dashboard key, a theme color and an action name;
//! definition and rename of an action name.

mod support;

use serde_json::json;
use support::{TestClient, complete_at, offset_of, uri, utf16_position};

const CONFIG: &str = "\
actions:
  restart: {run: [kubectl, rollout, restart]}
  open_pod: {push: pod}
tui:
  initial: pods
  components:
    pods_table:
      type: table
      source: pods
      colors:
        header: $HEADER
      columns:
        - {title: Name, value: name}
    detail: {type: inspector, source: pods, auto: true}
  screens:
    pods:
      layout:
        component: $COMPONENT
      actions:
        - key: R
          action: $ACTION
          from: pods_table
        - {key: enter, action: open_pod, from: pods_table}
    pod:
      layout: {component: detail}
data:
  sources:
    pods: {type: static, data: [{name: a}]}
";

fn fixture(header: &str, component: &str, action: &str) -> String {
    CONFIG
        .replace("$HEADER", header)
        .replace("$COMPONENT", component)
        .replace("$ACTION", action)
}

async fn labels_at(fixture: &str) -> Vec<String> {
    complete_at(fixture, "f.yaml", "yaml").await.0
}

#[tokio::test]
async fn names_complete_where_the_dashboard_reads_them() {
    let labels = labels_at(&fixture("theme:accent", "$0", "restart")).await;
    assert_eq!(labels, ["pods_table", "detail"]);
    let labels = labels_at(&fixture("theme:accent", "pods_table", "$0")).await;
    assert_eq!(labels, ["restart", "open_pod"]);
    let text =
        fixture("theme:accent", "pods_table", "restart").replace("initial: pods", "initial: $0");
    assert_eq!(labels_at(&text).await, ["pods", "pod"]);
}

#[tokio::test]
async fn a_theme_color_completes_its_token_after_the_prefix() {
    let (labels, items) = complete_at(
        &fixture("theme:$0", "pods_table", "restart"),
        "f.yaml",
        "yaml",
    )
    .await;
    assert!(labels.contains(&"theme:accent".to_owned()), "{labels:?}");
    let accent = items
        .as_array()
        .and_then(|items| items.iter().find(|item| item["label"] == "theme:accent"))
        .expect("theme:accent is offered");
    assert_eq!(
        accent["textEdit"]["newText"], "accent",
        "the prefix is typed already"
    );
}

#[tokio::test]
async fn a_components_keys_complete_from_the_vocabulary() {
    let text = fixture("theme:accent", "pods_table", "restart").replace(
        "      source: pods\n      colors",
        "      source: pods\n      $0\n      colors",
    );
    let labels = labels_at(&text).await;
    for key in ["sort_debounce", "markable", "on_cursor", "initial_sort"] {
        assert!(labels.contains(&key.to_owned()), "{key} in {labels:?}");
    }
    for written in ["type", "columns", "colors"] {
        assert!(
            !labels.contains(&written.to_owned()),
            "{written} is written: {labels:?}"
        );
    }
}

async fn opened(text: &str) -> TestClient {
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", text).await;
    client.diagnostics("f.yaml").await;
    client
}

#[tokio::test]
async fn hover_explains_keys_theme_colors_and_actions() {
    let text = fixture("theme:accent", "pods_table", "restart");
    let mut client = opened(&text).await;
    let at = |needle: &str, plus: usize| utf16_position(&text, offset_of(&text, needle) + plus);
    let file = uri("f.yaml");
    let key = client.hover_text(&file, at("colors:", 1)).await;
    assert!(key.contains("over the theme's"), "{key}");
    let color = client.hover_text(&file, at("theme:accent", 8)).await;
    assert!(color.contains("active palette's `accent`"), "{color}");
    let action = client.hover_text(&file, at("action: open_pod", 10)).await;
    assert!(action.contains("opening screen `pod`"), "{action}");
    assert!(action.contains("bound on screen `pods`"), "{action}");
}

#[tokio::test]
async fn an_action_is_defined_and_renamed_with_its_bindings() {
    let text = fixture("theme:accent", "pods_table", "restart");
    let position = utf16_position(&text, offset_of(&text, "action: restart") + 9);
    let mut client = opened(&text).await;
    let found = client
        .at("textDocument/definition", "f.yaml", position, json!({}))
        .await
        .expect("a definition");
    assert_eq!(
        found["range"]["start"]["line"], 1,
        "declared under `actions`"
    );
    let renamed = client
        .rename("f.yaml", &text, position, "bounce")
        .await
        .expect("a rename");
    assert!(renamed.contains("  bounce: {run:"), "{renamed}");
    assert!(renamed.contains("          action: bounce\n"), "{renamed}");
    let taken = client.rename("f.yaml", &text, position, "open_pod").await;
    assert!(
        taken.is_err_and(|error| error
            .message
            .contains("an action named `open_pod` already exists")),
        "a taken name is refused"
    );
}
