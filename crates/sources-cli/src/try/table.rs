//! A table component drawn as the dashboard draws it: each column filled from its `value` path
//! (`sources_config::item_path`), `hidden` columns left out, each column as wide as its `width`,
//! else as its widest cell or title (at least 4, at most its `max_width`), then `flex` columns
//! sharing what is left of the terminal's width in proportion to their `flex`, none past its
//! `max_width`; the rows in the order of the table's `initial_sort` (the rows `try` fetched,
//! sorted as the table sorts them locally; over a window, the dashboard asks the server for that
//! order instead); cells cut or padded to their column by `align`, columns separated by ` │ `, a
//! rule under the header. What does not fit the terminal is cut at its edge (the dashboard
//! scrolls to it) and named below the table.

use console::{measure_text_width, truncate_str};
use serde_json::Value;
use sources_config::{Align, Column, Component, table_order};

use crate::r#try::colors;

/// Between two drawn columns.
const SEPARATOR: &str = " │ ";

/// The narrowest a column sized to its content is.
const MIN_WIDTH: usize = 4;

/// The text of the cell of `column` for `row`, on one line, printable.
pub fn cell(column: &Column, row: &Value) -> String {
    crate::terminal::printable(&sources_eval::io::one_line(&column.text_in(row)))
}

/// The drawn columns of a table with each one's title.
fn drawn(component: &Component) -> Vec<(&Column, String)> {
    component
        .columns
        .iter()
        .filter(|column| !column.hidden)
        .map(|column| (column, crate::terminal::printable(&column.title_text())))
        .collect()
}

/// The width of each drawn column: fixed, or its widest cell or title; then the flex share of
/// what is left of `width`.
fn widths(
    columns: &[(&Column, String)],
    cells: &[Vec<String>],
    width: Option<usize>,
) -> Vec<usize> {
    let mut widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(index, (column, title))| {
            if column.width > 0 {
                return column.width as usize;
            }
            let natural = cells
                .iter()
                .map(|row| measure_text_width(&row[index]))
                .chain([measure_text_width(title), MIN_WIDTH])
                .max()
                .unwrap_or(MIN_WIDTH);
            match column.max_width {
                0 => natural,
                cap => natural.min(cap as usize),
            }
        })
        .collect();
    let Some(inner) = width else {
        return widths;
    };
    let used =
        widths.iter().sum::<usize>() + SEPARATOR.chars().count() * columns.len().saturating_sub(1);
    let mut leftover = inner.saturating_sub(used);
    let mut growing: Vec<usize> = (0..columns.len())
        .filter(|index| columns[*index].0.flex > 0)
        .collect();
    // Each round either shares out all that is left or caps at least one column, so it ends.
    while !growing.is_empty() && leftover > 0 {
        let total: usize = growing
            .iter()
            .map(|index| columns[*index].0.flex as usize)
            .sum();
        let mut given = 0;
        let mut capped = false;
        let mut still = Vec::new();
        for (position, index) in growing.iter().enumerate() {
            let column = columns[*index].0;
            let mut share = if position + 1 == growing.len() {
                leftover - given
            } else {
                leftover * column.flex as usize / total
            };
            let cap = column.max_width as usize;
            if cap > 0 && widths[*index] + share > cap {
                share = cap.saturating_sub(widths[*index]);
                capped = true;
            } else {
                still.push(*index);
            }
            widths[*index] += share;
            given += share;
        }
        leftover -= given;
        if !capped {
            break;
        }
        growing = still;
    }
    widths
}

/// `text` cut or padded to `width` cells as `align` says.
fn fit(text: &str, width: usize, align: Align) -> String {
    let shown = measure_text_width(text);
    if shown >= width {
        return truncate_str(text, width, "").into_owned();
    }
    let pad = width - shown;
    match align {
        Align::Left => format!("{text}{}", " ".repeat(pad)),
        Align::Right => format!("{}{text}", " ".repeat(pad)),
        Align::Center => {
            let left = pad / 2;
            format!("{}{text}{}", " ".repeat(left), " ".repeat(pad - left))
        }
    }
}

/// One line of the table: each cell fitted to its column (and, with `color`, coloured by its
/// column's `color_rules`), without trailing blanks, cut at the terminal's edge.
fn line(
    cells: &[String],
    columns: &[(&Column, String)],
    widths: &[usize],
    width: Option<usize>,
    color: bool,
) -> String {
    let joined = cells
        .iter()
        .zip(columns)
        .zip(widths)
        .map(|((cell, (column, _)), width)| {
            let fitted = fit(cell, *width, column.align);
            match color {
                true => colors::paint(&column.color_rules, cell, &fitted),
                false => fitted,
            }
        })
        .collect::<Vec<_>>()
        .join(SEPARATOR);
    let cut = match width {
        Some(width) => truncate_str(&joined, width, "").into_owned(),
        None => joined,
    };
    cut.trim_end().to_owned()
}

/// The table of `rows` as `component` draws it: `shown` rows of them (the widths are those of all
/// the rows, as the dashboard holds them all), at most `width` cells wide when on a terminal, its
/// cells coloured by their columns' `color_rules` with `color`. Every text is printable.
pub fn render(
    component: &Component,
    rows: &[Value],
    shown: usize,
    width: Option<usize>,
    color: bool,
) -> String {
    let columns = drawn(component);
    if columns.is_empty() {
        let who = crate::terminal::printable(&component.describe());
        return format!("({who} draws no column)\n");
    }
    let cells: Vec<Vec<String>> = table_order::first_paint(component, rows)
        .into_iter()
        .map(|row| {
            columns
                .iter()
                .map(|(column, _)| cell(column, row))
                .collect()
        })
        .collect();
    let widths = widths(&columns, &cells, width);
    let titles: Vec<String> = columns.iter().map(|(_, title)| title.clone()).collect();
    let header = line(&titles, &columns, &widths, width, false);
    let full =
        widths.iter().sum::<usize>() + SEPARATOR.chars().count() * columns.len().saturating_sub(1);
    let mut text = header;
    text.push('\n');
    text.push_str(&"─".repeat(width.map_or(full, |width| width.min(full))));
    text.push('\n');
    for row in cells.iter().take(shown) {
        text.push_str(&line(row, &columns, &widths, width, color));
        text.push('\n');
    }
    if rows.is_empty() {
        text.push_str("(no rows)\n");
    }
    if let Some(width) = width {
        let mut start = 0;
        let mut past = Vec::new();
        for ((_, title), column_width) in columns.iter().zip(&widths) {
            if start + column_width > width {
                past.push(format!("`{title}`"));
            }
            start += column_width + SEPARATOR.chars().count();
        }
        if !past.is_empty() {
            text.push_str(&format!(
                "{} past the terminal's edge (the dashboard scrolls to them; `--output json` prints them): {}\n",
                if past.len() == 1 { "1 column is" } else { "columns are" },
                past.join(", ")
            ));
        }
    }
    text
}

/// One warning for each drawn column of `component` that is empty in every row of `rows`: what
/// its `value` reads and why it gives nothing (the first row's miss, with a did-you-mean).
pub fn empty_columns(component: &Component, rows: &[Value]) -> Vec<String> {
    if rows.is_empty() {
        return Vec::new();
    }
    let mut warnings = Vec::new();
    for (column, title) in drawn(component) {
        if rows.iter().any(|row| !cell(column, row).is_empty()) {
            continue;
        }
        let why = match column.value.first() {
            None => "it has no `value` path".to_owned(),
            Some(_) => {
                let paths: Vec<String> = column
                    .value
                    .iter()
                    .map(|path| format!("`{}`", path.value))
                    .collect();
                let reads = paths.join(", then ");
                let first = &column.value[0].value;
                let strict = first.replace('[', ".").replace(']', "");
                match sources_config::json_path::lookup(&rows[0], &strict) {
                    Err(miss) => format!("its `value` reads {reads}; in the first row: {}", miss.0),
                    Ok(_) => {
                        format!("its `value` reads {reads}, which is empty or null in every row")
                    }
                }
            }
        };
        warnings.push(format!(
            "{} column `{title}` is empty in every row: {why}",
            component.describe()
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sources_config::testing::table;

    #[test]
    fn flex_columns_share_the_width_left_up_to_their_cap_and_cells_align() {
        let component = table(
            "        - {title: A, value: a, flex: 1}\n        - {title: B, value: b, flex: 3, max_width: 10}\n        - {title: N, value: n, align: right, width: 5}\n        - {title: C, value: c, align: center, width: 6}\n",
        );
        let rows = [json!({"a": "x", "b": "y", "n": 7, "c": "mid"})];
        // Bases 4 + 4 + 5 + 6 and 9 of separators leave 12 of 40: `B` takes 9 of them but stops
        // at 10 (6 more), and `A` gets the rest.
        assert_eq!(
            render(&component, &rows, 25, Some(40), false),
            "A          │ B          │     N │   C\n\
             ────────────────────────────────────────\n\
             x          │ y          │     7 │  mid\n"
        );
    }

    #[test]
    fn a_table_wider_than_the_terminal_is_cut_at_its_edge_and_says_which_columns() {
        let component = table(
            "        - {title: Name, value: name}\n        - {title: Note, value: note}\n        - {title: Hidden, value: name, hidden: true}\n",
        );
        let rows = [json!({"name": "web", "note": "n".repeat(30)})];
        let text = render(&component, &rows, 25, Some(20), false);
        assert_eq!(
            text,
            format!(
                "Name │ Note\n{}\nweb  │ {}\n1 column is past the terminal's edge (the dashboard scrolls to them; `--output json` prints them): `Note`\n",
                "─".repeat(20),
                "n".repeat(13)
            )
        );
    }

    #[test]
    fn a_column_sized_to_its_content_stops_at_its_max_width() {
        let component = table(
            "        - {title: Name, value: name, max_width: 6}\n        - {title: N, value: n}\n",
        );
        let rows = [json!({"name": "notifications", "n": 1})];
        assert_eq!(
            render(&component, &rows, 25, Some(40), false),
            "Name   │ N\n─────────────\nnotifi │ 1\n"
        );
    }

    #[test]
    fn an_empty_column_says_what_its_path_reads_and_why_it_is_empty() {
        let component = table(
            "        - {title: Name, value: metadata.name}\n        - {title: Sync, value: [status.sycn, status.other]}\n        - {title: Note, value: note}\n        - {title: Bare}\n",
        );
        let rows = [
            json!({"metadata": {"name": "a"}, "status": {"sync": "Synced"}, "note": null}),
            json!({"metadata": {"name": "b"}, "status": {"sync": "OutOfSync"}, "note": ""}),
        ];
        assert_eq!(
            empty_columns(&component, &rows),
            [
                "table `t` column `Sync` is empty in every row: its `value` reads `status.sycn`, then `status.other`; in the first row: no key `sycn` under `status` (did you mean `sync`?)",
                "table `t` column `Note` is empty in every row: its `value` reads `note`, which is empty or null in every row",
                "table `t` column `Bare` is empty in every row: it has no `value` path",
            ]
        );
        assert!(empty_columns(&component, &[]).is_empty());
    }
}
