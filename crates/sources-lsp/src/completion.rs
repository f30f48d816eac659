//! Completion: the fields valid where the cursor stands (with their docs, minus those already
//! written), `type` values, enumeration values, source names where a reference is expected,
//! parameter names after `${params.`, window tokens after `${window.`, the driving component's
//! column titles after `${cursor.` and `${selection.`; inside an expression or
//! a component's dot-path, the keys of the data read there (`data_completion`).

use serde_json::json;
use sources_check::RowNamespace;
use sources_config::fields::{self, Section};
use sources_config::template::WindowToken;
use sources_config::{
    Anchor, Config, Emit, Enumeration, EventlogStart, Format, Kind, Method, OnError, Order,
    ParamType, Source, Strategy,
};
use sources_syntax::{Span, Syntax};
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, MarkupContent,
    MarkupKind, TextEdit, Uri,
};

use crate::context::{self, Scope, Slot};
use crate::describe;
use crate::document::Snapshot;
use crate::position::Positions;

fn markdown(value: String) -> Option<Documentation> {
    (!value.is_empty()).then_some(Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    }))
}

/// Builds items that replace one span of the text.
struct Items<'a> {
    uri: &'a Uri,
    positions: Positions<'a>,
    span: Span,
    items: Vec<CompletionItem>,
}

impl Items<'_> {
    fn push(
        &mut self,
        label: &str,
        insert: String,
        kind: CompletionItemKind,
        detail: Option<String>,
        documentation: String,
    ) {
        let sort_text = format!("{:04}", self.items.len());
        self.items.push(CompletionItem {
            label: label.to_owned(),
            kind: Some(kind),
            detail,
            documentation: markdown(documentation),
            sort_text: Some(sort_text),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range: self.positions.range(self.span),
                new_text: insert,
            })),
            ..CompletionItem::default()
        });
    }

    fn values<E: Enumeration>(&mut self) {
        for value in E::names() {
            self.push(
                value,
                value.to_owned(),
                CompletionItemKind::ENUM_MEMBER,
                None,
                String::new(),
            );
        }
    }
}

/// The entry whose map the offset falls in, in the current analysis or (while the text does not
/// parse) the last clean one.
fn entry_at(snapshot: &Snapshot, offset: usize) -> Option<&Source> {
    snapshot
        .current
        .analysis
        .config
        .entry_at(offset)
        .or_else(|| snapshot.symbols().analysis.config.entry_at(offset))
}

/// Completion inside a `${…}` token being typed.
fn template(
    snapshot: &Snapshot,
    uri: &Uri,
    offset: usize,
    positions: Positions<'_>,
) -> Option<Vec<CompletionItem>> {
    let text = snapshot.current.text();
    let (token, start) = context::template_before(text, offset)?;
    let inner = &token[2..];
    let (namespace, partial) = inner.split_once('.').unwrap_or(("", inner));
    let mut items = Items {
        uri,
        positions,
        span: Span::new(offset - partial.len(), offset),
        items: Vec::new(),
    };
    let closed = text[offset..]
        .split('\n')
        .next()
        .is_some_and(|rest| rest.starts_with('}'));
    let close = if closed { "" } else { "}" };
    let entry = entry_at(snapshot, offset);
    match namespace {
        "params" => {
            let parameters = entry
                .and_then(|entry| entry.body.common())
                .and_then(|common| common.parameters.as_ref());
            for param in parameters
                .into_iter()
                .flat_map(|parameters| parameters.value.iter())
            {
                let name = &param.name.value;
                let doc = describe::parameter(name, &param.value.value);
                items.push(
                    name,
                    format!("{name}{close}"),
                    CompletionItemKind::VARIABLE,
                    Some("parameter".into()),
                    doc,
                );
            }
        }
        "window" => {
            if let Some(filter) = partial.strip_prefix("filters.") {
                items.span = Span::new(offset - filter.len(), offset);
                let filters = entry
                    .and_then(|entry| entry.body.window())
                    .and_then(|window| window.value.filters.as_ref());
                for column in filters.into_iter().flat_map(|filters| filters.value.iter()) {
                    let name = &column.value.value;
                    let doc = format!("The scoped term on column `{}`.", column.name.value);
                    items.push(
                        name,
                        format!("{name}{close}"),
                        CompletionItemKind::VARIABLE,
                        Some("window filter".into()),
                        doc,
                    );
                }
            } else {
                // Only the tokens that resolve in this field of this entry's window, when the
                // field is known (the checker's `window-token-misplaced` rule decides).
                let site = entry.and_then(|entry| {
                    sources_check::template_sites(entry)
                        .into_iter()
                        .find(|site| site.span.start() <= offset && offset <= site.span.end())
                        .map(|site| (entry, site.kind))
                });
                let resolves = |name: &str| {
                    let Some((entry, kind)) = site else {
                        return true;
                    };
                    // `filters` alone is a filter whose column is not typed yet.
                    let token = sources_config::template::window_token(name)
                        .unwrap_or(WindowToken::Filter(""));
                    sources_check::window_token_misplaced(entry, kind, &token).is_none()
                };
                for name in WindowToken::NAMES.iter().filter(|name| resolves(name)) {
                    let insert = if *name == "filters" {
                        "filters.".to_owned()
                    } else {
                        format!("{name}{close}")
                    };
                    items.push(
                        name,
                        insert,
                        CompletionItemKind::CONSTANT,
                        Some("window token".into()),
                        String::new(),
                    );
                }
            }
        }
        "cursor" => row_names(&mut items, snapshot, offset, RowNamespace::Cursor, close),
        "selection" => row_names(&mut items, snapshot, offset, RowNamespace::Selection, close),
        // Environment variables are the user's machine's business: nothing to offer.
        "env" => {}
        _ => {
            items.span = Span::new(start + 2, offset);
            for namespace in ["params", "env", "window"] {
                items.push(
                    namespace,
                    format!("{namespace}."),
                    CompletionItemKind::MODULE,
                    None,
                    String::new(),
                );
            }
        }
    }
    Some(items.items)
}

/// After `${cursor.` in an `on_cursor`, or `${selection.` wherever a selection is read
/// (`sources_check::selection_drivers`: an action binding, a pushed screen's title, the templates
/// of the components it places and the fields of the entries they show): the column titles of
/// each driving component and the words its kind gives (`sources_check::row_names`, the names
/// `unknown-column` accepts), from the current analysis or, while the text does not parse, the
/// last clean one.
fn row_names(
    items: &mut Items<'_>,
    snapshot: &Snapshot,
    offset: usize,
    namespace: RowNamespace,
    close: &str,
) {
    let drivers_at = |config: &Config| -> Vec<String> {
        match namespace {
            RowNamespace::Cursor => config
                .component_at(offset)
                .and_then(|component| component.on_cursor.as_ref()?.source.as_ref())
                .map(|driver| driver.value.clone())
                .into_iter()
                .collect(),
            RowNamespace::Selection => sources_check::selection_drivers(config, offset)
                .into_iter()
                .filter_map(|driver| driver.name().map(str::to_owned))
                .collect(),
        }
    };
    let current = &snapshot.current.analysis.config;
    let clean = &snapshot.symbols().analysis.config;
    let (config, names) = match drivers_at(current) {
        names if !names.is_empty() => (current, names),
        _ => (clean, drivers_at(clean)),
    };
    let mut offered: Vec<String> = Vec::new();
    for name in names {
        let Some(driver) = sources_check::driver_named(config, &name) else {
            continue;
        };
        let row = sources_check::row_names(driver, namespace);
        for title in row.titles {
            if offered.iter().any(|seen| seen.eq_ignore_ascii_case(title)) {
                continue;
            }
            offered.push(title.to_owned());
            items.push(
                title,
                format!("{title}{close}"),
                CompletionItemKind::FIELD,
                Some(format!("column of `{name}`")),
                format!(
                    "The focused row's cell in the column titled `{title}` (matched ignoring case)."
                ),
            );
        }
        for word in row.words {
            if offered.iter().any(|seen| seen == word) {
                continue;
            }
            offered.push((*word).to_owned());
            let what = match *word {
                "depth" => "the number of cells (a tree: of path elements)",
                "path" => "the cells joined with `/` (a tree: the path from the root)",
                _ => "the focused item (a tree node's label)",
            };
            items.push(
                word,
                format!("{word}{close}"),
                CompletionItemKind::CONSTANT,
                Some(format!("{} of `{name}`", namespace.as_str())),
                format!("The focused row's {what}."),
            );
        }
    }
}

/// The names of entries, for a reference field (not the entry's own name).
fn source_names(items: &mut Items<'_>, config: &Config, except: Option<&str>) {
    for entry in &config.entries {
        let name = entry.name.value.as_str();
        if Some(name) == except {
            continue;
        }
        let kind = entry
            .kind
            .as_ref()
            .map(|kind| kind.value.as_str().to_owned());
        items.push(
            name,
            name.to_owned(),
            CompletionItemKind::REFERENCE,
            kind,
            String::new(),
        );
        if let Some(item) = items.items.last_mut() {
            item.data = Some(json!({ "uri": items.uri.as_str(), "source": name }));
        }
    }
}

/// Fills in a source name's documentation (kind, cadence, parameters), which completion leaves
/// out so a long list of names stays small.
pub(crate) fn resolve(
    mut item: CompletionItem,
    lookup: impl FnOnce(&Uri) -> Option<Snapshot>,
) -> CompletionItem {
    let data = item.data.as_ref();
    let uri = data
        .and_then(|data| data["uri"].as_str())
        .and_then(|uri| uri.parse::<Uri>().ok());
    let name = data
        .and_then(|data| data["source"].as_str())
        .map(str::to_owned);
    if let (Some(uri), Some(name)) = (uri, name)
        && let Some(snapshot) = lookup(&uri)
    {
        let analyzed = snapshot.symbols();
        if let Some(entry) = analyzed.analysis.config.get(&name) {
            item.documentation = markdown(describe::source(
                &analyzed.analysis.config,
                entry,
                analyzed.text(),
            ));
        }
    }
    item
}

/// Whether the value of `key` in `scope` names another entry.
fn is_reference(scope: &Scope, key: &str) -> bool {
    match scope {
        Scope::Entry(_) => matches!(key, "from" | "sources"),
        Scope::Section(_, Section::MergeChild | Section::Growing) => key == "source",
        Scope::Section(_, Section::JoinDriver | Section::JoinLookup) => key == "from",
        Scope::Parts(_) => true,
        Scope::Component => key == "source",
        Scope::Section(..) | Scope::Stage(_) | Scope::Other => false,
    }
}

fn value(items: &mut Items<'_>, snapshot: &Snapshot, scope: &Scope, key: &str) {
    let names = &snapshot.symbols().analysis;
    let own = match scope {
        Scope::Entry(name) | Scope::Section(name, _) | Scope::Parts(name) | Scope::Stage(name) => {
            Some(name.as_str())
        }
        Scope::Component | Scope::Other => None,
    };
    if is_reference(scope, key) {
        source_names(items, &names.config, own);
        return;
    }
    match (scope, key) {
        (Scope::Entry(_), "type") => {
            for kind in Kind::ALL {
                let role = if kind.is_leaf() { "leaf" } else { "operator" };
                let summary = fields::kind_summary(*kind).to_owned();
                items.push(
                    kind.as_str(),
                    kind.as_str().to_owned(),
                    CompletionItemKind::CLASS,
                    Some(role.into()),
                    summary,
                );
            }
        }
        (Scope::Entry(_), "format") => items.values::<Format>(),
        (Scope::Entry(_), "on_error") => items.values::<OnError>(),
        (Scope::Stage(_), "type") => {
            for kind in Kind::ALL.iter().filter(|kind| kind.is_stage()) {
                let summary = fields::kind_summary(*kind).to_owned();
                items.push(
                    kind.as_str(),
                    kind.as_str().to_owned(),
                    CompletionItemKind::CLASS,
                    Some("stage".into()),
                    summary,
                );
            }
        }
        (Scope::Entry(_) | Scope::Stage(_), "order") => items.values::<Order>(),
        (Scope::Entry(_), "emit") => items.values::<Emit>(),
        (Scope::Entry(_), "method") => items.values::<Method>(),
        (Scope::Section(_, Section::Paginate), "strategy") => items.values::<Strategy>(),
        (Scope::Section(_, Section::Paginate), "on_page_error") => items.values::<OnError>(),
        (Scope::Section(_, Section::Window), "anchor") => items.values::<Anchor>(),
        (Scope::Section(_, Section::Parameter), "type") => items.values::<ParamType>(),
        (Scope::Component, "start") => items.values::<EventlogStart>(),
        (Scope::Entry(_) | Scope::Section(..), "follow" | "required" | "mask") => {
            for value in ["true", "false"] {
                items.push(
                    value,
                    value.to_owned(),
                    CompletionItemKind::VALUE,
                    None,
                    String::new(),
                );
            }
        }
        _ => {}
    }
}

/// The fields of an operator kind that a `pipe` stage does not take (its input is the stage
/// before).
const STAGE_EXCLUDED: &[&str] = &["from", "parameters", "pipe"];

/// The kind of the `pipe` stage of the entry `name` the cursor at `offset` is in: the last stage
/// starting before it (a stage's map ends at its last value, before the line being typed).
pub(crate) fn stage_kind(config: &Config, name: &str, offset: usize) -> Option<Kind> {
    let pipe = config.get(name)?.body.common()?.pipe.as_ref()?;
    let stage = pipe
        .value
        .iter()
        .rev()
        .find(|stage| stage.span.start() <= offset)?;
    stage.value.kind.as_ref().map(|kind| kind.value)
}

fn keys(
    items: &mut Items<'_>,
    snapshot: &Snapshot,
    scope: &Scope,
    offset: usize,
    siblings: &[String],
    syntax: Syntax,
    rest_of_line: &str,
) {
    let infos: Vec<&fields::FieldInfo> = match scope {
        Scope::Entry(name) => {
            let kind = snapshot
                .current
                .analysis
                .config
                .get(name)
                .or_else(|| snapshot.symbols().analysis.config.get(name))
                .and_then(|entry| entry.kind.as_ref())
                .map(|kind| kind.value);
            match kind {
                Some(kind) => fields::for_kind(kind).iter().collect(),
                None => fields::for_kind(Kind::Http)
                    .iter()
                    .filter(|info| info.name == "type")
                    .collect(),
            }
        }
        Scope::Section(_, section) => fields::for_section(*section).iter().collect(),
        Scope::Stage(name) => match stage_kind(&snapshot.current.analysis.config, name, offset) {
            Some(kind) => fields::for_kind(kind)
                .iter()
                .filter(|info| !STAGE_EXCLUDED.contains(&info.name.as_str()))
                .collect(),
            None => fields::for_kind(Kind::Filter)
                .iter()
                .filter(|info| info.name == "type")
                .collect(),
        },
        Scope::Parts(_) | Scope::Component | Scope::Other => Vec::new(),
    };
    let separator = if !rest_of_line.trim().is_empty() {
        ""
    } else if syntax == Syntax::Yaml {
        ": "
    } else {
        " = "
    };
    for info in infos
        .into_iter()
        .filter(|info| !siblings.contains(&info.name))
    {
        let detail = info.required.then(|| "required".to_owned());
        items.push(
            &info.name,
            format!("{}{separator}", info.name),
            CompletionItemKind::FIELD,
            detail,
            info.doc.clone(),
        );
    }
}

/// The most items one answer carries; a longer list is cut (and marked incomplete, so the client
/// asks again as more is typed).
pub(crate) const MAX_ITEMS: usize = 100;

/// Whether the characters of `typed` appear in `label` in order, ignoring case (how clients
/// filter a list).
fn matches(label: &str, typed: &str) -> bool {
    let mut label = label.chars().flat_map(char::to_lowercase);
    typed
        .chars()
        .flat_map(char::to_lowercase)
        .all(|wanted| label.any(|c| c == wanted))
}

/// Keeps the items that match what is typed, at most [`MAX_ITEMS`]; `true` when some were cut.
fn limit(items: Vec<CompletionItem>, typed: &str) -> (Vec<CompletionItem>, bool) {
    if items.len() <= MAX_ITEMS {
        return (items, false);
    }
    let mut kept: Vec<CompletionItem> = items
        .into_iter()
        .filter(|item| matches(&item.label, typed))
        .collect();
    let cut = kept.len() > MAX_ITEMS;
    kept.truncate(MAX_ITEMS);
    (kept, cut)
}

/// The completions at `offset`, and whether the list was cut.
pub(crate) fn complete(
    snapshot: &Snapshot,
    uri: &Uri,
    offset: usize,
    positions: Positions<'_>,
) -> (Vec<CompletionItem>, bool) {
    if let Some(items) = template(snapshot, uri, offset, positions) {
        return (items, false);
    }
    let expression = crate::expression_help::expression_at(snapshot, offset).is_some();
    let functions = || {
        crate::expression_help::completions(
            crate::expression_help::language(uri),
            snapshot.current.text(),
            offset,
            positions,
        )
    };
    if let Some(mut items) = crate::data_completion::complete(snapshot, offset, positions) {
        if expression {
            items.extend(functions());
        }
        return (items, false);
    }
    if expression {
        return (functions(), false);
    }
    let analyzed = &snapshot.current;
    let text = analyzed.text();
    let context = context::at(&analyzed.analysis.line_index, analyzed.syntax, offset);
    let scope = context.scope();
    let (span, typed) = match &context.slot {
        Slot::Key { span, .. } | Slot::Value { span, .. } => (
            *span,
            text.get(span.start()..offset.clamp(span.start(), span.end()))
                .unwrap_or(""),
        ),
    };
    let mut items = Items {
        uri,
        positions,
        span,
        items: Vec::new(),
    };
    let config = &snapshot.symbols().analysis.config;
    let dashboard = match &context.slot {
        Slot::Key { .. } => crate::dashboard_completion::keys(&context.path, &context.siblings),
        Slot::Value { key, .. } => {
            let after_theme = text
                .get(..span.start())
                .is_some_and(|before| before.ends_with("theme:"));
            crate::dashboard_completion::values(config, &context.path, key, after_theme)
        }
    };
    if let Some(offers) = dashboard {
        let separator = match (&context.slot, analyzed.syntax) {
            (Slot::Value { .. }, _) => "",
            (Slot::Key { .. }, Syntax::Yaml) => ": ",
            (Slot::Key { .. }, _) => " = ",
        };
        for offer in offers {
            let kind = match &context.slot {
                Slot::Key { .. } => CompletionItemKind::FIELD,
                Slot::Value { .. } => CompletionItemKind::VALUE,
            };
            let insert = format!("{}{separator}", offer.insert);
            items.push(
                &offer.label,
                insert,
                kind,
                Some(offer.detail.into()),
                offer.doc,
            );
        }
        return limit(items.items, typed);
    }
    match &context.slot {
        Slot::Key { .. } => {
            let line_end = text[span.end()..]
                .find('\n')
                .map_or(text.len(), |newline| span.end() + newline);
            keys(
                &mut items,
                snapshot,
                &scope,
                offset,
                &context.siblings,
                analyzed.syntax,
                &text[span.end()..line_end],
            );
        }
        Slot::Value { key, .. } => value(&mut items, snapshot, &scope, key),
    }
    limit(items.items, typed)
}
