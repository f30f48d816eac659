//! Safe fixes: the text edits that remove a whole `key: value` line or rename a name in place,
//! offered only where the edit cannot change anything but the mistake.

use sources_diagnostics::{Edit, Span};

/// Whether `span` of `file` is exactly `name` as written (no escapes, no quotes in between), so
/// that replacing those bytes renames it and nothing else.
pub(crate) fn written_as(file: &str, span: Span, name: &str) -> bool {
    file.get(span.start..span.end) == Some(name)
}

/// The edit removing a `key: value` (YAML) or `key = value` (TOML) field that stands on lines of
/// its own: from the start of the key's line through the end of the value's line. `None` when
/// anything but blanks precedes the key on its line or anything but blanks and a comment follows
/// the value (flow maps, inline tables, list items).
pub(crate) fn remove_field(file: &str, key_span: Span, value_span: Span) -> Option<Edit> {
    let line_start = file
        .get(..key_span.start)?
        .rfind('\n')
        .map_or(0, |at| at + 1);
    if !file
        .get(line_start..key_span.start)?
        .chars()
        .all(|c| c == ' ' || c == '\t')
    {
        return None;
    }
    let end = value_span.end.max(key_span.end);
    let rest = file.get(end..)?;
    let line_end = rest.find('\n').map_or(file.len(), |at| end + at + 1);
    let tail = file.get(end..line_end)?.trim();
    if !(tail.is_empty() || tail.starts_with('#')) {
        return None;
    }
    Some(Edit {
        span: Span::new(line_start, line_end),
        replacement: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_a_whole_block_field_line_with_its_comment() {
        let file = "window:\n  cursor: id\n  growing: false # old\n  anchor: oldest\n";
        let key = file.find("growing").expect("key");
        let value = file.find("false").expect("value");
        let edit = remove_field(file, Span::new(key, key + 7), Span::new(value, value + 5))
            .expect("removable");
        let mut fixed = file.to_owned();
        fixed.replace_range(edit.span.start..edit.span.end, "");
        assert_eq!(fixed, "window:\n  cursor: id\n  anchor: oldest\n");
    }

    #[test]
    fn leaves_flow_maps_and_list_items_alone() {
        let file = "cache: {ttl: 30s, size: 3}\n- timeout: 1s\n";
        let key = file.find("size").expect("key");
        assert_eq!(
            remove_field(file, Span::new(key, key + 4), Span::new(key + 6, key + 7)),
            None
        );
        let key = file.find("timeout").expect("key");
        assert_eq!(
            remove_field(file, Span::new(key, key + 7), Span::new(key + 9, key + 11)),
            None
        );
    }

    #[test]
    fn removes_the_last_line_without_a_newline_and_toml_fields() {
        let file = "[a]\ntimeout = \"5s\"";
        let key = file.find("timeout").expect("key");
        let edit = remove_field(
            file,
            Span::new(key, key + 7),
            Span::new(key + 10, file.len()),
        )
        .expect("removable");
        assert_eq!(edit.span, Span::new(4, file.len()));
    }

    #[test]
    fn written_as_requires_the_exact_bytes() {
        assert!(written_as("a: regoin", Span::new(3, 9), "regoin"));
        assert!(!written_as(
            "a: \"reg\\u006fin\"",
            Span::new(3, 16),
            "regoin"
        ));
    }
}
