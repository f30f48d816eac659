//! Who reads a windowed source: the components of `tui.components` that bind entries
//! (`window-binding`, `growing-binding`, a sortable column over a window that cannot sort, an event
//! log's `start` over an anchored window, a `sorts`/`filters` key naming no column of the tables
//! showing the entry) and the operators and pipes that consume one
//! (`window-operator-input`). Each diagnostic also labels the other end.

use sources_config::Enumeration;
use sources_config::Field;
use sources_config::template::WindowToken;
use sources_config::{
    Body, Component, ComponentKind, Config, Growing, ReferenceField, Source, SourceRef, Window,
};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span, did_you_mean};

use crate::window::command_tokens;

/// The binding rules of the components.
pub(crate) fn check_bound_components(config: &Config, file: &str, out: &mut Collector) {
    for component in &config.components {
        check_component(config, component, file, out);
    }
}

/// `unknown-column` for a key of a window's `sorts` or `filters` that names no column of the
/// tables showing the entry. A key is a column title as written (the dashboard resolves a typed
/// `title:value` term to its column first, then looks the mapping up by that title); its value names the server's side (a sort field, a query
/// parameter or an exec token name) and is not judged here. Judged only when every component
/// bound to the entry is a table whose column titles are all written as plain text.
pub(crate) fn check_mapped_columns(
    config: &Config,
    entry: &Source,
    file: &str,
    out: &mut Collector,
) {
    let Some(window) = entry.body.window() else {
        return;
    };
    let mut tables = config.components_bound_to(&entry.name.value).peekable();
    if tables.peek().is_none() {
        return;
    }
    let mut titles: Vec<&str> = Vec::new();
    let mut shown_by: Vec<&Component> = Vec::new();
    for component in tables {
        let is_table = component
            .kind
            .as_ref()
            .is_some_and(|kind| kind.value == ComponentKind::Table);
        let plain = component.columns.iter().all(|column| {
            column
                .title
                .as_ref()
                .is_some_and(|title| !title.value.contains("${"))
        });
        if !is_table || component.columns.is_empty() || !plain {
            return;
        }
        titles.extend(component.titles().map(|title| title.value.as_str()));
        shown_by.push(component);
    }
    let tables = shown_by
        .iter()
        .map(|component| component.describe())
        .collect::<Vec<_>>()
        .join(" and ");
    let w = &window.value;
    // `sorts` where it cannot apply (an exec or an anchored window) is another rule's error.
    let sorts = (matches!(entry.body, Body::Http(_)) && w.cursor.is_none())
        .then_some(w.sorts.as_ref())
        .flatten();
    for (mapping, what) in [(sorts, "sorts"), (w.filters.as_ref(), "filters")] {
        for named in mapping.iter().flat_map(|mapping| mapping.value.0.iter()) {
            let key = &named.name;
            if titles.contains(&key.value.as_str()) {
                continue;
            }
            let mut diagnostic = Diagnostic::new(
                Rule::UnknownColumn,
                key.span,
                format!(
                    "`window.{what}` maps `{}`, which names no column of {tables}: the mapping is never used",
                    key.value
                ),
            )
            .with_label("not a column title");
            if let Some(binding) = shown_by.first().and_then(|table| table.source.as_ref()) {
                diagnostic = diagnostic.with_secondary(binding.span, "the table showing it");
            }
            let suggestions = did_you_mean(&key.value, titles.iter().copied());
            diagnostic = match suggestions.first() {
                Some(best) => {
                    let diagnostic = diagnostic.with_help(format!(
                        "did you mean `{best}`? a key of `{what}` is the title of the column it maps"
                    ));
                    crate::drivers::with_rename(diagnostic, file, key.span, &key.value, best)
                }
                None => diagnostic.with_help(format!(
                    "a key of `{what}` is the title of the column it maps; the columns are {}",
                    crate::drivers::quoted(&titles)
                )),
            };
            out.push(diagnostic);
        }
    }
}

/// Whether the window grows (`growing: true` or a map; `growing: false` is its own error).
fn grows(window: &Window) -> Option<Span> {
    match window.growing.as_ref() {
        Some(Field {
            value: Growing::Flag(false),
            ..
        })
        | None => None,
        Some(growing) => Some(growing.key_span),
    }
}

fn check_component(config: &Config, component: &Component, file: &str, out: &mut Collector) {
    let (Some(binding), Some(kind)) = (&component.source, &component.kind) else {
        return;
    };
    let Some(entry) = config.get(&binding.value) else {
        return;
    };
    let who = component.describe();
    let Some(window) = entry.body.window() else {
        if kind.value == ComponentKind::Eventlog && !sources_config::cadence::streams(config, entry)
        {
            out.push(
                Diagnostic::new(
                    Rule::WindowBinding,
                    binding.span,
                    format!(
                        "{who} binds `{}`, which has no `window` and does not stream: an event log reads a windowed or streamed source",
                        binding.value
                    ),
                )
                .with_label("bound here")
                .with_secondary(entry.name.span, "declared here without `window`")
                .with_help(format!(
                    "add a `window` (with `cursor` for an anchored one) to `{}`, or bind it from a table",
                    binding.value
                )),
            );
        }
        return;
    };
    let w = &window.value;
    if let Some(growing) = grows(w).filter(|_| kind.value != ComponentKind::Eventlog) {
        out.push(
            Diagnostic::new(
                Rule::GrowingBinding,
                binding.span,
                format!(
                    "{who} binds `{}`, a growing source: only an event log follows a growing set",
                    binding.value
                ),
            )
            .with_label("bound here")
            .with_secondary(growing, "grows here")
            .with_help("bind it from an `eventlog`, or remove `growing`"),
        );
        return;
    }
    match &kind.value {
        ComponentKind::List | ComponentKind::Tree | ComponentKind::Other(_) => {
            let other = kind.value.as_str();
            out.push(
                Diagnostic::new(
                    Rule::WindowBinding,
                    binding.span,
                    format!(
                        "{who} binds `{}`, a windowed source: only a table or an event log can drive a window",
                        binding.value
                    ),
                )
                .with_label("bound here")
                .with_secondary(window.key_span, "windowed here")
                .with_help(format!(
                    "bind `{}` from a table or an event log; a `{other}` needs a source that returns every row",
                    binding.value
                )),
            );
        }
        ComponentKind::Table => check_sortable_columns(entry, window, component, file, out),
        ComponentKind::Eventlog => {
            if let (Some(start), Some(cursor)) = (&component.start, &w.cursor) {
                out.push(
                    Diagnostic::new(
                        Rule::AnchoredField,
                        start.span,
                        format!(
                            "`start` on {who}: `{}` is anchored, so it opens where its `anchor` says",
                            binding.value
                        ),
                    )
                    .with_label("not with an anchored source")
                    .with_secondary(cursor.key_span, "anchored by `cursor` here")
                    .with_help(format!(
                        "remove `start` and set `window.anchor: {}` on `{}`",
                        start.value, binding.value
                    )),
                );
            }
        }
    }
}

fn check_sortable_columns(
    entry: &Source,
    window: &Field<Window>,
    component: &Component,
    file: &str,
    out: &mut Collector,
) {
    let w = &window.value;
    let sorts_by_command = matches!(entry.body, Body::Exec(_))
        && command_tokens(entry, file)
            .iter()
            .any(|found| found.token == WindowToken::Sort);
    for column in &component.columns {
        let Some(sortable) = column.sortable.as_ref().filter(|sortable| sortable.value) else {
            continue;
        };
        let title = column
            .title
            .as_ref()
            .map_or(String::from("this column"), |title| {
                format!("column `{}`", title.value)
            });
        let name = &entry.name.value;
        if let Some(cursor) = &w.cursor {
            out.push(
                Diagnostic::new(
                    Rule::AnchoredField,
                    sortable.span,
                    format!("{title} is sortable, but `{name}` is anchored: an anchored window has no user sort"),
                )
                .with_label("cannot sort")
                .with_secondary(cursor.key_span, "anchored by `cursor` here")
                .with_help("remove `sortable`: the rows come in cursor order"),
            );
            continue;
        }
        match entry.body {
            Body::Http(_) if w.sort_param.is_none() => out.push(
                Diagnostic::new(
                    Rule::WindowSortWithoutSortParam,
                    sortable.span,
                    format!("{title} is sortable, but the window of `{name}` has no `sort_param`"),
                )
                .with_label("sortable")
                .with_secondary(window.key_span, "window without `sort_param`")
                .with_help(format!(
                    "add `sort_param` to the window of `{name}` (the query parameter your API sorts by), or remove `sortable`"
                )),
            ),
            Body::Exec(_) if !sorts_by_command => out.push(
                Diagnostic::new(
                    Rule::WindowMissingToken,
                    sortable.span,
                    format!("{title} is sortable, but the `command` of `{name}` never references `${{window.sort}}`"),
                )
                .with_label("sortable")
                .with_secondary(window.key_span, "windowed here")
                .with_help("add arguments such as `--sort=${window.sort}` and `--order=${window.sort_dir}`, or remove `sortable`"),
            ),
            _ => {}
        }
    }
}

/// `window-operator-input`: an operator (or merge) `consumer` reading a windowed entry through
/// one of its references (`refs`).
pub(crate) fn check_consumed(
    config: &Config,
    consumer: &Source,
    refs: &[SourceRef],
    out: &mut Collector,
) {
    for reference in refs {
        if reference.field == ReferenceField::Growing {
            continue;
        }
        let Some(window) = config
            .get(&reference.name.value)
            .and_then(|target| target.body.window())
        else {
            continue;
        };
        let kind = consumer
            .kind
            .as_ref()
            .map_or("entry", |kind| kind.value.as_str());
        out.push(
            Diagnostic::new(
                Rule::WindowOperatorInput,
                reference.name.span,
                format!(
                    "{kind} `{}` consumes `{}`, a windowed source: a window holds only the rows on screen",
                    consumer.name.value, reference.name.value
                ),
            )
            .with_label("consumed here")
            .with_secondary(window.key_span, "windowed here")
            .with_help(format!(
                "bind `{}` directly to a table or an event log, or give it `paginate` instead of `window` to hold every row",
                reference.name.value
            )),
        );
    }
}

/// `window-operator-input`: a `pipe` on a windowed entry.
pub(crate) fn check_windowed_pipe(entry: &Source, out: &mut Collector) {
    let (Some(window), Some(pipe)) = (
        entry.body.window(),
        entry.body.common().and_then(|common| common.pipe.as_ref()),
    ) else {
        return;
    };
    out.push(
        Diagnostic::new(
            Rule::WindowOperatorInput,
            pipe.key_span,
            format!(
                "`pipe` on `{}`, a windowed source: the stages would see only the rows on screen",
                entry.name.value
            ),
        )
        .with_label("consumed here")
        .with_secondary(window.key_span, "windowed here")
        .with_help(
            "filter and sort on the server through the window's parameters, and remove `pipe`",
        ),
    );
}
