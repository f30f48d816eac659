//! Dot-paths into data checked against shapes (`unknown-data-field`): a table column's `value`
//! (of a list, at least one must lead somewhere), a tree's `label`/`children`/`group_by`, a list's
//! `item`, an event log's `key`/`text`/`mark`, `mark_key` and `row_key` (each of them a path or a
//! list of paths too) against the rows of the component's source; a leaf's `root`,
//! `paginate.next_path` and `window.total_path` against its response, and `window.cursor` against
//! each item.

use sources_config::Config;
use sources_config::model::{Body, Source};
use sources_config::{Field, Spanned};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span};

use crate::data_miss::{Indexing, Reader, Unresolved, from_shape, list_keys};
use crate::shape::{Fields, PathLookup, Shape};
use crate::shapes::{EntryShapes, Shaped, Shapes};

/// The component paths of every component bound to an entry with a known shape.
pub(crate) fn check_components(config: &Config, shapes: &Shapes, out: &mut Collector) {
    for component in &config.components {
        let Some(source) = &component.source else {
            continue;
        };
        let Some(shaped) = shapes.output(config, &source.value) else {
            continue;
        };
        let Shape::Object(rows) = shaped.shape.rows() else {
            continue;
        };
        let entry = format!("`{}`", source.value);
        for column in &component.columns {
            let field = match &column.title {
                Some(title) => format!("the `value` of column `{}`", title.value),
                None => "a column's `value`".to_owned(),
            };
            check_chain(shaped, &entry, &field, rows, &column.value, out);
        }
        for (name, chain) in &component.paths {
            check_chain(shaped, &entry, &format!("`{name}`"), rows, chain, out);
        }
    }
}

/// One path, or a list of paths of which the first that resolves wins: reported (at the first
/// that misses) only when none can resolve.
fn check_chain(
    shaped: &Shaped,
    entry: &str,
    field: &str,
    rows: &Fields,
    chain: &[Spanned<String>],
    out: &mut Collector,
) {
    let mut first_miss = None;
    for path in chain {
        match row_miss(rows, &path.value) {
            Some(found) => {
                if first_miss.is_none() {
                    first_miss = Some((path, found));
                }
            }
            None => return,
        }
    }
    if let Some((path, miss)) = first_miss {
        out.push(row_path_miss(shaped, entry, field, rows, path, &miss));
    }
}

/// The diagnostic of a component path that misses the rows of `entry`.
fn row_path_miss(
    shaped: &Shaped,
    entry: &str,
    field: &str,
    rows: &Fields,
    path: &Spanned<String>,
    miss: &Unresolved<'_>,
) -> Diagnostic {
    let reader = Reader {
        entry,
        what: "rows",
        field,
        top: rows,
    };
    miss.diagnostic(shaped, &reader, step_span(path, miss), Indexing::Dot)
}

/// `root`, `next_path`, `total_path` against a leaf's response, `cursor` against its items. A
/// `static` entry's `root` is `runnable`'s to report.
pub(crate) fn check_leaf_paths(source: &Source, entry: &EntryShapes, out: &mut Collector) {
    let Some(response) = &entry.response else {
        return;
    };
    let Shape::Object(top) = &*response.shape else {
        return;
    };
    let name = &format!("`{}`", source.name.value);
    let leaf = source.body.leaf();
    if !matches!(source.body, Body::Static(_))
        && let Some(root) = leaf.and_then(|leaf| leaf.root.as_deref())
    {
        report(response, name, "response", "root", &spanned(root), top, out);
    }
    if let Body::Http(http) = &source.body
        && let Some(next) = http
            .paginate
            .as_deref()
            .and_then(|paginate| paginate.value.next_path.as_ref())
    {
        report(
            response,
            name,
            "response",
            "paginate.next_path",
            &spanned(next),
            top,
            out,
        );
    }
    if let Some(window) = source.body.window() {
        let items =
            leaf.and_then(|leaf| leaf.root.as_deref())
                .map_or(Some(&*response.shape), |root| {
                    match response.shape.lookup(&root.value) {
                        PathLookup::Found(shape) => Some(shape),
                        _ => None,
                    }
                });
        if let Some(total) = &window.value.total_path {
            report(
                response,
                name,
                "response",
                "window.total_path",
                &spanned(total),
                top,
                out,
            );
        }
        if let Some(cursor) = &window.value.cursor {
            match items {
                Some(Shape::Array(item)) => {
                    if let Shape::Object(item) = &**item {
                        report(
                            response,
                            name,
                            "items",
                            "window.cursor",
                            &spanned(cursor),
                            item,
                            out,
                        );
                    }
                }
                // The engine refuses an anchored page that is not a list: say where the list is.
                Some(Shape::Object(fields)) => out.push(not_a_list(response, name, cursor, fields)),
                _ => {}
            }
        }
    }
}

/// An anchored window whose value at `root` is an object, not the list of items it walks.
fn not_a_list(
    response: &Shaped,
    entry: &str,
    cursor: &Field<String>,
    fields: &Fields,
) -> Diagnostic {
    let lists = list_paths(fields, "", 3);
    let help = match lists.as_slice() {
        [] => "set `root` to the dot-path of the list of items".to_owned(),
        [only] => format!("set `root: {only}`, the list in this response"),
        many => format!(
            "set `root` to the list of items: {}",
            many.iter()
                .map(|path| format!("`{path}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let diagnostic = Diagnostic::new(
        Rule::UnknownDataField,
        cursor.value_span,
        format!(
            "`window.cursor` is read from each item of the list at `root`, but there the response \
             of {entry} is an object (keys: {}), not a list",
            list_keys(fields)
        ),
    )
    .with_label("no list of items to read this from");
    from_shape(diagnostic, response, &help)
}

/// The dot-paths of the lists inside `fields`, at most `depth` keys deep.
fn list_paths(fields: &Fields, prefix: &str, depth: usize) -> Vec<String> {
    let mut found = Vec::new();
    for (name, field) in fields {
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        match &field.shape {
            Shape::Array(_) => found.push(path),
            Shape::Object(inner) if depth > 1 => found.extend(list_paths(inner, &path, depth - 1)),
            _ => {}
        }
    }
    found
}

/// A field's value with its value span.
fn spanned(field: &Field<String>) -> Spanned<String> {
    Spanned::new(field.value.clone(), field.value_span)
}

/// Reports `path` when it misses `fields`.
#[allow(clippy::too_many_arguments)]
fn report(
    shaped: &Shaped,
    entry: &str,
    what: &'static str,
    field: &str,
    path: &Spanned<String>,
    fields: &Fields,
    out: &mut Collector,
) {
    if let Some(miss) = miss(fields, &path.value) {
        let field = format!("`{field}`");
        let reader = Reader {
            entry,
            what,
            field: &field,
            top: fields,
        };
        out.push(miss.diagnostic(shaped, &reader, step_span(path, &miss), Indexing::Dot));
    }
}

/// Where a component's `path` stops resolving in the rows' `fields`, if it does: read as the
/// dashboard reads it, `items[0].status` being `items.0.status`.
fn row_miss<'f>(fields: &'f Fields, path: &str) -> Option<Unresolved<'f>> {
    let steps: Vec<&str> = sources_config::item_path::steps(path).collect();
    Unresolved::of(Shape::lookup_in(fields, &steps))
}

/// Where a dot-path of `data.sources` (`root`, `next_path`…) stops resolving in `fields`, if it
/// does.
fn miss<'f>(fields: &'f Fields, path: &str) -> Option<Unresolved<'f>> {
    let steps: Vec<&str> = path.split('.').filter(|step| !step.is_empty()).collect();
    Unresolved::of(Shape::lookup_in(fields, &steps))
}

/// The span of the failing step inside a path value written at `path.span` (the whole value
/// when the text does not sit there as written, e.g. an escaped quoted string).
fn step_span(path: &Spanned<String>, miss: &Unresolved<'_>) -> Span {
    let (at, step) = miss.place();
    let offset = if at.is_empty() { 0 } else { at.len() + 1 };
    let written = path.span.len();
    let quote = usize::from(written == path.value.len() + 2);
    if written == path.value.len() + 2 * quote
        && path.value.get(offset..offset + step.len()) == Some(step)
    {
        let start = path.span.start() + quote + offset;
        Span::new(start, start + step.len())
    } else {
        path.span
    }
}
