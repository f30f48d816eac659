//! A table column's sample value: the first row of its component's entry (a sample recorded
//! beside the document whose entry is still written the same way, or inline `static` data) read at
//! the column's `value` path; without a row, the type the entry's shape gives there. Hover on a
//! `value` path shows it; an inlay hint after each column's `value` shows the row's value when the
//! `sources.inlayHints.sampleValues` setting is on.

use serde_json::Value;
use sources_check::shape::PathLookup;
use sources_config::{Body, Column, Component, Config, json_path};
use sources_inputs::samples::Example;
use sources_syntax::Span;
use tower_lsp_server::ls_types::{InlayHint, InlayHintKind, InlayHintLabel, Uri};

use crate::document::Analyzed;
use crate::position::Positions;

/// The most characters of a value a hint or hover shows.
const MAX_SHOWN: usize = 60;

/// An entry's first row and where it comes from.
struct Row {
    value: Value,
    origin: String,
}

/// The first row of the entry `name`: from a fresh sample, else from inline static data with no
/// `pipe` (after `root`).
fn first_row(analyzed: &Analyzed, uri: &Uri, name: &str) -> Option<Row> {
    let config = &analyzed.analysis.config;
    let source = config.get(name)?;
    let examples = crate::samples::examples_for_uri(uri);
    let fingerprint = sources_check::shapes::fingerprint(analyzed.text(), source);
    if let Some(Example {
        fingerprint: recorded_as,
        recorded,
        row,
    }) = examples.get(name)
        && *recorded_as == fingerprint
    {
        return Some(Row {
            value: row.clone(),
            origin: format!("a sample recorded {recorded}"),
        });
    }
    let Body::Static(body) = &source.body else {
        return None;
    };
    if body.leaf.common.pipe.is_some() {
        return None;
    }
    let data = body.data.as_ref()?.value.to_json();
    let rooted = match &body.leaf.root {
        Some(root) => json_path::lookup(&data, &root.value).ok()?.clone(),
        None => data,
    };
    let value = match rooted {
        Value::Array(rows) => rows.into_iter().next()?,
        other => other,
    };
    Some(Row {
        value,
        origin: "static data".to_owned(),
    })
}

/// A value as shown: compact JSON, cut to [`MAX_SHOWN`] characters.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= MAX_SHOWN {
        return text;
    }
    let mut cut: String = text.chars().take(MAX_SHOWN - 1).collect();
    cut.push('…');
    cut
}

/// The column whose `value` path holds `offset`, its component and the path written there.
fn column_at(config: &Config, offset: usize) -> Option<(&Component, &str, Span)> {
    let component = config.component_at(offset)?;
    let path = component
        .columns
        .iter()
        .flat_map(|column| column.value.iter())
        .find(|path| path.span.start() <= offset && offset <= path.span.end())?;
    Some((component, path.value.as_str(), path.span))
}

/// Hover on a column's `value` path: the sample value there, or the type the shape gives.
pub(crate) fn hover(analyzed: &Analyzed, uri: &Uri, offset: usize) -> Option<(String, Span)> {
    let config = &analyzed.analysis.config;
    let (component, path, span) = column_at(config, offset)?;
    let entry = &component.source.as_ref()?.value;
    if let Some(row) = first_row(analyzed, uri, entry) {
        let text = match json_path::lookup(&row.value, path) {
            Ok(value) => format!("sample value `{}`", shown(value)),
            Err(_) => "no value in the sample row".to_owned(),
        };
        return Some((
            format!(
                "**`{path}`** — {text} (the first row of `{entry}`, from {})",
                row.origin
            ),
            span,
        ));
    }
    let shaped = analyzed.analysis.shapes.output(config, entry)?;
    let PathLookup::Found(shape) = shaped.shape.rows().lookup(path) else {
        return None;
    };
    Some((
        format!(
            "**`{path}`** — {} (no sample value: the type, from {})",
            shape.render(1),
            shaped.origin.describe()
        ),
        span,
    ))
}

/// The value a column shows for a row: its first `value` path that gives a non-empty value, as
/// the dashboard tries them in order.
fn column_value<'a>(row: &'a Value, column: &Column) -> Option<&'a Value> {
    column.value.iter().find_map(|path| {
        json_path::lookup(row, &path.value)
            .ok()
            .filter(|value| !matches!(value, Value::Null) && value.as_str() != Some(""))
    })
}

/// After each column's `value` inside `within`, the sample value the first row gives.
pub(crate) fn hints(
    analyzed: &Analyzed,
    uri: &Uri,
    positions: Positions<'_>,
    within: Span,
) -> Vec<InlayHint> {
    let config = &analyzed.analysis.config;
    let mut out = Vec::new();
    for component in &config.components {
        let overlaps =
            component.span.end() >= within.start() && component.span.start() <= within.end();
        if !overlaps || component.columns.is_empty() {
            continue;
        }
        let Some(row) = component
            .source
            .as_ref()
            .and_then(|entry| first_row(analyzed, uri, &entry.value))
        else {
            continue;
        };
        for column in &component.columns {
            let (Some(last), Some(value)) = (column.value.last(), column_value(&row.value, column))
            else {
                continue;
            };
            let at = last.span.end();
            if at < within.start() || at > within.end() {
                continue;
            }
            out.push(InlayHint {
                position: positions.position(at),
                label: InlayHintLabel::String(format!("= {}", shown(value))),
                kind: Some(InlayHintKind::TYPE),
                text_edits: None,
                tooltip: None,
                padding_left: Some(true),
                padding_right: None,
                data: None,
            });
        }
    }
    out
}
