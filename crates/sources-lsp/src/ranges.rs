//! Structure from the model's spans: folding ranges (each entry, and each block inside it:
//! `parameters`, `window`, `paginate`, `pipe`, `headers`, …) and selection ranges (the name under
//! the cursor, then the blocks around it, then the entry).

use sources_config::model::{Body, Source};
use sources_config::{Config, Field};
use sources_syntax::Span;
use tower_lsp_server::ls_types::{FoldingRange, FoldingRangeKind, Position, SelectionRange};

use crate::document::Analyzed;
use crate::names;
use crate::position::Positions;

fn field<T>(out: &mut Vec<Span>, field: &Option<Field<T>>) {
    if let Some(field) = field {
        out.push(field.span());
    }
}

/// The blocks of a body (key to end of value), in no particular order.
fn blocks(body: &Body, out: &mut Vec<Span>) {
    if let Some(common) = body.common() {
        if let Some(parameters) = &common.parameters {
            out.push(parameters.span());
            for param in parameters.value.iter() {
                out.push(param.name.span.cover(param.value.span));
            }
        }
        if let Some(pipe) = &common.pipe {
            out.push(pipe.span());
            for stage in &pipe.value {
                out.push(stage.span);
                blocks(&stage.value.body, out);
            }
        }
    }
    if let Some(leaf) = body.leaf() {
        if let Some(cache) = &leaf.cache {
            out.push(cache.span());
        }
    }
    if let Some(window) = body.window() {
        out.push(window.span());
        field(out, &window.value.filters);
        field(out, &window.value.sorts);
        field(out, &window.value.older);
        field(out, &window.value.newer);
        field(out, &window.value.growing);
    }
    match body {
        Body::Http(http) => {
            field(out, &http.headers);
            if let Some(paginate) = &http.paginate {
                out.push(paginate.span());
            }
            field(out, &http.body);
        }
        Body::Exec(exec) => {
            field(out, &exec.command);
            field(out, &exec.env);
        }
        Body::Websocket(websocket) => {
            field(out, &websocket.headers);
            field(out, &websocket.initial_messages);
        }
        Body::Static(data) => field(out, &data.data),
        Body::Project(project) => field(out, &project.keep),
        Body::Derive(derive) => field(out, &derive.compute),
        Body::Compose(compose) => field(out, &compose.parts),
        Body::Join(join) => {
            field(out, &join.driver);
            field(out, &join.lookups);
            if let Some(lookups) = &join.lookups {
                for lookup in lookups.value.iter() {
                    out.push(lookup.name.span.cover(lookup.value.span));
                }
            }
        }
        _ => {}
    }
    if let Some(merge) = body.merge_fields() {
        field(out, &merge.sources);
        field(out, &merge.children);
    }
}

/// An entry's span from its name to the end of its value.
fn entry_span(source: &Source) -> Span {
    source.name.span.cover(source.span)
}

/// Folding ranges: every entry and block that spans more than one line.
pub(crate) fn folding(analyzed: &Analyzed, positions: Positions<'_>) -> Vec<FoldingRange> {
    let analysis = &analyzed.analysis;
    if !analysis.has_sources {
        return Vec::new();
    }
    let mut spans = Vec::new();
    for source in &analysis.config.entries {
        spans.push(entry_span(source));
        blocks(&source.body, &mut spans);
    }
    let text = analyzed.text();
    let mut out: Vec<FoldingRange> = spans
        .into_iter()
        .filter_map(|span| {
            // A block ends at the end of its last value: trailing newlines are not part of it.
            let end = span.start() + text.get(span.range())?.trim_end().len();
            let start_line = positions.position(span.start()).line;
            let end_line = positions.position(end).line;
            (end_line > start_line).then_some(FoldingRange {
                start_line,
                start_character: None,
                end_line,
                end_character: None,
                kind: Some(FoldingRangeKind::Region),
                collapsed_text: None,
            })
        })
        .collect();
    out.sort_by_key(|range| (range.start_line, std::cmp::Reverse(range.end_line)));
    out.dedup_by_key(|range| (range.start_line, range.end_line));
    out
}

/// The spans around `offset`, innermost first.
fn around(config: &Config, text: &str, offset: usize) -> Vec<Span> {
    let mut spans = Vec::new();
    if let Some((_, span)) = names::symbol_at(config, text, offset) {
        spans.push(span);
    }
    for source in &config.entries {
        // Read without moving an entry an edit above it moved: only the one around is.
        let whole = source.name_span().cover(source.span());
        if !whole.contains(offset) && whole.end() != offset {
            continue;
        }
        spans.push(whole);
        for key in &source.keys {
            if key.span.contains(offset) {
                spans.push(key.span);
            }
        }
        blocks(&source.body, &mut spans);
    }
    spans.retain(|span| span.start() <= offset && offset <= span.end());
    spans.sort_by_key(|span| (span.len(), std::cmp::Reverse(span.start())));
    spans.dedup();
    spans
}

/// One selection range per position: innermost first, each with its parent.
pub(crate) fn selection(
    analyzed: &Analyzed,
    positions: Positions<'_>,
    at: &[Position],
) -> Vec<SelectionRange> {
    let analysis = &analyzed.analysis;
    at.iter()
        .map(|position| {
            let offset = positions.offset(*position);
            let spans = if analysis.has_sources {
                around(&analysis.config, analyzed.text(), offset)
            } else {
                Vec::new()
            };
            let mut chain: Option<SelectionRange> = None;
            for span in spans.iter().rev() {
                chain = Some(SelectionRange {
                    range: positions.range(*span),
                    parent: chain.map(Box::new),
                });
            }
            chain.unwrap_or(SelectionRange {
                range: tower_lsp_server::ls_types::Range::new(*position, *position),
                parent: None,
            })
        })
        .collect()
}
