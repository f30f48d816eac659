//! How `sources try` prints what it fetched: JSON (the default when piped, unchanged), NDJSON,
//! YAML, or on a terminal (the default there) the component that shows the entry as the
//! dashboard draws it (`view`), else a table of the rows' keys.

use std::io::{self, Write};

use comfy_table::{ContentArrangement, Table, presets};
use serde_json::Value;
use sources_config::Component;

use crate::r#try::view::{self, Frame};

/// The output formats of `sources try`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// One JSON value (events: one per line).
    Json,
    /// One JSON value per line: each row of a list, or each event.
    Ndjson,
    /// The component that shows the entry, as the dashboard draws it (else a table of the rows'
    /// keys).
    Table,
    /// YAML (events: one document each).
    Yaml,
}

/// Rows a table shows unless `--limit` says otherwise.
pub const TABLE_ROWS: usize = 25;

/// The most characters a table cell shows; longer values end in `…`.
pub const CELL_WIDTH: usize = 40;

/// How to print one fetched value.
#[derive(Clone, Copy, Debug)]
pub struct Printing<'a> {
    /// The format.
    pub format: OutputFormat,
    /// Indent JSON.
    pub pretty: bool,
    /// Print a text value as the text itself.
    pub raw: bool,
    /// `--limit`.
    pub limit: Option<usize>,
    /// The component that shows the entry, when the configuration has one.
    pub component: Option<&'a Component>,
    /// The terminal's width (`COLUMNS` when set), when printing to one: what does not fit is
    /// left out and named.
    pub width: Option<u16>,
    /// Colour what is drawn by its `color_rules` (a terminal, or `--color always`).
    pub color: bool,
}

/// Prints a one-shot value.
pub fn write_value(out: &mut dyn Write, value: &Value, printing: &Printing<'_>) -> io::Result<()> {
    if let (true, Value::String(text)) = (printing.raw, value) {
        return write_text(out, text);
    }
    match printing.format {
        OutputFormat::Json => {
            let value = limited(value, printing.limit);
            let text = if printing.pretty {
                serde_json::to_string_pretty(&value)
            } else {
                serde_json::to_string(&value)
            }
            .map_err(io::Error::other)?;
            writeln!(out, "{text}")
        }
        OutputFormat::Ndjson => match limited(value, printing.limit) {
            Value::Array(rows) => rows.iter().try_for_each(|row| writeln!(out, "{row}")),
            other => writeln!(out, "{other}"),
        },
        OutputFormat::Yaml => out.write_all(yaml(&limited(value, printing.limit)).as_bytes()),
        OutputFormat::Table => match (printing.component, value) {
            (Some(component), value) => {
                let frame = Frame {
                    rows: printing.limit.unwrap_or(TABLE_ROWS),
                    width: printing.width.map(usize::from),
                    first_paint: false,
                    color: printing.color,
                };
                out.write_all(view::render(component, value, frame).as_bytes())
            }
            (None, value) => write_keys(out, value, printing),
        },
    }
}

/// A value without a component: a table of the rows' keys, an object's fields, a text as it is.
fn write_keys(out: &mut dyn Write, value: &Value, printing: &Printing<'_>) -> io::Result<()> {
    match value {
        Value::Array(rows) => out.write_all(table(rows, printing).as_bytes()),
        Value::Object(fields) => out.write_all(fields_table(fields).as_bytes()),
        Value::String(text) => write_text(out, text),
        other => writeln!(out, "{other}"),
    }
}

/// Prints one event of a stream: a line (JSON, or the text itself with `--raw`), or a YAML
/// document.
pub fn write_event(out: &mut dyn Write, value: &Value, printing: &Printing<'_>) -> io::Result<()> {
    match (printing.raw, value, printing.format) {
        (true, Value::String(text), _) => writeln!(out, "{text}"),
        (_, _, OutputFormat::Yaml) => out.write_all(yaml(value).as_bytes()),
        _ => writeln!(out, "{value}"),
    }
}

fn write_text(out: &mut dyn Write, text: &str) -> io::Result<()> {
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// The first `limit` rows of a list (a convenience of `try`; the dashboard gets them all).
fn limited(value: &Value, limit: Option<usize>) -> Value {
    match (value, limit) {
        (Value::Array(rows), Some(limit)) if rows.len() > limit => {
            Value::Array(rows[..limit].to_vec())
        }
        (value, _) => value.clone(),
    }
}

/// A value as a YAML document (`---` first), keys in the order the value holds them.
pub fn yaml(value: &Value) -> String {
    let mut text = String::new();
    let mut emitter = saphyr::YamlEmitter::new(&mut text);
    emitter.multiline(true);
    // Writing to a String cannot fail.
    let _ = emitter.dump(&to_yaml(value));
    text.push('\n');
    text
}

fn to_yaml(value: &Value) -> saphyr::Yaml<'static> {
    use saphyr::{Scalar, Yaml};
    match value {
        // `null`, as JSON writes it, rather than the emitter's `~`.
        Value::Null => Yaml::Representation("null".into(), saphyr::ScalarStyle::Plain, None),
        Value::Bool(flag) => Yaml::Value(Scalar::Boolean(*flag)),
        Value::Number(number) => {
            Yaml::Representation(number.to_string().into(), saphyr::ScalarStyle::Plain, None)
        }
        Value::String(text) => Yaml::Value(Scalar::String(text.clone().into())),
        Value::Array(items) => Yaml::Sequence(items.iter().map(to_yaml).collect()),
        Value::Object(fields) => Yaml::Mapping(
            fields
                .iter()
                .map(|(key, value)| {
                    (
                        Yaml::Value(Scalar::String(key.clone().into())),
                        to_yaml(value),
                    )
                })
                .collect(),
        ),
    }
}

/// A cell's text: strings as they are, other values as compact JSON, on one line, control
/// characters escaped, cut to [`CELL_WIDTH`] characters with `…`.
fn cell(value: Option<&Value>) -> String {
    let text = match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    };
    let text =
        sources_eval::trace::escape_controls(&sources_eval::io::one_line(&text)).into_owned();
    if text.chars().count() <= CELL_WIDTH {
        return text;
    }
    let mut cut: String = text.chars().take(CELL_WIDTH - 1).collect();
    cut.push('…');
    cut
}

/// The header titles and the row key each shows: every key of the rows in order of first
/// appearance (`value` for rows that are not objects).
fn layout(rows: &[Value]) -> Vec<(String, Option<String>)> {
    let mut keys: Vec<String> = Vec::new();
    for row in rows {
        match row {
            Value::Object(fields) => {
                for key in fields.keys() {
                    if !keys.contains(key) {
                        keys.push(key.clone());
                    }
                }
            }
            _ => {
                if !keys.iter().any(|key| key.is_empty()) {
                    keys.push(String::new());
                }
            }
        }
    }
    keys.into_iter()
        .map(|key| {
            if key.is_empty() {
                ("value".to_owned(), None)
            } else {
                (key.clone(), Some(key))
            }
        })
        .collect()
}

fn new_table() -> Table {
    let mut table = Table::new();
    table
        .load_preset(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled);
    table
}

/// Rows as a table, at most `--limit` (else [`TABLE_ROWS`]) of them, and how many were left out.
fn table(rows: &[Value], printing: &Printing<'_>) -> String {
    if rows.is_empty() {
        return "(no rows)\n".to_owned();
    }
    let shown = printing.limit.unwrap_or(TABLE_ROWS).min(rows.len());
    let layout = layout(rows);
    let cells: Vec<Vec<String>> = rows[..shown]
        .iter()
        .map(|row| {
            layout
                .iter()
                .map(|(_, key)| match (key, row) {
                    (Some(key), Value::Object(fields)) => cell(fields.get(key)),
                    (None, Value::Object(_)) | (Some(_), _) => String::new(),
                    (None, other) => cell(Some(other)),
                })
                .collect()
        })
        .collect();
    // On a terminal, the columns that fit from the left (at least one); the rest are counted.
    let mut fitting = layout.len();
    if let Some(width) = printing.width {
        let mut used = 1;
        fitting = 0;
        for (index, (title, _)) in layout.iter().enumerate() {
            let column = cells
                .iter()
                .map(|row| row[index].chars().count())
                .chain([title.chars().count()])
                .max()
                .unwrap_or(0)
                + 3;
            if fitting > 0 && used + column > usize::from(width) {
                break;
            }
            used += column;
            fitting += 1;
        }
    }
    let mut table = new_table();
    table.set_header(layout[..fitting].iter().map(|(title, _)| title.as_str()));
    for row in &cells {
        table.add_row(&row[..fitting]);
    }
    let mut text = format!("{table}\n");
    let hidden = rows.len() - shown;
    if hidden > 0 {
        text.push_str(&format!(
            "{shown} of {} rows shown; {hidden} more not shown (`--limit N` shows more, `--output json` prints all)\n",
            rows.len()
        ));
    }
    let narrow = layout.len() - fitting;
    if narrow > 0 {
        let names: Vec<&str> = layout[fitting..]
            .iter()
            .map(|(title, _)| title.as_str())
            .collect();
        text.push_str(&format!(
            "{narrow} more column(s) do not fit the terminal: {} (`--output json` prints them)\n",
            names.join(", ")
        ));
    }
    text
}

/// An object as a two-column table of its fields.
fn fields_table(fields: &serde_json::Map<String, Value>) -> String {
    let mut table = new_table();
    table.set_header(["field", "value"]);
    for (key, value) in fields {
        table.add_row([key.clone(), cell(Some(value))]);
    }
    format!("{table}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn printing(format: OutputFormat) -> Printing<'static> {
        Printing {
            format,
            pretty: false,
            raw: false,
            limit: None,
            component: None,
            width: None,
            color: false,
        }
    }

    fn print(value: &Value, printing: &Printing<'_>) -> String {
        let mut out = Vec::new();
        write_value(&mut out, value, printing).expect("write");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn json_stays_as_it_was_and_ndjson_prints_a_row_per_line() {
        let rows = json!([{"a": 1}, {"a": 2}]);
        assert_eq!(
            print(&rows, &printing(OutputFormat::Json)),
            "[{\"a\":1},{\"a\":2}]\n"
        );
        let pretty = Printing {
            pretty: true,
            ..printing(OutputFormat::Json)
        };
        assert_eq!(print(&json!({"a": 1}), &pretty), "{\n  \"a\": 1\n}\n");
        assert_eq!(
            print(&rows, &printing(OutputFormat::Ndjson)),
            "{\"a\":1}\n{\"a\":2}\n"
        );
        let raw = Printing {
            raw: true,
            ..printing(OutputFormat::Json)
        };
        assert_eq!(print(&json!("one\ntwo"), &raw), "one\ntwo\n");
        assert_eq!(
            print(&json!("quoted"), &printing(OutputFormat::Json)),
            "\"quoted\"\n"
        );
    }

    #[test]
    fn yaml_quotes_what_would_read_back_as_another_type_and_keeps_the_key_order() {
        let value = json!({"name": "true", "n": 1.5, "tags": ["a", "b"], "none": null});
        assert_eq!(
            print(&value, &printing(OutputFormat::Yaml)),
            "---\nname: \"true\"\nn: 1.5\ntags:\n  - a\n  - b\nnone: null\n"
        );
    }

    #[test]
    fn without_a_component_a_table_cuts_long_values_and_counts_hidden_rows() {
        let rows: Vec<Value> = (1..=3)
            .map(|n| json!({"name": format!("app-{n}"), "note": "x".repeat(60)}))
            .collect();
        let limited = Printing {
            limit: Some(2),
            ..printing(OutputFormat::Table)
        };
        let text = print(&Value::Array(rows), &limited);
        let cut = format!("{}…", "x".repeat(CELL_WIDTH - 1));
        assert!(text.contains(&format!("│ app-1 ┆ {cut} │")), "{text}");
        assert!(!text.contains("app-3"), "{text}");
        assert!(
            text.ends_with(
                "2 of 3 rows shown; 1 more not shown (`--limit N` shows more, `--output json` prints all)\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn without_columns_a_table_has_the_rows_keys_in_their_order_and_scalars_get_a_value_column() {
        let text = print(
            &json!([{"b": 1, "a": "x"}, {"c": true}, 7]),
            &printing(OutputFormat::Table),
        );
        let header = text.lines().nth(1).expect("header");
        assert_eq!(header, "│ b ┆ a ┆ c    ┆ value │");
        assert!(text.contains("│   ┆   ┆      ┆ 7     │"), "{text}");
        assert_eq!(
            print(&json!([]), &printing(OutputFormat::Table)),
            "(no rows)\n"
        );
        let fields = print(&json!({"id": 3}), &printing(OutputFormat::Table));
        assert!(fields.contains("│ id    ┆ 3     │"), "{fields}");
    }

    #[test]
    fn on_a_narrow_terminal_the_columns_that_do_not_fit_are_named() {
        let rows = json!([{"a": "x".repeat(30), "b": "y".repeat(30), "c": "z".repeat(30)}]);
        let narrow = Printing {
            width: Some(70),
            ..printing(OutputFormat::Table)
        };
        let text = print(&rows, &narrow);
        let table_lines: Vec<&str> = text
            .lines()
            .filter(|line| !line.is_char_boundary(1))
            .collect();
        assert_eq!(table_lines.len(), 5, "{text}");
        assert!(
            table_lines.iter().all(|line| line.chars().count() <= 70),
            "{text}"
        );
        assert!(text.contains(&"y".repeat(30)), "{text}");
        assert!(
            text.ends_with(
                "1 more column(s) do not fit the terminal: c (`--output json` prints them)\n"
            ),
            "{text}"
        );
        let wide = print(&rows, &printing(OutputFormat::Table));
        assert!(wide.contains(&"z".repeat(30)), "{wide}");
    }
}
