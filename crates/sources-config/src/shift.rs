//! Moving a decoded entry by a number of bytes: every span of its model, so that an entry the
//! editor's tree update kept (text before it changed length) is reused rather than decoded again;
//! and [`Placed`], an entry as one version of a document holds it, moved only when it is read.
//!
//! Each model type lists its fields by destructuring, so a field added to the model and not moved
//! here does not compile.

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use ecow::EcoString;
use sources_syntax::{Key, Span};

use crate::duration::GoDuration;
use crate::enums::{
    Anchor, Emit, EventlogStart, Format, Kind, Method, OnError, Order, ParamType, Strategy,
};
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
spanless!(
    Kind,
    Format,
    OnError,
    Strategy,
    Order,
    Emit,
    Anchor,
    ParamType,
    EventlogStart,
    Method,
);

impl<T: Shift> Shift for Option<T> {
    fn shift(&mut self, delta: isize) {
        if let Some(value) = self {
            value.shift(delta);
        }
    }
}

impl<T: Shift> Shift for Box<T> {
    fn shift(&mut self, delta: isize) {
        (**self).shift(delta);
    }
}

impl<T: Shift> Shift for Box<[T]> {
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

/// Implements [`Shift`] for an enum whose variants each hold one movable value (or nothing).
macro_rules! variants {
    ($ty:ident { $($variant:ident),* } $($empty:ident),*) => {
        impl Shift for $ty {
            fn shift(&mut self, delta: isize) {
                match self {
                    $($ty::$variant(x) => x.shift(delta),)*
                    $($ty::$empty => {})*
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

/// One decoded entry as a version of a document holds it ([`crate::Config::entries`]): shared
/// with the versions before and after it, with the spans it has in this version's text.
///
/// An entry after an edit that changed the text's length moves. Rather than moving every later
/// entry's model on each edit (typing moves the same entries on every keystroke), a moved entry
/// holds the model of an earlier version and by how much the text moved since; the model is moved
/// the first time something reads it, and then shared by every holder of this version's entry. A
/// reader that never reads it (the editor's analysis reads only the entries an edit can change)
/// costs nothing. Its name, and the spans of its name and value, are read without moving it.
/// The move is made in place when nothing else holds the earlier model any more (the version
/// that made it is gone), else into a copy.
#[derive(Clone)]
pub struct Placed(Place);

/// Where a [`Placed`] entry's model is.
#[derive(Clone)]
enum Place {
    /// The model, its spans as they are in this version's text.
    Here(Arc<Source>),
    /// An earlier version's model, to be moved.
    Moved(Arc<Pending>),
}

/// An earlier version's model to be moved by `delta` bytes, and what is read without moving it.
struct Pending {
    name: EcoString,
    name_span: Span,
    span: Span,
    delta: isize,
    /// The earlier model until it is moved, then the moved one.
    model: Mutex<Model>,
    /// The moved model, once read (also in `model`).
    moved: OnceLock<Arc<Source>>,
}

/// A [`Pending`] entry's model.
enum Model {
    /// The earlier version's, not moved yet.
    Earlier(Arc<Source>),
    /// Moved to this version's spans.
    Moved(Arc<Source>),
}

impl Placed {
    /// An entry decoded from this version's text.
    pub fn new(source: Source) -> Placed {
        Placed(Place::Here(Arc::new(source)))
    }

    /// This entry in a version whose text moved it by `delta` bytes (nothing is moved yet).
    pub fn moved(&self, delta: isize) -> Placed {
        if delta == 0 {
            return self.clone();
        }
        // What is read without moving the model comes from this entry, not from the model: the
        // models of a document's entries lie far apart in memory, and this runs for every entry
        // after an edit.
        let (earlier, total) = match &self.0 {
            Place::Here(source) => (Arc::clone(source), delta),
            Place::Moved(pending) => match &*pending.model() {
                Model::Earlier(earlier) => (Arc::clone(earlier), pending.delta + delta),
                Model::Moved(moved) => (Arc::clone(moved), delta),
            },
        };
        Placed(Place::Moved(Arc::new(Pending {
            name: self.name().clone(),
            name_span: self.name_span().shifted(delta),
            span: self.span().shifted(delta),
            delta: total,
            model: Mutex::new(Model::Earlier(earlier)),
            moved: OnceLock::new(),
        })))
    }

    /// The entry's name (read without moving the model).
    #[inline]
    pub fn name(&self) -> &EcoString {
        match &self.0 {
            Place::Here(source) => &source.name.value,
            Place::Moved(pending) => &pending.name,
        }
    }

    /// The span of the entry's name (read without moving the model).
    #[inline]
    pub fn name_span(&self) -> Span {
        match &self.0 {
            Place::Here(source) => source.name.span,
            Place::Moved(pending) => pending.name_span,
        }
    }

    /// The span of the entry's value (read without moving the model).
    #[inline]
    pub fn span(&self) -> Span {
        match &self.0 {
            Place::Here(source) => source.span,
            Place::Moved(pending) => pending.span,
        }
    }

    /// Reads what a move does not change (kinds, names, values, texts; not spans) from the model
    /// as it is, without moving it: for a reader of every entry after an edit, which would
    /// otherwise move them all.
    pub fn read_unmoved<R>(&self, read: impl FnOnce(&Source) -> R) -> R {
        match &self.0 {
            Place::Here(source) => read(source),
            Place::Moved(pending) => match pending.moved.get() {
                Some(moved) => read(moved),
                None => match &*pending.model() {
                    Model::Earlier(source) | Model::Moved(source) => read(source),
                },
            },
        }
    }

    /// The model, with this version's spans (moved now if it was not yet).
    #[inline]
    pub fn shared(&self) -> &Arc<Source> {
        match &self.0 {
            Place::Here(source) => source,
            Place::Moved(pending) => pending.moved.get_or_init(|| pending.move_model()),
        }
    }
}

impl Pending {
    /// The model, locked (a panic elsewhere while it was held left it as it was: it is written
    /// whole, once).
    fn model(&self) -> MutexGuard<'_, Model> {
        self.model.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Moves the earlier model: in place when nothing else holds it, else a copy.
    fn move_model(&self) -> Arc<Source> {
        let mut model = self.model();
        let moved = match &mut *model {
            Model::Moved(moved) => return Arc::clone(moved),
            Model::Earlier(earlier) => match Arc::get_mut(earlier) {
                Some(source) => {
                    source.shift(self.delta);
                    Arc::clone(earlier)
                }
                None => {
                    let mut source = Source::clone(earlier);
                    source.shift(self.delta);
                    Arc::new(source)
                }
            },
        };
        *model = Model::Moved(Arc::clone(&moved));
        moved
    }
}

impl Deref for Placed {
    type Target = Source;

    #[inline]
    fn deref(&self) -> &Source {
        self.shared()
    }
}

impl From<Source> for Placed {
    fn from(source: Source) -> Placed {
        Placed::new(source)
    }
}

impl PartialEq for Placed {
    fn eq(&self, other: &Placed) -> bool {
        **self == **other
    }
}

impl fmt::Debug for Placed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Source::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use sources_syntax::Syntax;

    use std::sync::Arc;

    use super::{Placed, Shift};
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

    /// `source` with every span moved by `delta`.
    fn shifted(source: &Source, delta: isize) -> Source {
        let mut moved = source.clone();
        moved.shift(delta);
        moved
    }

    #[test]
    fn a_placed_entry_reads_as_its_model_moved_by_every_move_since() {
        let entries = entries();
        assert!(entries.len() > 50, "only {} entries", entries.len());
        for source in entries {
            let placed = Placed::new(source.clone());
            assert_eq!(*placed, source);
            // Two moves before a read, a read, then a move after it (from the moved model).
            let twice = placed.moved(7).moved(-3);
            assert_eq!(twice.name(), &source.name.value);
            assert_eq!(twice.name_span(), source.name.span.shifted(4));
            assert_eq!(twice.span(), source.span.shifted(4));
            assert_eq!(*twice, shifted(&source, 4));
            let again = twice.moved(5);
            assert_eq!(again.name_span(), source.name.span.shifted(9));
            assert_eq!(again.span(), source.span.shifted(9));
            assert_eq!(*again, shifted(&source, 9));
            // The earlier versions' entries read as they were.
            assert_eq!(*placed, source);
            assert_eq!(*twice, shifted(&source, 4));
            assert_eq!(*twice.moved(0), shifted(&source, 4));
        }
    }

    #[test]
    fn a_moved_entry_is_moved_in_place_once_nothing_else_holds_its_earlier_model() {
        for source in entries().into_iter().take(20) {
            // The earlier version is still held: the move is a copy, the earlier model unmoved.
            let earlier = Placed::new(source.clone());
            let moved = earlier.moved(11);
            assert_eq!(*moved, shifted(&source, 11));
            assert_eq!(*earlier, source);
            assert!(!Arc::ptr_eq(moved.shared(), earlier.shared()));
            // The earlier versions are gone: the model is moved where it is, by both moves.
            let place = Arc::as_ptr(earlier.shared());
            let twice = moved.moved(-4);
            drop((earlier, moved));
            let again = twice.moved(2);
            drop(twice);
            assert_eq!(*again, shifted(&source, 9));
            assert!(!std::ptr::eq(Arc::as_ptr(again.shared()), place));
            let first = Placed::new(source.clone());
            let place = Arc::as_ptr(first.shared());
            let moved = first.moved(3);
            drop(first);
            let again = moved.moved(4);
            drop(moved);
            assert_eq!(*again, shifted(&source, 7));
            assert!(std::ptr::eq(Arc::as_ptr(again.shared()), place));
        }
    }
}
