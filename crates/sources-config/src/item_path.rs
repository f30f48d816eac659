//! How the dashboard reads an item through a component's dot-paths (a column's `value`, a list's
//! `item`, a tree's `label`, an inspector field's `path`, an event log's `key` and `text`):
//! `a.b`, `items.0.status` or `items[0].status`. A missing key, an index past the end or a step
//! into a scalar reads nothing, which shows as an empty cell; a list of paths shows the first that
//! gives a non-empty text. The text of a value is the dashboard's: strings as they are, whole
//! numbers without a fraction, and objects and arrays in the dashboard's `map[k:v]` / `[a b]`
//! notation. Every front end that shows an item as its component does reads it here. (`root`,
//! `next_path` and the other paths of `data.sources` are strict: [`crate::json_path`].)

use serde_json::Value;

/// The steps of a dot-path: `a.b[0].c` and `a.b.0.c` are both `a`, `b`, `0`, `c`.
pub fn steps(path: &str) -> impl Iterator<Item = &str> {
    path.split(['.', '[', ']']).filter(|step| !step.is_empty())
}

/// The value `path` leads to in `value`, or `None` when it leads nowhere (or to `null`). An
/// empty path is the value itself.
pub fn get<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    let mut current = value;
    for step in steps(path) {
        current = match current {
            Value::Object(fields) => fields.get(step)?,
            Value::Array(items) => items.get(step.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    (!current.is_null()).then_some(current)
}

/// The text `path` shows for `value`: empty when it leads nowhere.
pub fn text(value: &Value, path: &str) -> String {
    get(value, path).map(display).unwrap_or_default()
}

/// The text of the first of `paths` that shows a non-empty one for `value`, else empty.
pub fn first_text<'p>(value: &Value, paths: impl IntoIterator<Item = &'p str>) -> String {
    paths
        .into_iter()
        .map(|path| text(value, path))
        .find(|text| !text.is_empty())
        .unwrap_or_default()
}

/// The first of `paths` that leads somewhere in `value` (`null` counts as nowhere).
pub fn first_value<'v, 'p>(
    value: &'v Value,
    paths: impl IntoIterator<Item = &'p str>,
) -> Option<&'v Value> {
    paths.into_iter().find_map(|path| get(value, path))
}

/// The items a list-shaped component walks: the elements of an array, nothing for `null`, else
/// the value alone.
pub fn items(value: &Value) -> &[Value] {
    match value {
        Value::Array(items) => items,
        Value::Null => &[],
        other => std::slice::from_ref(other),
    }
}

/// A value as the dashboard shows it in a cell: a string as it is, `null` empty, `true`/`false`,
/// a whole number without a fraction, other numbers in the shortest decimal that reads back the
/// same, objects and arrays in `map[k:v]` / `[a b]` notation.
pub fn display(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        Value::Bool(flag) => flag.to_string(),
        Value::Number(number) => match (number.as_i64(), number.as_u64(), number.as_f64()) {
            (Some(whole), _, _) => whole.to_string(),
            (_, Some(whole), _) => whole.to_string(),
            (_, _, Some(float)) => float.to_string(),
            _ => number.to_string(),
        },
        Value::Array(_) | Value::Object(_) => {
            let mut out = String::new();
            nested(value, &mut out);
            out
        }
    }
}

/// A value inside an object or array: keys sorted, `<nil>` for `null`, numbers in the shortest
/// form with an exponent below 1e-4 and from 1e6 on (`1e+06`).
fn nested(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("<nil>"),
        Value::String(text) => out.push_str(text),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Number(number) => out.push_str(&short_float(number.as_f64().unwrap_or(0.0))),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(' ');
                }
                nested(item, out);
            }
            out.push(']');
        }
        Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            out.push_str("map[");
            for (index, key) in keys.into_iter().enumerate() {
                if index > 0 {
                    out.push(' ');
                }
                out.push_str(key);
                out.push(':');
                nested(&fields[key.as_str()], out);
            }
            out.push(']');
        }
    }
}

/// The shortest text of `number` that reads back the same, with a two-digit signed exponent
/// when its decimal exponent is below -4 or 6 and above.
fn short_float(number: f64) -> String {
    let scientific = format!("{number:e}");
    let Some((mantissa, exponent)) = scientific.split_once('e') else {
        return scientific;
    };
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..6).contains(&exponent) {
        return number.to_string();
    }
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dots_brackets_and_indexes_lead_to_the_same_value() {
        let pod =
            json!({"metadata": {"name": "web"}, "items": [{"status": "ok"}], "status": {"200": 5}});
        assert_eq!(text(&pod, "metadata.name"), "web");
        assert_eq!(text(&pod, "items.0.status"), "ok");
        assert_eq!(text(&pod, "items[0].status"), "ok");
        assert_eq!(text(&pod, "status.200"), "5");
        assert_eq!(get(&pod, ""), Some(&pod));
    }

    #[test]
    fn a_path_that_leads_nowhere_reads_nothing() {
        let row = json!({"a": {"b": null}, "list": [1], "n": 3});
        for path in [
            "missing", "a.b", "a.b.c", "list.1", "list.x", "n.deeper", "list[-1]",
        ] {
            assert_eq!(get(&row, path), None, "{path}");
            assert_eq!(text(&row, path), "", "{path}");
        }
    }

    #[test]
    fn a_list_of_paths_shows_the_first_non_empty() {
        let row = json!({"waiting": "", "phase": "Running"});
        assert_eq!(first_text(&row, ["missing", "waiting", "phase"]), "Running");
        assert_eq!(first_text(&row, ["missing"]), "");
        assert_eq!(first_value(&row, ["missing", "waiting"]), Some(&json!("")));
    }

    #[test]
    fn values_show_as_the_dashboard_shows_them() {
        assert_eq!(display(&json!(3.0)), "3");
        assert_eq!(display(&json!(2.5)), "2.5");
        assert_eq!(display(&json!(1_000_000)), "1000000");
        assert_eq!(display(&json!(true)), "true");
        assert_eq!(display(&json!(null)), "");
        assert_eq!(
            display(&json!({"b": [1, 2.5, null], "a": {"x": "y"}, "c": 1_000_000, "d": 0.00001})),
            "map[a:map[x:y] b:[1 2.5 <nil>] c:1e+06 d:1e-05]"
        );
    }

    #[test]
    fn items_are_the_elements_of_an_array_or_the_value_alone() {
        assert_eq!(items(&json!([1, 2])).len(), 2);
        assert_eq!(items(&json!({"a": 1})), [json!({"a": 1})]);
        assert!(items(&json!(null)).is_empty());
    }
}
