//! `schema/sources.schema.json` is the output of `sources schema`: this test fails when the
//! checked-in copy is stale. `UPDATE_EXPECT=1 cargo test -p sources-cli --test schema` rewrites it.

use std::fs;
use std::path::Path;
use std::process::Command;

const REGENERATE: &str = "cargo run -q -p sources-cli -- schema > schema/sources.schema.json";

#[test]
fn the_checked_in_schema_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/sources.schema.json");
    let generated = sources_config::schema::document_schema_text();
    if std::env::var("UPDATE_EXPECT").is_ok_and(|value| !value.is_empty() && value != "0") {
        fs::write(&path, &generated).expect("write schema/sources.schema.json");
        return;
    }
    let checked_in = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "schema/sources.schema.json is stale (the model or its doc comments changed): regenerate it with\n    {REGENERATE}\n(or UPDATE_EXPECT=1 cargo test -p sources-cli --test schema) and commit it"
    );
}

#[test]
fn sources_schema_prints_the_document_schema() {
    let output = Command::new(env!("CARGO_BIN_EXE_sources"))
        .arg("schema")
        .output()
        .expect("run sources schema");
    assert!(output.status.success());
    let printed = String::from_utf8(output.stdout).expect("utf-8");
    assert_eq!(printed, sources_config::schema::document_schema_text());
    let schema: serde_json::Value = serde_json::from_str(&printed).expect("JSON");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
}
