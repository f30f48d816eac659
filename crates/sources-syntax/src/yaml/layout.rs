//! Layout mistakes named where they are: saphyr reports a tab or an over-indented key where its
//! scanner noticed the problem (the end of the line before, or the colon), in the scanner's words;
//! these read the text around that point and say what the writer did.

use crate::Span;

/// How many lines, from the scanner's, may hold the tab it complains about: it notices a tab that
/// indents a line while it is still at the end of the line before.
const TAB_LOOKAHEAD_LINES: usize = 2;

/// The tab the scanner complained about at byte `at`, and a message for it: a tab in a line's
/// indentation is named as such, any other tab keeps the scanner's words.
pub(super) fn tab(text: &str, at: usize, info: &str) -> Option<(Span, String)> {
    let at = floor_boundary(text, at);
    // From the start of the scanner's line: it may stand just past the tab or, when the tab
    // indents the next line, at the end of the line before.
    let from = text[..at].rfind('\n').map_or(0, |index| index + 1);
    let rest = &text[from..];
    let window_end = rest
        .match_indices('\n')
        .nth(TAB_LOOKAHEAD_LINES - 1)
        .map_or(rest.len(), |(index, _)| index);
    let offset = from + rest[..window_end].find('\t')?;
    let line_start = text[..offset].rfind('\n').map_or(0, |index| index + 1);
    let span = Span::new(offset, offset + 1);
    let message = if text[line_start..offset].bytes().all(|byte| byte == b' ') {
        "a tab indents this line; YAML indents with spaces only: replace the tab with spaces"
            .to_owned()
    } else {
        format!("{info}; indent with spaces, not tabs")
    };
    Some((span, message))
}

/// A `KEY: value` line indented deeper than the `KEY: value` line above it, which YAML reads as
/// more of the value above (then fails at this line's colon, at byte `at`): the key's span and a
/// message naming both keys.
pub(super) fn over_indented_key(text: &str, at: usize) -> Option<(Span, String)> {
    let at = floor_boundary(text, at);
    let line_start = text[..at].rfind('\n').map_or(0, |index| index + 1);
    let before_colon = &text[line_start..at];
    let key = before_colon.trim_start_matches(' ');
    let indent = before_colon.len() - key.len();
    if !is_plain_key(key) || !text[at..].starts_with(':') {
        return None;
    }
    let (above_indent, above_key) = text[..line_start]
        .lines()
        .rev()
        .map(|line| (line, line.trim_start_matches(' ')))
        .find(|(_, trimmed)| !trimmed.is_empty() && !trimmed.starts_with('#'))
        .map(|(line, trimmed)| (line.len() - trimmed.len(), trimmed))?;
    let (name, value) = above_key.split_once(": ")?;
    let value = value.trim();
    if above_indent >= indent
        || !is_plain_key(name)
        || value.is_empty()
        || value.starts_with(['|', '>', '#'])
    {
        return None;
    }
    let span = Span::new(line_start + indent, at);
    let deeper = indent - above_indent;
    Some((
        span,
        format!(
            "`{key}` is indented {deeper} more space{s} than `{name}` above it, so YAML reads it as \
             more of `{name}`'s value; did you mean it beside `{name}`? Indent `{key}:` as far as `{name}:`",
            s = if deeper == 1 { "" } else { "s" },
        ),
    ))
}

/// A key as people write them unquoted: letters, digits, `_`, `-` and `.`.
fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// `at`, moved back to a character boundary (the scanner's index is converted to bytes already;
/// this only guards against a position past the end).
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tab_that_indents_a_line_is_named_at_the_tab() {
        let text = "a:\n  b: c\n\td: e\n";
        let (span, message) = tab(text, 8, "found a tab").expect("the tab");
        assert_eq!(span, Span::new(10, 11));
        assert!(message.starts_with("a tab indents this line"), "{message}");
    }

    #[test]
    fn a_tab_inside_a_line_keeps_the_scanners_words() {
        let text = "a: b\tc: d\n";
        let (span, message) = tab(text, 0, "found a tab").expect("the tab");
        assert_eq!(span, Span::new(4, 5));
        assert_eq!(message, "found a tab; indent with spaces, not tabs");
    }

    #[test]
    fn a_tab_before_the_scanners_position_on_its_line_is_the_one() {
        let text = "a:\n\tb: c\n\td: e\n";
        let (span, _) = tab(text, 4, "found a tab").expect("the tab");
        assert_eq!(span, Span::new(3, 4));
    }

    #[test]
    fn no_tab_nearby_is_no_answer() {
        assert_eq!(tab("a: b\nc: d\ne: f\n\tg\n", 0, "found a tab"), None);
    }

    #[test]
    fn a_key_deeper_than_the_line_above_is_named_with_both_keys() {
        let text = "x:\n  url: http://h\n    root: items\n";
        let at = text.find("root:").expect("root") + 4;
        let (span, message) = over_indented_key(text, at).expect("a layout mistake");
        assert_eq!(&text[span.range()], "root");
        assert!(
            message.starts_with("`root` is indented 2 more spaces than `url` above it"),
            "{message}"
        );
    }

    #[test]
    fn a_colon_in_a_value_on_its_own_line_is_not_a_layout_mistake() {
        let text = "x:\n  title: a: b\n";
        let at = text.find("a: b").expect("value") + 1;
        assert_eq!(over_indented_key(text, at), None);
        let text = "x:\n  url: |\n    root: items\n";
        let at = text.find("root:").expect("root") + 4;
        assert_eq!(over_indented_key(text, at), None);
    }
}
