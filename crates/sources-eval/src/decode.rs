//! Turning fetched bytes into values: `format` (`json` parses, `text` keeps a string) and `root`.

use serde_json::Value;

use crate::error::Cause;
use crate::io::{head, one_line};
use crate::path;

/// How many bytes of an unparseable body an error shows.
const SNIPPET: usize = 120;

/// How a source's bytes become a value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Parse as JSON.
    #[default]
    Json,
    /// Keep the raw text as a string.
    Text,
}

/// Decodes `bytes` by `format`; `what` names the bytes in an error (`response`, `output`, …).
pub fn decode(bytes: &[u8], format: Format, what: &'static str) -> Result<Value, Cause> {
    match format {
        Format::Text => Ok(Value::String(String::from_utf8_lossy(bytes).into_owned())),
        Format::Json => serde_json::from_slice(bytes).map_err(|error| Cause::NotJson {
            what,
            detail: error.to_string(),
            snippet: snippet(bytes),
        }),
    }
}

/// The start of `bytes` on one line, for error messages (`(empty)` when there is nothing).
pub fn snippet(bytes: &[u8]) -> String {
    let text = one_line(&head(bytes, SNIPPET));
    if text.is_empty() {
        "(empty)".to_owned()
    } else {
        text
    }
}

/// Slices `value` at `root` (the whole value when unset or empty).
pub fn apply_root(value: Value, root: Option<&str>) -> Result<Value, Cause> {
    match root {
        None | Some("") => Ok(value),
        Some(root) => path::lookup(&value, root)
            .cloned()
            .map_err(|miss| Cause::MissingPath {
                field: "root",
                path: root.to_owned(),
                detail: miss.0,
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_parses_and_text_is_kept() {
        assert_eq!(
            decode(br#"{"a":1}"#, Format::Json, "response").expect("json"),
            json!({"a": 1})
        );
        assert_eq!(
            decode(b"hello\n", Format::Text, "response").expect("text"),
            json!("hello\n")
        );
    }

    #[test]
    fn a_non_json_body_shows_its_start() {
        let error =
            decode(b"<html>\n<body>oops</body>", Format::Json, "response").expect_err("not json");
        assert_eq!(
            error.to_string(),
            "response is not JSON (expected value at line 1 column 1): <html> ⏎ <body>oops</body>"
        );
        let empty = decode(b"", Format::Json, "output").expect_err("empty");
        assert!(empty.to_string().ends_with(": (empty)"), "{empty}");
    }

    #[test]
    fn root_slices_or_names_the_missing_key() {
        let value = json!({"data": {"rows": [1, 2]}});
        assert_eq!(
            apply_root(value.clone(), Some("data.rows")).expect("rows"),
            json!([1, 2])
        );
        let error = apply_root(value, Some("data.items")).expect_err("missing");
        assert_eq!(
            error.to_string(),
            "root `data.items` not found: no key `items` under `data` (keys: rows)"
        );
    }
}
