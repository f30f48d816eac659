//! `sources try` on a terminal (or with `--output table`): the entry shown as the component that
//! shows it in the dashboard. Which component: the one `--component` names, else the first of
//! `tui.components` bound to the entry. A table is drawn by `table`; a list prints its `item`
//! per row, a tree its `label`s under the root (nested by `children`, or bucketed by `group_by`),
//! a text view its text, a log view its lines, an inspector its fields (declared, or every field
//! with `auto`), an event log each item's `key` (and `mark`) over its `text`. Every path is read
//! as the dashboard reads it (`sources_config::item_path`).

use serde_json::Value;
use sources_config::{Component, ComponentKind, Config, InspectorField, item_path};

use crate::terminal;
use crate::r#try::table;

/// How deep a tree or an inspector is drawn (deeper nodes are counted, not drawn).
const MAX_DEPTH: usize = 64;

/// The kinds of component `try` draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// `table`.
    Table,
    /// `list`.
    List,
    /// `tree`.
    Tree,
    /// `textview`.
    Textview,
    /// `logview`.
    Logview,
    /// `inspector`.
    Inspector,
    /// `eventlog`.
    Eventlog,
}

impl View {
    /// How `component` is drawn, if it is of a kind `try` draws.
    pub fn of(component: &Component) -> Option<View> {
        Some(match &component.kind.as_ref()?.value {
            ComponentKind::Table => View::Table,
            ComponentKind::List => View::List,
            ComponentKind::Tree => View::Tree,
            ComponentKind::Eventlog => View::Eventlog,
            ComponentKind::Other(kind) => match kind.as_str() {
                "textview" => View::Textview,
                "logview" => View::Logview,
                "inspector" => View::Inspector,
                _ => return None,
            },
        })
    }
}

/// The component that shows `entry`: the one named `wanted`, else the first bound to it that `try`
/// can draw. An error says why a named one cannot be used (with a did-you-mean for an unknown
/// name).
pub fn pick<'c>(
    config: &'c Config,
    entry: &str,
    wanted: Option<&str>,
) -> Result<Option<&'c Component>, String> {
    let Some(wanted) = wanted else {
        return Ok(config.components.iter().find(|component| {
            component
                .source
                .as_ref()
                .is_some_and(|source| source.value == entry)
                && View::of(component).is_some()
        }));
    };
    let Some(component) = config
        .components
        .iter()
        .find(|component| component.name() == Some(wanted))
    else {
        let bound: Vec<&str> = config
            .components_bound_to(entry)
            .filter_map(Component::name)
            .collect();
        let names: Vec<&str> = config
            .components
            .iter()
            .filter_map(Component::name)
            .collect();
        let hint = match sources_diagnostics::did_you_mean(wanted, names.iter().copied()).first() {
            Some(best) => format!("; did you mean `{best}`?"),
            None if bound.is_empty() => format!("; no component shows `{entry}`"),
            None => format!("; `{entry}` is shown by `{}`", bound.join("`, `")),
        };
        return Err(format!(
            "--component {wanted}: `tui.components` has no component `{wanted}`{hint}"
        ));
    };
    match &component.source {
        Some(source) if source.value == entry => {}
        Some(source) => {
            return Err(format!(
                "--component {wanted}: {} shows `{}`, not `{entry}`",
                component.describe(),
                source.value
            ));
        }
        None => {
            return Err(format!(
                "--component {wanted}: {} has no `source`, so it shows no entry",
                component.describe()
            ));
        }
    }
    if View::of(component).is_none() {
        return Err(format!(
            "--component {wanted}: `try` cannot draw {} (it draws tables, lists, trees, text views, log views, inspectors and event logs)",
            component.describe()
        ));
    }
    Ok(Some(component))
}

/// The note on standard error saying which component `try` shows `entry` as, and which others
/// show it too.
pub fn which(config: &Config, entry: &str, component: &Component) -> String {
    let others: Vec<String> = config
        .components_bound_to(entry)
        .filter(|other| !std::ptr::eq(*other, component) && View::of(other).is_some())
        .filter_map(|other| other.name().map(|name| format!("`{name}`")))
        .collect();
    let also = if others.is_empty() {
        String::new()
    } else {
        format!(
            " (also shown by {}: `--component NAME` picks one)",
            others.join(", ")
        )
    };
    format!("showing `{entry}` as {}{also}", component.describe())
}

/// How much of a view to draw.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// The most rows (of a table, list or event log) drawn.
    pub rows: usize,
    /// The terminal's width, when printing to one (or `COLUMNS`).
    pub width: Option<usize>,
    /// Drawn as the dashboard first paints it (`try --screen`): a markable component's rows
    /// behind the mark gutter (empty: nothing is marked yet), a tree's nodes open only above its
    /// `initial_depth`, each node with children behind its open or closed arrow. Otherwise
    /// (`try NAME`) every node is open and there is no gutter.
    pub first_paint: bool,
    /// Colour a table's cells, a list's items and a log view's lines by their `color_rules`
    /// (`colors`): on a terminal, or with `--color always`.
    pub color: bool,
}

/// The mark gutter of a markable component's rows on its first paint: the mark's cell, empty,
/// and a space.
const GUTTER: &str = "  ";

/// The arrows before a node with children: open, closed.
const ARROWS: (&str, &str) = ("▾ ", "▸ ");

/// `value` as `component` shows it.
pub fn render(component: &Component, value: &Value, frame: Frame) -> String {
    let Some(view) = View::of(component) else {
        return String::new();
    };
    let items = item_path::items(value);
    let gutter = frame.first_paint
        && component.markable
        && matches!(view, View::Table | View::List | View::Tree);
    let width = match gutter {
        true => frame.width.map(|width| width.saturating_sub(GUTTER.len())),
        false => frame.width,
    };
    let fold = frame.first_paint.then_some(component.initial_depth);
    let mut text = match view {
        View::Table => table::render(component, items, frame.rows, width, frame.color),
        View::List => lines(
            items
                .iter()
                .take(frame.rows)
                .map(|item| colored(component, frame.color, one_of(component, "item", item))),
        ),
        View::Tree => tree(component, value, fold),
        View::Textview => with_newline(textview(value)),
        View::Logview => lines(
            logview(value)
                .into_iter()
                .take(frame.rows)
                .map(|line| colored(component, frame.color, line)),
        ),
        View::Inspector => inspector(component, value, fold),
        View::Eventlog => eventlog(component, &items[..frame.rows.min(items.len())]),
    };
    // A coloured view made each of its texts printable itself: the pass over the whole would
    // take its colours out too.
    let colored_view = matches!(view, View::Table | View::List | View::Logview);
    if !(frame.color && colored_view) {
        text = terminal::printable(&text);
    }
    if gutter {
        text = text
            .lines()
            .map(|line| format!("{GUTTER}{line}\n"))
            .collect();
    }
    let counted = matches!(view, View::List | View::Eventlog | View::Table);
    if counted && items.len() > frame.rows {
        text.push_str(&format!(
            "{} of {} rows shown; {} more not shown (`--limit N` shows more, `--output json` prints all)\n",
            frame.rows,
            items.len(),
            items.len() - frame.rows
        ));
    }
    text
}

/// `text` made printable and, with `color`, coloured by the component's `color_rules`.
fn colored(component: &Component, color: bool, text: String) -> String {
    let text = terminal::printable(&text);
    match color {
        true => crate::r#try::colors::paint(&component.color_rules, &text, &text),
        false => text,
    }
}

/// The warnings of what the view shows: each table column empty in every row.
pub fn warnings(component: &Component, value: &Value) -> Vec<String> {
    match View::of(component) {
        Some(View::Table) => table::empty_columns(component, item_path::items(value)),
        _ => Vec::new(),
    }
}

/// The text the paths under `key` give for `item`, on one line.
fn one_of(component: &Component, key: &str, item: &Value) -> String {
    let paths = component.path(key).iter().map(|path| path.value.as_str());
    sources_eval::io::one_line(&item_path::first_text(item, paths))
}

fn lines(lines: impl Iterator<Item = String>) -> String {
    let mut text = String::new();
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    if text.is_empty() {
        text.push_str("(no rows)\n");
    }
    text
}

fn with_newline(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// A text view's text: a string as it is, a list of strings a line each, anything else as
/// indented JSON with its keys sorted.
fn textview(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        Value::Array(items) if items.iter().all(Value::is_string) => items
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join("\n"),
        other => serde_json::to_string_pretty(&sorted(other, 0)).unwrap_or_default(),
    }
}

/// `value` with the keys of its objects in alphabetical order (as far as [`MAX_DEPTH`]).
fn sorted(value: &Value, depth: usize) -> Value {
    match value {
        Value::Object(fields) if depth < MAX_DEPTH => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|key| (key.clone(), sorted(&fields[key.as_str()], depth + 1)))
                    .collect(),
            )
        }
        Value::Array(items) if depth < MAX_DEPTH => {
            Value::Array(items.iter().map(|item| sorted(item, depth + 1)).collect())
        }
        other => other.clone(),
    }
}

/// A log view's lines: a string split at its line ends, the strings of a list.
fn logview(value: &Value) -> Vec<String> {
    match value {
        Value::String(text) => text
            .trim_end_matches('\n')
            .split('\n')
            .map(str::to_owned)
            .collect(),
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// A node of a drawn tree.
struct Node {
    label: String,
    children: Vec<Node>,
}

/// A source-bound tree: the root labelled `root_label`, else the title, else the entry's name.
/// With `fold` (a first paint), only the nodes shallower than it are open, each node with
/// children behind its arrow; without, every node is open.
fn tree(component: &Component, value: &Value, fold: Option<u32>) -> String {
    let root_label = component
        .root_label
        .as_ref()
        .or(component.title.as_ref())
        .map(|text| text.value.text.to_string())
        .or_else(|| component.source.as_ref().map(|source| source.value.clone()))
        .unwrap_or_default();
    let label = |item: &Value| one_of(component, "label", item);
    let mut root = Node {
        label: root_label,
        children: Vec::new(),
    };
    if !component.path("children").is_empty() {
        match value {
            Value::Array(items) => {
                root.children = items
                    .iter()
                    .map(|item| nested_node(component, item, &label, 1))
                    .collect();
            }
            Value::Null => {}
            single => root = nested_node(component, single, &label, 0),
        }
    } else if component.path("group_by").is_empty() {
        root.children = item_path::items(value)
            .iter()
            .map(|item| Node {
                label: label(item),
                children: Vec::new(),
            })
            .collect();
    } else {
        for item in item_path::items(value) {
            let bucket = one_of(component, "group_by", item);
            let leaf = Node {
                label: label(item),
                children: Vec::new(),
            };
            match root.children.iter_mut().find(|node| node.label == bucket) {
                Some(node) => node.children.push(leaf),
                None => root.children.push(Node {
                    label: bucket,
                    children: vec![leaf],
                }),
            }
        }
    }
    let mut text = format!("{}{}\n", arrow(&root, fold, 0), root.label);
    if fold.is_none_or(|open_below| open_below > 0) {
        draw_children(&root.children, "", &mut text, fold, 1);
    }
    text
}

/// The arrow before `node` at `depth`: none without `fold` or without children, else open when
/// the node is shallower than `fold`.
fn arrow(node: &Node, fold: Option<u32>, depth: u32) -> &'static str {
    match fold {
        Some(open_below) if !node.children.is_empty() => match depth < open_below {
            true => ARROWS.0,
            false => ARROWS.1,
        },
        _ => "",
    }
}

/// A node of nested data and its `children`, as far as [`MAX_DEPTH`].
fn nested_node(
    component: &Component,
    item: &Value,
    label: &dyn Fn(&Value) -> String,
    depth: usize,
) -> Node {
    let children = item_path::first_value(
        item,
        component
            .path("children")
            .iter()
            .map(|path| path.value.as_str()),
    );
    let children = match children {
        Some(children) if depth < MAX_DEPTH => item_path::items(children)
            .iter()
            .map(|child| nested_node(component, child, label, depth + 1))
            .collect(),
        _ => Vec::new(),
    };
    Node {
        label: label(item),
        children,
    }
}

fn draw_children(
    children: &[Node],
    indent: &str,
    text: &mut String,
    fold: Option<u32>,
    depth: u32,
) {
    for (index, child) in children.iter().enumerate() {
        let last = index + 1 == children.len();
        text.push_str(indent);
        text.push_str(if last { "└─ " } else { "├─ " });
        text.push_str(arrow(child, fold, depth));
        text.push_str(&child.label);
        text.push('\n');
        if fold.is_some_and(|open_below| depth >= open_below) {
            continue;
        }
        let deeper = format!("{indent}{}", if last { "   " } else { "│  " });
        draw_children(&child.children, &deeper, text, fold, depth + 1);
    }
}

/// One drawn inspector row: its depth, label and value.
struct Row {
    depth: usize,
    label: String,
    value: String,
}

/// An inspector's rows, each label padded to the widest of its group. With `fold` (a first
/// paint), only the groups shallower than it are open, each group behind its arrow.
fn inspector(component: &Component, value: &Value, fold: Option<u32>) -> String {
    let mut rows = Vec::new();
    if component.auto {
        auto_rows(value, 0, &mut rows);
    } else {
        declared_rows(&component.fields, value, 0, &mut rows);
    }
    if let Some(open_below) = fold {
        let open_below = usize::try_from(open_below).unwrap_or(usize::MAX);
        let groups: Vec<bool> = (0..rows.len())
            .map(|index| {
                rows.get(index + 1)
                    .is_some_and(|next| next.depth > rows[index].depth)
            })
            .collect();
        rows = rows
            .into_iter()
            .zip(groups)
            .filter(|(row, _)| row.depth <= open_below)
            .map(|(mut row, group)| {
                if group {
                    let arrow = if row.depth < open_below {
                        ARROWS.0
                    } else {
                        ARROWS.1
                    };
                    row.label = format!("{arrow}{}", row.label);
                }
                row
            })
            .collect();
    }
    if rows.is_empty() {
        return "(no fields)\n".to_owned();
    }
    let widest = rows
        .iter()
        .map(|row| row.depth * 2 + console::measure_text_width(&row.label))
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for row in rows {
        let label = format!("{}{}", "  ".repeat(row.depth), row.label);
        let line = if row.value.is_empty() {
            label
        } else {
            let pad = widest.saturating_sub(console::measure_text_width(&label));
            format!("{label}{}  {}", " ".repeat(pad), row.value)
        };
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// Declared fields: a `path` read from the value, else the static `value`.
fn declared_rows(fields: &[InspectorField], value: &Value, depth: usize, rows: &mut Vec<Row>) {
    for field in fields {
        let shown = match (&field.path, &field.value) {
            (Some(path), _) => item_path::text(value, &path.value),
            (None, Some(text)) => text.value.text.to_string(),
            (None, None) => String::new(),
        };
        rows.push(Row {
            depth,
            label: field
                .label
                .as_ref()
                .map(|label| label.value.text.to_string())
                .unwrap_or_default(),
            value: sources_eval::io::one_line(&shown),
        });
        declared_rows(&field.children, value, depth + 1, rows);
    }
}

/// `auto: true`: an object's keys as rows (an object or array inside opens a group), an array's
/// items as `[0]`, `[1]`…, a scalar as it is.
fn auto_rows(value: &Value, depth: usize, rows: &mut Vec<Row>) {
    let entries: Vec<(String, &Value)> = match value {
        Value::Object(fields) => fields
            .iter()
            .map(|(key, inner)| (key.clone(), inner))
            .collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(index, inner)| (format!("[{index}]"), inner))
            .collect(),
        scalar => {
            rows.push(Row {
                depth,
                label: String::new(),
                value: item_path::display(scalar),
            });
            return;
        }
    };
    for (label, inner) in entries {
        match inner {
            Value::Object(_) | Value::Array(_) if depth < MAX_DEPTH => {
                rows.push(Row {
                    depth,
                    label,
                    value: String::new(),
                });
                auto_rows(inner, depth + 1, rows);
            }
            scalar => rows.push(Row {
                depth,
                label,
                value: sources_eval::io::one_line(&item_path::display(scalar)),
            }),
        }
    }
}

/// An event log: each item's `key` (and `mark`), then its `text` a line each, indented.
fn eventlog(component: &Component, items: &[Value]) -> String {
    if items.is_empty() {
        return "(no events)\n".to_owned();
    }
    let mut text = String::new();
    for item in items {
        let key = one_of(component, "key", item);
        let mark = one_of(component, "mark", item);
        text.push_str(
            if mark.is_empty() {
                key
            } else {
                format!("{key}  {mark}")
            }
            .trim_end(),
        );
        text.push('\n');
        let body = item_path::first_text(
            item,
            component
                .path("text")
                .iter()
                .map(|path| path.value.as_str()),
        );
        for line in body
            .trim_end_matches('\n')
            .split('\n')
            .filter(|_| !body.is_empty())
        {
            text.push_str("  ");
            text.push_str(line.trim_end());
            text.push('\n');
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sources_syntax::Syntax;

    const DOCUMENT: &str = "\
tui:
  components:
    apps_list: {type: list, source: apps, item: name}
    apps_table:
      type: table
      source: apps
      columns: [{title: Name, value: name}]
    jobs_table:
      type: table
      source: jobs
      columns: [{title: Id, value: id}]
    help: {type: textview, content: hello}
    chart: {type: sparkline, source: apps}
data:
  sources:
    apps: {type: static, data: []}
    jobs: {type: static, data: []}
";

    fn config() -> Config {
        let parse = sources_syntax::parse(DOCUMENT, Syntax::Yaml);
        sources_config::decode(parse.root.expect("a root")).0
    }

    fn picked(config: &Config, wanted: Option<&str>) -> Result<Option<String>, String> {
        pick(config, "apps", wanted).map(|component| component.map(Component::describe))
    }

    #[test]
    fn the_first_component_that_shows_the_entry_is_used_unless_one_is_named() {
        let config = config();
        assert_eq!(
            picked(&config, None),
            Ok(Some("list `apps_list`".to_owned()))
        );
        assert_eq!(
            picked(&config, Some("apps_table")),
            Ok(Some("table `apps_table`".to_owned()))
        );
        let table = pick(&config, "apps", None)
            .ok()
            .flatten()
            .expect("a component");
        assert_eq!(
            which(&config, "apps", table),
            "showing `apps` as list `apps_list` (also shown by `apps_table`: `--component NAME` picks one)"
        );
        assert_eq!(pick(&config, "nothing", None), Ok(None));
    }

    #[test]
    fn a_named_component_that_cannot_show_the_entry_says_why() {
        let config = config();
        assert_eq!(
            picked(&config, Some("apps_tabel")),
            Err("--component apps_tabel: `tui.components` has no component `apps_tabel`; did you mean `apps_table`?".to_owned())
        );
        assert_eq!(
            picked(&config, Some("jobs_table")),
            Err("--component jobs_table: table `jobs_table` shows `jobs`, not `apps`".to_owned())
        );
        assert_eq!(
            picked(&config, Some("help")),
            Err(
                "--component help: textview `help` has no `source`, so it shows no entry"
                    .to_owned()
            )
        );
        assert_eq!(
            picked(&config, Some("chart")),
            Err("--component chart: `try` cannot draw sparkline `chart` (it draws tables, lists, trees, text views, log views, inspectors and event logs)".to_owned())
        );
    }

    #[test]
    fn control_characters_in_the_data_never_reach_the_terminal() {
        let config = config();
        let list = pick(&config, "apps", None)
            .ok()
            .flatten()
            .expect("a component");
        let frame = Frame {
            rows: 25,
            width: None,
            first_paint: false,
            color: false,
        };
        assert_eq!(
            render(list, &json!([{"name": "a\u{1b}[2Jb\u{7}"}]), frame),
            "a\\x1b[2Jb\\x07\n"
        );
    }
}
