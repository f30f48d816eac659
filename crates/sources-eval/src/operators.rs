//! The row operators (`filter`, `project`, `derive`, `sort`) over an entry's value.
//!
//! A list is transformed row by row; any other value is treated as a single row, so a `pipe` on an
//! object-shaped source (a detail document) works the same way and keeps the shape.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::error::Cause;
use crate::expr::Expr;

/// Parameters as operators' expressions see them.
pub type Params = BTreeMap<String, Value>;

fn with_row(index: Option<usize>, cause: Cause) -> Cause {
    match (index, cause) {
        (
            Some(index),
            Cause::Expression {
                field,
                expression,
                detail,
            },
        ) => Cause::Expression {
            field,
            expression,
            detail: format!("{detail} (row {index})"),
        },
        (_, cause) => cause,
    }
}

/// Keeps the rows for which `condition` is true (a single value becomes `null` when dropped).
pub fn filter(value: Value, condition: &Expr, params: &Params) -> Result<Value, Cause> {
    match value {
        Value::Array(rows) => {
            let mut kept = Vec::with_capacity(rows.len());
            for (index, row) in rows.into_iter().enumerate() {
                if condition
                    .eval_bool(&row, params)
                    .map_err(|cause| with_row(Some(index), cause))?
                {
                    kept.push(row);
                }
            }
            Ok(Value::Array(kept))
        }
        single => Ok(if condition.eval_bool(&single, params)? {
            single
        } else {
            Value::Null
        }),
    }
}

/// Replaces each row by the keys of `keep`, in the order written. A row that is not a map is
/// dropped (a single value that is not one becomes `null`).
pub fn project(value: Value, keep: &[(String, Expr)], params: &Params) -> Result<Value, Cause> {
    let value = match value {
        Value::Array(rows) => Value::Array(rows.into_iter().filter(Value::is_object).collect()),
        single if !single.is_object() => return Ok(Value::Null),
        single => single,
    };
    map_rows(value, |row, index| {
        let mut out = Map::new();
        for (key, expr) in keep {
            let computed = expr
                .eval(&row, params)
                .map_err(|cause| with_row(index, cause))?;
            out.insert(key.clone(), computed);
        }
        Ok(Value::Object(out))
    })
}

/// Adds the keys of `compute` to each row (a computed key replaces an existing one). Every
/// expression sees the row as it came in. A row that is not a map passes through unchanged.
pub fn derive(value: Value, compute: &[(String, Expr)], params: &Params) -> Result<Value, Cause> {
    map_rows(value, |row, index| {
        let Value::Object(fields) = &row else {
            return Ok(row);
        };
        let mut out = fields.clone();
        for (key, expr) in compute {
            let computed = expr
                .eval(&row, params)
                .map_err(|cause| with_row(index, cause))?;
            out.insert(key.clone(), computed);
        }
        Ok(Value::Object(out))
    })
}

/// Sorts rows by the key `by` computes ([`compare`]), ascending or descending; equal keys keep
/// their order.
pub fn sort(value: Value, by: &Expr, descending: bool, params: &Params) -> Result<Value, Cause> {
    let Value::Array(rows) = value else {
        return Ok(value);
    };
    let mut keyed = Vec::with_capacity(rows.len());
    for (index, row) in rows.into_iter().enumerate() {
        let key = by
            .eval(&row, params)
            .map_err(|cause| with_row(Some(index), cause))?;
        keyed.push((key, row));
    }
    keyed.sort_by(|a, b| {
        let order = compare(&a.0, &b.0);
        if descending { order.reverse() } else { order }
    });
    Ok(Value::Array(
        keyed.into_iter().map(|(_, row)| row).collect(),
    ))
}

fn map_rows(
    value: Value,
    mut apply: impl FnMut(Value, Option<usize>) -> Result<Value, Cause>,
) -> Result<Value, Cause> {
    match value {
        Value::Array(rows) => rows
            .into_iter()
            .enumerate()
            .map(|(index, row)| apply(row, Some(index)))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        single => apply(single, None),
    }
}

/// The sort order of the format's origin: a missing key (`null`) first, numbers numerically,
/// strings lexically, `false` before `true`, and anything else (mixed kinds, lists, maps) by its
/// string form.
pub fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => x
                .as_f64()
                .unwrap_or(f64::NAN)
                .total_cmp(&y.as_f64().unwrap_or(f64::NAN)),
        },
        (Value::String(x), Value::String(y)) => x.cmp(y),
        _ => string_form(a).cmp(&string_form(b)),
    }
}

/// A value as text: a string as itself, anything else as its JSON.
fn string_form(value: &Value) -> std::borrow::Cow<'_, str> {
    match value {
        Value::String(text) => std::borrow::Cow::Borrowed(text),
        other => std::borrow::Cow::Owned(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn expr(field: &str, text: &str) -> Expr {
        Expr::compile(sources_expr::Language::Cel, field, text).expect("compiles")
    }

    fn apps() -> Value {
        json!([
            {"id": "a", "health": "Degraded", "rev": 3},
            {"id": "b", "health": "Healthy", "rev": 10},
            {"id": "c", "health": "Degraded", "rev": 7},
        ])
    }

    #[test]
    fn filter_keeps_matching_rows_and_uses_params() {
        let params = Params::from([("health".to_owned(), json!("Degraded"))]);
        let out = filter(apps(), &expr("where", "health == params.health"), &params).expect("ok");
        assert_eq!(
            out,
            json!([{"id": "a", "health": "Degraded", "rev": 3}, {"id": "c", "health": "Degraded", "rev": 7}])
        );
        let single = filter(json!({"rev": 1}), &expr("where", "rev > 5"), &params).expect("ok");
        assert_eq!(single, Value::Null);
    }

    #[test]
    fn project_keeps_declared_keys_in_order() {
        let keep = vec![
            ("app".to_owned(), expr("keep.app", "id")),
            ("bad".to_owned(), expr("keep.bad", "health != 'Healthy'")),
        ];
        let out = project(apps(), &keep, &Params::new()).expect("ok");
        assert_eq!(out[1], json!({"app": "b", "bad": false}));
        assert_eq!(
            serde_json::to_string(&out[0]).expect("json"),
            r#"{"app":"a","bad":true}"#
        );
    }

    #[test]
    fn derive_adds_keys_and_reports_the_row_that_failed() {
        let compute = vec![("next".to_owned(), expr("compute.next", "rev + 1"))];
        let out = derive(apps(), &compute, &Params::new()).expect("ok");
        assert_eq!(
            out[2],
            json!({"id": "c", "health": "Degraded", "rev": 7, "next": 8})
        );
        let rows = json!([{"rev": 1}, {"rev": "no number"}]);
        let error = derive(rows, &compute, &Params::new()).expect_err("row 1 has no number");
        let text = error.to_string();
        assert!(text.starts_with("compute.next `rev + 1`: "), "{text}");
        assert!(text.ends_with("(row 1)"), "{text}");
    }

    #[test]
    fn sort_is_stable_in_both_directions() {
        let by = expr("by", "health");
        let asc = sort(apps(), &by, false, &Params::new()).expect("ok");
        let ids: Vec<&str> = asc
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|r| r["id"].as_str())
            .collect();
        assert_eq!(ids, ["a", "c", "b"]);
        let desc = sort(apps(), &expr("by", "rev"), true, &Params::new()).expect("ok");
        let ids: Vec<&str> = desc
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|r| r["id"].as_str())
            .collect();
        assert_eq!(ids, ["b", "c", "a"]);
    }

    #[test]
    fn compare_follows_the_origins_sort_order() {
        assert_eq!(compare(&json!(2), &json!(10)), Ordering::Less);
        assert_eq!(compare(&json!(2.5), &json!(2)), Ordering::Greater);
        assert_eq!(compare(&json!(null), &json!("a")), Ordering::Less);
        assert_eq!(compare(&json!(false), &json!(true)), Ordering::Less);
        assert_eq!(compare(&json!("b"), &json!("a")), Ordering::Greater);
        // Mixed kinds by their string form: "10" < "9" as text.
        assert_eq!(compare(&json!(10), &json!("9")), Ordering::Less);
        assert_eq!(compare(&json!(true), &json!("abc")), Ordering::Greater);
    }

    #[test]
    fn project_drops_and_derive_keeps_a_row_that_is_not_a_map() {
        let rows = json!([{"rev": 1}, "a line", 3]);
        let keep = vec![("rev".to_owned(), expr("keep.rev", "rev"))];
        assert_eq!(
            project(rows.clone(), &keep, &Params::new()).expect("ok"),
            json!([{"rev": 1}])
        );
        let compute = vec![("next".to_owned(), expr("compute.next", "rev + 1"))];
        assert_eq!(
            derive(rows, &compute, &Params::new()).expect("ok"),
            json!([{"rev": 1, "next": 2}, "a line", 3])
        );
    }
}
