//! `<<` merge keys: which values can be merged, and the merged mappings' entries copied into a map.

use ecow::EcoString;

use crate::{Entry, Node, Value};

/// Whether a `<<` value can be merged: a mapping, or a list of mappings (an unreadable value was
/// reported already and is dropped quietly).
pub(super) fn mergeable(node: &Node) -> bool {
    match &node.value {
        Value::Map(_) | Value::Invalid => true,
        Value::Seq(items) => items
            .iter()
            .all(|item| matches!(item.value, Value::Map(_) | Value::Invalid)),
        _ => false,
    }
}

/// Adds the entries of the merged mappings that `entries` does not write, as YAML's merge key does:
/// keys written in the map win, then earlier merged mappings over later ones.
pub(super) fn merge_into(entries: &mut Vec<Entry>, merges: Vec<Node>) {
    if merges.is_empty() {
        return;
    }
    let maps = merges.into_iter().flat_map(|node| match node.value {
        Value::Map(map) => vec![map],
        Value::Seq(items) => items
            .into_iter()
            .filter_map(|item| match item.value {
                Value::Map(map) => Some(map),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    });
    let mut names: foldhash::HashSet<EcoString> =
        entries.iter().map(|entry| entry.key.name.clone()).collect();
    for map in maps {
        for entry in map.entries.into_vec() {
            if names.insert(entry.key.name.clone()) {
                entries.push(entry);
            }
        }
    }
}
