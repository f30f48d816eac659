//! The order a table first shows its rows in: by its `initial_sort`, when that names a sortable
//! column (by its 1-based number, else by its title or a case-insensitive prefix of it), compared
//! by the column's `sort`; else as the entry gave them. What `try` draws and the row an
//! `on_cursor` driver's cursor starts on both come from here.

use std::cmp::Ordering;

use serde_json::Value;

use crate::dashboard::{Column, Component, SortMode};

/// The rows in the order the table first shows them: sorted by its `initial_sort` when that names
/// a sortable column (by its 1-based number, else by its title or a case-insensitive prefix of
/// it), else as they came. The sort is stable and compares by the column's `sort`.
pub fn first_paint<'r>(component: &Component, rows: &'r [Value]) -> Vec<&'r Value> {
    let mut ordered: Vec<&Value> = rows.iter().collect();
    let Some((column, desc)) = initial_sort(component) else {
        return ordered;
    };
    let mut keyed: Vec<(String, &Value)> = ordered
        .drain(..)
        .map(|row| (column.text_in(row), row))
        .collect();
    keyed.sort_by(|(a, _), (b, _)| compare(column.sort, a, b, desc));
    keyed.into_iter().map(|(_, row)| row).collect()
}

/// The sortable column `initial_sort` names, and whether it sorts descending.
fn initial_sort(component: &Component) -> Option<(&Column, bool)> {
    let sort = component.initial_sort.as_ref()?;
    let wanted = sort.column.trim();
    let sortable = |column: &&Column| column.sortable.as_ref().is_some_and(|flag| flag.value);
    let title = |column: &Column| {
        column
            .title
            .as_ref()
            .map(|title| title.value.to_lowercase())
            .unwrap_or_default()
    };
    let column = match wanted.parse::<usize>() {
        Ok(number) => component
            .columns
            .get(number.checked_sub(1)?)
            .filter(sortable)?,
        Err(_) => {
            let wanted = wanted.to_lowercase();
            let mut named = component.columns.iter().filter(sortable);
            named
                .clone()
                .find(|column| title(column) == wanted)
                .or_else(|| named.find(|column| title(column).starts_with(&wanted)))?
        }
    };
    Some((column, sort.desc))
}

/// How two cells compare under `mode`, descending when `desc`: text case-insensitively; numbers
/// (commas stripped, with a K, M, B, G or T suffix under `si`) by value, and in either direction
/// before any cell that is not a number.
fn compare(mode: SortMode, a: &str, b: &str, desc: bool) -> Ordering {
    let direction = |order: Ordering| if desc { order.reverse() } else { order };
    let text = || direction(a.to_lowercase().cmp(&b.to_lowercase()));
    if mode == SortMode::String {
        return text();
    }
    match (number(mode, a), number(mode, b)) {
        (Some(a), Some(b)) => direction(a.total_cmp(&b)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => text(),
    }
}

/// The number a cell holds under `mode`.
fn number(mode: SortMode, cell: &str) -> Option<f64> {
    let plain = cell.trim().replace(',', "");
    let (digits, scale) = match (mode, plain.char_indices().last()) {
        (SortMode::Si, Some((at, suffix))) => match suffix.to_ascii_uppercase() {
            'K' => (&plain[..at], 1e3),
            'M' => (&plain[..at], 1e6),
            'B' | 'G' => (&plain[..at], 1e9),
            'T' => (&plain[..at], 1e12),
            _ => (plain.as_str(), 1.0),
        },
        _ => (plain.as_str(), 1.0),
    };
    digits
        .parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
        .map(|value| value * scale)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::testing::table;

    /// The `name` of each row of `rows` in the order `component` first shows them.
    fn names(component: &Component, rows: &[Value]) -> Vec<String> {
        first_paint(component, rows)
            .into_iter()
            .map(|row| row["name"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    #[test]
    fn initial_sort_orders_the_first_paint_by_a_sortable_column_and_its_comparator() {
        let rows = [
            json!({"name": "b", "replicas": "1,200", "size": "2K", "team": "Core"}),
            json!({"name": "a", "replicas": "12", "size": "1M", "team": "apps"}),
            json!({"name": "c", "replicas": "n/a", "size": "300", "team": "Data"}),
        ];
        let columns = "        - {title: Name, value: name}\n        - {title: Replicas, value: replicas, sortable: true, sort: number}\n        - {title: Size, value: size, sortable: true, sort: si}\n        - {title: Team, value: team, sortable: true, hidden: true}\n";
        let sorted = |initial_sort: &str| {
            let component = table(&format!("{columns}      initial_sort: {initial_sort}\n"));
            names(&component, &rows)
        };
        // A prefix of the title, descending, by number: commas stripped, a non-number last.
        assert_eq!(sorted("{column: rep, desc: true}"), ["b", "a", "c"]);
        assert_eq!(sorted("{column: Replicas}"), ["a", "b", "c"]);
        // By 1-based number, with K/M suffixes.
        assert_eq!(sorted("{column: 3}"), ["c", "b", "a"]);
        // A hidden column sorts too, as text, case-insensitively.
        assert_eq!(sorted("{column: team}"), ["a", "b", "c"]);
        // A column that is not sortable, or names nothing, leaves the rows as they came.
        assert_eq!(sorted("{column: Name, desc: true}"), ["b", "a", "c"]);
        assert_eq!(sorted("{column: 9}"), ["b", "a", "c"]);
        assert!(table(columns).initial_sort.is_none());
    }
}
