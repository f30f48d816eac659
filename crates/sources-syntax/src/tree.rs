//! The spanned tree both syntaxes become: [`Node`], [`Value`], [`Map`] and their helpers.

use ecow::EcoString;

use crate::Span;

/// A value with the byte span it was written at.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Where the value is written (for a string: including its quotes or block indicator).
    pub span: Span,
}

/// A value of the tree. YAML and TOML values map onto the same shapes.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// YAML `null`, `~` or an empty value.
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// A string.
    Str(Str),
    /// A sequence (YAML) or array (TOML), boxed: the tree is never grown once built.
    Seq(Box<[Node]>),
    /// A mapping (YAML) or table (TOML).
    Map(Map),
    /// A value the parser could not build (an error was reported for it).
    Invalid,
}

/// A string value and how it was written, so offsets inside it can be mapped back to the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Str {
    /// The decoded text (16 bytes, inline up to 15: most keys and scalars of a document are
    /// short).
    pub text: EcoString,
    /// The quoting style it was written in.
    pub style: ScalarStyle,
}

/// How a string scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    /// YAML plain scalar.
    Plain,
    /// YAML `'…'` or TOML `'…'`.
    SingleQuoted,
    /// YAML `"…"` or TOML `"…"`.
    DoubleQuoted,
    /// YAML `|` block.
    Literal,
    /// YAML `>` block.
    Folded,
    /// TOML `"""…"""`.
    MultilineBasic,
    /// TOML `'''…'''`.
    MultilineLiteral,
}

/// A mapping, in the order it was written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map {
    /// Entries in source order, boxed: the tree is never grown once built.
    pub entries: Box<[Entry]>,
}

/// One `key: value` pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The key.
    pub key: Key,
    /// The value.
    pub value: Node,
}

/// A mapping key: its text and span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// The key's text (16 bytes, inline up to 15).
    pub name: EcoString,
    /// Where the key is written.
    pub span: Span,
}

impl Entry {
    /// Moves each of `entries`, key and value, by `delta` bytes (text before them changed
    /// length), with one stack for all of them.
    pub fn shift_all(entries: &mut [Entry], delta: isize) {
        if delta == 0 {
            return;
        }
        let mut stack = Vec::with_capacity(entries.len());
        for entry in entries {
            entry.key.span = entry.key.span.shifted(delta);
            entry.value.span = entry.value.span.shifted(delta);
            stack.push(&mut entry.value);
        }
        shift_nodes(stack, delta);
    }
}

/// Moves everything inside the nodes on `stack` (already moved themselves) by `delta` bytes, a
/// level at a time, each in order (no nesting overflows ours): the collections of one level lie
/// in memory apart from each other, and reading them one after the other in a plain loop lets the
/// processor fetch several at once.
fn shift_nodes(mut stack: Vec<&mut Node>, delta: isize) {
    /// Moves `node`, and keeps it for the next level when it holds more: a scalar is moved where
    /// it is found rather than kept, and most nodes are scalars.
    fn visit<'n>(node: &'n mut Node, delta: isize, next: &mut Vec<&'n mut Node>) {
        node.span = node.span.shifted(delta);
        if matches!(node.value, Value::Seq(_) | Value::Map(_)) {
            next.push(node);
        }
    }
    let mut next = Vec::new();
    while !stack.is_empty() {
        for node in stack.drain(..) {
            match &mut node.value {
                Value::Seq(items) => {
                    for item in items.iter_mut() {
                        visit(item, delta, &mut next);
                    }
                }
                Value::Map(map) => {
                    for entry in &mut map.entries {
                        entry.key.span = entry.key.span.shifted(delta);
                        visit(&mut entry.value, delta, &mut next);
                    }
                }
                _ => {}
            }
        }
        std::mem::swap(&mut stack, &mut next);
    }
}

impl Node {
    /// A node of `value` written at `span`.
    pub fn new(value: Value, span: Span) -> Node {
        Node { value, span }
    }

    /// Moves this node and everything in it by `delta` bytes (text before it changed length).
    pub fn shift(&mut self, delta: isize) {
        self.span = self.span.shifted(delta);
        shift_nodes(vec![self], delta);
    }

    /// The decoded text when this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(&s.text),
            _ => None,
        }
    }

    /// The mapping when this is one.
    pub fn as_map(&self) -> Option<&Map> {
        match &self.value {
            Value::Map(map) => Some(map),
            _ => None,
        }
    }

    /// The items when this is a sequence.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The boolean when this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The integer when this is one.
    pub fn as_int(&self) -> Option<i64> {
        match self.value {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }
}

impl Value {
    /// The value's type with an article, for messages such as "expected a string, found a list".
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "nothing",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a map",
            Value::Invalid => "an unreadable value",
        }
    }
}

impl Map {
    /// The first entry whose key is `name`.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.key.name == name)
    }

    /// The value of the first entry whose key is `name`.
    pub fn value(&self, name: &str) -> Option<&Node> {
        self.get(name).map(|entry| &entry.value)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in source order.
    pub fn iter(&self) -> std::slice::Iter<'_, Entry> {
        self.entries.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::{Entry, Key, Node, Str, Value};

    #[test]
    fn nodes_and_entries_stay_small() {
        let sizes = [
            ("Str", size_of::<Str>(), 24),
            ("Value", size_of::<Value>(), 24),
            ("Node", size_of::<Node>(), 32),
            ("Key", size_of::<Key>(), 24),
            ("Entry", size_of::<Entry>(), 56),
        ];
        for (name, size, expected) in sizes {
            assert_eq!(
                size, expected,
                "`{name}` is {size} bytes, not {expected}: the editor holds the tree of a whole \
                 document at its memory peak, a few nodes and entries for every entry written"
            );
        }
    }
}
