//! Moving a decoded entry by a number of bytes: every span of its model, so that an entry the
//! editor's tree update kept (text before it changed length) is reused rather than decoded again.
//!
//! Each model type lists its fields by destructuring, so a field added to the model and not moved
//! here does not compile.

use ecow::EcoString;
use sources_syntax::{Key, Span};

use crate::duration::GoDuration;
use crate::model::*;
use crate::spanned::{AnyValue, Field, Named, NamedMap, Spanned, Text};

/// A model value whose spans can be moved.
pub trait Shift {
    /// Moves every span in `self` by `delta` bytes.
    fn shift(&mut self, delta: isize);
}

impl Shift for Span {
    fn shift(&mut self, delta: isize) {
        *self = self.shifted(delta);
    }
}

/// Values that hold no span.
macro_rules! spanless {
    ($($ty:ty),* $(,)?) => {$(
        impl Shift for $ty {
            fn shift(&mut self, _: isize) {}
        }
    )*};
}

spanless!(bool, i64, String, EcoString, GoDuration, Text, &'static str);

impl<T: Shift> Shift for Option<T> {
    fn shift(&mut self, delta: isize) {
        if let Some(value) = self {
            value.shift(delta);
        }
    }
}

impl<T: Shift + ?Sized> Shift for Box<T> {
    fn shift(&mut self, delta: isize) {
        (**self).shift(delta);
    }
}

impl<T: Shift> Shift for [T] {
    fn shift(&mut self, delta: isize) {
        for item in self {
            item.shift(delta);
        }
    }
}

impl<T: Shift> Shift for Vec<T> {
    fn shift(&mut self, delta: isize) {
        self.as_mut_slice().shift(delta);
    }
}

impl<T: Shift> Shift for Spanned<T> {
    fn shift(&mut self, delta: isize) {
        self.span.shift(delta);
        self.value.shift(delta);
    }
}

impl<T: Shift> Shift for Field<T> {
    fn shift(&mut self, delta: isize) {
        self.key_span.shift(delta);
        self.value_span.shift(delta);
        self.value.shift(delta);
    }
}

impl<T: Shift> Shift for Named<T> {
    fn shift(&mut self, delta: isize) {
        self.name.shift(delta);
        self.value.shift(delta);
    }
}

impl<T: Shift> Shift for NamedMap<T> {
    fn shift(&mut self, delta: isize) {
        self.0.shift(delta);
    }
}

impl Shift for Key {
    fn shift(&mut self, delta: isize) {
        self.span.shift(delta);
    }
}

impl Shift for AnyValue {
    fn shift(&mut self, delta: isize) {
        self.0.shift(delta);
    }
}

/// Implements [`Shift`] for structs by moving each named field.
macro_rules! fields {
    ($($ty:ident { $($field:ident),* $(,)? })*) => {$(
        impl Shift for $ty {
            fn shift(&mut self, delta: isize) {
                let $ty { $($field),* } = self;
                $($field.shift(delta);)*
            }
        }
    )*};
}

fields! {
    Source { name, span, kind, body, keys }
    Stage { span, kind, body, keys }
    Common { parameters, pipe }
    LeafFields { common, root, format, refresh, timeout, cache }
    Http { leaf, url, method, headers, body, follow, paginate, window }
    Exec { leaf, command, env, follow, window }
    File { leaf, path }
    Websocket { leaf, url, headers, initial_messages, follow }
    Static { leaf, data }
    Merge { leaf, merge }
    MergeFields { sources, tag_field, children, meta_key, on_error }
    MergeChild { source, tags }
    Parameter { kind, required, default, description, label, placeholder, options, mask, order }
    Paginate { strategy, next_path, max_pages, on_page_error }
    Window {
        page_size, prefetch, total_path, filters, offset_param, limit_param, search_param,
        sort_param, sorts, sort_desc_prefix, cursor, older, newer, anchor, growing, follow_every,
        rejected
    }
    GrowingWhile { source, condition }
    CacheSpec { ttl, size }
    Passthrough { common, from }
    Filter { common, from, condition }
    Project { common, from, keep }
    Derive { common, from, compute }
    Sort { common, from, by, order }
    Union { common, merge }
    Compose { common, parts, on_error }
    Join { common, driver, lookups, emit, on_error }
    JoinDriver { from }
    JoinLookup { from, on }
    CacheOperator { common, from, ttl }
}

impl Shift for Growing {
    fn shift(&mut self, delta: isize) {
        match self {
            Growing::Flag(_) => {}
            Growing::While(condition) => condition.shift(delta),
        }
    }
}

impl Shift for Body {
    fn shift(&mut self, delta: isize) {
        match self {
            Body::Http(x) => x.shift(delta),
            Body::Exec(x) => x.shift(delta),
            Body::File(x) => x.shift(delta),
            Body::Websocket(x) => x.shift(delta),
            Body::Static(x) => x.shift(delta),
            Body::Merge(x) => x.shift(delta),
            Body::Passthrough(x) => x.shift(delta),
            Body::Filter(x) => x.shift(delta),
            Body::Project(x) => x.shift(delta),
            Body::Derive(x) => x.shift(delta),
            Body::Sort(x) => x.shift(delta),
            Body::Union(x) => x.shift(delta),
            Body::Compose(x) => x.shift(delta),
            Body::Join(x) => x.shift(delta),
            Body::Cache(x) => x.shift(delta),
            Body::Unknown => {}
        }
    }
}
