//! The shape of data: what an entry's value (its rows, events or single value) looks like, as far
//! as the analysis can know it. Object keys with their shapes, arrays of an item shape, scalars by
//! type, keys that only some rows have marked optional, and `Unknown` wherever nothing is known.
//!
//! A shape is inferred from a value (inline `static` data, a recorded sample, the demo backend's
//! published responses) by joining what every element has; it never holds the values themselves.
//! Inference is bounded: nesting deeper than [`MAX_DEPTH`] is `Unknown`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use sources_syntax::{Node, Value as TreeValue};

/// Nesting deeper than this is not followed: the shape there is [`Shape::Unknown`].
pub const MAX_DEPTH: usize = 24;

/// What a value looks like.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Shape {
    /// Nothing is known: every reference into it is accepted.
    #[default]
    Unknown,
    /// `null` (alone, or where every value seen was null).
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// Values of more than one scalar kind (a field that is a number in one row, a string in
    /// another).
    Scalar,
    /// A list whose items have this shape ([`Shape::Unknown`] for an empty list).
    Array(Box<Shape>),
    /// A map with these keys.
    Object(Fields),
    /// Either a list of items of this shape or one such item: what an operator gives when it
    /// knows its rows but not whether its input is a list (a `project` over an unknown source).
    Rows(Box<Shape>),
}

/// The keys of an object shape, sorted by name.
pub type Fields = BTreeMap<String, Field>;

/// One key of an object shape.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Field {
    /// The shape of its values.
    pub shape: Shape,
    /// Whether some rows lack the key (it is then null when read).
    pub optional: bool,
}

impl Field {
    /// A key every row has.
    pub fn required(shape: Shape) -> Field {
        Field {
            shape,
            optional: false,
        }
    }
}

impl Shape {
    /// The shape of a value of an expression's evident kind (a list's items and a map's keys
    /// untold).
    pub fn of_kind(kind: sources_expr::ValueKind) -> Shape {
        use sources_expr::ValueKind;
        match kind {
            ValueKind::Bool => Shape::Bool,
            ValueKind::Number => Shape::Number,
            ValueKind::String => Shape::String,
            ValueKind::Null => Shape::Null,
            ValueKind::List => Shape::Array(Box::new(Shape::Unknown)),
            ValueKind::Map => Shape::Unknown,
        }
    }

    /// The shape of the rows: a list's items, otherwise the value itself (an operator over a
    /// single value applies to that value; a stream's events are its rows).
    pub fn rows(&self) -> &Shape {
        match self {
            Shape::Array(item) | Shape::Rows(item) => item,
            other => other,
        }
    }

    /// The keys, when this is an object.
    pub fn fields(&self) -> Option<&Fields> {
        match self {
            Shape::Object(fields) => Some(fields),
            _ => None,
        }
    }

    /// Whether nothing is known.
    pub fn is_unknown(&self) -> bool {
        matches!(self, Shape::Unknown)
    }

    /// The shape of a JSON value.
    pub fn of_json(value: &serde_json::Value) -> Shape {
        of_json(value, 0)
    }

    /// The shape of a value of the configuration's tree (inline `static` data).
    pub fn of_node(node: &Node) -> Shape {
        of_node(node, 0)
    }

    /// The shape of what both `self` and `other` may be (rows of two children, two rows of one
    /// list): keys only one side has become optional; different kinds give [`Shape::Scalar`]
    /// for scalars and [`Shape::Unknown`] otherwise. `null` joined with anything is that thing.
    pub fn join(self, other: Shape) -> Shape {
        match (self, other) {
            (Shape::Unknown, _) | (_, Shape::Unknown) => Shape::Unknown,
            (Shape::Null, other) | (other, Shape::Null) => other,
            (Shape::Array(a), Shape::Array(b)) => Shape::Array(Box::new(join_items(*a, *b))),
            (Shape::Rows(a), Shape::Rows(b))
            | (Shape::Rows(a), Shape::Array(b))
            | (Shape::Array(a), Shape::Rows(b)) => Shape::Rows(Box::new(join_items(*a, *b))),
            (Shape::Object(a), Shape::Object(b)) => Shape::Object(join_fields(a, b)),
            (a, b) if a == b => a,
            (a, b) if a.is_scalar() && b.is_scalar() => Shape::Scalar,
            _ => Shape::Unknown,
        }
    }

    fn is_scalar(&self) -> bool {
        matches!(
            self,
            Shape::Bool | Shape::Number | Shape::String | Shape::Scalar
        )
    }

    /// Follows a dot-path (`a.b.0.c`, a number indexes a list) as far as the shape knows it.
    pub fn lookup(&self, path: &str) -> PathLookup<'_> {
        walk(self, path.split('.').filter(|step| !step.is_empty()))
    }

    /// Follows the steps of a path from an object's keys.
    pub fn lookup_in<'a>(fields: &'a Fields, steps: &[&str]) -> PathLookup<'a> {
        let Some((first, rest)) = steps.split_first() else {
            return PathLookup::Unknown;
        };
        match fields.get(*first) {
            Some(field) => match walk(&field.shape, rest.iter().copied()) {
                PathLookup::Missing { at, step, keys } => PathLookup::Missing {
                    at: prefixed(first, &at),
                    step,
                    keys,
                },
                PathLookup::NotObject { at, step, shape } => PathLookup::NotObject {
                    at: prefixed(first, &at),
                    step,
                    shape,
                },
                PathLookup::IntoList { at, step, item } => PathLookup::IntoList {
                    at: prefixed(first, &at),
                    step,
                    item,
                },
                other => other,
            },
            None => PathLookup::Missing {
                at: String::new(),
                step: (*first).to_owned(),
                keys: fields,
            },
        }
    }

    /// A one-word name of the kind, for messages (`an object`, `a string`).
    pub fn noun(&self) -> &'static str {
        match self {
            Shape::Unknown => "unknown",
            Shape::Null => "null",
            Shape::Bool => "a boolean",
            Shape::Number => "a number",
            Shape::String => "a string",
            Shape::Scalar => "a scalar",
            Shape::Array(_) | Shape::Rows(_) => "a list",
            Shape::Object(_) => "an object",
        }
    }

    /// The shape written out compactly, as hover and `graph --shapes` show it:
    /// `[{name: string, rev?: number}]`. Nesting below `depth` is written `{…}`.
    pub fn render(&self, depth: usize) -> String {
        let mut out = String::new();
        render(self, depth, &mut out);
        out
    }
}

/// Where a dot-path leads in a shape.
#[derive(Debug, PartialEq)]
pub enum PathLookup<'a> {
    /// The path leads here.
    Found(&'a Shape),
    /// The shape does not say (an unknown part, or a key step into what may be a list or one
    /// row).
    Unknown,
    /// The object reached at `at` (empty: the top) has no key `step`.
    Missing {
        /// The path walked before the missing step.
        at: String,
        /// The key that is not there.
        step: String,
        /// The keys that are there.
        keys: &'a Fields,
    },
    /// The value at `at` is a list, and `step` is a key, not an index.
    IntoList {
        /// The path walked to the list.
        at: String,
        /// The step that is not an index.
        step: String,
        /// The shape of the list's items.
        item: &'a Shape,
    },
    /// The value at `at` is a scalar, so it has no keys.
    NotObject {
        /// The path walked to the scalar.
        at: String,
        /// The step read from it.
        step: String,
        /// What is there.
        shape: &'a Shape,
    },
}

/// `first.at`, or `first` when `at` is empty.
fn prefixed(first: &str, at: &str) -> String {
    if at.is_empty() {
        first.to_owned()
    } else {
        format!("{first}.{at}")
    }
}

/// Follows `steps` from `start`.
fn walk<'a, 's>(start: &'a Shape, steps: impl Iterator<Item = &'s str>) -> PathLookup<'a> {
    let mut current = start;
    let mut walked = String::new();
    for step in steps {
        current = match current {
            Shape::Object(fields) => match fields.get(step) {
                Some(field) => &field.shape,
                None => {
                    return PathLookup::Missing {
                        at: walked,
                        step: step.to_owned(),
                        keys: fields,
                    };
                }
            },
            Shape::Array(item) | Shape::Rows(item) if step.parse::<usize>().is_ok() => item,
            Shape::Array(item) => {
                return PathLookup::IntoList {
                    at: walked,
                    step: step.to_owned(),
                    item,
                };
            }
            Shape::Unknown | Shape::Null | Shape::Rows(_) => {
                return PathLookup::Unknown;
            }
            Shape::Bool | Shape::Number | Shape::String | Shape::Scalar => {
                return PathLookup::NotObject {
                    at: walked,
                    step: step.to_owned(),
                    shape: current,
                };
            }
        };
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(step);
    }
    PathLookup::Found(current)
}

fn join_items(a: Shape, b: Shape) -> Shape {
    a.join(b)
}

fn join_fields(mut a: Fields, b: Fields) -> Fields {
    for (name, field) in &mut a {
        if !b.contains_key(name) {
            field.optional = true;
        }
    }
    for (name, field) in b {
        match a.remove(&name) {
            Some(mine) => {
                let optional = mine.optional || field.optional;
                a.insert(
                    name,
                    Field {
                        shape: mine.shape.join(field.shape),
                        optional,
                    },
                );
            }
            None => {
                a.insert(
                    name,
                    Field {
                        shape: field.shape,
                        optional: true,
                    },
                );
            }
        }
    }
    a
}

/// The join of every item of a list ([`Shape::Unknown`] for none).
fn join_many(items: impl Iterator<Item = Shape>) -> Shape {
    items.reduce(Shape::join).unwrap_or(Shape::Unknown)
}

fn of_json(value: &serde_json::Value, depth: usize) -> Shape {
    use serde_json::Value as Json;
    if depth >= MAX_DEPTH {
        return Shape::Unknown;
    }
    match value {
        Json::Null => Shape::Null,
        Json::Bool(_) => Shape::Bool,
        Json::Number(_) => Shape::Number,
        Json::String(_) => Shape::String,
        Json::Array(items) => Shape::Array(Box::new(join_many(
            items.iter().map(|item| of_json(item, depth + 1)),
        ))),
        Json::Object(map) => Shape::Object(
            map.iter()
                .map(|(name, value)| {
                    let shape = of_json(value, depth + 1);
                    (name.clone(), Field::required(shape))
                })
                .collect(),
        ),
    }
}

fn of_node(node: &Node, depth: usize) -> Shape {
    if depth >= MAX_DEPTH {
        return Shape::Unknown;
    }
    match &node.value {
        TreeValue::Null => Shape::Null,
        TreeValue::Invalid => Shape::Unknown,
        TreeValue::Bool(_) => Shape::Bool,
        TreeValue::Int(_) | TreeValue::Float(_) => Shape::Number,
        TreeValue::Str(_) => Shape::String,
        TreeValue::Seq(items) => Shape::Array(Box::new(join_many(
            items.iter().map(|item| of_node(item, depth + 1)),
        ))),
        TreeValue::Map(map) => {
            let mut fields = Fields::new();
            for entry in map.entries.iter() {
                let shape = of_node(&entry.value, depth + 1);
                fields.insert(entry.key.name.to_string(), Field::required(shape));
            }
            Shape::Object(fields)
        }
    }
}

fn render(shape: &Shape, depth: usize, out: &mut String) {
    match shape {
        Shape::Unknown => out.push('?'),
        Shape::Null => out.push_str("null"),
        Shape::Bool => out.push_str("bool"),
        Shape::Number => out.push_str("number"),
        Shape::String => out.push_str("string"),
        Shape::Scalar => out.push_str("scalar"),
        Shape::Array(item) => {
            out.push('[');
            render(item, depth, out);
            out.push(']');
        }
        Shape::Rows(item) => {
            out.push_str("rows ");
            render(item, depth, out);
        }
        Shape::Object(fields) if depth == 0 => {
            out.push_str(if fields.is_empty() { "{}" } else { "{…}" });
        }
        Shape::Object(fields) => {
            out.push('{');
            for (at, (name, field)) in fields.iter().enumerate() {
                if at > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{name}{}: ", if field.optional { "?" } else { "" });
                render(&field.shape, depth - 1, out);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rows_that_differ_make_keys_optional_and_kinds_scalar() {
        let shape = Shape::of_json(&json!([
            {"name": "a", "rev": 1, "owner": {"team": "x"}},
            {"name": "b", "rev": "2"},
        ]));
        assert_eq!(
            shape.render(3),
            "[{name: string, owner?: {team: string}, rev: scalar}]"
        );
        let row = shape.rows();
        assert!(matches!(
            row.lookup("owner.team"),
            PathLookup::Found(Shape::String)
        ));
        match row.lookup("owner.tema") {
            PathLookup::Missing { at, step, keys } => {
                assert_eq!((at.as_str(), step.as_str()), ("owner", "tema"));
                assert_eq!(keys.keys().collect::<Vec<_>>(), ["team"]);
            }
            other => panic!("expected a missing key, got {other:?}"),
        }
        assert!(matches!(
            row.lookup("name.first"),
            PathLookup::NotObject { .. }
        ));
    }

    #[test]
    fn a_key_of_a_list_or_of_a_scalar_says_what_is_there() {
        let shape = Shape::of_json(&json!({"spec": {"containers": [{"image": "x"}]}, "n": 1}));
        match shape.lookup("spec.containers.image") {
            PathLookup::IntoList { at, step, item } => {
                assert_eq!((at.as_str(), step.as_str()), ("spec.containers", "image"));
                assert!(item.fields().is_some_and(|keys| keys.contains_key("image")));
            }
            other => panic!("expected a key of a list, got {other:?}"),
        }
        assert!(matches!(
            shape.lookup("spec.containers.0.image"),
            PathLookup::Found(Shape::String)
        ));
        match shape.lookup("n.first") {
            PathLookup::NotObject { at, step, shape } => {
                assert_eq!((at.as_str(), step.as_str()), ("n", "first"));
                assert_eq!(shape, &Shape::Number);
            }
            other => panic!("expected a key of a scalar, got {other:?}"),
        }
    }

    #[test]
    fn nulls_join_away_and_unknown_wins() {
        let shape = Shape::of_json(&json!([{"a": null}, {"a": 3}]));
        assert_eq!(shape.render(2), "[{a: number}]");
        assert_eq!(Shape::Number.join(Shape::Unknown), Shape::Unknown);
        assert_eq!(Shape::of_json(&json!([])).rows(), &Shape::Unknown);
        assert_eq!(
            Shape::of_json(&json!([[1], {"a": 1}])).rows(),
            &Shape::Unknown
        );
    }

    #[test]
    fn deep_values_stop_at_the_depth_limit() {
        let mut value = json!(1);
        for _ in 0..(MAX_DEPTH + 10) {
            value = json!({ "a": value });
        }
        let shape = Shape::of_json(&value);
        let path = vec!["a"; MAX_DEPTH].join(".");
        assert_eq!(shape.lookup(&path), PathLookup::Found(&Shape::Unknown));
    }
}
