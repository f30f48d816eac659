//! The fast reader's flow collections: `[…]` and `{…}` of scalars and of each other, on one line.

use ecow::EcoString;

use super::super::buffers::exact;
use super::scalar::plain_value;
use super::{Reader, has_duplicates};
use crate::{Entry, Key, Map, Node, Span, Value};

/// Deepest nesting of flow collections the fast reader takes (read on the call stack).
const MAX_FLOW_DEPTH: usize = 16;

impl Reader<'_> {
    /// A flow sequence `[a, "b"]` opening at `pos`, `depth` flow collections deep, closed on the
    /// same line.
    pub(super) fn flow_seq(&self, pos: usize, depth: usize) -> Option<(Node, usize)> {
        let mut items = Vec::new();
        let end = self.flow_items(pos, b']', |at| {
            let (item, end) = self.flow_node(at, depth + 1)?;
            items.push(item);
            Some(end)
        })?;
        let items = exact(items);
        Some((Node::new(Value::Seq(items), self.flow_span(pos, end)), end))
    }

    /// A flow mapping `{a: 1, b: "x"}` opening at `pos`, `depth` flow collections deep, closed on
    /// the same line, its keys scalars.
    pub(super) fn flow_map(&self, pos: usize, depth: usize) -> Option<(Node, usize)> {
        let mut entries = Vec::new();
        let end = self.flow_items(pos, b'}', |at| {
            let (key, end) = self.flow_scalar(at)?;
            if self.bytes.get(end) != Some(&b':') || self.bytes.get(end + 1) != Some(&b' ') {
                return None;
            }
            let name = match &key.value {
                Value::Str(s) => s.text.clone(),
                _ => EcoString::from(&self.text[key.span.range()]),
            };
            if name == "<<" {
                return None;
            }
            let (value, end) = self.flow_node(self.spaces(end + 1), depth + 1)?;
            let span = key.span;
            entries.push(Entry {
                key: Key { name, span },
                value,
            });
            Some(end)
        })?;
        if has_duplicates(&entries) {
            return None;
        }
        let map = Map {
            entries: exact(entries),
        };
        Some((Node::new(Value::Map(map), self.flow_span(pos, end)), end))
    }

    /// The span of a flow collection from its opening bracket at `pos` to its closing one just
    /// before `end`: saphyr's end event takes in the blanks after it.
    pub(super) fn flow_span(&self, pos: usize, end: usize) -> Span {
        Span::new(pos, self.spaces(end))
    }

    /// A value inside a flow collection (or the collection itself) at `pos`: a scalar, or a flow
    /// collection `depth` deep.
    pub(super) fn flow_node(&self, pos: usize, depth: usize) -> Option<(Node, usize)> {
        match self.bytes.get(pos) {
            Some(b'[' | b'{') if depth >= MAX_FLOW_DEPTH => None,
            Some(b'[') => self.flow_seq(pos, depth),
            Some(b'{') => self.flow_map(pos, depth),
            _ => self.flow_scalar(pos),
        }
    }

    /// Reads the items of a flow collection opening at `pos`, separated by commas and closed by
    /// `close` on the same line, each through `item` (which reads one at the offset it is given
    /// and says where it ends); the offset past the closing bracket. No empty item, no trailing
    /// comma.
    pub(super) fn flow_items(
        &self,
        pos: usize,
        close: u8,
        mut item: impl FnMut(usize) -> Option<usize>,
    ) -> Option<usize> {
        let mut at = self.spaces(pos + 1);
        if self.bytes.get(at) == Some(&close) {
            return Some(at + 1);
        }
        loop {
            at = self.spaces(item(at)?);
            match self.bytes.get(at) {
                Some(b',') => at = self.spaces(at + 1),
                Some(&b) if b == close => return Some(at + 1),
                _ => return None,
            }
            if self.bytes.get(at) == Some(&close) {
                return None;
            }
        }
    }

    /// Where a flow collection in block context, closed just before `end`, ends: saphyr's end
    /// event takes in the blanks and the comment after the bracket. `None` unless the line ends
    /// there (a `:` would make it a key).
    pub(super) fn after_flow(&self, end: usize) -> Option<usize> {
        let next = self.spaces(end);
        match self.bytes.get(next) {
            None | Some(b'\n') => Some(next),
            Some(b'#') if next > end => Some(self.line_feed(next)),
            _ => None,
        }
    }

    /// A scalar inside a flow collection at `pos`: quoted, or plain without `#` (a `:` ends it
    /// only before a blank or a flow indicator); its node and the offset past it.
    pub(super) fn flow_scalar(&self, pos: usize) -> Option<(Node, usize)> {
        if matches!(self.bytes.get(pos), Some(b'\'' | b'"')) {
            let (node, end) = self.quoted(pos)?;
            let next = self.spaces(end);
            if self.bytes.get(next) == Some(&b':') && next > end {
                return None;
            }
            return Some((node, end));
        }
        if !self.plain_start(pos, true) {
            return None;
        }
        let mut at = pos;
        let mut end = pos;
        while let Some(&b) = self.bytes.get(at) {
            match b {
                b',' | b']' | b'}' => break,
                b':' if matches!(
                    self.bytes.get(at + 1),
                    None | Some(b' ' | b'\n' | b',' | b'[' | b']' | b'{' | b'}')
                ) =>
                {
                    break;
                }
                b'\n' | b'#' | b'[' | b'{' => return None,
                // saphyr rejects a `-` before a flow indicator anywhere in a flow scalar.
                b'-' if matches!(
                    self.bytes.get(at + 1),
                    Some(b',' | b'[' | b']' | b'{' | b'}')
                ) =>
                {
                    return None;
                }
                b' ' => at += 1,
                _ => {
                    at += 1;
                    end = at;
                }
            }
        }
        let text = &self.text[pos..end];
        Some((Node::new(plain_value(text)?, Span::new(pos, end)), end))
    }
}
