//! The builder: saphyr's events to the tree, through an explicit stack of open collections, with
//! keys, duplicate keys, anchors and aliases.

use std::borrow::Cow;

use ecow::EcoString;
use foldhash::{HashMap, HashMapExt};
use saphyr_parser::{Event, Parser, ScalarStyle as YamlStyle, Tag};

use super::MAX_DEPTH;
use super::buffers::boxed;
use super::layout;
use super::merge::{merge_into, mergeable};
use super::position::{CharToByte, Lines};
use super::schema::{looks_like_int, resolve_plain, tag_accepts};
use super::spans::{closing_quote, find_indicator, one_char, skip_properties, trim_end};
use crate::{Entry, Key, Map, Node, Parse, ScalarStyle, Span, Str, SyntaxError, Value};

/// Most values that aliases may expand to in one document (a guard against "billion laughs").
const MAX_ALIAS_EXPANSION: usize = 1_000_000;

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

/// Parses YAML text through saphyr's events, and says whether the tree is local: no anchor, alias
/// or `<<` merge key, so each node's value comes only from the text within its span. Never panics;
/// stops at the first syntax error with what was read before it.
pub(super) fn parse_events(text: &str) -> (Parse, bool) {
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
                    let info = error.info();
                    let named = if info.contains("tab") {
                        layout::tab(self.text, at, info)
                    } else if info == "mapping values are not allowed in this context" {
                        layout::over_indented_key(self.text, at)
                    } else {
                        None
                    };
                    match named {
                        Some((span, message)) => self.error(span, message),
                        None => self.error(one_char(self.text, at), scan_message(info)),
                    }
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
