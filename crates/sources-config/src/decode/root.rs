//! The document's root: where `data.sources`, `tui`, `app` and `actions` are, and the entries of
//! `data.sources` one by one, either from a tree taken by value (every front end) or from the
//! editor's kept tree, where an entry whose subtree the last edit did not touch is taken from the
//! previous version's model ([`EntryReuse`]) instead of being copied out of the tree and decoded.

use sources_diagnostics::{Collector, Diagnostic, Rule};
use sources_syntax::{Entry, Key, Map, Node, Value};

use super::{Decoder, as_map, components, get, outer};
use crate::config::Config;
use crate::model::{Body, Source};
use crate::shift::Placed;
use crate::spanned::Spanned;

/// Where [`decode_edited`] takes the decoded entries of `data.sources` that it does not decode.
pub trait EntryReuse {
    /// The entry at `index` of `data.sources`, written under `key`, when the caller holds its
    /// decoded model for this text (its spans moved to where the entry is now); its decoding
    /// diagnostics are pushed into `out`. `None`: it is decoded.
    fn reused(&mut self, index: usize, key: &Key, out: &mut Collector) -> Option<Placed>;

    /// The entry at `index`, decoded afresh, with the diagnostics its decoding gave.
    fn decoded(&mut self, index: usize, source: &Placed, diagnostics: &[Diagnostic]);
}

/// Decodes the document's root into the model, reporting every decoding problem (sorted).
///
/// The tree is taken by value: its strings move into the model rather than being copied, and each
/// part of it is freed as soon as it is decoded.
///
/// A document without a `data.sources` block decodes to an empty [`Config`] whose
/// [`Config::has_sources`] is false, with no diagnostics: such files are not ours.
pub fn decode(root: Node) -> (Config, Vec<Diagnostic>) {
    let mut diagnostics = Collector::unbounded();
    let config = decode_into(root, &mut diagnostics);
    (config, diagnostics.finish().diagnostics)
}

/// Decodes the document's root into the model like [`decode`], pushing every decoding problem
/// into `out` (which may bound what it keeps).
pub fn decode_into(root: Node, out: &mut Collector) -> Config {
    with_decoder(out, |decoder| decode_root(decoder, root, None))
}

/// Decodes the root of a tree the caller keeps (the editor's), giving what [`decode_into`] gives
/// for a copy of it: the parts of the document the model reads are copied, except the entries of
/// `data.sources` that `reuse` holds already, which are neither copied nor decoded. An entry
/// whose value is not a map is always decoded (whether it is a misplaced field depends on the
/// entry before it).
pub fn decode_edited(root: &Node, out: &mut Collector, reuse: &mut dyn EntryReuse) -> Config {
    let (pruned, entries) = without_entries(root);
    with_decoder(out, |decoder| {
        decode_root(decoder, pruned, entries.map(|entries| (entries, reuse)))
    })
}

/// Runs `decode` with a decoder that pushes into `out`.
fn with_decoder(out: &mut Collector, decode: impl FnOnce(&mut Decoder) -> Config) -> Config {
    let mut decoder = Decoder {
        diagnostics: std::mem::take(out),
        key_span: Default::default(),
        stand_ins: Vec::new(),
    };
    let config = decode(&mut decoder);
    // A stand-in whose misspelled key was reported otherwise (never, as `finish` reports every
    // key left) is reported itself rather than lost.
    for (_, stand_in) in std::mem::take(&mut decoder.stand_ins) {
        decoder.diagnostics.push(stand_in);
    }
    *out = decoder.diagnostics;
    config
}

/// The parts of `root` that [`decode_root`] reads (the first `data`, `tui`, `app` and `actions`,
/// and a key of another level written at the top, whose value `outer::check` reads), copied, with the mapping of `data.sources` left empty; and that mapping's entries, borrowed.
/// When `data.sources` is not a mapping, a copy of those parts whole and no entries.
fn without_entries(root: &Node) -> (Node, Option<&[Entry]>) {
    let Value::Map(map) = &root.value else {
        return (root.clone(), None);
    };
    let read = ["data", "tui", "app", "actions"]
        .map(|name| map.entries.iter().position(|entry| entry.key.name == name));
    let mut sources_entries = None;
    let entries = map
        .entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            // A key of another level written at the top (`sources`) is judged by what it holds.
            if !read.contains(&Some(index)) && !outer::judged_by_value(&entry.key.name) {
                return Entry {
                    key: entry.key.clone(),
                    value: Node::new(Value::Null, entry.value.span),
                };
            }
            if read[0] == Some(index)
                && let Some((data, entries)) = data_without_entries(&entry.value)
            {
                sources_entries = Some(entries);
                return Entry {
                    key: entry.key.clone(),
                    value: data,
                };
            }
            entry.clone()
        })
        .collect();
    let pruned = Node::new(Value::Map(Map { entries }), root.span);
    (pruned, sources_entries)
}

/// `data` with its first `sources`'s mapping left empty and its other keys' values left out (their
/// keys are checked), and that mapping's entries; `None` when `data.sources` is not a mapping.
fn data_without_entries(data: &Node) -> Option<(Node, &[Entry])> {
    let data_map = as_map(data)?;
    let sources = get(data_map, "sources")?;
    let Value::Map(map) = &sources.value.value else {
        return None;
    };
    let entries = data_map
        .entries
        .iter()
        .map(|entry| {
            let value = if std::ptr::eq(entry, sources) {
                Value::Map(Map {
                    entries: Box::default(),
                })
            } else {
                Value::Null
            };
            Entry {
                key: entry.key.clone(),
                value: Node::new(value, entry.value.span),
            }
        })
        .collect();
    let data = Node::new(Value::Map(Map { entries }), data.span);
    Some((data, &map.entries))
}

/// Decodes the root with `decoder`; the entries of `data.sources` come from `kept` (with what
/// to reuse) when given, else from the tree.
fn decode_root(
    decoder: &mut Decoder,
    root: Node,
    kept: Option<(&[Entry], &mut dyn EntryReuse)>,
) -> Config {
    let mut config = Config::default();
    let Value::Map(root_map) = root.value else {
        return config;
    };
    // The entries of `data.sources`: those kept by the editor, or the tree's.
    let tree_entries = get(&root_map, "data")
        .and_then(|data| as_map(&data.value))
        .and_then(|data| get(data, "sources"))
        .and_then(|sources| as_map(&sources.value))
        .map(|sources| &sources.entries[..]);
    let kept_entries = kept.as_ref().map(|(entries, _)| *entries);
    outer::check(
        decoder,
        &root_map,
        kept_entries.or(tree_entries).unwrap_or_default(),
    );
    let (mut data, mut tui, mut app, mut actions) = (None, None, None, None);
    for entry in root_map.entries {
        match entry.key.name.as_str() {
            "data" if data.is_none() => data = Some(entry.value),
            "tui" if tui.is_none() => tui = Some(entry),
            "app" if app.is_none() => app = Some(entry),
            "actions" if actions.is_none() => actions = Some(entry),
            _ => {}
        }
    }
    let sources = data.and_then(|data| match data.value {
        Value::Map(map) => map
            .entries
            .into_iter()
            .find(|entry| entry.key.name == "sources"),
        _ => None,
    });
    let Some(sources) = sources else {
        return config;
    };
    config.sources_key = Some(sources.key.span);
    config.sources_span = Some(sources.value.span);
    match (sources.value.value, kept) {
        (Value::Map(_), Some((entries, reuse))) => {
            config.entries.reserve_exact(entries.len());
            for (index, entry) in entries.iter().enumerate() {
                let reused = match entry.value.value {
                    Value::Map(_) => reuse.reused(index, &entry.key, &mut decoder.diagnostics),
                    _ => None,
                };
                let source = reused.unwrap_or_else(|| {
                    let outer = std::mem::replace(&mut decoder.diagnostics, Collector::unbounded());
                    let source = Placed::new(decode_entry(decoder, &config, entry.clone()));
                    let found = std::mem::replace(&mut decoder.diagnostics, outer)
                        .finish()
                        .diagnostics;
                    reuse.decoded(index, &source, &found);
                    decoder.diagnostics.extend(found);
                    source
                });
                config.entries.push(source);
            }
        }
        (Value::Map(map), _) => {
            config.entries.reserve_exact(map.entries.len());
            for entry in map.entries {
                let source = decode_entry(decoder, &config, entry);
                config.entries.push(Placed::new(source));
            }
        }
        (Value::Null | Value::Invalid, _) => {}
        (other, _) => decoder.report(
            Diagnostic::new(
                Rule::InvalidValue,
                sources.value.span,
                format!(
                    "`data.sources` must be a map from entry names to entries, found {}",
                    other.type_name()
                ),
            )
            .with_help("write each source as `NAME:` followed by its fields, under `data.sources`"),
        ),
    }
    decoder.check_dashboard(tui.as_ref(), app.as_ref(), actions.as_ref());
    let tui = tui.as_ref().and_then(|entry| as_map(&entry.value));
    if let Some(components) = tui.and_then(|tui| get(tui, "components")) {
        config.components = components::components(&components.value);
    }
    config.dashboard = components::dashboard(
        tui,
        actions.as_ref().map(|entry| &entry.value),
        app.as_ref().and_then(|entry| as_map(&entry.value)),
    );
    config.build_index();
    config
}

/// Decodes one entry of `data.sources`, or reports it as a field of the entry before it (`config`'s
/// last) that is indented as a sibling.
fn decode_entry(decoder: &mut Decoder, config: &Config, entry: Entry) -> Source {
    let name = Spanned::new(entry.key.name, entry.key.span);
    match config.entries.last() {
        Some(previous) if decoder.misplaced_field(previous, &name, &entry.value) => Source {
            name,
            span: entry.value.span,
            kind: None,
            body: Body::Unknown,
            keys: Box::default(),
        },
        _ => decoder.source(name, entry.value),
    }
}
