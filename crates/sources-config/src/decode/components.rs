//! The decoder's reader of the dashboard's side: `tui.components` (with their columns, item paths
//! and `on_cursor`), `tui.screen` / `tui.screens` (layouts and action bindings), the top-level
//! `actions` registry and `app.prompts`. A value of the wrong shape is skipped here: the check of
//! the dashboard's vocabulary (`dashboard_keys`) reported it.

use super::values::{read_bool, read_int};
use super::*;
use crate::dashboard::{
    Action, ActionBinding, Align, Bind, ColorRule, Column, Component, ComponentKind, Dashboard,
    InitialSort, InspectorField, OnCursor, Prompt, Screen, SortMode,
};
use crate::enums::Enumeration;
use crate::spanned::Text;

/// The keys of a component that hold a dot-path (or a list of them) into each item (a column's
/// `value` aside).
const PATH_KEYS: &[&str] = &[
    "item", "label", "children", "group_by", "key", "text", "mark", "mark_key", "row_key",
];

/// The keys of a component whose value is one display template.
const TEMPLATE_KEYS: &[&str] = &[
    "title",
    "filter_placeholder",
    "initial_filter",
    "initial_query",
    "root_label",
    "content",
];

/// The keys of a component whose value is a list of display templates.
const TEMPLATE_LIST_KEYS: &[&str] = &["items", "lines"];

/// How deep a static tree's `root` or an inspector's nested `fields` are walked for templates,
/// so a hostile document cannot exhaust the stack.
const NESTING_DEPTH: usize = 64;

/// A string value with its span, or `None` for any other value.
fn spanned_str(node: &Node) -> Option<Spanned<String>> {
    node.as_str()
        .map(|text| Spanned::new(text.to_owned(), node.span))
}

/// One dot-path or a list of them (the strings of the list).
fn path_chain(node: &Node) -> Vec<Spanned<String>> {
    match &node.value {
        Value::Seq(items) => items.iter().filter_map(spanned_str).collect(),
        _ => spanned_str(node).into_iter().collect(),
    }
}

/// A non-negative integer at `key` of `map`; 0 when absent or of another shape (the dashboard's
/// checks judge it).
fn count_at(map: &Map, key: &str) -> u32 {
    get(map, key)
        .and_then(|entry| read_int(&entry.value.value))
        .and_then(|value| u32::try_from(value).ok())
        .unwrap_or(0)
}

/// Whether `key` of `map` is `true`.
fn flag_at(map: &Map, key: &str) -> bool {
    get(map, key).and_then(|entry| read_bool(&entry.value.value)) == Some(true)
}

/// The string at `key` of `map`.
fn str_at(map: &Map, key: &str) -> Option<Spanned<String>> {
    get(map, key).and_then(|entry| spanned_str(&entry.value))
}

/// A template value at `key` of `map` (a scalar kept as written).
fn text_at(map: &Map, key: &str) -> Option<Spanned<Text>> {
    let entry = get(map, key)?;
    template(&entry.value)
}

fn template(node: &Node) -> Option<Spanned<Text>> {
    let text = match &node.value {
        Value::Str(text) => Text {
            text: text.text.clone(),
            style: text.style,
        },
        Value::Int(value) => Text {
            text: value.to_string().into(),
            style: sources_syntax::ScalarStyle::Plain,
        },
        Value::Bool(value) => Text {
            text: value.to_string().into(),
            style: sources_syntax::ScalarStyle::Plain,
        },
        _ => return None,
    };
    Some(Spanned::new(text, node.span))
}

/// A `bind` map: each key with its template.
fn bind_at(map: &Map, key: &str) -> Vec<Bind> {
    let Some(bind) = get(map, key).and_then(|entry| as_map(&entry.value)) else {
        return Vec::new();
    };
    bind.entries
        .iter()
        .map(|entry| Bind {
            param: Spanned::new(entry.key.name.to_string(), entry.key.span),
            template: template(&entry.value),
        })
        .collect()
}

/// The items of a map (by key) or of a list (named by `name`/`id`), with their names.
fn named_items(node: &Node) -> Vec<(Option<Spanned<String>>, &Node)> {
    match &node.value {
        Value::Map(map) => map
            .entries
            .iter()
            .map(|entry| {
                let name = Spanned::new(entry.key.name.to_string(), entry.key.span);
                (Some(name), &entry.value)
            })
            .collect(),
        Value::Seq(items) => items
            .iter()
            .map(|item| {
                let name =
                    as_map(item).and_then(|map| str_at(map, "name").or_else(|| str_at(map, "id")));
                (name, item)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `tui.components`, a map of name to component or a list of named components. A value of the
/// wrong type is left out here: the vocabulary's check reported it.
pub(super) fn components(node: &Node) -> Vec<Component> {
    named_items(node)
        .into_iter()
        .filter_map(|(name, item)| component(name, item))
        .collect()
}

fn component(name: Option<Spanned<String>>, node: &Node) -> Option<Component> {
    let map = as_map(node)?;
    let kind = ["kind", "type"]
        .iter()
        .find_map(|key| str_at(map, key))
        .map(|kind| Spanned::new(ComponentKind::from_name(&kind.value), kind.span));
    let source = str_at(map, "source");
    let columns = match get(map, "columns").map(|entry| &entry.value.value) {
        Some(Value::Seq(items)) => items.iter().filter_map(column).collect(),
        _ => Vec::new(),
    };
    let start = match kind.as_ref().map(|kind| &kind.value) {
        Some(ComponentKind::Eventlog) => get(map, "start").and_then(|entry| {
            let start = EventlogStart::from_name(entry.value.as_str()?)?;
            Some(Spanned::new(start, entry.value.span))
        }),
        _ => None,
    };
    let on_cursor = get(map, "on_cursor").and_then(|entry| {
        let on_cursor = as_map(&entry.value)?;
        Some(OnCursor {
            key_span: entry.key.span,
            source: str_at(on_cursor, "source"),
            bind: bind_at(on_cursor, "bind"),
        })
    });
    let paths = PATH_KEYS
        .iter()
        .filter_map(|key| {
            let chain = path_chain(&get(map, key)?.value);
            (!chain.is_empty()).then_some((*key, chain))
        })
        .collect();
    let fields = get(map, "fields")
        .map(|fields| inspector_rows(&fields.value, 0))
        .unwrap_or_default();
    Some(Component {
        name,
        span: node.span,
        kind,
        source,
        columns,
        start,
        on_cursor,
        paths,
        title: text_at(map, "title"),
        root_label: text_at(map, "root_label"),
        fields,
        auto: flag_at(map, "auto"),
        markable: flag_at(map, "markable"),
        color_rules: color_rules_at(map),
        initial_depth: count_at(map, "initial_depth"),
        initial_sort: get(map, "initial_sort").and_then(|entry| initial_sort(&entry.value)),
        keys: map
            .entries
            .iter()
            .map(|entry| Spanned::new(entry.key.name.to_string(), entry.key.span))
            .collect(),
        templates: component_templates(map),
    })
}

fn column(node: &Node) -> Option<Column> {
    let map = as_map(node)?;
    let sortable = get(map, "sortable").and_then(|entry| {
        read_bool(&entry.value.value).map(|sortable| Spanned::new(sortable, entry.value.span))
    });
    let value = get(map, "value")
        .map(|entry| path_chain(&entry.value))
        .unwrap_or_default();
    Some(Column {
        span: node.span,
        title: str_at(map, "title"),
        sortable,
        value,
        hidden: flag_at(map, "hidden"),
        width: count_at(map, "width"),
        flex: count_at(map, "flex"),
        max_width: count_at(map, "max_width"),
        align: str_at(map, "align")
            .and_then(|align| Align::from_name(&align.value))
            .unwrap_or_default(),
        sort: str_at(map, "sort")
            .and_then(|sort| SortMode::from_name(&sort.value))
            .unwrap_or_default(),
        color_rules: color_rules_at(map),
    })
}

/// The `color_rules` of `map`: each rule with a `color`, its `when` as written (a number as its
/// text; absent, empty).
fn color_rules_at(map: &Map) -> Vec<ColorRule> {
    let Some(Value::Seq(rules)) = get(map, "color_rules").map(|entry| &entry.value.value) else {
        return Vec::new();
    };
    rules
        .iter()
        .filter_map(as_map)
        .filter_map(|rule| {
            Some(ColorRule {
                when: get(rule, "when")
                    .and_then(|when| template(&when.value))
                    .map(|when| String::from(when.value.text))
                    .unwrap_or_default(),
                color: str_at(rule, "color")?.value,
            })
        })
        .collect()
}

/// A table's `initial_sort`: the column as written (a title or a number), and `desc`.
fn initial_sort(node: &Node) -> Option<InitialSort> {
    let map = as_map(node)?;
    let column = template(&get(map, "column")?.value)?;
    Some(InitialSort {
        column: String::from(column.value.text),
        desc: flag_at(map, "desc"),
    })
}

/// A component's display templates, in the order [`TEMPLATE_KEYS`], the lists, a static tree's
/// labels, an inspector's fields.
fn component_templates(map: &Map) -> Vec<Spanned<Text>> {
    let mut out: Vec<Spanned<Text>> = TEMPLATE_KEYS
        .iter()
        .filter_map(|key| text_at(map, key))
        .collect();
    for key in TEMPLATE_LIST_KEYS {
        if let Some(Value::Seq(items)) = get(map, key).map(|entry| &entry.value.value) {
            out.extend(items.iter().filter_map(template));
        }
    }
    if let Some(root) = get(map, "root") {
        tree_labels(&root.value, &mut out, 0);
    }
    if let Some(fields) = get(map, "fields") {
        inspector_fields(&fields.value, &mut out, 0);
    }
    out
}

/// The `label` of a static tree node and of its `children`, depth first.
fn tree_labels(node: &Node, out: &mut Vec<Spanned<Text>>, depth: usize) {
    let Some(map) = as_map(node) else {
        return;
    };
    if depth > NESTING_DEPTH {
        return;
    }
    out.extend(text_at(map, "label"));
    if let Some(Value::Seq(children)) = get(map, "children").map(|entry| &entry.value.value) {
        for child in children {
            tree_labels(child, out, depth + 1);
        }
    }
}

/// An inspector's `fields` with their `children`, as far as [`NESTING_DEPTH`].
fn inspector_rows(node: &Node, depth: usize) -> Vec<InspectorField> {
    let Value::Seq(fields) = &node.value else {
        return Vec::new();
    };
    if depth > NESTING_DEPTH {
        return Vec::new();
    }
    fields
        .iter()
        .filter_map(as_map)
        .map(|field| InspectorField {
            label: text_at(field, "label"),
            path: str_at(field, "path"),
            value: text_at(field, "value"),
            children: get(field, "children")
                .map(|children| inspector_rows(&children.value, depth + 1))
                .unwrap_or_default(),
        })
        .collect()
}

/// The `label` and `value` of each inspector field and of its `children`, depth first.
fn inspector_fields(node: &Node, out: &mut Vec<Spanned<Text>>, depth: usize) {
    let Value::Seq(fields) = &node.value else {
        return;
    };
    if depth > NESTING_DEPTH {
        return;
    }
    for field in fields.iter().filter_map(as_map) {
        out.extend(text_at(field, "label"));
        out.extend(text_at(field, "value"));
        if let Some(children) = get(field, "children") {
            inspector_fields(&children.value, out, depth + 1);
        }
    }
}

/// The screens, push actions and prompts of a document: `tui` and the top-level `actions` and
/// `app` values.
pub(super) fn dashboard(tui: Option<&Map>, actions: Option<&Node>, app: Option<&Map>) -> Dashboard {
    let mut screens = Vec::new();
    if let Some(tui) = tui {
        if let Some(single) = get(tui, "screen") {
            screens.extend(screen(None, &single.value));
        }
        if let Some(many) = get(tui, "screens") {
            for (name, item) in named_items(&many.value) {
                screens.extend(screen(name, item));
            }
        }
    }
    let actions = actions
        .map(|node| {
            named_items(node)
                .into_iter()
                .filter_map(|(name, item)| {
                    let map = as_map(item);
                    Some(Action {
                        name: name?,
                        push: map.and_then(|map| str_at(map, "push")),
                        kind: map.and_then(|map| str_at(map, "type")),
                        multi: map.is_some_and(|map| flag_at(map, "multi")),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let prompts = app
        .and_then(|app| get(app, "prompts"))
        .map(|prompts| match &prompts.value.value {
            Value::Seq(items) => items
                .iter()
                .filter_map(|item| {
                    let map = as_map(item)?;
                    Some(Prompt {
                        key: str_at(map, "key")?,
                        label: str_at(map, "label"),
                    })
                })
                .collect(),
            _ => Vec::new(),
        })
        .unwrap_or_default();
    let app_keys = ["actions_key", "theme_key", "output_key"]
        .into_iter()
        .filter_map(|key| Some((key, str_at(app?, key)?)))
        .collect();
    Dashboard {
        screens,
        initial: tui.and_then(|tui| str_at(tui, "initial")),
        actions,
        prompts,
        app_keys,
    }
}

fn screen(name: Option<Spanned<String>>, node: &Node) -> Option<Screen> {
    let map = as_map(node)?;
    let mut placed = Vec::new();
    if let Some(layout) = get(map, "layout") {
        layout_components(&layout.value, &mut placed, 0);
    }
    let actions = match get(map, "actions").map(|entry| &entry.value.value) {
        Some(Value::Seq(items)) => items.iter().filter_map(action_binding).collect(),
        _ => Vec::new(),
    };
    Some(Screen {
        name,
        span: node.span,
        title: text_at(map, "title"),
        placed,
        actions,
    })
}

/// How deep a layout tree is walked: deeper nesting is not a layout anyone writes, and the bound
/// keeps a hostile document from exhausting the stack.
const LAYOUT_DEPTH: usize = 64;

/// Every `component:` of a layout node and its stacks, in order.
fn layout_components(node: &Node, out: &mut Vec<Spanned<String>>, depth: usize) {
    if depth > LAYOUT_DEPTH {
        return;
    }
    match &node.value {
        Value::Map(map) => {
            for entry in &map.entries {
                match entry.key.name.as_str() {
                    "component" => out.extend(spanned_str(&entry.value)),
                    "vstack" | "hstack" | "zstack" | "base" | "overlay" => {
                        layout_components(&entry.value, out, depth + 1)
                    }
                    _ => {}
                }
            }
        }
        Value::Seq(items) => {
            for item in items {
                layout_components(item, out, depth + 1);
            }
        }
        _ => {}
    }
}

fn action_binding(node: &Node) -> Option<ActionBinding> {
    let map = as_map(node)?;
    Some(ActionBinding {
        span: node.span,
        action: str_at(map, "action"),
        push: str_at(map, "push"),
        from: str_at(map, "from"),
        bind: bind_at(map, "bind"),
        confirm: text_at(map, "confirm"),
        key: str_at(map, "key"),
        name: str_at(map, "name"),
        kind: str_at(map, "type"),
        multi: flag_at(map, "multi"),
        interactive: get(map, "interactive")
            .filter(|entry| read_bool(&entry.value.value) == Some(true))
            .map(|entry| entry.key.span),
    })
}
