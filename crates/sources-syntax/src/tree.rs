//! The spanned tree both syntaxes become.

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
    /// A sequence (YAML) or array (TOML).
    Seq(Vec<Node>),
    /// A mapping (YAML) or table (TOML).
    Map(Map),
    /// A value the parser could not build (an error was reported for it).
    Invalid,
}

/// A string value and how it was written, so offsets inside it can be mapped back to the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Str {
    /// The decoded text.
    pub text: String,
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
    /// Entries in source order.
    pub entries: Vec<Entry>,
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
    /// The key's text.
    pub name: String,
    /// Where the key is written.
    pub span: Span,
}
