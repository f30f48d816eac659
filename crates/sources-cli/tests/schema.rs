//! `schema/sources.schema.json` is the output of `sources schema`: this test fails when the
//! checked-in copy is stale. `UPDATE_EXPECT=1 cargo test -p sources-cli --test schema` rewrites it.

use std::path::Path;
use std::process::Command;

const REGENERATE: &str = "cargo run -q -p sources-cli -- schema > schema/sources.schema.json";

#[test]
fn the_checked_in_schema_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/sources.schema.json");
    sources_testkit::assert_file(
        &path,
        &sources_config::schema::document_schema_text(),
        &format!("{REGENERATE}\n(or UPDATE_EXPECT=1 cargo test -p sources-cli --test schema)"),
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
