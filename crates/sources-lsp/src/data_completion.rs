//! Completion of the keys of an entry's data (its shape, `sources_check::shapes`) inside an
//! expression (`where`, `keep`, `compute`, `by`, a join's `on`) and a component's dot-path
//! (`value`, `label`, `children`, `group_by`, `item`, `mark_key`, `row_key`): the keys of the rows
//! read there, nested after a dot.

use sources_check::shape::{Fields, PathLookup, Shape};
use sources_check::shapes::Shaped;
use sources_syntax::Span;
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, MarkupContent,
    MarkupKind, TextEdit,
};

use crate::document::Snapshot;
use crate::position::Positions;

/// The keys to offer at `offset`, when it is inside an expression or a component path whose
/// rows have a known shape.
pub(crate) fn complete(
    snapshot: &Snapshot,
    offset: usize,
    positions: Positions<'_>,
) -> Option<Vec<CompletionItem>> {
    let text = snapshot.current.text();
    let shaped = rows_at(snapshot, offset)?;
    let Shape::Object(rows) = shaped.shape.rows() else {
        return None;
    };
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '@' | '-'))
        .last()
        .map_or(offset, |(at, _)| at);
    let written = &text[start..offset];
    let (path, typed) = written.rsplit_once('.').unwrap_or(("", written));
    let steps: Vec<&str> = path.split('.').filter(|step| !step.is_empty()).collect();
    let keys: &Fields = if steps.is_empty() {
        rows
    } else {
        match Shape::lookup_in(rows, &steps) {
            PathLookup::Found(Shape::Object(keys)) => keys,
            PathLookup::Found(Shape::Array(item)) | PathLookup::Found(Shape::Rows(item)) => {
                item.fields()?
            }
            _ => return None,
        }
    };
    let span = Span::new(offset - typed.len(), offset);
    let origin = shaped.origin.describe();
    let items = keys
        .iter()
        .enumerate()
        .map(|(at, (name, field))| CompletionItem {
            label: name.clone(),
            kind: Some(CompletionItemKind::FIELD),
            detail: Some(format!(
                "{}{}",
                field.shape.render(1),
                if field.optional {
                    " (not on every row)"
                } else {
                    ""
                }
            )),
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: format!("A key of the data, from {origin}."),
            })),
            sort_text: Some(format!("{at:04}")),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range: positions.range(span),
                new_text: name.clone(),
            })),
            ..CompletionItem::default()
        })
        .collect();
    Some(items)
}

/// The shape of the rows read where `offset` is: an expression's input, or the source of the
/// component whose path value holds it.
fn rows_at(snapshot: &Snapshot, offset: usize) -> Option<&Shaped> {
    let analysis = &snapshot.current.analysis;
    let config = &analysis.config;
    let inside = |span: Span| span.start() <= offset && offset <= span.end();
    if let Some(position) = config
        .entries
        .iter()
        .position(|entry| entry.span.contains(offset))
    {
        let entry = &config.entries[position];
        let shapes = analysis.shapes.at(position)?;
        if sources_check::expression_sites(&entry.body)
            .iter()
            .any(|site| inside(site.span))
        {
            return shapes.input.as_ref();
        }
        let pipe = entry
            .body
            .common()
            .and_then(|common| common.pipe.as_ref())?;
        for (stage, input) in pipe.value.iter().zip(&shapes.stages) {
            if sources_check::expression_sites(&stage.value.body)
                .iter()
                .any(|site| inside(site.span))
            {
                return input.as_ref();
            }
        }
        return None;
    }
    let component = config.component_at(offset)?;
    let written = component
        .columns
        .iter()
        .flat_map(|column| column.value.iter())
        .chain(component.paths.iter().flat_map(|(_, chain)| chain))
        .any(|path| inside(path.span));
    if !written {
        return None;
    }
    analysis
        .shapes
        .output(config, &component.source.as_ref()?.value)
}
