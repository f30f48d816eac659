//! Anchored windows (`cursor` set): `anchored-needs-older-newer` for http, and `anchored-field`
//! for the fields an anchored window has no use for (offsets, total, user sort, prefetch) and for
//! the anchoring fields written without `cursor`. The event log's `start` over an anchored source
//! is checked with the bindings.

use sources_config::Field;
use sources_config::model::{Body, Source, WINDOW_FIELD_USES, Window};
use sources_diagnostics::{Collector, Diagnostic, Rule};

/// Every anchored-window rule, for every `http` and `exec` window.
pub(crate) fn check_anchored(entries: &[Source], out: &mut Collector) {
    for source in entries {
        let http = matches!(source.body, Body::Http(_));
        let Some(window) = source.body.window() else {
            continue;
        };
        match &window.value.cursor {
            Some(cursor) => check_anchored_window(window, cursor, http, out),
            None => check_unanchored_window(&window.value, http, out),
        }
    }
}

fn check_anchored_window(
    window: &Field<Window>,
    cursor: &Field<String>,
    http: bool,
    out: &mut Collector,
) {
    let w = &window.value;
    if http {
        let missing: Vec<&str> = [("older", w.older.is_none()), ("newer", w.newer.is_none())]
            .into_iter()
            .filter_map(|(name, missing)| missing.then_some(name))
            .collect();
        if !missing.is_empty() {
            let names = missing
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(" and ");
            out.push(
                Diagnostic::new(
                    Rule::AnchoredNeedsOlderNewer,
                    window.key_span,
                    format!("anchored http window without {names}: it cannot walk both ways from the edge item"),
                )
                .with_label(format!("no {names}"))
                .with_secondary(cursor.key_span, "anchored by `cursor` here")
                .with_help(
                    "add `older` and `newer`: what the request changes to walk each way, e.g. `older: {search_after: \"${window.cursor}\"}`",
                ),
            );
        }
    }
    // On exec the http-only fields among these are already `window-http-only-field`.
    for field in WINDOW_FIELD_USES
        .iter()
        .filter(|field| field.unanchored_only && (http || !field.http_only))
    {
        let Some(span) = (field.key_span)(w) else {
            continue;
        };
        let name = field.name;
        out.push(
            Diagnostic::new(
                Rule::AnchoredField,
                span,
                format!("`{name}` does not apply to an anchored window: it has no offsets, total or user sort"),
            )
            .with_label("not with `cursor`")
            .with_secondary(cursor.key_span, "anchored by `cursor` here")
            .with_help(format!("remove `{name}`, or remove `cursor` for an offset window")),
        );
    }
}

fn check_unanchored_window(w: &Window, http: bool, out: &mut Collector) {
    if let Some(anchor) = &w.anchor {
        out.push(
            Diagnostic::new(
                Rule::AnchoredField,
                anchor.key_span,
                "`anchor` without `cursor`: only an anchored window has a start edge",
            )
            .with_label("needs `cursor`")
            .with_help("add `cursor` (the dot-path to each item's cursor) to anchor the window, or remove `anchor`"),
        );
    }
    if !http {
        return;
    }
    for (field, name) in [(&w.older, "older"), (&w.newer, "newer")] {
        if let Some(field) = field {
            out.push(
                Diagnostic::new(
                    Rule::AnchoredField,
                    field.key_span,
                    format!("`{name}` without `cursor`: only an anchored window walks {name}"),
                )
                .with_label("needs `cursor`")
                .with_help("add `cursor` (the dot-path to each item's cursor) to anchor the window, or remove it"),
            );
        }
    }
}
