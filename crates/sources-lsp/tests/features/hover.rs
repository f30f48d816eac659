//! Hover on field keys, kind names, references and parameter tokens.

use super::*;

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
