//! The fast reader: one pass over the bytes of a document written in the plain subset of YAML
//! that configurations are written in, building the tree directly, with no event stream between.
//!
//! It takes block mappings and block sequences (a sequence may sit at its key's indentation),
//! plain keys and one-line quoted keys, one-line plain, single-quoted and double-quoted scalars,
//! one-line flow sequences and flow mappings of such scalars and of each other, comments and blank
//! lines. Everything else, and anything it is not sure of, makes it decline ([`read`] gives
//! `None`) and the whole text goes through saphyr instead: tabs, carriage returns, control
//! characters and byte order marks anywhere, anchors, aliases, tags, merge keys, `?` keys, block
//! scalars, scalars over more than one line, empty values, directives and document markers,
//! duplicate keys, keys too long for a simple key, an integer too large for 64 bits, a comment
//! deeper than the value it follows, flow collections over more than one line, with an empty item,
//! a `#` or a key that is not a scalar, and every syntax error. Declining costs a second start,
//! never a wrong tree: where it answers, the tree equals saphyr's (values, spans, styles), which
//! `tests/fast_reader.rs` and the fuzzer hold it to.
//!
//! The spans are the ones the saphyr path gives after its normalisation: a block mapping from its
//! first key to the end of its last value, a block sequence from its first `-` (at its key's
//! indentation, from its first item) to the end of its last item, a flow collection from its
//! opening bracket to past the blanks after its closing one (and past a comment after those), a
//! quoted scalar with its quotes, a plain scalar without the blanks after it.

use ecow::EcoString;
use foldhash::{HashSet, HashSetExt};

use super::buffers::boxed;
use super::schema::{looks_like_int, resolve_plain};
use crate::{Entry, Key, Map, Node, ScalarStyle, Span, Str, Value};

/// Deepest nesting of block collections the fast reader takes (saphyr reports past
/// [`super::MAX_DEPTH`]; a configuration is far shallower than either).
const MAX_FAST_DEPTH: usize = 64;

/// Deepest nesting of flow collections the fast reader takes (read on the call stack).
const MAX_FLOW_DEPTH: usize = 16;

/// Longest key, in bytes, the fast reader takes: YAML limits a simple key to 1024 characters.
const MAX_KEY_BYTES: usize = 1000;

/// The bytes a table marks: `true` for each of `bytes`.
const fn marked(bytes: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

/// Where a plain scalar's scan stops to look closer: the line's end, a blank, a `:`.
static PLAIN_STOPS: [bool; 256] = marked(b"\n :");

/// Where a single-quoted scalar's scan stops to look closer.
static SINGLE_QUOTED_STOPS: [bool; 256] = marked(b"\n'");

/// Where a double-quoted scalar's scan stops to look closer.
static DOUBLE_QUOTED_STOPS: [bool; 256] = marked(b"\n\"\\");

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
                let Scanned::Value(value, end) = self.scan(value_at)? else {
                    return None;
                };
                self.at = self.line_end(end)?;
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

    /// Reads the scalar or flow collection at `pos` (block context), as a key when a `:` and a
    /// blank follow it.
    fn scan(&self, pos: usize) -> Option<Scanned> {
        let (value, end) = match self.bytes[pos] {
            b'\'' | b'"' => self.quoted(pos)?,
            b'[' | b'{' => {
                let (mut node, end) = self.flow_node(pos, 0)?;
                node.span = Span::new(pos, self.after_flow(end)?);
                return Some(Scanned::Value(node, end));
            }
            _ => return self.plain_block(pos),
        };
        if self.bytes.get(end) == Some(&b':') {
            if !self.blank_or_end(end + 1) || end - pos > MAX_KEY_BYTES {
                return None;
            }
            let Value::Str(text) = value.value else {
                return None;
            };
            let key = Key {
                name: text.text,
                span: value.span,
            };
            return Some(Scanned::Key(key, end + 1));
        }
        Some(Scanned::Value(value, end))
    }

    /// A plain scalar in block context at `pos`, on one line.
    fn plain_block(&self, pos: usize) -> Option<Scanned> {
        if !self.plain_start(pos, false) {
            return None;
        }
        let bytes = self.bytes;
        let mut at = pos;
        let mut end = pos;
        let mut key = false;
        loop {
            let run = at;
            while let Some(&b) = bytes.get(at)
                && !PLAIN_STOPS[usize::from(b)]
            {
                at += 1;
            }
            if at > run {
                end = at;
            }
            match bytes.get(at) {
                Some(b' ') => {
                    let next = self.spaces(at);
                    if matches!(bytes.get(next), None | Some(b'\n' | b'#')) {
                        break;
                    }
                    at = next;
                }
                Some(b':') if self.blank_or_end(at + 1) => {
                    key = true;
                    break;
                }
                Some(b':') => {
                    at += 1;
                    end = at;
                }
                _ => break,
            }
        }
        let text = &self.text[pos..end];
        let span = Span::new(pos, end);
        if key {
            if at != end || text.len() > MAX_KEY_BYTES || text == "<<" {
                return None;
            }
            if looks_like_int(text) && resolve_plain(text).is_none() {
                return None;
            }
            let key = Key {
                name: EcoString::from(text),
                span,
            };
            return Some(Scanned::Key(key, at + 1));
        }
        Some(Scanned::Value(Node::new(plain_value(text)?, span), end))
    }

    /// Whether a plain scalar may start at `pos`: not at an indicator (a `-` only before a
    /// character that keeps it a scalar).
    fn plain_start(&self, pos: usize, flow: bool) -> bool {
        match self.bytes.get(pos) {
            None => false,
            Some(b'-') => {
                let ends = |b: &u8| matches!(b, b' ' | b'\n');
                let ends_in_flow =
                    |b: &u8| matches!(b, b',' | b'[' | b']' | b'{' | b'}' | b'#' | b':');
                self.bytes
                    .get(pos + 1)
                    .is_some_and(|b| !(ends(b) || (flow && ends_in_flow(b))))
            }
            Some(&b) => !matches!(
                b,
                b' ' | b'\n'
                    | b'['
                    | b']'
                    | b'{'
                    | b'}'
                    | b','
                    | b'#'
                    | b'&'
                    | b'*'
                    | b'!'
                    | b'|'
                    | b'>'
                    | b'\''
                    | b'"'
                    | b'%'
                    | b'@'
                    | b'`'
                    | b'?'
                    | b':'
            ),
        }
    }

    /// A quoted scalar opening at `pos`, closed on the same line: its node and the offset past
    /// its closing quote.
    fn quoted(&self, pos: usize) -> Option<(Node, usize)> {
        let bytes = self.bytes;
        let quote = bytes[pos];
        let mut at = pos + 1;
        let mut from = at;
        let mut decoded: Option<String> = None;
        let stops = if quote == b'"' {
            &DOUBLE_QUOTED_STOPS
        } else {
            &SINGLE_QUOTED_STOPS
        };
        loop {
            while bytes.get(at).is_some_and(|&b| !stops[usize::from(b)]) {
                at += 1;
            }
            let b = *bytes.get(at)?;
            match b {
                b'\n' => return None,
                b'\'' if quote == b'\'' => {
                    if bytes.get(at + 1) != Some(&b'\'') {
                        break;
                    }
                    let buffer = decoded.get_or_insert_with(String::new);
                    buffer.push_str(&self.text[from..=at]);
                    at += 2;
                    from = at;
                }
                b'"' if quote == b'"' => break,
                b'\\' if quote == b'"' => {
                    let (c, width) = escape(&bytes[at + 1..])?;
                    let buffer = decoded.get_or_insert_with(String::new);
                    buffer.push_str(&self.text[from..at]);
                    buffer.push(c);
                    at += 1 + width;
                    from = at;
                }
                _ => at += 1,
            }
        }
        let text = match decoded {
            Some(mut buffer) => {
                buffer.push_str(&self.text[from..at]);
                EcoString::from(buffer)
            }
            None => EcoString::from(&self.text[from..at]),
        };
        let style = if quote == b'"' {
            ScalarStyle::DoubleQuoted
        } else {
            ScalarStyle::SingleQuoted
        };
        let end = at + 1;
        let node = Node::new(Value::Str(Str { text, style }), Span::new(pos, end));
        Some((node, end))
    }

    /// A flow sequence `[a, "b"]` opening at `pos`, `depth` flow collections deep, closed on the
    /// same line.
    fn flow_seq(&self, pos: usize, depth: usize) -> Option<(Node, usize)> {
        let mut items = Vec::new();
        let end = self.flow_items(pos, b']', |at| {
            let (item, end) = self.flow_node(at, depth + 1)?;
            items.push(item);
            Some(end)
        })?;
        let items = items.into_boxed_slice();
        Some((Node::new(Value::Seq(items), self.flow_span(pos, end)), end))
    }

    /// A flow mapping `{a: 1, b: "x"}` opening at `pos`, `depth` flow collections deep, closed on
    /// the same line, its keys scalars.
    fn flow_map(&self, pos: usize, depth: usize) -> Option<(Node, usize)> {
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
            entries: entries.into_boxed_slice(),
        };
        Some((Node::new(Value::Map(map), self.flow_span(pos, end)), end))
    }

    /// The span of a flow collection from its opening bracket at `pos` to its closing one just
    /// before `end`: saphyr's end event takes in the blanks after it.
    fn flow_span(&self, pos: usize, end: usize) -> Span {
        Span::new(pos, self.spaces(end))
    }

    /// A value inside a flow collection (or the collection itself) at `pos`: a scalar, or a flow
    /// collection `depth` deep.
    fn flow_node(&self, pos: usize, depth: usize) -> Option<(Node, usize)> {
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
    fn flow_items(
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
    fn after_flow(&self, end: usize) -> Option<usize> {
        let next = self.spaces(end);
        match self.bytes.get(next) {
            None | Some(b'\n') => Some(next),
            Some(b'#') if next > end => Some(self.line_feed(next)),
            _ => None,
        }
    }

    /// A scalar inside a flow collection at `pos`: quoted, or plain without `#` (a `:` ends it
    /// only before a blank or a flow indicator); its node and the offset past it.
    fn flow_scalar(&self, pos: usize) -> Option<(Node, usize)> {
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

/// A plain scalar's value under the core schema; `None` for an integer too large for 64 bits (an
/// error saphyr's path reports).
fn plain_value(text: &str) -> Option<Value> {
    match resolve_plain(text) {
        Some(value) => Some(value),
        None if looks_like_int(text) => None,
        None => Some(Value::Str(Str {
            text: EcoString::from(text),
            style: ScalarStyle::Plain,
        })),
    }
}

/// The character a double-quoted escape stands for (`rest` follows its `\`), and how many bytes
/// after the `\` it takes; `None` for an escape YAML does not define.
fn escape(rest: &[u8]) -> Option<(char, usize)> {
    let c = match *rest.first()? {
        b'0' => '\0',
        b'a' => '\x07',
        b'b' => '\x08',
        b't' => '\t',
        b'n' => '\n',
        b'v' => '\x0b',
        b'f' => '\x0c',
        b'r' => '\r',
        b'e' => '\x1b',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        b'x' => return hex(rest, 2),
        b'u' => return hex(rest, 4),
        b'U' => return hex(rest, 8),
        _ => return None,
    };
    Some((c, 1))
}

/// The character of a `\x`, `\u` or `\U` escape of `digits` hexadecimal digits.
fn hex(rest: &[u8], digits: usize) -> Option<(char, usize)> {
    let code = rest.get(1..=digits)?;
    let mut value = 0u32;
    for &digit in code {
        value = (value << 4) | char::from(digit).to_digit(16)?;
    }
    Some((char::from_u32(value)?, 1 + digits))
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
