//! The dashboard's side of a document in the editor, through the protocol: completion of the
//! driving table's column titles after `${cursor.` and `${selection.`.

mod support;

use support::complete_at;

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
