//! Hover: what the thing under the cursor means.

use sources_diagnostics::Rule;
use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind};

use crate::document::Snapshot;
use crate::position::Positions;

/// The explanation of every rule that reported a diagnostic under the cursor, each once.
fn rule_explanations(snapshot: &Snapshot, offset: usize) -> Vec<String> {
    let mut rules: Vec<Rule> = Vec::new();
    for diagnostic in &snapshot.current.analysis.diagnostics {
        if diagnostic.span.contains(offset) && !rules.contains(&diagnostic.rule) {
            rules.push(diagnostic.rule);
        }
    }
    rules
        .into_iter()
        .map(|rule| {
            format!(
                "**`{}`** — {}\n\n{}",
                rule.code(),
                rule.summary(),
                rule.explanation().trim_end()
            )
        })
        .collect()
}

/// The hover at `offset`, or `None` when there is nothing to say.
pub(crate) fn hover(snapshot: &Snapshot, offset: usize, positions: Positions<'_>) -> Option<Hover> {
    if !snapshot.current.analysis.has_sources {
        return None;
    }
    let sections = rule_explanations(snapshot, offset);
    let range = snapshot
        .current
        .analysis
        .diagnostics
        .iter()
        .find(|diagnostic| diagnostic.span.contains(offset))
        .map(|diagnostic| positions.range(diagnostic.span));
    if sections.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: sections.join("\n\n---\n\n"),
        }),
        range,
    })
}
