//! Concatenating children (`merge`, `union`) and tagging their rows: `tag_field`, per-child `tags`
//! and `meta_key` (an empty string writes tags at the top level). Existing keys are kept.

use serde_json::{Map, Value};

/// How one child's rows are tagged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChildTags {
    /// The tags, in declaration order (`tag_field: child` first when set).
    pub tags: Vec<(String, String)>,
}

impl ChildTags {
    /// The tags of a child named in `sources`, with `tag_field` set or not.
    pub fn for_source(child: &str, tag_field: Option<&str>) -> ChildTags {
        ChildTags {
            tags: tag_field
                .map(|field| vec![(field.to_owned(), child.to_owned())])
                .unwrap_or_default(),
        }
    }
}

/// The meta key when `meta_key` is unset.
pub const DEFAULT_META_KEY: &str = "_meta";

/// A child's value as rows: a list's items, nothing for `null`, else the value itself.
pub fn rows(value: Value) -> Vec<Value> {
    match value {
        Value::Array(rows) => rows,
        Value::Null => Vec::new(),
        single => vec![single],
    }
}

/// Tags one row in place: map-shaped rows only; existing keys are kept.
pub fn tag_row(row: &mut Value, tags: &ChildTags, meta_key: &str) {
    if tags.tags.is_empty() {
        return;
    }
    let Value::Object(fields) = row else {
        return;
    };
    let target: &mut Map<String, Value> = if meta_key.is_empty() {
        fields
    } else {
        let meta = fields
            .entry(meta_key.to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        match meta {
            Value::Object(meta) => meta,
            _ => return,
        }
    };
    for (key, value) in &tags.tags {
        target
            .entry(key.clone())
            .or_insert_with(|| Value::String(value.clone()));
    }
}

/// Concatenates children's values, tagging each child's rows.
pub fn concat<T: std::borrow::Borrow<ChildTags>>(
    children: impl IntoIterator<Item = (Value, T)>,
    meta_key: &str,
) -> Value {
    let mut out = Vec::new();
    for (value, tags) in children {
        for mut row in rows(value) {
            tag_row(&mut row, tags.borrow(), meta_key);
            out.push(row);
        }
    }
    Value::Array(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tag_field_goes_under_the_meta_key_by_default() {
        let tags = ChildTags::for_source("eu", Some("region"));
        let out = concat(
            vec![(json!([{"id": 1}, {"id": 2, "_meta": {"x": 1}}]), &tags)],
            DEFAULT_META_KEY,
        );
        assert_eq!(
            out,
            json!([{"id": 1, "_meta": {"region": "eu"}}, {"id": 2, "_meta": {"x": 1, "region": "eu"}}])
        );
    }

    #[test]
    fn empty_meta_key_writes_top_level_without_overwriting() {
        let tags = ChildTags {
            tags: vec![("env".into(), "prod".into()), ("id".into(), "tag".into())],
        };
        let mut row = json!({"id": 7});
        tag_row(&mut row, &tags, "");
        assert_eq!(row, json!({"id": 7, "env": "prod"}));
        let mut scalar = json!("line");
        tag_row(&mut scalar, &tags, "");
        assert_eq!(scalar, json!("line"));
    }

    #[test]
    fn children_are_concatenated_in_order_and_scalars_become_rows() {
        let none = ChildTags::default();
        let out = concat(
            vec![
                (json!([1, 2]), &none),
                (json!(null), &none),
                (json!({"a": 1}), &none),
            ],
            "_meta",
        );
        assert_eq!(out, json!([1, 2, {"a": 1}]));
    }
}
