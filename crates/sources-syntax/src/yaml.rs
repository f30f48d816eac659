//! YAML text to the spanned tree, through `saphyr-parser`'s spanned events.
//!
//! This is the event stream saphyr's `MarkedYaml` loader is built on. We consume it directly
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
//! - `builder`: the event loop and its stack of open collections, keys, anchors and aliases;
//! - `position`: saphyr's character indices as byte offsets, and line numbers for messages;
//! - `spans`: where a node's span starts and ends in the text (properties, indicators, quotes);
//! - `schema`: plain and tagged scalars resolved with the YAML 1.2 core schema;
//! - `merge`: `<<` merge keys, the mappings they copy entries from;
//! - `buffers`: the allocation a closed collection's items are kept in.

mod buffers;
mod builder;
mod layout;
mod merge;
mod position;
mod schema;
mod spans;

pub(crate) use builder::{parse, parse_local};
pub(crate) use spans::one_char;

/// Deepest nesting of collections accepted, in both syntaxes' messages.
pub(crate) const MAX_DEPTH: usize = 128;
