//! Safe fixes: the text edits that remove a whole `key: value` line or rename a name in place,
//! offered only where the edit cannot change anything but the mistake.

use sources_diagnostics::{Edit, Span};

/// Whether `span` of `file` is exactly `name` as written (no escapes, no quotes in between), so
/// that replacing those bytes renames it and nothing else.
pub(crate) fn written_as(file: &str, span: Span, name: &str) -> bool {
    file.get(span.range()) == Some(name)
}

/// The edit removing a `key: value` (YAML) or `key = value` (TOML) field. A field on lines of its
/// own goes from the start of the key's line through the end of the value's line (with a trailing
/// comment). An item of a flow map or inline table goes with the comma that separates it from its
/// neighbour. `None` for anything else (the only item of a flow map, a list item, text after the
/// value), where a removal could leave something other than what was meant.
pub(crate) fn remove_field(file: &str, key_span: Span, value_span: Span) -> Option<Edit> {
    let line_start = file
        .get(..key_span.start())?
        .rfind('\n')
        .map_or(0, |at| at + 1);
    let end = value_span.end().max(key_span.end());
    if !file
        .get(line_start..key_span.start())?
        .chars()
        .all(|c| c == ' ' || c == '\t')
    {
        return remove_flow_item(file, key_span.start(), end);
    }
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

/// Removes the flow-map item written from `start` to `end`: `, key: value` when a comma precedes
/// it, or `key: value, ` when it is the first item and a comma follows.
fn remove_flow_item(file: &str, start: usize, end: usize) -> Option<Edit> {
    let blank = |c: char| c == ' ' || c == '\t';
    let before = file.get(..start)?.trim_end_matches(blank);
    let after = file.get(end..)?;
    let after_trimmed = after.trim_start_matches(blank);
    let span = if before.ends_with(',') {
        Span::new(before.len() - 1, end)
    } else if before.ends_with('{') && after_trimmed.starts_with(',') {
        let comma = end + (after.len() - after_trimmed.len());
        let next = file.get(comma + 1..)?;
        let spaces = next.len() - next.trim_start_matches(blank).len();
        Span::new(start, comma + 1 + spaces)
    } else {
        return None;
    };
    Some(Edit {
        span,
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
        fixed.replace_range(edit.span.range(), "");
        assert_eq!(fixed, "window:\n  cursor: id\n  anchor: oldest\n");
    }

    /// Applies the removal of the field `key` (with value `value`) written in `file`.
    fn without(file: &str, key: &str, value: &str) -> Option<String> {
        let at = file.find(key).expect("key");
        let value_at = at + file[at..].find(value).expect("value");
        let edit = remove_field(
            file,
            Span::new(at, at + key.len()),
            Span::new(value_at, value_at + value.len()),
        )?;
        let mut fixed = file.to_owned();
        fixed.replace_range(edit.span.range(), "");
        Some(fixed)
    }

    #[test]
    fn removes_flow_map_items_with_their_comma() {
        let file = "window: {page_size: 20, growing: false}\n";
        assert_eq!(
            without(file, "growing", "false").as_deref(),
            Some("window: {page_size: 20}\n")
        );
        let file = "window: {growing: false, page_size: 20}\n";
        assert_eq!(
            without(file, "growing", "false").as_deref(),
            Some("window: {page_size: 20}\n")
        );
        let file = "window = { cursor = \"id\", growing = false }\n";
        assert_eq!(
            without(file, "growing", "false").as_deref(),
            Some("window = { cursor = \"id\" }\n")
        );
    }

    #[test]
    fn leaves_single_flow_items_and_list_items_alone() {
        assert_eq!(without("cache: {ttl: 30s}\n", "ttl", "30s"), None);
        assert_eq!(without("- timeout: 1s\n", "timeout", "1s"), None);
        assert_eq!(without("  timeout: 1s and more\n", "timeout", "1s"), None);
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
