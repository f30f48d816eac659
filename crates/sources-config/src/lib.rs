//! The typed model of the `data.sources` block and its decoder.
//!
//! [`decode`] turns the spanned tree of `sources-syntax` into a [`Config`]: every entry of
//! `data.sources` in source order as a [`Source`] whose [`Body`] holds its kind's fields, each a
//! [`Field`] with the key's and the value's spans; and the dashboard's side
//! ([`dashboard`]: components, screens, push bindings, prompts) as far as it binds entries.
//! Decoding reports `unknown-field`, `missing-field`, `invalid-value`, `unknown-kind` and
//! `invalid-duration` and never stops at the first problem. Rules over the whole model live in
//! `sources-check`.
//!
//! The model's doc comments are the fields' documentation: the JSON Schema ([`fields::entry_schema`])
//! and the field knowledge of [`fields`] are generated from them.

pub mod accepted;
pub mod cadence;
mod config;
pub mod cursor;
pub mod dashboard;
mod dashboard_schema;
mod decode;
pub mod duration;
pub mod enums;
pub mod fields;
pub mod go_regexp;
pub mod item_path;
pub mod json_path;
pub mod model;
pub mod param_value;
mod path;
pub mod reference;
pub mod schema;
pub mod secret;
pub mod shift;
mod spanned;
pub mod table_order;
pub mod template;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
#[cfg(test)]
mod tests;
pub mod url_scheme;
pub mod vocabulary;

pub use accepted::{AcceptedParam, forwards_when_bare, passes_through};
pub use config::{Config, ReferenceField, SourceRef};
pub use dashboard::{
    Action, ActionBinding, Align, Bind, ColorRule, Column, Component, ComponentKind, Dashboard,
    InitialSort, InspectorField, OnCursor, Prompt, Push, Screen, SortMode,
};
pub use decode::{EntryReuse, decode, decode_edited, decode_into, name_span};
pub use duration::{DurationError, GoDuration, format_duration, parse_duration};
pub use enums::{
    Anchor, Emit, Enumeration, EventlogStart, Format, Kind, Method, OnError, Order, ParamType,
    Strategy,
};
pub use model::*;
pub use path::{PathStep, path_at};
pub use shift::Placed;
pub use spanned::{AnyValue, Field, Named, NamedMap, Spanned, Text};
