//! Span-carrying wrappers for model values, and the generic value shapes (text, any value, named
//! maps). Their JSON Schema is the inner type's: spans are invisible in the schema.

use std::borrow::Cow;

use ecow::EcoString;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use sources_syntax::{Node, ScalarStyle, Span};

/// A value and the byte span it was written at.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where the value is written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// A value at `span`.
    pub fn new(value: T, span: Span) -> Spanned<T> {
        Spanned { value, span }
    }
}

/// A field of a map: its key's span, its decoded value and the value's span.
#[derive(Clone, Debug, PartialEq)]
pub struct Field<T> {
    /// Where the key is written.
    pub key_span: Span,
    /// The decoded value.
    pub value: T,
    /// Where the value is written.
    pub value_span: Span,
}

impl<T> Field<T> {
    /// The value with its span, without the key.
    pub fn spanned(&self) -> Spanned<&T> {
        Spanned::new(&self.value, self.value_span)
    }

    /// The span from the key to the end of the value.
    pub fn span(&self) -> Span {
        self.key_span.cover(self.value_span)
    }
}

macro_rules! transparent_schema {
    ($wrapper:ident) => {
        impl<T: JsonSchema> JsonSchema for $wrapper<T> {
            fn inline_schema() -> bool {
                T::inline_schema()
            }
            fn schema_name() -> Cow<'static, str> {
                T::schema_name()
            }
            fn schema_id() -> Cow<'static, str> {
                T::schema_id()
            }
            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                T::json_schema(generator)
            }
        }
    };
}

transparent_schema!(Spanned);
transparent_schema!(Field);

/// A string as written: its decoded text and quoting style, so that an offset inside the text can
/// be mapped back to the file (templates and expressions). A number or boolean written where text
/// is expected is kept as its plain text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// The decoded text (the tree's string, moved: inline up to 15 bytes).
    pub text: EcoString,
    /// How it was written.
    pub style: ScalarStyle,
}

impl Text {
    /// The text as a `&str`.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl Spanned<Text> {
    /// Maps a byte offset inside the decoded text to a byte offset in the file `source`
    /// (through quotes, escapes and block scalars), for a label on a token inside a template or
    /// an expression. `None` when the offset cannot be mapped exactly.
    pub fn file_offset(&self, source: &str, offset_in_text: usize) -> Option<usize> {
        let node = Node {
            value: sources_syntax::Value::Str(sources_syntax::Str {
                text: self.value.text.clone(),
                style: self.value.style,
            }),
            span: self.span,
        };
        sources_syntax::str_offset(source, &node, offset_in_text)
    }

    /// The file span of the byte range `range` inside the decoded text (see [`Self::file_offset`]).
    pub fn file_span(&self, source: &str, range: std::ops::Range<usize>) -> Option<Span> {
        Some(Span::new(
            self.file_offset(source, range.start)?,
            self.file_offset(source, range.end)?,
        ))
    }
}

impl<T> Field<T> {
    /// The value with its span, by value.
    pub fn to_spanned(&self) -> Spanned<T>
    where
        T: Clone,
    {
        Spanned::new(self.value.clone(), self.value_span)
    }
}

impl JsonSchema for Text {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Text".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": ["string", "number", "boolean"] })
    }
}

/// Any value, kept as its spanned tree (inline `static` data, `older`/`newer` values).
#[derive(Clone, Debug, PartialEq)]
pub struct AnyValue(pub Node);

impl AnyValue {
    /// The value as JSON (what `static` data and `older`/`newer` values stand for). A float that
    /// JSON cannot hold (NaN, infinity) and an unreadable value become `null`.
    pub fn to_json(&self) -> serde_json::Value {
        to_json(&self.0)
    }
}

fn to_json(node: &Node) -> serde_json::Value {
    use serde_json::Value as Json;
    match &node.value {
        sources_syntax::Value::Null | sources_syntax::Value::Invalid => Json::Null,
        sources_syntax::Value::Bool(value) => Json::Bool(*value),
        sources_syntax::Value::Int(value) => Json::from(*value),
        sources_syntax::Value::Float(value) => {
            serde_json::Number::from_f64(*value).map_or(Json::Null, Json::Number)
        }
        sources_syntax::Value::Str(text) => Json::String(text.text.to_string()),
        sources_syntax::Value::Seq(items) => Json::Array(items.iter().map(to_json).collect()),
        sources_syntax::Value::Map(map) => Json::Object(
            map.entries
                .iter()
                .map(|entry| (entry.key.name.to_string(), to_json(&entry.value)))
                .collect(),
        ),
    }
}

impl JsonSchema for AnyValue {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "AnyValue".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!(true)
    }
}

/// One `name: value` item of a [`NamedMap`].
#[derive(Clone, Debug, PartialEq)]
pub struct Named<T> {
    /// The key and its span.
    pub name: Spanned<String>,
    /// The value and its span.
    pub value: Spanned<T>,
}

/// A map from names to values, in source order, keeping every key's span.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedMap<T>(pub Vec<Named<T>>);

impl<T> Default for NamedMap<T> {
    fn default() -> NamedMap<T> {
        NamedMap(Vec::new())
    }
}

impl<T> NamedMap<T> {
    /// The first item with this name.
    pub fn get(&self, name: &str) -> Option<&Named<T>> {
        self.0.iter().find(|item| item.name.value == name)
    }

    /// The items in source order.
    pub fn iter(&self) -> std::slice::Iter<'_, Named<T>> {
        self.0.iter()
    }

    /// Whether the map has no items.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl<T: JsonSchema> JsonSchema for NamedMap<T> {
    fn schema_name() -> Cow<'static, str> {
        format!("Map_of_{}", T::schema_name()).into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let inner = generator.subschema_for::<T>();
        json_schema!({ "type": "object", "additionalProperties": inner })
    }
}
