//! In an expression, the editor completes the language's functions and operators beside the
//! data's keys, and a hover on a called function shows its signature and an example, through a
//! real client connection.

mod support;

use support::{TestClient, complete_at, cursor, utf16_position};

const FIXTURE: &str = "data:\n  sources:\n    apps:\n      type: static\n      data: [{name: web}]\n    \
                       web:\n      type: filter\n      from: apps\n      where: name.sta$0\n";

#[tokio::test]
async fn an_expression_completes_keys_functions_and_operators() {
    // After a `.`: the methods whose name starts with what is typed, replacing it.
    let (labels, items) = complete_at(FIXTURE, "f.yaml", "yaml").await;
    assert!(
        labels.iter().any(|label| label == "startsWith"),
        "{labels:?}"
    );
    for unwanted in ["size", "string", "&&", "in"] {
        assert!(
            !labels.iter().any(|label| label == unwanted),
            "{unwanted}: {labels:?}"
        );
    }
    let starts = items
        .as_array()
        .into_iter()
        .flatten()
        .find(|item| item["label"] == "startsWith")
        .expect("startsWith");
    assert_eq!(starts["detail"], "string.startsWith(string) -> bool");
    assert_eq!(starts["textEdit"]["range"]["start"]["character"], 18);
    assert_eq!(starts["textEdit"]["range"]["end"]["character"], 21);
    // At the start of a name: the row's keys first, then the functions the name starts.
    let (labels, _) = complete_at(&FIXTURE.replace("name.sta", "s"), "k.yaml", "yaml").await;
    assert_eq!(
        labels.first().map(String::as_str),
        Some("name"),
        "{labels:?}"
    );
    for wanted in ["size", "string"] {
        assert!(
            labels.iter().any(|label| label == wanted),
            "{wanted}: {labels:?}"
        );
    }
    assert!(
        !labels.iter().any(|label| label == "startsWith"),
        "{labels:?}"
    );
    // Where no name is typed: the operators too.
    let (labels, _) = complete_at(
        &FIXTURE.replace("name.sta$0", "name == $0'a'"),
        "o.yaml",
        "yaml",
    )
    .await;
    for wanted in ["&&", "in", "size"] {
        assert!(
            labels.iter().any(|label| label == wanted),
            "{wanted}: {labels:?}"
        );
    }
    // Outside an expression, no function is offered.
    let (labels, _) = complete_at(
        "data:\n  sources:\n    apps:\n      type: static\n      $0\n",
        "g.yaml",
        "yaml",
    )
    .await;
    assert!(
        !labels.iter().any(|label| label == "startsWith"),
        "{labels:?}"
    );
}

#[tokio::test]
async fn a_called_function_hovers_with_its_signature_and_an_example() {
    let (text, offset) = cursor(
        "data:\n  sources:\n    apps:\n      type: static\n      data: [{name: web}]\n    \
         web:\n      type: filter\n      from: apps\n      where: name.ends$0With('.biz')\n",
    );
    let mut client = TestClient::utf16().await;
    client.open("h.yaml", "yaml", &text).await;
    let shown = client
        .hover_text(&support::uri("h.yaml"), utf16_position(&text, offset))
        .await;
    assert_eq!(
        shown,
        "**`endsWith`** — `string.endsWith(string) -> bool`\n\nWhether the string ends with the \
         other one.\n\nExample: `website.endsWith('.biz')`"
    );
}
