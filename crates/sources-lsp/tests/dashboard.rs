//! The dashboard's side of a document in the editor, through the protocol: completion of the
//! driving table's column titles after `${cursor.` and `${selection.` (wherever a pushed screen
//! reads its selection); definition, references and rename of component and screen names; hover
//! on a screen name; hover and inlay hints on a prompted `${env.KEY}` in the dashboard's templates.

mod support;

use serde_json::{Value, json};
use support::{TestClient, complete_at, offset_of, uri, utf16_position};
use tower_lsp_server::ls_types::Position;

const CONFIG: &str = "\
tui:
  components:
    deployments:
      type: table
      source: deployments
      columns:
        - {title: Name, value: metadata.name}
        - {title: Last Deploy, value: status.deployedAt, hidden: true}
    tree:
      type: tree
      source: deployments
    history:
      type: table
      source: history
      on_cursor:
        source: $DRIVER
        bind:
          name: \"$CURSOR\"
  screens:
    main:
      layout:
        vstack:
          - component: deployments
          - component: history
      actions:
        - key: enter
          push: detail
          from: deployments
          bind:
            name: \"$SELECTION\"
    detail:
      layout: {component: history}
  initial: main
data:
  sources:
    deployments: {type: http, url: http://localhost:8001/deployments}
    history:
      type: http
      url: http://localhost:8001/history/${params.name}
      parameters:
        name: {required: true}
";

fn fixture(driver: &str, cursor: &str, selection: &str) -> String {
    CONFIG
        .replace("$DRIVER", driver)
        .replace("$CURSOR", cursor)
        .replace("$SELECTION", selection)
}

async fn labels_at(fixture: &str) -> Vec<String> {
    complete_at(fixture, "f.yaml", "yaml").await.0
}

#[tokio::test]
async fn cursor_tokens_complete_the_drivers_titles_and_row_words() {
    let labels = labels_at(&fixture("deployments", "${cursor.$0}", "${selection}")).await;
    assert_eq!(labels, ["Name", "Last Deploy", "depth", "path"]);
    let labels = labels_at(&fixture("tree", "${cursor.$0}", "${selection}")).await;
    assert_eq!(labels, ["label", "depth", "path"], "a tree has no titles");
}

#[tokio::test]
async fn a_title_with_spaces_is_completed_whole_over_what_is_typed() {
    let (labels, items) = complete_at(
        &fixture("deployments", "${cursor}", "${selection.Last D$0}"),
        "f.yaml",
        "yaml",
    )
    .await;
    assert_eq!(
        labels,
        ["Name", "Last Deploy"],
        "a selection has no row words"
    );
    let edit = &items[1]["textEdit"];
    assert_eq!(edit["newText"], "Last Deploy");
    assert_eq!(
        edit["range"]["start"]["character"].as_u64(),
        edit["range"]["end"]["character"]
            .as_u64()
            .map(|end| end - "Last D".len() as u64),
        "the edit replaces the typed part of the title"
    );
    assert_eq!(items[1]["detail"], "column of `deployments`");
}

#[tokio::test]
async fn a_driver_that_is_not_a_component_offers_nothing() {
    let labels = labels_at(&fixture("nothing", "${cursor.$0}", "${selection}")).await;
    assert!(labels.is_empty(), "{labels:?}");
}

/// The document of the navigation tests, with its `$0` cursor before `needle`'s `at`th byte.
fn navigation(needle: &str, at: usize) -> (String, Position) {
    let text = fixture("deployments", "${cursor.Name}", "${selection.Name}");
    let offset = offset_of(&text, needle) + at;
    let position = utf16_position(&text, offset);
    (text, position)
}

async fn opened(text: &str) -> TestClient {
    let mut client = TestClient::utf16().await;
    client.open("f.yaml", "yaml", text).await;
    client.diagnostics("f.yaml").await;
    client
}

/// The text under a returned range (one line).
fn under(text: &str, range: &Value) -> String {
    let line = range["start"]["line"].as_u64().expect("a line") as usize;
    let start = range["start"]["character"].as_u64().expect("a start") as usize;
    let end = range["end"]["character"].as_u64().expect("an end") as usize;
    let line = text.lines().nth(line).expect("the line");
    line[start..end].to_owned()
}

async fn definition(needle: &str, at: usize) -> (String, u64) {
    let (text, position) = navigation(needle, at);
    let mut client = opened(&text).await;
    let found = client
        .at("textDocument/definition", "f.yaml", position, json!({}))
        .await
        .expect("a definition");
    let range = &found["range"];
    (
        under(&text, range),
        range["start"]["line"].as_u64().expect("a line"),
    )
}

#[tokio::test]
async fn definition_goes_from_a_push_to_the_screen_and_from_a_driver_to_the_component() {
    assert_eq!(definition("push: detail", 7).await, ("detail".into(), 30));
    assert_eq!(
        definition("source: deployments\n        bind", 9).await,
        ("deployments".into(), 2)
    );
    assert_eq!(
        definition("from: deployments", 7).await,
        ("deployments".into(), 2)
    );
    assert_eq!(definition("initial: main", 10).await, ("main".into(), 19));
}

#[tokio::test]
async fn references_of_a_component_are_every_driver_and_placement() {
    let (text, position) = navigation("    deployments:\n      type", 5);
    let mut client = opened(&text).await;
    let found = client.references("f.yaml", position).await;
    let lines: Vec<u64> = found
        .iter()
        .map(|location| location["range"]["start"]["line"].as_u64().expect("a line"))
        .collect();
    assert_eq!(
        lines,
        [2, 15, 22, 27],
        "declaration, on_cursor, layout, from"
    );
    for location in &found {
        assert_eq!(under(&text, &location["range"]), "deployments");
    }
}

async fn rename(needle: &str, at: usize, new_name: &str) -> Result<String, String> {
    let (text, position) = navigation(needle, at);
    let mut client = opened(&text).await;
    let prepared = client
        .at("textDocument/prepareRename", "f.yaml", position, json!({}))
        .await
        .map_err(|error| error.message.clone())?;
    assert_eq!(under(&text, &prepared["range"]), prepared["placeholder"]);
    client
        .rename("f.yaml", &text, position, new_name)
        .await
        .map_err(|error| error.message.into())
}

#[tokio::test]
async fn renaming_a_component_updates_its_declaration_and_every_use() {
    let renamed = rename("from: deployments", 8, "releases")
        .await
        .expect("a rename");
    assert!(
        renamed.contains("    releases:\n      type: table"),
        "{renamed}"
    );
    assert!(
        renamed.contains("source: releases\n        bind"),
        "{renamed}"
    );
    assert!(renamed.contains("- component: releases\n"), "{renamed}");
    assert!(renamed.contains("from: releases\n"), "{renamed}");
    assert!(
        renamed.contains("deployments: {type: http"),
        "the entry of the same name is another name: {renamed}"
    );
    assert_eq!(
        renamed.matches("deployments").count(),
        4,
        "the entry, its url and the two components showing it: {renamed}"
    );
}

#[tokio::test]
async fn renaming_a_screen_updates_the_push_and_initial() {
    let renamed = rename("    main:", 5, "home").await.expect("a rename");
    assert!(renamed.contains("    home:\n      layout"), "{renamed}");
    assert!(renamed.contains("initial: home\n"), "{renamed}");
    let renamed = rename("push: detail", 8, "inspect")
        .await
        .expect("a rename");
    assert!(renamed.contains("push: inspect\n"), "{renamed}");
    assert!(renamed.contains("    inspect:\n      layout"), "{renamed}");
    assert!(!renamed.contains("detail"), "{renamed}");
}

#[tokio::test]
async fn a_rename_on_no_name_or_to_a_taken_name_is_refused_with_why() {
    let refused = rename("key: enter", 2, "x").await.expect_err("not a name");
    assert!(refused.starts_with("nothing to rename here"), "{refused}");
    assert!(refused.contains("a component or a screen"), "{refused}");
    let refused = rename("push: detail", 8, "main")
        .await
        .expect_err("a taken name");
    assert_eq!(refused, "a screen named `main` already exists");
    let refused = rename("    history:\n      type", 5, "tree")
        .await
        .expect_err("a taken name");
    assert_eq!(refused, "a component named `tree` already exists");
}

#[tokio::test]
async fn hover_on_a_screen_name_says_what_it_places_and_who_pushes_it() {
    let (text, position) = navigation("push: detail", 8);
    let mut client = opened(&text).await;
    let hover = client
        .at("textDocument/hover", "f.yaml", position, json!({}))
        .await
        .expect("a hover");
    assert_eq!(
        hover["contents"]["value"],
        "**`detail`** — screen placing `history`; pushed from screen `main`"
    );
}

#[tokio::test]
async fn renaming_a_component_in_toml_updates_the_headers_that_repeat_it() {
    let text = "\
[tui.components.apps]
type = \"table\"
source = \"apps\"
[[tui.components.apps.columns]]
title = \"Name\"
value = \"name\"
[tui.components.jobs]
type = \"table\"
source = \"jobs\"
on_cursor = { source = \"apps\", bind = { id = \"${cursor.Name}\" } }
[data.sources.apps]
type = \"http\"
url = \"https://api.example.com/apps\"
[data.sources.jobs]
type = \"http\"
url = \"https://api.example.com/apps/${params.id}/jobs\"
parameters.id = { required = true }
";
    let mut client = TestClient::utf16().await;
    client.open("f.toml", "toml", text).await;
    client.diagnostics("f.toml").await;
    let position = utf16_position(text, offset_of(text, "source = \"apps\", bind") + 11);
    let renamed = client
        .rename("f.toml", text, position, "listing")
        .await
        .expect("a rename");
    assert!(
        renamed.starts_with("[tui.components.listing]\n"),
        "{renamed}"
    );
    assert!(
        renamed.contains("[[tui.components.listing.columns]]"),
        "{renamed}"
    );
    assert!(
        renamed.contains("{ source = \"listing\", bind"),
        "{renamed}"
    );
    assert!(renamed.contains("[data.sources.apps]"), "{renamed}");
}

const PROMPTS: &str = "\
app:
  prompts:
    - {key: SORT, label: Sort by, options: [name, rev]}
    - {key: TOKEN}
data:
  sources:
    apps:
      type: http
      url: http://127.0.0.1:8099/apps?sort=${env.SORT}&home=${env.HOME}
      headers: {Authorization: \"Bearer ${env.TOKEN}\"}
";

#[tokio::test]
async fn a_prompted_environment_variable_says_which_boot_prompt_sets_it() {
    let mut client = opened(PROMPTS).await;
    let at = |needle: &str| utf16_position(PROMPTS, offset_of(PROMPTS, needle) + 3);
    let hover = client
        .at("textDocument/hover", "f.yaml", at("${env.SORT}"), json!({}))
        .await
        .expect("a hover");
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        value.starts_with("**`${env.SORT}`** — set by the boot prompt \"Sort by\" (`app.prompts`)"),
        "{value}"
    );
    let hover = client
        .at("textDocument/hover", "f.yaml", at("${env.HOME}"), json!({}))
        .await
        .expect("an answer");
    assert!(hover.is_null(), "no prompt sets HOME: {hover}");

    let hints = client.inlay_hints(&uri("f.yaml"), 0, 12).await;
    let prompted: Vec<(Position, &str)> = hints
        .iter()
        .filter_map(|hint| {
            let label = hint["label"].as_str()?;
            label.starts_with("from the boot prompt").then(|| {
                let position =
                    serde_json::from_value(hint["position"].clone()).expect("a position");
                (position, label)
            })
        })
        .collect();
    let after = |token: &str| utf16_position(PROMPTS, offset_of(PROMPTS, token) + token.len());
    assert_eq!(
        prompted,
        [
            (after("${env.SORT}"), "from the boot prompt \"Sort by\""),
            (after("${env.TOKEN}"), "from the boot prompt `TOKEN`"),
        ]
    );
}

/// Two pushes open screen `app` from the table `apps` and the list `teams`; `main` is the root.
const PUSHED: &str = "\
app:
  prompts:
    - {key: REGION, label: Region}
tui:
  components:
    apps:
      type: table
      source: apps
      title: \"Apps in ${env.REGION}\"
      columns:
        - {title: Name, value: name}
        - {title: Owner, value: owner}
    teams:
      type: list
      source: apps
      item: owner
    detail:
      type: inspector
      source: app
      title: \"$COMPONENT\"
      auto: true
    readme:
      type: textview
      content: \"$CONTENT\"
  screens:
    main:
      layout:
        vstack:
          - component: apps
          - component: teams
      actions:
        - {key: enter, push: app, from: apps, bind: {name: \"${selection.Name}\"}}
        - {key: t, push: app, from: teams, bind: {name: \"${selection}\"}}
    app:
      title: \"$TITLE\"
      layout:
        vstack:
          - component: detail
          - component: readme
  initial: main
data:
  sources:
    apps: {type: http, url: http://localhost:8001/apps}
    app:
      type: http
      url: \"$URL\"
      parameters:
        name: {required: true}
";

/// [`PUSHED`] with `at` (one of `$TITLE`, `$COMPONENT`, `$CONTENT`, `$URL`) set to `text` and
/// the others to plain text.
fn pushed(at: &str, text: &str) -> String {
    let mut fixture = PUSHED.replace(at, text);
    for (slot, plain) in [
        ("$TITLE", "App ${env.REGION}"),
        ("$COMPONENT", "Detail"),
        ("$CONTENT", "About ${env.REGION}"),
        ("$URL", "http://localhost:8001/apps/${params.name}"),
    ] {
        fixture = fixture.replace(slot, plain);
    }
    fixture
}

#[tokio::test]
async fn selection_tokens_complete_in_every_field_a_pushed_screen_reads() {
    for (slot, text) in [
        ("$TITLE", "App ${selection.$0}"),
        ("$COMPONENT", "Detail of ${selection.$0}"),
        ("$CONTENT", "About ${selection.$0}"),
        ("$URL", "http://localhost:8001/apps/${selection.$0}"),
    ] {
        let (labels, items) = complete_at(&pushed(slot, text), "f.yaml", "yaml").await;
        assert_eq!(
            labels,
            ["Name", "Owner"],
            "the titles of the table one push reads (the other is a list): {slot}"
        );
        assert_eq!(items[0]["detail"], "column of `apps`", "{slot}");
    }
}

#[tokio::test]
async fn a_selection_on_a_root_screen_or_in_an_on_cursor_offers_no_titles() {
    let root = pushed("$COMPONENT", "Detail").replace(
        "title: \"Apps in ${env.REGION}\"",
        "title: \"Apps ${selection.$0}\"",
    );
    let labels = labels_at(&root).await;
    assert!(labels.is_empty(), "nothing pushes `main`: {labels:?}");
    let on_cursor = pushed("$COMPONENT", "Detail").replace(
        "      auto: true\n",
        "      auto: true\n      on_cursor: {source: apps, bind: {name: \"${selection.$0}\"}}\n",
    );
    let labels = labels_at(&on_cursor).await;
    assert!(
        labels.is_empty(),
        "an on_cursor reads `${{cursor…}}`: {labels:?}"
    );
}

#[tokio::test]
async fn a_prompted_variable_in_the_dashboards_templates_says_which_prompt_sets_it() {
    let text = pushed("$COMPONENT", "Detail");
    let mut client = opened(&text).await;
    let tokens = [
        "Apps in ${env.REGION}",
        "About ${env.REGION}",
        "App ${env.REGION}",
    ];
    for needle in tokens {
        let token = offset_of(&text, needle) + needle.len() - "${env.REGION}".len();
        let hover = client
            .at(
                "textDocument/hover",
                "f.yaml",
                utf16_position(&text, token + 3),
                json!({}),
            )
            .await
            .expect("a hover");
        let value = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(
            value.starts_with(
                "**`${env.REGION}`** — set by the boot prompt \"Region\" (`app.prompts`)"
            ),
            "{needle}: {value}"
        );
    }
    let lines = text.lines().count() as u32;
    let hints = client.inlay_hints(&uri("f.yaml"), 0, lines).await;
    let prompted: Vec<Position> = hints
        .iter()
        .filter(|hint| hint["label"] == "from the boot prompt \"Region\"")
        .map(|hint| serde_json::from_value(hint["position"].clone()).expect("a position"))
        .collect();
    let after = |needle: &str| utf16_position(&text, offset_of(&text, needle) + needle.len());
    assert_eq!(prompted, tokens.map(after));
}
