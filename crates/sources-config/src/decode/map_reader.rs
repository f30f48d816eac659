//! The reader of one map ([`Fields`]): the decoder takes the fields it knows by name, cheaply
//! for the many it asks for that are not written, and what is left is reported as unknown.

use sources_syntax::{Entry, Key, Map, Node, Span, Value};

use super::Path;
use crate::enums::{Enumeration, Kind};

/// The reader of one map: takes known fields by name; the rest are unknown.
///
/// It owns the map: a taken field's value moves out, and its key stays for the messages about the
/// fields that were not taken.
pub(crate) struct Fields<'p> {
    pub(super) entries: Box<[Entry]>,
    /// Which entries were taken.
    pub(super) taken: TakenSet,
    /// How many entries are not taken yet: once none is left, asking for a field looks no further.
    pub(super) left: usize,
    /// The [`name_bit`] of every key: a name whose bit is not set is no key of the map, so asking
    /// for it (as the decoder does for every field a kind accepts, most of them not written)
    /// looks no further.
    pub(super) names: u64,
    /// Every field name the decoder asked for: the fields this map accepts (the decoder's test
    /// holds them against the schema).
    #[cfg(test)]
    pub(crate) asked: Vec<&'static str>,
    /// Where `missing-field` points: the entry's name, the section's key, or the list item.
    pub(super) owner_span: Span,
    /// Whether the map is a `pipe` stage (whose input is the stage before: no `from` required).
    pub(super) stage: bool,
    /// Fields written with a value that was reported as invalid: no rule reports them missing.
    pub(super) rejected: Vec<&'static str>,
    /// How messages name an entry's map (`` `http` source `users` ``).
    pub(super) label: Label<'p>,
    /// A section's path, which its field names are prefixed with in messages (`window`,
    /// `parameters.id`); `None` for an entry's map.
    pub(super) prefix: Option<Path<'p>>,
}

/// How messages name an entry or a pipe stage (`` source `users` ``, `` stage `pipe[0]` ``).
#[derive(Clone, Copy)]
pub(super) enum Owner<'a> {
    /// An entry of `data.sources`, by its name.
    Source(&'a str),
    /// A stage of a `pipe`, by its path.
    Stage(Path<'a>),
}

impl std::fmt::Display for Owner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Owner::Source(name) => write!(f, "source `{name}`"),
            Owner::Stage(path) => write!(f, "stage `{path}`"),
        }
    }
}

/// How messages name an entry's map: its pieces, written out only when a message needs them (a
/// document without mistakes never does).
pub(super) enum Label<'p> {
    /// None: a section, which messages name by its path.
    None,
    /// `` `KIND` OWNER ``: the entry's kind and the entry.
    Kind(Kind, Owner<'p>),
    /// Written out.
    Text(String),
}

/// Whether `key` is `name`. Most fields asked for are not written, and most keys differ from the
/// name asked for in their length or their first byte: those are compared first, before the
/// bytes are.
fn same_name(key: &str, name: &str) -> bool {
    let (key, name) = (key.as_bytes(), name.as_bytes());
    key.len() == name.len() && key.first() == name.first() && key == name
}

/// One of 64 bits standing for `name`, from its first byte and its length (equal names have equal
/// bits; most field names differ in one or the other).
fn name_bit(name: &str) -> u64 {
    let first = name.as_bytes().first().copied().unwrap_or(0);
    1 << ((usize::from(first) + name.len()) % 64)
}

/// Which entries of a map were taken: a bit each, in one word for a map of up to 64 entries
/// (almost every map: no allocation per map), in a list past that.
pub(super) enum TakenSet {
    Word(u64),
    Many(Vec<bool>),
}

impl TakenSet {
    fn new(len: usize) -> TakenSet {
        if len <= 64 {
            TakenSet::Word(0)
        } else {
            TakenSet::Many(vec![false; len])
        }
    }

    /// Whether the entry at `index` was taken.
    pub(super) fn get(&self, index: usize) -> bool {
        match self {
            TakenSet::Word(word) => index < 64 && word & (1 << index) != 0,
            TakenSet::Many(taken) => taken.get(index).copied().unwrap_or(false),
        }
    }

    /// Marks the entry at `index` taken.
    fn set(&mut self, index: usize) {
        match self {
            TakenSet::Word(word) if index < 64 => *word |= 1 << index,
            TakenSet::Word(_) => {}
            TakenSet::Many(taken) => {
                if let Some(taken) = taken.get_mut(index) {
                    *taken = true;
                }
            }
        }
    }
}

/// A field taken from its map: where its key is written, and its value.
pub(super) struct Taken {
    pub(super) key_span: Span,
    pub(super) value: Node,
}

impl<'p> Fields<'p> {
    pub(crate) fn new(map: Map, owner_span: Span) -> Fields<'p> {
        Fields {
            taken: TakenSet::new(map.entries.len()),
            left: map.entries.len(),
            names: map
                .entries
                .iter()
                .fold(0, |names, entry| names | name_bit(&entry.key.name)),
            entries: map.entries,
            #[cfg(test)]
            asked: Vec::new(),
            owner_span,
            stage: false,
            rejected: Vec::new(),
            label: Label::None,
            prefix: None,
        }
    }

    /// The value of the first entry named `name`, marking every entry of that name as known.
    pub(super) fn take(&mut self, name: &'static str) -> Option<Taken> {
        #[cfg(test)]
        self.asked.push(name);
        if self.left == 0 || self.names & name_bit(name) == 0 {
            return None;
        }
        let mut first = None;
        for (index, entry) in self.entries.iter_mut().enumerate() {
            if same_name(&entry.key.name, name) {
                if !self.taken.get(index) {
                    self.taken.set(index);
                    self.left -= 1;
                }
                if first.is_none() {
                    let span = entry.value.span;
                    first = Some(Taken {
                        key_span: entry.key.span,
                        value: std::mem::replace(&mut entry.value, Node::new(Value::Null, span)),
                    });
                }
            }
        }
        first
    }

    #[cfg(test)]
    pub(crate) fn take_type_for_test(&mut self) {
        self.take("type");
    }

    /// Whether a key `name` is written (decoded or not).
    pub(super) fn written(&self, name: &str) -> bool {
        self.names & name_bit(name) != 0
            && self
                .entries
                .iter()
                .any(|entry| same_name(&entry.key.name, name))
    }

    /// How messages name the map: its label, or a section's path in backquotes.
    pub(super) fn label(&self) -> std::borrow::Cow<'_, str> {
        match (&self.label, self.prefix) {
            (Label::Kind(kind, owner), _) => {
                std::borrow::Cow::Owned(format!("`{}` {owner}", kind.as_str()))
            }
            (Label::Text(text), _) => std::borrow::Cow::Borrowed(text),
            (Label::None, Some(prefix)) => std::borrow::Cow::Owned(format!("`{prefix}`")),
            (Label::None, None) => std::borrow::Cow::Borrowed(""),
        }
    }

    /// Every key of the map, in source order.
    pub(super) fn into_keys(self) -> Box<[Key]> {
        // Into a new vector of the right size: `collect` would reuse the entries' allocation,
        // more than twice what the keys need, and the model keeps it as long as it lives. Boxed,
        // it has no capacity to store.
        let mut keys = Vec::with_capacity(self.entries.len());
        keys.extend(self.entries.into_iter().map(|entry| entry.key));
        keys.into_boxed_slice()
    }
}
