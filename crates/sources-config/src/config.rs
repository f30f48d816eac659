//! The decoded document: the entries of `data.sources` in source order, the components that bind
//! them, and the references between them.

use sources_syntax::Span;

use crate::model::{Body, Component, Growing, Source};
use crate::spanned::Spanned;

/// The decoded configuration of one document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// The entries of `data.sources`, in source order.
    pub entries: Vec<Source>,
    /// The components of `tui.components` (only read when the document has `data.sources`).
    pub components: Vec<Component>,
    /// The span of the `sources` key under `data`, when present.
    pub sources_key: Option<Span>,
    /// The span of the `data.sources` value, when present.
    pub sources_span: Option<Span>,
    /// The indices of `entries` sorted by name, and by position among equal names: a name's first
    /// entry is found by binary search without a second copy of every name (a document can have
    /// 100,000 entries, and the editor holds its model).
    index: Vec<u32>,
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
    }

    /// The index in [`Config::entries`] of the first entry named `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        let first = self
            .index
            .partition_point(|&index| self.name_of(index) < name);
        let index = usize::try_from(*self.index.get(first)?).ok()?;
        (self.entries.get(index)?.name.value == name).then_some(index)
    }

    /// The name of the entry at `index` (empty past the end).
    fn name_of(&self, index: u32) -> &str {
        usize::try_from(index)
            .ok()
            .and_then(|index| self.entries.get(index))
            .map_or("", |source| source.name.value.as_str())
    }

    /// The entry whose name or value contains `offset`.
    pub fn entry_at(&self, offset: usize) -> Option<&Source> {
        self.entries
            .iter()
            .find(|source| source.name.span.contains(offset) || source.span.contains(offset))
    }

    /// The component whose map contains `offset`.
    pub fn component_at(&self, offset: usize) -> Option<&Component> {
        self.components
            .iter()
            .find(|component| component.span.contains(offset))
    }

    /// Every entry name, in source order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|source| source.name.value.as_str())
    }

    /// Every reference of every entry, with the entry that makes it, in source order.
    pub fn references(&self) -> Vec<(&Source, SourceRef)> {
        self.entries
            .iter()
            .flat_map(|source| {
                source
                    .references()
                    .into_iter()
                    .map(move |reference| (source, reference))
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

    pub(crate) fn build_index(&mut self) {
        let mut index: Vec<u32> = (0..self.entries.len())
            .map_while(|index| u32::try_from(index).ok())
            .collect();
        index.sort_unstable_by(|&a, &b| self.name_of(a).cmp(self.name_of(b)).then(a.cmp(&b)));
        self.index = index;
    }
}
