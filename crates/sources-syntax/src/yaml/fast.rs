//! The fast reader: one pass over the bytes of a document written in the plain subset of YAML that
//! configurations are written in, building the tree directly, with no event stream between.
//!
//! It takes block mappings and block sequences (a sequence may sit at its key's indentation), plain
//! keys and one-line quoted keys, one-line plain, single-quoted and double-quoted scalars, literal
//! and folded block scalars (`|`, `>`, `-` after either), one-line flow sequences and flow mappings
//! of such scalars and of each other, comments and blank lines. Everything else, and anything it is
//! not sure of, makes it decline ([`read`] gives `None`) and the whole text goes through saphyr
//! instead: tabs, carriage returns, control characters and byte order marks anywhere, anchors,
//! aliases, tags, merge keys, `?` keys, kept (`|+`) block scalars, folded ones with blank or
//! more-indented lines, other scalars over more than one line, empty values, directives and
//! document markers, duplicate keys, keys too long for a simple key, an integer too large for 64
//! bits, a comment deeper than the value it follows, flow collections over more than one line, with
//! an empty item, a `#` or a key that is not a scalar, and every syntax error. Declining costs a
//! second start, never a wrong tree: where it answers, the tree equals saphyr's (values, spans,
//! styles), which `tests/fast_reader.rs` and the fuzzer hold it to.
//!
//! The spans are the ones the saphyr path gives after its normalisation: a block mapping from its
//! first key to the end of its last value, a block sequence from its first `-` (at its key's
//! indentation, from its first item) to the end of its last item, a flow collection from its
//! opening bracket to past the blanks after its closing one (and past a comment after those), a
//! quoted scalar with its quotes, a block scalar from its indicator to its last character, a plain
//! scalar without the blanks after it.
//!
//! This module owns the lines and the stack of open block collections; `scalar` reads scalars and
//! `flow` flow collections.

mod flow;
mod scalar;

use foldhash::{HashSet, HashSetExt};

use super::buffers::boxed;
use crate::{Entry, Key, Map, Node, Span, Value};

/// Deepest nesting of block collections the fast reader takes (saphyr reports past
/// [`super::MAX_DEPTH`]; a configuration is far shallower than either).
const MAX_FAST_DEPTH: usize = 64;

/// Reads `text` into its tree, or `None` when the text is outside the subset (see the module).
pub(super) fn read(text: &str) -> Option<Node> {
    if !plain_bytes(text.as_bytes()) {
        return None;
    }
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
        line: 0,
        stack: Vec::new(),
        spare_items: Vec::new(),
        spare_entries: Vec::new(),
        root: None,
    };
    reader.run()?;
    reader.root
}

/// Whether `bytes` holds none of what the fast reader leaves to saphyr wherever it stands: a
/// control character other than the line feed (tabs and carriage returns included) and a byte
/// order mark.
fn plain_bytes(bytes: &[u8]) -> bool {
    let odd = |b: u8| (b < 0x20 && b != b'\n') || b == 0x7f;
    // Whole chunks without stopping at the first hit, which the compiler vectorises.
    let clean = bytes
        .chunks(64)
        .all(|chunk| !chunk.iter().fold(false, |found, &b| found | odd(b)));
    clean && memchr::memmem::find(bytes, "\u{feff}".as_bytes()).is_none()
}

/// An open block collection.
enum Frame {
    Map {
        /// The column of its keys.
        indent: usize,
        /// Where its first key starts.
        start: usize,
        entries: Vec<Entry>,
        /// A key whose value is a block collection on the lines below, not yet read.
        key: Option<Key>,
    },
    Seq {
        /// The column of its `-`.
        indent: usize,
        /// Where its first `-` is.
        start: usize,
        items: Vec<Node>,
        /// A `-` whose item is on the lines below, not yet read.
        pending: bool,
        /// Whether it sits at the indentation of the key it is the value of (`key:\n- a`).
        indentless: bool,
    },
}

impl Frame {
    fn indent(&self) -> usize {
        match self {
            Frame::Map { indent, .. } | Frame::Seq { indent, .. } => *indent,
        }
    }

    /// Whether it waits for a value written on the lines below.
    fn awaits_value(&self) -> bool {
        match self {
            Frame::Map { key, .. } => key.is_some(),
            Frame::Seq { pending, .. } => *pending,
        }
    }
}

/// A scalar or flow collection read on one line: a key (followed by `:`) or a value.
enum Scanned {
    /// A key, and the offset just past its `:`.
    Key(Key, usize),
    /// A value, and the offset just past it.
    Value(Node, usize),
}

struct Reader<'t> {
    text: &'t str,
    bytes: &'t [u8],
    /// The offset being read.
    at: usize,
    /// Where the line being read starts.
    line: usize,
    stack: Vec<Frame>,
    /// Emptied buffers of closed collections, reused by the next ones (see [`boxed`]).
    spare_items: Vec<Vec<Node>>,
    spare_entries: Vec<Vec<Entry>>,
    root: Option<Node>,
}

impl Reader<'_> {
    /// Reads every line, then closes what is open; `None` to decline.
    fn run(&mut self) -> Option<()> {
        let len = self.bytes.len();
        while self.at < len {
            self.line = self.at;
            let indent = self.spaces(self.at) - self.at;
            let first = self.at + indent;
            match self.bytes.get(first) {
                None => break,
                Some(b'\n') => {
                    self.at = first + 1;
                    continue;
                }
                Some(b'#') => {
                    // A comment deeper than the scalar before it could be read as more of that
                    // scalar by a YAML reader; only saphyr knows for sure.
                    if let Some(top) = self.stack.last()
                        && !top.awaits_value()
                        && indent > top.indent()
                    {
                        return None;
                    }
                    self.at = self.line_after(first);
                    continue;
                }
                _ => {}
            }
            if indent == 0
                && (self.text[first..].starts_with("---") || self.text[first..].starts_with("..."))
            {
                return None;
            }
            self.content(first, indent)?;
        }
        if self.stack.last().is_some_and(Frame::awaits_value) {
            return None;
        }
        while !self.stack.is_empty() {
            self.close()?;
        }
        Some(())
    }

    /// Reads a line whose first character, at `indent`, is at `pos`.
    fn content(&mut self, pos: usize, indent: usize) -> Option<()> {
        let dash = self.is_dash(pos);
        if let Some(top) = self.stack.last()
            && top.awaits_value()
        {
            let same_column_seq =
                indent == top.indent() && dash && matches!(top, Frame::Map { .. });
            if indent > top.indent() || same_column_seq {
                return self.open(pos, indent, dash, same_column_seq);
            }
            return None;
        }
        loop {
            let Some(top) = self.stack.last() else {
                if self.root.is_some() {
                    return None;
                }
                return self.open(pos, indent, dash, false);
            };
            let ends_indentless = matches!(
                top,
                Frame::Seq {
                    indentless: true,
                    ..
                }
            ) && !dash;
            if top.indent() > indent || (top.indent() == indent && ends_indentless) {
                self.close()?;
                continue;
            }
            if top.indent() < indent {
                return None;
            }
            return match (top, dash) {
                (Frame::Map { .. }, false) => self.entry(pos),
                (Frame::Seq { .. }, true) => self.item(pos),
                _ => None,
            };
        }
    }

    /// Opens a collection at `pos` (a sequence when the line is a `-` item) and reads its first
    /// line.
    fn open(&mut self, pos: usize, indent: usize, dash: bool, indentless: bool) -> Option<()> {
        if self.stack.len() >= MAX_FAST_DEPTH {
            return None;
        }
        if dash {
            self.stack.push(Frame::Seq {
                indent,
                start: pos,
                items: self.spare_items.pop().unwrap_or_default(),
                pending: false,
                indentless,
            });
            self.item(pos)
        } else {
            self.stack.push(Frame::Map {
                indent,
                start: pos,
                entries: self.spare_entries.pop().unwrap_or_default(),
                key: None,
            });
            self.entry(pos)
        }
    }

    /// Reads a `key: value` line of the mapping on top of the stack, its key at `pos`.
    fn entry(&mut self, pos: usize) -> Option<()> {
        let Scanned::Key(key, after) = self.scan(pos)? else {
            return None;
        };
        let value_at = self.spaces(after);
        match self.bytes.get(value_at) {
            None | Some(b'\n' | b'#') => {
                if self.bytes.get(value_at) == Some(&b'#') && value_at == after {
                    return None;
                }
                self.at = self.line_after(value_at);
                if let Some(Frame::Map { key: pending, .. }) = self.stack.last_mut() {
                    *pending = Some(key);
                }
                Some(())
            }
            Some(_) => {
                if value_at == after || self.is_dash(value_at) {
                    return None;
                }
                let value = if matches!(self.bytes[value_at], b'|' | b'>') {
                    self.block_scalar(value_at)?
                } else {
                    let Scanned::Value(value, end) = self.scan(value_at)? else {
                        return None;
                    };
                    self.at = self.line_end(end)?;
                    value
                };
                if let Some(Frame::Map { entries, .. }) = self.stack.last_mut() {
                    entries.push(Entry { key, value });
                }
                Some(())
            }
        }
    }

    /// Reads a `- item` line of the sequence on top of the stack, its `-` at `pos`.
    fn item(&mut self, pos: usize) -> Option<()> {
        let after = pos + 1;
        let value_at = self.spaces(after);
        match self.bytes.get(value_at) {
            None | Some(b'\n' | b'#') => {
                if self.bytes.get(value_at) == Some(&b'#') && value_at == after {
                    return None;
                }
                // Where saphyr starts a sequence at its key's indentation whose first item is on
                // the lines below is not worth knowing.
                if let Some(Frame::Seq {
                    indentless: true,
                    items,
                    ..
                }) = self.stack.last()
                    && items.is_empty()
                {
                    return None;
                }
                self.at = self.line_after(value_at);
                self.set_pending(true);
                Some(())
            }
            Some(_) => {
                if self.is_dash(value_at) {
                    return None;
                }
                if matches!(self.bytes[value_at], b'|' | b'>') {
                    let value = self.block_scalar(value_at)?;
                    if let Some(Frame::Seq { items, .. }) = self.stack.last_mut() {
                        items.push(value);
                    }
                    return Some(());
                }
                match self.scan(value_at)? {
                    Scanned::Value(value, end) => {
                        self.at = self.line_end(end)?;
                        if let Some(Frame::Seq { items, .. }) = self.stack.last_mut() {
                            items.push(value);
                        }
                        Some(())
                    }
                    Scanned::Key(..) => {
                        // A mapping that starts on the item's line (`- key: value`): its keys sit
                        // at this key's column.
                        self.set_pending(true);
                        self.open(value_at, value_at - self.line, false, false)
                    }
                }
            }
        }
    }

    fn set_pending(&mut self, to: bool) {
        if let Some(Frame::Seq { pending, .. }) = self.stack.last_mut() {
            *pending = to;
        }
    }

    /// Closes the collection on top of the stack and places it in its parent.
    fn close(&mut self) -> Option<()> {
        let frame = self.stack.pop()?;
        let node = match frame {
            Frame::Map {
                start,
                entries,
                key,
                ..
            } => {
                if key.is_some() || has_duplicates(&entries) {
                    return None;
                }
                let end = entries.last()?.value.span.end();
                let entries = boxed(entries, &mut self.spare_entries);
                Node::new(Value::Map(Map { entries }), Span::new(start, end))
            }
            Frame::Seq {
                start,
                items,
                pending,
                indentless,
                ..
            } => {
                if pending {
                    return None;
                }
                // saphyr starts a sequence at its key's indentation at its first item.
                let start = if indentless {
                    items.first()?.span.start()
                } else {
                    start
                };
                let end = items.last()?.span.end();
                let items = boxed(items, &mut self.spare_items);
                Node::new(Value::Seq(items), Span::new(start, end))
            }
        };
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Map { entries, key, .. }) => entries.push(Entry {
                key: key.take()?,
                value: node,
            }),
            Some(Frame::Seq { items, pending, .. }) => {
                if !std::mem::replace(pending, false) {
                    return None;
                }
                items.push(node);
            }
        }
        Some(())
    }

    /// Past the blanks after a value ending at `end`: the start of the next line, when only a
    /// comment (after a blank) or nothing follows.
    fn line_end(&self, end: usize) -> Option<usize> {
        let next = self.spaces(end);
        match self.bytes.get(next) {
            None | Some(b'\n') => Some(self.line_after(next)),
            Some(b'#') if next > end => Some(self.line_after(next)),
            _ => None,
        }
    }

    /// The start of the line after the one holding `at`.
    fn line_after(&self, at: usize) -> usize {
        (self.line_feed(at) + 1).min(self.bytes.len())
    }

    /// The line feed ending the line that holds `at` (the end of the text on the last line).
    fn line_feed(&self, at: usize) -> usize {
        let at = at.min(self.bytes.len());
        memchr::memchr(b'\n', &self.bytes[at..]).map_or(self.bytes.len(), |offset| at + offset)
    }

    /// The first offset from `at` that is not a space.
    fn spaces(&self, mut at: usize) -> usize {
        while self.bytes.get(at) == Some(&b' ') {
            at += 1;
        }
        at
    }

    /// Whether `at` is the end of the text, a space or a line feed.
    fn blank_or_end(&self, at: usize) -> bool {
        matches!(self.bytes.get(at), None | Some(b' ' | b'\n'))
    }

    /// Whether a block sequence's `-` is at `pos`.
    fn is_dash(&self, pos: usize) -> bool {
        self.bytes.get(pos) == Some(&b'-') && self.blank_or_end(pos + 1)
    }
}

/// Whether two entries of a mapping have the same key (an error saphyr's path reports).
fn has_duplicates(entries: &[Entry]) -> bool {
    if entries.len() <= 16 {
        return entries
            .iter()
            .enumerate()
            .any(|(i, entry)| entries[..i].iter().any(|e| e.key.name == entry.key.name));
    }
    let mut seen: HashSet<&str> = HashSet::with_capacity(entries.len());
    !entries.iter().all(|entry| seen.insert(&entry.key.name))
}
