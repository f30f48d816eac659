//! YAML text to the spanned tree, through `saphyr-parser`'s spanned events.
//!
//! This is the event stream saphyr's `MarkedYaml` loader is built on. We consume it directly
//! instead of loading `MarkedYaml` because the loaded tree has already dropped what the front end
//! must report (duplicate keys, scalar styles, where a tag or anchor ends) and because its loader
//! recurses once per nesting level. Our loop keeps an explicit stack, so no input can overflow it.
//!
//! saphyr's quirks, each handled here and tested below:
//! - markers count characters, not bytes: [`CharToByte`] converts them with a moving cursor
//!   (amortised O(1) per marker; identity for ASCII text);
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

use std::borrow::Cow;
use std::collections::HashMap;

use ecow::EcoString;
use saphyr_parser::{Event, Parser, ScalarStyle as YamlStyle, Tag};

use crate::{Entry, Key, Map, Node, Parse, ScalarStyle, Span, Str, SyntaxError, Value};

/// Deepest nesting of collections accepted, in both syntaxes' messages.
pub(crate) const MAX_DEPTH: usize = 128;

/// Most values that aliases may expand to in one document (a guard against "billion laughs").
const MAX_ALIAS_EXPANSION: usize = 1_000_000;

/// Converts saphyr's character indices to byte offsets.
struct CharToByte<'t> {
    text: &'t str,
    ascii: bool,
    chars: usize,
    bytes: usize,
}

impl<'t> CharToByte<'t> {
    fn new(text: &'t str) -> Self {
        CharToByte {
            text,
            ascii: text.is_ascii(),
            chars: 0,
            bytes: 0,
        }
    }

    /// The byte offset of the character at `index` (the text's length past its end).
    fn byte(&mut self, index: usize) -> usize {
        if self.ascii {
            return index.min(self.text.len());
        }
        let bytes = self.text.as_bytes();
        while self.chars < index && self.bytes < bytes.len() {
            self.bytes += utf8_width(bytes[self.bytes]);
            self.chars += 1;
        }
        while self.chars > index && self.bytes > 0 {
            self.bytes -= 1;
            while self.bytes > 0 && !self.text.is_char_boundary(self.bytes) {
                self.bytes -= 1;
            }
            self.chars -= 1;
        }
        self.bytes.min(bytes.len())
    }
}

fn utf8_width(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

/// Line numbers for messages, computed once on first use.
struct Lines<'t> {
    text: &'t str,
    starts: Option<Vec<usize>>,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Self {
        Lines { text, starts: None }
    }

    /// The 1-based line of `offset`.
    fn line(&mut self, offset: usize) -> usize {
        let text = self.text;
        let starts = self.starts.get_or_insert_with(|| {
            let mut starts = vec![0];
            starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
            starts
        });
        starts.partition_point(|&start| start <= offset)
    }
}

/// An open collection on the builder's stack.
enum Frame {
    Seq {
        items: Vec<Node>,
        start: usize,
        flow: bool,
        anchor: usize,
    },
    Map {
        entries: Vec<Entry>,
        key: PendingKey,
        start: usize,
        flow: bool,
        anchor: usize,
        /// The values of `<<` keys, in order.
        merges: Vec<Node>,
    },
}

/// What a mapping does with the value that comes next.
enum PendingKey {
    /// The next node is a key.
    None,
    /// The next node is the value of this key.
    Key(Key),
    /// The next node belongs to a key that was rejected; drop it.
    Skip,
    /// The next node is the value of a `<<` merge key written at this span.
    Merge(Span),
}

/// An anchored node kept for its aliases.
struct Anchored {
    node: Node,
    height: usize,
    size: usize,
}

struct Builder<'t> {
    text: &'t str,
    bytes: CharToByte<'t>,
    lines: Lines<'t>,
    stack: Vec<Frame>,
    /// Emptied buffers of closed sequences and mappings, reused by the next ones opened (see
    /// [`boxed`]).
    spare_items: Vec<Vec<Node>>,
    spare_entries: Vec<Vec<Entry>>,
    anchors: HashMap<usize, Anchored>,
    expanded: usize,
    errors: Vec<SyntaxError>,
    root: Option<Node>,
    /// Byte offset where the previous event ended.
    last_end: usize,
    /// Whether an anchor, alias or `<<` merge key was seen: then a node's value may come from
    /// text elsewhere in the document.
    shared: bool,
}

/// Parses YAML text. Never panics; stops at the first syntax error with what was read before it.
pub(crate) fn parse(text: &str) -> Parse {
    parse_local(text).0
}

/// Parses YAML text as [`parse`] does, and says whether the tree is local: no anchor, alias or
/// `<<` merge key, so each node's value comes only from the text within its span.
pub(crate) fn parse_local(text: &str) -> (Parse, bool) {
    let mut builder = Builder {
        text,
        bytes: CharToByte::new(text),
        lines: Lines::new(text),
        stack: Vec::new(),
        spare_items: Vec::new(),
        spare_entries: Vec::new(),
        anchors: HashMap::new(),
        expanded: 0,
        errors: Vec::new(),
        root: None,
        last_end: 0,
        shared: false,
    };
    builder.run(Parser::new_from_str(text));
    let Builder {
        mut errors,
        root,
        shared,
        ..
    } = builder;
    errors.sort_by_key(|error| error.span);
    (Parse { root, errors }, !shared)
}

impl<'t> Builder<'t> {
    fn run(&mut self, mut parser: Parser<'t, saphyr_parser::StrInput<'t>>) {
        let mut documents = 0;
        while let Some(next) = parser.next_event() {
            let (event, span) = match next {
                Ok(pair) => pair,
                Err(error) => {
                    let at = self.bytes.byte(error.marker().index());
                    self.error(one_char(self.text, at), scan_message(error.info()));
                    break;
                }
            };
            let start = self.bytes.byte(span.start.index());
            let end = self.bytes.byte(span.end.index()).max(start);
            let keep_going = match event {
                Event::DocumentStart(_) => {
                    documents += 1;
                    if documents > 1 {
                        self.error(
                            Span::new(start, end),
                            "a second YAML document starts here; a config file is one document: \
                             remove this `---` and what follows, or move it to its own file"
                                .to_owned(),
                        );
                        false
                    } else {
                        true
                    }
                }
                Event::Scalar(value, style, anchor, tag) => {
                    let node = self.scalar(value, style, tag, start, end);
                    self.complete(node, anchor)
                }
                Event::Alias(id) => {
                    let node = self.alias(id, start, end);
                    self.complete(node, 0)
                }
                Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                    let is_map = matches!(event, Event::MappingStart(..));
                    self.open(is_map, anchor, start, end)
                }
                Event::SequenceEnd | Event::MappingEnd => self.close(end),
                Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => true,
            };
            self.last_end = self.last_end.max(end);
            if !keep_going {
                break;
            }
        }
        self.unwind();
    }

    fn error(&mut self, span: Span, message: String) {
        self.errors.push(SyntaxError { message, span });
    }

    /// Opens a collection; false when it is nested too deep to go on.
    fn open(&mut self, is_map: bool, anchor: usize, start: usize, end: usize) -> bool {
        let start = skip_properties(self.text, start, end);
        if self.stack.len() >= MAX_DEPTH {
            self.error(
                one_char(self.text, start),
                format!(
                    "nesting deeper than {MAX_DEPTH} levels; a config never needs this: flatten it"
                ),
            );
            return false;
        }
        let flow = matches!(self.text.as_bytes().get(start), Some(b'[' | b'{')) && end > start;
        self.stack.push(if is_map {
            Frame::Map {
                entries: self.spare_entries.pop().unwrap_or_default(),
                key: PendingKey::None,
                start,
                flow,
                anchor,
                merges: Vec::new(),
            }
        } else {
            Frame::Seq {
                items: self.spare_items.pop().unwrap_or_default(),
                start,
                flow,
                anchor,
            }
        });
        true
    }

    /// Closes the innermost collection at the end event ending at `end`.
    fn close(&mut self, end: usize) -> bool {
        let Some(frame) = self.stack.pop() else {
            return true;
        };
        let (node, anchor) = self.finish(frame, Some(end));
        self.complete(node, anchor)
    }

    /// Builds the node of a closed frame. `end` is the end event's end, when there was one.
    fn finish(&mut self, frame: Frame, end: Option<usize>) -> (Node, usize) {
        match frame {
            Frame::Seq {
                items,
                start,
                flow,
                anchor,
            } => {
                let last = items.last().map_or(start, |item| item.span.end());
                let end = if flow { end.unwrap_or(last) } else { last };
                (
                    Node::new(
                        Value::Seq(boxed(items, &mut self.spare_items)),
                        Span::new(start, end.max(start)),
                    ),
                    anchor,
                )
            }
            Frame::Map {
                mut entries,
                key,
                start,
                flow,
                anchor,
                merges,
            } => {
                let mut last = entries.last().map_or(start, |entry| entry.value.span.end());
                if let PendingKey::Key(key) = key {
                    last = last.max(key.span.end());
                    let at = Span::empty(key.span.end());
                    // Without an end event the parser stopped at an error before the value: it is
                    // unreadable, not empty, so nothing downstream reports it a second time.
                    let value = if end.is_some() {
                        Value::Null
                    } else {
                        Value::Invalid
                    };
                    entries.push(Entry {
                        key,
                        value: Node::new(value, at),
                    });
                }
                let end = if flow { end.unwrap_or(last) } else { last };
                self.check_duplicates(&mut entries);
                merge_into(&mut entries, merges);
                (
                    Node::new(
                        Value::Map(Map {
                            entries: boxed(entries, &mut self.spare_entries),
                        }),
                        Span::new(start, end.max(start)),
                    ),
                    anchor,
                )
            }
        }
    }

    /// Closes every collection still open (after an error or a stop) so the tree keeps what was read.
    fn unwind(&mut self) {
        while let Some(frame) = self.stack.pop() {
            let flow = matches!(
                frame,
                Frame::Seq { flow: true, .. } | Frame::Map { flow: true, .. }
            );
            let (mut node, _) = self.finish(frame, None);
            if flow {
                // An unclosed `[` or `{`: the syntax error is the one diagnostic about it.
                node.value = Value::Invalid;
            }
            self.place(node);
        }
    }

    /// Records a finished node under its anchor, then places it in its parent.
    fn complete(&mut self, node: Node, anchor: usize) -> bool {
        if anchor != 0 {
            self.shared = true;
            let (height, size) = measure(&node);
            self.anchors.insert(
                anchor,
                Anchored {
                    node: node.clone(),
                    height,
                    size,
                },
            );
        }
        self.place(node);
        true
    }

    fn place(&mut self, node: Node) {
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                key,
                merges,
                ..
            }) => match std::mem::replace(key, PendingKey::None) {
                PendingKey::Key(name) => entries.push(Entry {
                    key: name,
                    value: node,
                }),
                PendingKey::Skip => {}
                PendingKey::Merge(at) => {
                    if mergeable(&node) {
                        merges.push(node);
                    } else {
                        self.error(
                            at,
                            format!(
                                "`<<` merges a mapping into this one, found {}; write `<<: *name` \
                                 or `<<: [*a, *b]` with anchors of mappings",
                                node.value.type_name()
                            ),
                        );
                    }
                }
                PendingKey::None => {
                    let next = self.key(node);
                    if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
                        *key = next;
                    }
                }
            },
        }
    }

    /// Turns a node written in key position into a key, or reports why it cannot be one.
    fn key(&mut self, node: Node) -> PendingKey {
        let name = match node.value {
            Value::Str(s) => s.text,
            Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) => {
                self.text.get(node.span.range()).unwrap_or_default().into()
            }
            Value::Invalid => return PendingKey::Skip,
            Value::Seq(_) | Value::Map(_) => {
                let found = node.value.type_name();
                self.error(
                    node.span,
                    format!("a key must be a string, not {found}; write the key as plain text"),
                );
                return PendingKey::Skip;
            }
        };
        if name == "<<" && self.text.as_bytes().get(node.span.start()) == Some(&b'<') {
            self.shared = true;
            return PendingKey::Merge(node.span);
        }
        PendingKey::Key(Key {
            name,
            span: node.span,
        })
    }

    /// Reports every key written twice in one mapping, at the second one, and drops it.
    fn check_duplicates(&mut self, entries: &mut Vec<Entry>) {
        let mut duplicates: Vec<(usize, usize)> = Vec::new();
        if entries.len() <= 16 {
            for (later, entry) in entries.iter().enumerate() {
                if let Some(first) = entries[..later]
                    .iter()
                    .position(|e| e.key.name == entry.key.name)
                {
                    duplicates.push((first, later));
                }
            }
        } else {
            let mut seen: HashMap<&str, usize> = HashMap::with_capacity(entries.len());
            for (later, entry) in entries.iter().enumerate() {
                if let Some(&first) = seen.get(entry.key.name.as_str()) {
                    duplicates.push((first, later));
                } else {
                    seen.insert(&entry.key.name, later);
                }
            }
        }
        if duplicates.is_empty() {
            return;
        }
        for &(first, later) in &duplicates {
            let line = self.lines.line(entries[first].key.span.start());
            let key = &entries[later].key;
            let message = format!("duplicate key `{}`; the first is at line {line}", key.name);
            let span = key.span;
            self.error(span, message);
        }
        let mut index = 0;
        let mut drop = duplicates.iter().map(|&(_, later)| later).peekable();
        entries.retain(|_| {
            let keep = drop.next_if_eq(&index).is_none();
            index += 1;
            keep
        });
    }

    fn alias(&mut self, id: usize, start: usize, end: usize) -> Node {
        self.shared = true;
        let span = Span::new(start, end);
        let name = self
            .text
            .get(start..end)
            .unwrap_or_default()
            .trim_start_matches('*')
            .to_owned();
        let Some(anchored) = self.anchors.get(&id) else {
            self.error(
                span,
                format!("alias `*{name}` refers to the collection it is written in"),
            );
            return Node::new(Value::Invalid, span);
        };
        if self.stack.len() + anchored.height > MAX_DEPTH {
            self.error(
                span,
                format!("alias `*{name}` nests values deeper than {MAX_DEPTH} levels"),
            );
            return Node::new(Value::Invalid, span);
        }
        self.expanded += anchored.size;
        if self.expanded > MAX_ALIAS_EXPANSION {
            self.error(
                span,
                format!(
                    "aliases expand to more than {MAX_ALIAS_EXPANSION} values; write the values \
                     out or use fewer aliases"
                ),
            );
            return Node::new(Value::Invalid, span);
        }
        let mut node = anchored.node.clone();
        node.span = span;
        node
    }

    fn scalar(
        &mut self,
        value: Cow<'t, str>,
        style: YamlStyle,
        tag: Option<Cow<'t, Tag>>,
        start: usize,
        end: usize,
    ) -> Node {
        let mut start = skip_properties(self.text, start, end);
        let mut end = end;
        let style = match style {
            YamlStyle::Plain => ScalarStyle::Plain,
            YamlStyle::SingleQuoted => ScalarStyle::SingleQuoted,
            YamlStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
            YamlStyle::Literal => ScalarStyle::Literal,
            YamlStyle::Folded => ScalarStyle::Folded,
        };
        if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) {
            let indicator = if style == ScalarStyle::Literal {
                b'|'
            } else {
                b'>'
            };
            if let Some(at) = find_indicator(self.text, self.last_end, start, indicator) {
                start = at;
            }
        }
        // A quoted scalar followed by blanks or a comment spans them too (`'key' : v`,
        // `"v"  # note`): it ends at its closing quote. No scalar ends in a blank.
        end = match style {
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                closing_quote(self.text, start, end).unwrap_or(end)
            }
            _ => end,
        };
        end = start.max(trim_end(self.text, start, end));
        let span = Span::new(start, end.max(start));
        let core = tag
            .as_deref()
            .filter(|tag| tag.is_yaml_core_schema())
            .map(|t| t.suffix.as_str());
        let non_specific = tag
            .as_deref()
            .is_some_and(|tag| tag.handle == "!" && tag.suffix.is_empty());
        // The scanner builds each scalar in a buffer of 32 bytes or more; the tree keeps it inline
        // when it fits in 15 bytes (most keys and values are short, and a document has many),
        // otherwise copied into a buffer of its length.
        let text = EcoString::from(value);
        let resolved = match core {
            Some("str") => Some(Value::Str(Str {
                text: text.clone(),
                style,
            })),
            Some(kind @ ("int" | "float" | "bool" | "null")) => match resolve_plain(&text) {
                Some(value) if tag_accepts(kind, &value) => Some(value),
                _ => {
                    self.error(span, format!("`{text}` is not a valid !!{kind}"));
                    Some(Value::Invalid)
                }
            },
            _ => None,
        };
        let value = match resolved {
            Some(value) => value,
            None if style == ScalarStyle::Plain && !non_specific => match resolve_plain(&text) {
                Some(value) => value,
                None if looks_like_int(&text) => {
                    self.error(span, format!("integer `{text}` does not fit in 64 bits"));
                    Value::Invalid
                }
                None => Value::Str(Str { text, style }),
            },
            None => Value::Str(Str { text, style }),
        };
        Node::new(value, span)
    }
}

/// Largest buffer, in bytes, whose items [`boxed`] copies into an allocation of their size.
const MAX_SPARE_BYTES: usize = 64 * 1024;

/// The items of a closed collection as the tree keeps them: in an allocation of exactly their
/// size, and `items`' buffer emptied into `spare` for the next collection opened.
///
/// A vector grows by doubling, and shrinking it in place (as `into_boxed_slice` does) leaves the
/// allocator's block as it was when the new size is at least half of it (mimalloc's rule): a
/// mapping of 3 entries kept the block of 4. A large buffer is moved instead: its pages past the
/// last item were never written, so they take no memory, and a copy would double it for a while.
fn boxed<T>(mut items: Vec<T>, spare: &mut Vec<Vec<T>>) -> Box<[T]> {
    if items.capacity() * size_of::<T>() > MAX_SPARE_BYTES {
        return items.into_boxed_slice();
    }
    let exact = items.drain(..).collect();
    spare.push(items);
    exact
}

/// Whether a `<<` value can be merged: a mapping, or a list of mappings (an unreadable value was
/// reported already and is dropped quietly).
fn mergeable(node: &Node) -> bool {
    match &node.value {
        Value::Map(_) | Value::Invalid => true,
        Value::Seq(items) => items
            .iter()
            .all(|item| matches!(item.value, Value::Map(_) | Value::Invalid)),
        _ => false,
    }
}

/// Adds the entries of the merged mappings that `entries` does not write, as YAML's merge key does:
/// keys written in the map win, then earlier merged mappings over later ones.
fn merge_into(entries: &mut Vec<Entry>, merges: Vec<Node>) {
    if merges.is_empty() {
        return;
    }
    let maps = merges.into_iter().flat_map(|node| match node.value {
        Value::Map(map) => vec![map],
        Value::Seq(items) => items
            .into_iter()
            .filter_map(|item| match item.value {
                Value::Map(map) => Some(map),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    });
    let mut names: std::collections::HashSet<EcoString> =
        entries.iter().map(|entry| entry.key.name.clone()).collect();
    for map in maps {
        for entry in map.entries.into_vec() {
            if names.insert(entry.key.name.clone()) {
                entries.push(entry);
            }
        }
    }
}

fn tag_accepts(kind: &str, value: &Value) -> bool {
    matches!(
        (kind, value),
        ("int", Value::Int(_))
            | ("float", Value::Float(_) | Value::Int(_))
            | ("bool", Value::Bool(_))
            | ("null", Value::Null)
    )
}

/// The height (levels of collections) and the number of values of a node.
fn measure(node: &Node) -> (usize, usize) {
    match &node.value {
        Value::Seq(items) => items
            .iter()
            .map(measure)
            .fold((1, 1), |(h, s), (ch, cs)| (h.max(ch + 1), s + cs)),
        Value::Map(map) => map
            .entries
            .iter()
            .map(|entry| measure(&entry.value))
            .fold((1, 1), |(h, s), (ch, cs)| (h.max(ch + 1), s + cs + 1)),
        _ => (0, 1),
    }
}

/// Resolves a plain scalar with the YAML 1.2 core schema; `None` for a string (or an integer too
/// large for 64 bits).
fn resolve_plain(text: &str) -> Option<Value> {
    let first = *text.as_bytes().first().unwrap_or(&b'~');
    match first {
        b'~' | b'n' | b'N' => match text {
            "" | "~" | "null" | "Null" | "NULL" => Some(Value::Null),
            ".nan" | ".NaN" | ".NAN" => Some(Value::Float(f64::NAN)),
            _ => None,
        },
        b't' | b'T' => matches!(text, "true" | "True" | "TRUE").then_some(Value::Bool(true)),
        b'f' | b'F' => matches!(text, "false" | "False" | "FALSE").then_some(Value::Bool(false)),
        b'0'..=b'9' | b'-' | b'+' | b'.' => resolve_number(text),
        _ => None,
    }
}

fn resolve_number(text: &str) -> Option<Value> {
    if let Some(hex) = text.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16)
            .ok()
            .filter(|_| !hex.starts_with(['+', '-']))
            .map(Value::Int);
    }
    if let Some(octal) = text.strip_prefix("0o") {
        return i64::from_str_radix(octal, 8)
            .ok()
            .filter(|_| !octal.starts_with(['+', '-']))
            .map(Value::Int);
    }
    if looks_like_int(text) {
        return text.parse::<i64>().ok().map(Value::Int);
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        let inf = if text.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        return Some(Value::Float(inf));
    }
    if is_core_float(unsigned) {
        return text.parse::<f64>().ok().map(Value::Float);
    }
    None
}

/// `[-+]?[0-9]+`.
fn looks_like_int(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` without its sign.
fn is_core_float(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match fraction {
        Some(fraction) => {
            digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty())
        }
        None => !whole.is_empty() && digits(whole),
    };
    let exponent_ok = exponent.is_none_or(looks_like_int);
    mantissa_ok && exponent_ok && (fraction.is_some() || exponent.is_some())
}

/// Moves `start` past any tag (`!…`) and anchor (`&…`) properties and the blanks and comments
/// after them, not beyond `end` unless the span holds only properties.
fn skip_properties(text: &str, start: usize, end: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = start;
    while matches!(bytes.get(at), Some(b'!' | b'&')) {
        while at < bytes.len() && !matches!(bytes[at], b' ' | b'\t' | b'\r' | b'\n') {
            at += 1;
        }
        at = skip_blanks_and_comments(bytes, at);
    }
    if at == start {
        start
    } else {
        at.min(end.max(at))
    }
}

fn skip_blanks_and_comments(bytes: &[u8], mut at: usize) -> usize {
    loop {
        match bytes.get(at) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => at += 1,
            Some(b'#') => {
                while at < bytes.len() && bytes[at] != b'\n' {
                    at += 1;
                }
            }
            _ => return at,
        }
    }
}

/// The offset of a block scalar's `indicator` between the previous event's end and the content.
fn find_indicator(text: &str, from: usize, content: usize, indicator: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from.min(content);
    let mut after_blank = true;
    while at < content {
        match bytes[at] {
            b'#' if after_blank => {
                while at < content && bytes[at] != b'\n' {
                    at += 1;
                }
            }
            b if b == indicator => return Some(at),
            b => {
                after_blank = matches!(b, b' ' | b'\t' | b'\r' | b'\n');
                at += 1;
            }
        }
    }
    None
}

/// The end of the quoted scalar that opens at `start` (just past its closing quote), looking no
/// further than `end`: `''` inside single quotes and `\x` inside double quotes are escapes.
fn closing_quote(text: &str, start: usize, end: usize) -> Option<usize> {
    let bytes = text.as_bytes().get(start..end.min(text.len()))?;
    let quote = *bytes.first().filter(|byte| matches!(byte, b'\'' | b'"'))?;
    let mut at = 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' if quote == b'"' => at += 2,
            b'\'' if quote == b'\'' && bytes.get(at + 1) == Some(&b'\'') => at += 2,
            byte if byte == quote => return Some(start + at + 1),
            _ => at += 1,
        }
    }
    None
}

/// `end` moved back over trailing blanks and line breaks, not before `start`.
fn trim_end(text: &str, start: usize, end: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = end.min(bytes.len());
    while end > start && matches!(bytes[end - 1], b' ' | b'\t' | b'\r' | b'\n') {
        end -= 1;
    }
    end
}

/// The span of the character at `at` (empty at the end of the text); an offset inside a character
/// moves back to that character's start.
pub(crate) fn one_char(text: &str, at: usize) -> Span {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let width = text[at..].chars().next().map_or(0, char::len_utf8);
    Span::new(at, at + width)
}

/// saphyr's message, with a hint for the mistakes people make most.
fn scan_message(info: &str) -> String {
    let hint = match info {
        "mapping values are not allowed in this context" => {
            "; a value that contains `: ` must be quoted"
        }
        "recursion limit exceeded" => {
            return format!(
                "nesting deeper than {MAX_DEPTH} levels; a config never needs this: flatten it"
            );
        }
        _ if info.contains("tab") => "; indent with spaces, not tabs",
        _ if info.contains("did not find expected ',' or ']'") => "; is a `]` missing?",
        _ if info.contains("did not find expected ',' or '}'") => "; is a `}` missing?",
        _ if info.contains("unexpected end of") => "; is a closing quote or bracket missing?",
        _ if info.contains("unknown anchor") => {
            "; an alias `*name` must name an anchor `&name` written above it"
        }
        _ => "",
    };
    format!("{info}{hint}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn character_indices_become_byte_offsets_in_both_directions() {
        let text = "aé😀b\nc";
        let mut bytes = CharToByte::new(text);
        assert_eq!(bytes.byte(0), 0);
        assert_eq!(bytes.byte(2), 3);
        assert_eq!(bytes.byte(3), 7);
        assert_eq!(bytes.byte(1), 1);
        assert_eq!(bytes.byte(5), 9);
        assert_eq!(bytes.byte(99), text.len());
        let mut ascii = CharToByte::new("plain");
        assert_eq!(ascii.byte(3), 3);
        assert_eq!(ascii.byte(9), 5);
    }

    #[test]
    fn properties_are_skipped_with_their_comments() {
        let text = "!!map &a # note\n  key";
        assert_eq!(
            skip_properties(text, 0, text.len()),
            text.find("key").expect("key")
        );
        assert_eq!(skip_properties("plain", 0, 5), 0);
    }

    #[test]
    fn small_collections_are_copied_to_their_size_and_large_ones_moved() {
        let mut spare = Vec::new();
        let mut small = Vec::with_capacity(4);
        small.extend([1u64, 2, 3]);
        assert_eq!(*boxed(small, &mut spare), [1, 2, 3]);
        assert_eq!(
            spare.len(),
            1,
            "the emptied buffer is kept for the next collection"
        );
        assert!(spare[0].is_empty() && spare[0].capacity() >= 4);

        let items = MAX_SPARE_BYTES / size_of::<u64>() + 1;
        let large: Vec<u64> = (0..items as u64).collect();
        let start = large.as_ptr();
        let large = boxed(large, &mut spare);
        assert_eq!(
            (large.len(), large.as_ptr()),
            (items, start),
            "moved, not copied"
        );
        assert_eq!(spare.len(), 1, "a large buffer is not kept");
    }

    #[test]
    fn core_schema_floats() {
        for yes in ["1.5", ".5", "1.", "1e5", "-2.5E-3", "+1.0"] {
            assert!(matches!(resolve_plain(yes), Some(Value::Float(_))), "{yes}");
        }
        for no in ["1.2.3", "e5", ".", "1e", "inf", "nan", "0x", "1_000"] {
            assert!(!matches!(resolve_plain(no), Some(Value::Float(_))), "{no}");
        }
        assert!(matches!(resolve_plain("-.inf"), Some(Value::Float(f)) if f == f64::NEG_INFINITY));
        assert!(matches!(resolve_plain("0o17"), Some(Value::Int(15))));
    }
}
