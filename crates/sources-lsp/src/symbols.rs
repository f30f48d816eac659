//! The outline: one symbol per entry, with its kind, nested parameters and window.

use sources_config::{Enumeration, Source};
use tower_lsp_server::ls_types::{DocumentSymbol, SymbolKind};

use crate::describe;
use crate::document::Analyzed;
use crate::position::Positions;

#[allow(deprecated)]
fn symbol(
    name: String,
    detail: Option<String>,
    kind: SymbolKind,
    range: tower_lsp_server::ls_types::Range,
    selection_range: tower_lsp_server::ls_types::Range,
    children: Option<Vec<DocumentSymbol>>,
) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range,
        children,
    }
}

fn entry(source: &Source, text: &str, positions: Positions<'_>) -> DocumentSymbol {
    let mut children = Vec::new();
    let parameters = source
        .body
        .common()
        .and_then(|common| common.parameters.as_ref());
    for param in parameters
        .into_iter()
        .flat_map(|parameters| parameters.value.iter())
    {
        let kind = param
            .value
            .value
            .kind
            .as_ref()
            .map_or("string", |kind| kind.value.as_str());
        children.push(symbol(
            param.name.value.clone(),
            Some(kind.to_owned()),
            SymbolKind::VARIABLE,
            positions.range(param.name.span.cover(param.value.span)),
            positions.range(param.name.span),
            None,
        ));
    }
    if let Some(window) = source.body.window() {
        let detail = if window.value.is_anchored() {
            "anchored"
        } else {
            "offset"
        };
        children.push(symbol(
            "window".to_owned(),
            Some(detail.to_owned()),
            SymbolKind::OBJECT,
            positions.range(window.span()),
            positions.range(window.key_span),
            None,
        ));
    }
    let kind = source.kind.as_ref().map_or("?", |kind| kind.value.as_str());
    symbol(
        source.name.value.to_string(),
        Some(format!("{kind} · {}", describe::cadence(source, text))),
        if source.is_leaf() {
            SymbolKind::STRUCT
        } else {
            SymbolKind::FUNCTION
        },
        positions.range(source.name.span.cover(source.span)),
        positions.range(source.name.span),
        (!children.is_empty()).then_some(children),
    )
}

/// The outline of an analysed document.
pub(crate) fn outline(analyzed: &Analyzed, positions: Positions<'_>) -> Vec<DocumentSymbol> {
    let analysis = &analyzed.analysis;
    if !analysis.has_sources {
        return Vec::new();
    }
    analysis
        .config
        .entries
        .iter()
        .map(|source| entry(source, analyzed.text(), positions))
        .collect()
}
