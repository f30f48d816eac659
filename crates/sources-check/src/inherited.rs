//! Diagnostics on keys an entry inherits from an anchor (through a YAML `<<` merge key or an
//! alias): the diagnostic points at the key in the anchor's text, where `--fix` edits it, and says
//! which entries inherit it, with a label at each one's name.

use sources_diagnostics::{Diagnostic, Label, Rule};
use sources_syntax::{Node, Span, Syntax, Value};

/// One entry of `data.sources` and the places it inherits from anchors.
#[derive(Debug)]
pub(crate) struct Inheritor {
    name: String,
    name_span: Span,
    regions: Vec<Span>,
}

/// The entries of `data.sources` that inherit from anchors, read from the tree before it is given
/// up for decoding. Most documents have none: YAML inherits only through an alias (`*name`) of an
/// anchor (`&name`), so without both characters its tree is not walked (a `&` in a URL's query
/// is common).
pub(crate) fn inheritors(root: &Node, text: &str, syntax: Syntax) -> Vec<Inheritor> {
    let bytes = text.as_bytes();
    if syntax == Syntax::Yaml
        && (memchr::memchr(b'&', bytes).is_none() || memchr::memchr(b'*', bytes).is_none())
    {
        return Vec::new();
    }
    let Some(sources) = root
        .as_map()
        .and_then(|root| root.value("data"))
        .and_then(Node::as_map)
        .and_then(|data| data.value("sources"))
        .and_then(Node::as_map)
    else {
        return Vec::new();
    };
    let mut inheritors = Vec::new();
    for entry in &sources.entries {
        let mut regions = Vec::new();
        inherited_regions(&entry.value, &mut regions);
        if !regions.is_empty() {
            inheritors.push(Inheritor {
                name: entry.key.name.to_string(),
                name_span: entry.key.span,
                regions,
            });
        }
    }
    inheritors
}

/// Names the inheriting entries in a diagnostic that lies in inherited text.
pub(crate) fn attribute(inheritors: &[Inheritor], diagnostic: &mut Diagnostic) {
    if inheritors.is_empty() || diagnostic.rule == Rule::Syntax {
        return;
    }
    let span = diagnostic.span;
    let heirs: Vec<&Inheritor> = inheritors
        .iter()
        .filter(|heir| {
            heir.regions
                .iter()
                .any(|region| region.start() <= span.start() && span.end() <= region.end())
        })
        .collect();
    if heirs.is_empty() {
        return;
    }
    // A message that names the entry it was found in (`http` source `pods`) is about that
    // heir alone.
    let named: Vec<&Inheritor> = heirs
        .iter()
        .copied()
        .filter(|heir| diagnostic.message.contains(&format!("`{}`", heir.name)))
        .collect();
    let heirs = if named.is_empty() { heirs } else { named };
    let names: Vec<String> = heirs
        .iter()
        .map(|heir| format!("`{}`", heir.name))
        .collect();
    diagnostic.message = format!(
        "{} (in an anchor inherited by {})",
        diagnostic.message,
        names.join(", ")
    );
    for heir in heirs {
        diagnostic.labels.push(Label {
            span: heir.name_span,
            message: format!("`{}` inherits this from the anchor", heir.name),
        });
    }
}

/// The spans of entries under `node` written elsewhere (copied from an anchor): an entry whose key
/// lies outside the span of the mapping holding it.
fn inherited_regions(node: &Node, regions: &mut Vec<Span>) {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Map(map) => {
                for entry in &map.entries {
                    if node.span.contains(entry.key.span.start()) {
                        stack.push(&entry.value);
                    } else {
                        regions.push(entry.key.span.cover(entry.value.span));
                    }
                }
            }
            Value::Seq(items) => stack.extend(items),
            _ => {}
        }
    }
}
