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

    /// Makes `self` equal to `source` moved by `delta` bytes, reusing what `self` holds (its
    /// vectors, boxes and strings) where the two have the same shape, so that a spare copy of an
    /// entry becomes a moved copy of another without allocating.
    fn shift_from(&mut self, source: &Self, delta: isize)
    where
        Self: Clone,
    {
        self.clone_from(source);
        self.shift(delta);
    }
}

impl Shift for Span {
    fn shift(&mut self, delta: isize) {
        *self = self.shifted(delta);
    }

    #[inline]
    fn shift_from(&mut self, source: &Self, delta: isize) {
        *self = source.shifted(delta);
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

impl<T: Shift + Clone> Shift for Option<T> {
    fn shift(&mut self, delta: isize) {
        if let Some(value) = self {
            value.shift(delta);
        }
    }

    #[inline]
    fn shift_from(&mut self, source: &Self, delta: isize) {
        match (self, source) {
            (Some(value), Some(source)) => value.shift_from(source, delta),
            // Most optional fields are not written: nothing to copy or move.
            (None, None) => {}
            (value, source) => {
                value.clone_from(source);
                value.shift(delta);
            }
        }
    }
}

impl<T: Shift + Clone> Shift for Box<T> {
    fn shift(&mut self, delta: isize) {
        (**self).shift(delta);
    }

    fn shift_from(&mut self, source: &Self, delta: isize) {
        (**self).shift_from(source, delta);
    }
}

impl<T: Shift + Clone> Shift for Box<[T]> {
    fn shift(&mut self, delta: isize) {
        (**self).shift(delta);
    }

    fn shift_from(&mut self, source: &Self, delta: isize) {
        if !shift_items_from(self, source, delta) {
            self.clone_from(source);
            self.shift(delta);
        }
    }
}

impl<T: Shift> Shift for [T] {
    fn shift(&mut self, delta: isize) {
        for item in self {
            item.shift(delta);
        }
    }
}

impl<T: Shift + Clone> Shift for Vec<T> {
    fn shift(&mut self, delta: isize) {
        self.as_mut_slice().shift(delta);
    }

    fn shift_from(&mut self, source: &Self, delta: isize) {
        if !shift_items_from(self, source, delta) {
            self.clone_from(source);
            self.shift(delta);
        }
    }
}

/// [`Shift::shift_from`] of a vector or boxed slice, item by item; `false` (and nothing done)
/// when the two do not hold as many items.
fn shift_items_from<T: Shift + Clone>(items: &mut [T], source: &[T], delta: isize) -> bool {
    if items.len() != source.len() {
        return false;
    }
    for (item, source) in items.iter_mut().zip(source) {
        item.shift_from(source, delta);
    }
    true
}

impl<T: Shift + Clone> Shift for Spanned<T> {
    fn shift(&mut self, delta: isize) {
        self.span.shift(delta);
        self.value.shift(delta);
    }

    #[inline]
    fn shift_from(&mut self, source: &Self, delta: isize) {
        self.span.shift_from(&source.span, delta);
        self.value.shift_from(&source.value, delta);
    }
}

impl<T: Shift + Clone> Shift for Field<T> {
    fn shift(&mut self, delta: isize) {
        self.key_span.shift(delta);
        self.value_span.shift(delta);
        self.value.shift(delta);
    }

    #[inline]
    fn shift_from(&mut self, source: &Self, delta: isize) {
        self.key_span.shift_from(&source.key_span, delta);
        self.value_span.shift_from(&source.value_span, delta);
        self.value.shift_from(&source.value, delta);
    }
}

impl<T: Shift + Clone> Shift for Named<T> {
    fn shift(&mut self, delta: isize) {
        self.name.shift(delta);
        self.value.shift(delta);
    }

    fn shift_from(&mut self, source: &Self, delta: isize) {
        self.name.shift_from(&source.name, delta);
        self.value.shift_from(&source.value, delta);
    }
}

impl<T: Shift + Clone> Shift for NamedMap<T> {
    fn shift(&mut self, delta: isize) {
        self.0.shift(delta);
    }

    fn shift_from(&mut self, source: &Self, delta: isize) {
        self.0.shift_from(&source.0, delta);
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

            fn shift_from(&mut self, source: &Self, delta: isize) {
                let $ty { $($field),* } = self;
                $($field.shift_from(&source.$field, delta);)*
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

/// Implements [`Shift`] for an enum whose variants each hold one movable value (or nothing):
/// `shift_from` reuses the value when both are the same variant.
macro_rules! variants {
    ($ty:ident { $($variant:ident),* } $($empty:ident),*) => {
        impl Shift for $ty {
            fn shift(&mut self, delta: isize) {
                match self {
                    $($ty::$variant(x) => x.shift(delta),)*
                    $($ty::$empty => {})*
                }
            }

            fn shift_from(&mut self, source: &Self, delta: isize) {
                match (self, source) {
                    $(($ty::$variant(x), $ty::$variant(source)) => x.shift_from(source, delta),)*
                    (value, source) => {
                        value.clone_from(source);
                        value.shift(delta);
                    }
                }
            }
        }
    };
}

variants! {
    Body {
        Http, Exec, File, Websocket, Static, Merge, Passthrough, Filter, Project, Derive, Sort,
        Union, Compose, Join, Cache
    } Unknown
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use sources_syntax::Syntax;

    use super::Shift;
    use crate::Source;

    /// Every entry of the examples, the acceptance files and a generated configuration.
    fn entries() -> Vec<Source> {
        let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut texts = vec![sources_syntax::bench_support::generate_config(16)];
        for directory in ["examples", "acceptance"] {
            let Ok(files) = std::fs::read_dir(testdata.join(directory)) else {
                continue;
            };
            for file in files.flatten() {
                let path = file.path();
                if Syntax::from_path(&path) == Some(Syntax::Yaml) {
                    texts.extend(std::fs::read_to_string(&path));
                }
            }
        }
        texts
            .iter()
            .filter_map(|text| sources_syntax::parse(text, Syntax::Yaml).root)
            .flat_map(|root| crate::decode(root).0.entries)
            .map(|entry| Source::clone(&entry))
            .collect()
    }

    #[test]
    fn shifting_from_another_entry_gives_that_entry_moved() {
        let entries = entries();
        assert!(entries.len() > 50, "only {} entries", entries.len());
        // Each entry written over every other of a window around it (same kinds and different
        // ones, the same shape and not), and over itself.
        for (at, source) in entries.iter().enumerate() {
            let mut want = source.clone();
            want.shift(7);
            for other in &entries[at.saturating_sub(6)..(at + 6).min(entries.len())] {
                let mut got = other.clone();
                got.shift_from(source, 7);
                assert_eq!(
                    got, want,
                    "{} written over {}",
                    source.name.value, other.name.value
                );
            }
        }
    }
}
