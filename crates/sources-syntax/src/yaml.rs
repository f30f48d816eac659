//! YAML text to the spanned tree: through the fast reader (`fast`) when the text is in the plain
//! subset it reads, otherwise through `saphyr-parser`'s spanned events. Both give the same tree
//! where the fast reader answers; it declines everything else, and [`parse_local`] is the one
//! place that picks.
//!
//! The saphyr path consumes the event stream that is the event stream saphyr's `MarkedYaml` loader is built on. We consume it directly
//! instead of loading `MarkedYaml` because the loaded tree has already dropped what the front end
//! must report (duplicate keys, scalar styles, where a tag or anchor ends) and because its loader
//! recurses once per nesting level. Our loop keeps an explicit stack, so no input can overflow it.
//!
//! saphyr's quirks, each handled in the submodules below and tested beside the code:
//! - markers count characters, not bytes: [`position::CharToByte`] converts them with a moving
//!   cursor (amortised O(1) per marker; identity for ASCII text);
//! - a flow collection's start event spans only its opening bracket: the node spans from the
//!   bracket to the end event's closing bracket;
//! - a tag or an anchor moves the start of a node's span onto the property: we move it back to the
//!   value itself;
//! - a block scalar's span starts at its content: we move it to the `|` or `>` indicator;
//! - a quoted scalar's span takes in the blanks and any comment after its closing quote: it ends at
//!   the closing quote;
//! - `<<` merge keys (`<<: *a`, `<<: [*a, *b]`) copy the merged mappings' entries into the map
//!   unless written there (YAML merge semantics: written keys win, then earlier merged maps); the
//!   copies keep their spans in the anchor's text, so a diagnostic on an inherited key points at it;
//! - aliases are expanded (bounded in depth and total size), the copy spanning the alias;
//! - duplicate keys are an error at the second key naming the line of the first;
//! - only the first document is read; a second one is an error at its `---`.
//!
//! The submodules, each owning one thing:
//! - `fast`: the fast reader, one pass over the bytes of a document in the plain subset;
//! - `builder`: the event loop and its stack of open collections, keys, anchors and aliases;
//! - `position`: saphyr's character indices as byte offsets, and line numbers for messages;
//! - `spans`: where a node's span starts and ends in the text (properties, indicators, quotes);
//! - `schema`: plain and tagged scalars resolved with the YAML 1.2 core schema;
//! - `merge`: `<<` merge keys, the mappings they copy entries from;
//! - `buffers`: the allocation a closed collection's items are kept in.

mod buffers;
mod builder;
mod fast;
mod layout;
mod merge;
mod position;
mod schema;
mod spans;

pub(crate) use spans::one_char;

use crate::Parse;

/// Deepest nesting of collections accepted, in both syntaxes' messages.
pub(crate) const MAX_DEPTH: usize = 128;

/// Parses YAML text. Never panics; stops at the first syntax error with what was read before it.
pub(crate) fn parse(text: &str) -> Parse {
    parse_local(text).0
}

/// Parses YAML text as [`parse`] does, and says whether the tree is local: no anchor, alias or
/// `<<` merge key, so each node's value comes only from the text within its span. The fast
/// reader's trees are always local (it declines anchors, aliases and merge keys).
pub(crate) fn parse_local(text: &str) -> (Parse, bool) {
    match fast::read(text) {
        Some(root) => (
            Parse {
                root: Some(root),
                errors: Vec::new(),
            },
            true,
        ),
        None => builder::parse_events(text),
    }
}

/// Holds the fast reader to saphyr's path on `text`: `Ok(true)` when the fast reader reads it into
/// the tree saphyr's path gives (values, spans, styles, no errors, local), `Ok(false)` when it
/// declines it, and `Err` showing both when they differ.
pub(crate) fn compare_readers(text: &str) -> Result<bool, String> {
    let Some(fast) = fast::read(text) else {
        return Ok(false);
    };
    let (slow, local) = builder::parse_events(text);
    // Compared through their debug text: a NaN is not equal to itself, but prints the same.
    let fast = Some(fast);
    if format!("{fast:?}") == format!("{:?}", slow.root) && slow.errors.is_empty() && local {
        return Ok(true);
    }
    let (got, want) = (outline(fast.as_ref()), outline(slow.root.as_ref()));
    Err(format!(
        "saphyr's path gives local: {local}, errors: {:?}; the trees, from their first difference:\n{}",
        slow.errors,
        first_difference(&got, &want)
    ))
}

/// A tree one node a line: its span, then its value (a mapping's keys on lines of their own).
fn outline(root: Option<&crate::Node>) -> String {
    enum Line<'n> {
        Node(usize, &'n crate::Node),
        Key(usize, &'n crate::Key),
    }
    let mut out = String::new();
    let mut pending: Vec<Line> = root.into_iter().map(|node| Line::Node(0, node)).collect();
    while let Some(line) = pending.pop() {
        let (depth, node) = match line {
            Line::Key(depth, key) => {
                let pad = "  ".repeat(depth);
                out.push_str(&format!("{pad}key {:?} {:?}\n", key.name, key.span));
                continue;
            }
            Line::Node(depth, node) => (depth, node),
        };
        let pad = "  ".repeat(depth);
        let span = node.span;
        match &node.value {
            crate::Value::Map(map) => {
                out.push_str(&format!("{pad}{span:?} map\n"));
                for entry in map.entries.iter().rev() {
                    pending.push(Line::Node(depth + 2, &entry.value));
                    pending.push(Line::Key(depth + 1, &entry.key));
                }
            }
            crate::Value::Seq(items) => {
                out.push_str(&format!("{pad}{span:?} seq\n"));
                pending.extend(items.iter().rev().map(|item| Line::Node(depth + 1, item)));
            }
            value => out.push_str(&format!("{pad}{span:?} {value:?}\n")),
        }
    }
    out
}

/// The lines of two outlines around their first difference, each side labelled.
fn first_difference(got: &str, want: &str) -> String {
    let (got, want): (Vec<_>, Vec<_>) = (got.lines().collect(), want.lines().collect());
    let at = got
        .iter()
        .zip(&want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    let from = at.saturating_sub(6);
    let side = |lines: &[&str]| lines[from.min(lines.len())..(at + 4).min(lines.len())].join("\n");
    format!("fast reader:\n{}\nsaphyr:\n{}", side(&got), side(&want))
}
