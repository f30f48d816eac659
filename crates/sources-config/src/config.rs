//! The decoded document: the entries of `data.sources` in source order, the components that bind
//! them, and the references between them.

use std::hash::BuildHasher;
use std::sync::OnceLock;

use foldhash::fast::RandomState;

use sources_syntax::Span;

use crate::dashboard::{Component, ComponentKind, Dashboard};
use crate::model::{Body, Growing, Source};
use crate::shift::Placed;
use crate::spanned::Spanned;

/// The decoded configuration of one document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// The entries of `data.sources`, in source order, each shared: the editor's analysis of an
    /// edited version takes the entries the edit did not touch from the previous version's model.
    pub entries: Vec<Placed>,
    /// The components of `tui.components` (only read when the document has `data.sources`).
    pub components: Vec<Component>,
    /// The screens, push actions and boot prompts (only read when the document has
    /// `data.sources`).
    pub dashboard: Dashboard,
    /// The span of the `sources` key under `data`, when present.
    pub sources_key: Option<Span>,
    /// The span of the `data.sources` value, when present.
    pub sources_span: Option<Span>,
    /// A hash table of the first entry of each name: slots holding an index of `entries` (or
    /// [`EMPTY`]), probed linearly from the name's hash. A name is found in a probe or two, without
    /// a second copy of every name (a document can have 100,000 entries, and the editor holds its
    /// model); the rules look names up for every reference of every entry.
    index: Box<[u32]>,
}

/// A slot of [`Config::index`] that holds no entry.
const EMPTY: u32 = u32::MAX;

/// The hash of a name, keyed once per process (std's SipHash with a random key), so a document
/// cannot be written to make its names collide and every lookup walk the whole table.
fn name_hash(name: &str) -> usize {
    static KEYS: OnceLock<RandomState> = OnceLock::new();
    // Only the low bits pick a slot: truncating on a 32-bit target keeps them.
    KEYS.get_or_init(RandomState::default).hash_one(name) as usize
}

/// Which field a reference is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReferenceField {
    /// `from` of a single-input operator.
    From,
    /// An item of `sources` (merge, union).
    Sources,
    /// `children[].source` (merge, union).
    Child,
    /// A value of compose `parts`.
    Part,
    /// Join `driver.from`.
    Driver,
    /// Join `lookups.NAME.from`.
    Lookup,
    /// `window.growing.source`.
    Growing,
}

impl ReferenceField {
    /// How the field is written (`driver.from`).
    pub fn as_str(self) -> &'static str {
        match self {
            ReferenceField::From => "from",
            ReferenceField::Sources => "sources",
            ReferenceField::Child => "children[].source",
            ReferenceField::Part => "parts",
            ReferenceField::Driver => "driver.from",
            ReferenceField::Lookup => "lookups.*.from",
            ReferenceField::Growing => "window.growing.source",
        }
    }
}

/// A reference from one entry to another by name.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceRef {
    /// The referenced name and where it is written.
    pub name: Spanned<String>,
    /// The field it is written in.
    pub field: ReferenceField,
}

impl Source {
    /// Every reference this entry makes to other entries, in source order of their fields.
    pub fn references(&self) -> Vec<SourceRef> {
        let mut refs = Vec::new();
        let mut push = |name: &String, span: Span, field: ReferenceField| {
            refs.push(SourceRef {
                name: Spanned::new(name.clone(), span),
                field,
            });
        };
        if let Some(from) = self.body.from() {
            push(&from.value, from.value_span, ReferenceField::From);
        }
        if let Some(merge) = self.body.merge_fields() {
            for item in merge.sources.iter().flat_map(|sources| &sources.value) {
                push(&item.value, item.span, ReferenceField::Sources);
            }
            for child in merge.children.iter().flat_map(|children| &children.value) {
                if let Some(source) = &child.value.source {
                    push(&source.value, source.value_span, ReferenceField::Child);
                }
            }
        }
        match &self.body {
            Body::Compose(compose) => {
                for part in compose.parts.iter().flat_map(|parts| parts.value.iter()) {
                    push(&part.value.value, part.value.span, ReferenceField::Part);
                }
            }
            Body::Join(join) => {
                if let Some(from) = join
                    .driver
                    .as_ref()
                    .and_then(|driver| driver.value.from.as_ref())
                {
                    push(&from.value, from.value_span, ReferenceField::Driver);
                }
                for lookup in join.lookups.iter().flat_map(|lookups| lookups.value.iter()) {
                    if let Some(from) = &lookup.value.value.from {
                        push(&from.value, from.value_span, ReferenceField::Lookup);
                    }
                }
            }
            _ => {}
        }
        if let Some(window) = self.body.window()
            && let Some(growing) = &window.value.growing
            && let Growing::While(condition) = &growing.value
            && let Some(source) = &condition.source
        {
            push(&source.value, source.value_span, ReferenceField::Growing);
        }
        refs
    }
}

impl Config {
    /// Whether the document has a `data.sources` block at all.
    pub fn has_sources(&self) -> bool {
        self.sources_span.is_some()
    }

    /// The first entry named `name`.
    pub fn get(&self, name: &str) -> Option<&Source> {
        self.position(name)
            .and_then(|index| self.entries.get(index))
            .map(|entry| &**entry)
    }

    /// The entry `component` shows (its `source`), when it names one that exists.
    pub fn shown_by(&self, component: &Component) -> Option<&Source> {
        self.get(&component.source.as_ref()?.value)
    }

    /// The titles of the drawn (not `hidden`) columns of the first table component that shows
    /// `entry` with any: the columns `try --search`, `--sort` and `--filter` name.
    pub fn table_titles(&self, entry: &str) -> Vec<String> {
        self.components
            .iter()
            .filter(|component| {
                component
                    .kind
                    .as_ref()
                    .is_some_and(|kind| kind.value == ComponentKind::Table)
                    && component
                        .source
                        .as_ref()
                        .is_some_and(|source| source.value == entry)
            })
            .map(|component| {
                component
                    .columns
                    .iter()
                    .filter(|column| !column.hidden)
                    .filter_map(|column| column.title.as_ref().map(|title| title.value.clone()))
                    .collect::<Vec<_>>()
            })
            .find(|columns| !columns.is_empty())
            .unwrap_or_default()
    }

    /// The index in [`Config::entries`] of the first entry named `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        let mask = self.index.len().checked_sub(1)?;
        let mut slot = name_hash(name) & mask;
        // The table always has an empty slot, which ends the probe; the bound is a safeguard.
        for _ in 0..self.index.len() {
            let index = *self.index.get(slot)?;
            if index == EMPTY {
                return None;
            }
            let index = usize::try_from(index).ok()?;
            if self.entries.get(index)?.name() == name {
                return Some(index);
            }
            slot = (slot + 1) & mask;
        }
        None
    }

    /// The name of the entry at `index` (empty past the end).
    fn name_of(&self, index: u32) -> &str {
        usize::try_from(index)
            .ok()
            .and_then(|index| self.entries.get(index))
            .map_or("", |source| source.name().as_str())
    }

    /// The entry whose name or value contains `offset`.
    pub fn entry_at(&self, offset: usize) -> Option<&Source> {
        self.entries
            .iter()
            .find(|source| source.name_span().contains(offset) || source.span().contains(offset))
            .map(|entry| &**entry)
    }

    /// The component whose map contains `offset`.
    pub fn component_at(&self, offset: usize) -> Option<&Component> {
        self.components
            .iter()
            .find(|component| component.span.contains(offset))
    }

    /// Every entry name, in source order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|source| source.name().as_str())
    }

    /// Every reference of every entry, with the entry that makes it, in source order.
    pub fn references(&self) -> Vec<(&Source, SourceRef)> {
        self.entries
            .iter()
            .flat_map(|source| {
                source
                    .references()
                    .into_iter()
                    .map(move |reference| (&**source, reference))
            })
            .collect()
    }

    /// The components bound to the entry `name`.
    pub fn components_bound_to<'a>(
        &'a self,
        name: &'a str,
    ) -> impl Iterator<Item = &'a Component> + 'a {
        self.components.iter().filter(move |component| {
            component
                .source
                .as_ref()
                .is_some_and(|source| source.value == name)
        })
    }

    /// Builds [`Config::index`] over the entries: each name's first entry, in a table at most
    /// two-thirds full (so a probe soon meets an empty slot).
    pub(crate) fn build_index(&mut self) {
        let count = self.entries.len();
        if count == 0 {
            self.index = Box::default();
            return;
        }
        let capacity = (count + count / 2 + 1).next_power_of_two();
        let mask = capacity - 1;
        let mut slots = vec![EMPTY; capacity];
        for (at, source) in self.entries.iter().enumerate() {
            let Ok(index) = u32::try_from(at) else {
                break;
            };
            if index == EMPTY {
                break;
            }
            let name = source.name().as_str();
            let mut slot = name_hash(name) & mask;
            loop {
                match slots[slot] {
                    EMPTY => {
                        slots[slot] = index;
                        break;
                    }
                    taken if self.name_of(taken) == name => break,
                    _ => slot = (slot + 1) & mask,
                }
            }
        }
        self.index = slots.into_boxed_slice();
    }
}
