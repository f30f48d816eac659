//! The focused row of an `on_cursor` driver as its `${cursor…}` tokens read it, and the filling of
//! an `on_cursor.bind` template from it. Of a table, the row's cells under every column (hidden
//! ones included): `${cursor}` is the first, `${cursor.N}` the Nth, `${cursor.Title}` the one
//! under that title (ignoring case), `${cursor.depth}` their count, `${cursor.path}` them joined
//! with `/`. Of a list, the item: `${cursor}`, `${cursor.1}`, `${cursor.item}`, `${cursor.label}`
//! and `${cursor.path}`. Of a tree, the node's path from the root: `${cursor}` and
//! `${cursor.label}` its label, `${cursor.N}` the Nth label of the path, `${cursor.depth}` their
//! count, `${cursor.path}` them joined with `/`. Anything else reads empty, as in the dashboard.

use serde_json::Value;

use crate::dashboard::{Component, ComponentKind};
use crate::{item_path, table_order};

/// A driver's focused row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CursorRow {
    /// A table's row: each column's title and cell.
    Table(Vec<(String, String)>),
    /// A list's item.
    List(String),
    /// A tree node: the labels from the root to it.
    Tree(Vec<String>),
}

impl CursorRow {
    /// The row a table driver shows for `item`: every column's cell, read from its `value`.
    pub fn of_table(driver: &Component, item: &Value) -> CursorRow {
        CursorRow::Table(
            driver
                .columns
                .iter()
                .map(|column| (column.title_text(), column.text_in(item)))
                .collect(),
        )
    }

    /// The row a driver shows first when its entry gives `value`: a table's first row in the
    /// order it first shows them (`table_order`), a list's first item, a tree's root (labelled
    /// `root_label`, else `title`, else the entry's name); `None` when there is no row (an empty
    /// list, or a driver of another kind).
    pub fn first(driver: &Component, value: &Value) -> Option<CursorRow> {
        let first = || item_path::items(value).first();
        match &driver.kind.as_ref()?.value {
            ComponentKind::Table => {
                let rows = table_order::first_paint(driver, item_path::items(value));
                Some(CursorRow::of_table(driver, rows.first()?))
            }
            ComponentKind::List => {
                let paths = driver.path("item").iter().map(|path| path.value.as_str());
                Some(CursorRow::List(item_path::first_text(first()?, paths)))
            }
            ComponentKind::Tree => {
                let label = driver
                    .root_label
                    .as_ref()
                    .or(driver.title.as_ref())
                    .map(|text| text.value.text.to_string())
                    .or_else(|| driver.source.as_ref().map(|source| source.value.clone()))?;
                Some(CursorRow::Tree(vec![label]))
            }
            _ => None,
        }
    }

    /// What `${cursor}` (`None`) or `${cursor.NAME}` reads.
    pub fn read(&self, name: Option<&str>) -> String {
        let cells: Vec<&str> = match self {
            CursorRow::Table(cells) => cells.iter().map(|(_, cell)| cell.as_str()).collect(),
            CursorRow::List(item) => vec![item.as_str()],
            CursorRow::Tree(path) => path.iter().map(String::as_str).collect(),
        };
        let Some(name) = name else {
            return match self {
                CursorRow::Tree(path) => path.last().cloned().unwrap_or_default(),
                _ => cells
                    .first()
                    .map(|cell| (*cell).to_owned())
                    .unwrap_or_default(),
            };
        };
        if let Ok(number) = name.parse::<usize>() {
            return number
                .checked_sub(1)
                .and_then(|index| cells.get(index))
                .map(|cell| (*cell).to_owned())
                .unwrap_or_default();
        }
        match (self, name) {
            (_, "depth") => cells.len().to_string(),
            (_, "path") => cells.join("/"),
            (CursorRow::List(item), "item" | "label") => item.clone(),
            (CursorRow::Tree(path), "label") => path.last().cloned().unwrap_or_default(),
            (CursorRow::Table(cells), title) => cells
                .iter()
                .find(|(written, _)| written.eq_ignore_ascii_case(title))
                .map(|(_, cell)| cell.clone())
                .unwrap_or_default(),
            _ => String::new(),
        }
    }

    /// Whether `${selection.NAME}` resolves on this row: a cell number within it, `depth`,
    /// `path`, a list's `item` and `label`, a tree's `label`, or a table's column title (ignoring
    /// case). A selection token that does not resolve stays literal, as in the dashboard.
    pub fn resolves(&self, name: &str) -> bool {
        match (self, name) {
            (_, "depth" | "path") => true,
            (CursorRow::List(_), "item" | "label") | (CursorRow::Tree(_), "label") => true,
            (CursorRow::Table(cells), title) if title.parse::<usize>().is_err() => cells
                .iter()
                .any(|(written, _)| written.eq_ignore_ascii_case(title)),
            (row, number) => number.parse::<usize>().is_ok_and(|number| {
                let count = match row {
                    CursorRow::Table(cells) => cells.len(),
                    CursorRow::List(_) => 1,
                    CursorRow::Tree(path) => path.len(),
                };
                (1..=count).contains(&number)
            }),
        }
    }
}

/// `template` with its `${cursor…}` tokens read from `row` and its `${env.NAME}` tokens from
/// `env` (empty when unset); any other token stays as written.
pub fn fill(template: &str, row: &CursorRow, env: impl Fn(&str) -> Option<String>) -> String {
    fill_namespace(template, "cursor", row, env)
}

/// `template` with its `${selection…}` tokens read from `row` (a binding's `from` row, frozen as
/// the binding fires) and its `${env.NAME}` tokens from `env`; a selection token that does not
/// resolve on the row ([`CursorRow::resolves`]) and any other token stay as written.
pub fn fill_selection(
    template: &str,
    row: &CursorRow,
    env: impl Fn(&str) -> Option<String>,
) -> String {
    fill_namespace(template, "selection", row, env)
}

fn fill_namespace(
    template: &str,
    namespace: &str,
    row: &CursorRow,
    env: impl Fn(&str) -> Option<String>,
) -> String {
    let literal_unknown = namespace == "selection";
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let inner = &after[..end];
        match inner.split_once('.') {
            None if inner == namespace => out.push_str(&row.read(None)),
            Some((written, name))
                if written == namespace && (!literal_unknown || row.resolves(name)) =>
            {
                out.push_str(&row.read(Some(name)))
            }
            Some(("env", name)) => out.push_str(&env(name).unwrap_or_default()),
            _ => out.push_str(&rest[start..start + 2 + end + 1]),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> CursorRow {
        CursorRow::Table(vec![
            ("Name".to_owned(), "web".to_owned()),
            ("Last Seen".to_owned(), "1m".to_owned()),
            ("Id".to_owned(), "app-7".to_owned()),
        ])
    }

    #[test]
    fn a_table_row_is_read_by_number_title_depth_and_path() {
        let row = table();
        assert_eq!(row.read(None), "web");
        assert_eq!(row.read(Some("3")), "app-7");
        assert_eq!(row.read(Some("4")), "");
        assert_eq!(row.read(Some("0")), "");
        assert_eq!(row.read(Some("id")), "app-7");
        assert_eq!(row.read(Some("Last Seen")), "1m");
        assert_eq!(row.read(Some("depth")), "3");
        assert_eq!(row.read(Some("path")), "web/1m/app-7");
        assert_eq!(row.read(Some("Nope")), "");
    }

    #[test]
    fn lists_and_trees_read_their_item_and_path() {
        let list = CursorRow::List("eu-west-1".to_owned());
        assert_eq!(list.read(Some("item")), "eu-west-1");
        assert_eq!(list.read(Some("1")), "eu-west-1");
        let tree = CursorRow::Tree(vec!["/".to_owned(), "etc".to_owned()]);
        assert_eq!(tree.read(None), "etc");
        assert_eq!(tree.read(Some("1")), "/");
        assert_eq!(tree.read(Some("path")), "//etc");
        assert_eq!(tree.read(Some("depth")), "2");
    }

    #[test]
    fn a_template_fills_cursor_and_env_tokens_and_keeps_the_others() {
        let env = |name: &str| (name == "REGION").then(|| "eu".to_owned());
        assert_eq!(
            fill(
                "${cursor.Id}@${env.REGION}${env.UNSET}/${params.x}/${cursor}",
                &table(),
                env
            ),
            "app-7@eu/${params.x}/web"
        );
        assert_eq!(fill("open ${cursor", &table(), env), "open ${cursor");
    }

    #[test]
    fn a_selection_reads_the_row_and_leaves_what_does_not_resolve_literal() {
        let env = |_: &str| None;
        assert_eq!(
            fill_selection(
                "${selection}/${selection.id}/${selection.Nope}/${selection.9}",
                &table(),
                env
            ),
            "web/app-7/${selection.Nope}/${selection.9}"
        );
        let list = CursorRow::List("eu".to_owned());
        assert_eq!(
            fill_selection("${selection.item} ${selection.Name}", &list, env),
            "eu ${selection.Name}"
        );
        assert_eq!(fill("${selection.id}", &table(), env), "${selection.id}");
    }
}
