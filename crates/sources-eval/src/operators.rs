//! The row operators as `try` runs them: `sources_expr::operators` (the one implementation, which
//! lint also runs over static data) over [`Expr`], a failure named with its expression's field
//! and text and the row it failed on.

use serde_json::Value;
use sources_expr::operators::{self as rows, RowError, RowExpression};

pub use sources_expr::operators::{Params, compare};

use crate::error::Cause;
use crate::expr::Expr;

impl RowExpression for Expr {
    type Error = Cause;

    fn eval(&self, row: &Value, params: &Params) -> Result<Value, Cause> {
        Expr::eval(self, row, params)
    }

    fn eval_bool(&self, row: &Value, params: &Params) -> Result<bool, Cause> {
        Expr::eval_bool(self, row, params)
    }
}

/// The cause of an operator's failure, naming the row it failed on.
fn with_row(failure: RowError<Cause>) -> Cause {
    match (failure.row, failure.error) {
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
    rows::filter(value, condition, params).map_err(with_row)
}

/// Replaces each row by the keys of `keep`, in the order written. A row that is not a map is
/// dropped (a single value that is not one becomes `null`).
pub fn project(value: Value, keep: &[(String, Expr)], params: &Params) -> Result<Value, Cause> {
    rows::project(value, keep, params).map_err(with_row)
}

/// Adds the keys of `compute` to each row (a computed key replaces an existing one). Every
/// expression sees the row as it came in. A row that is not a map passes through unchanged.
pub fn derive(value: Value, compute: &[(String, Expr)], params: &Params) -> Result<Value, Cause> {
    rows::derive(value, compute, params).map_err(with_row)
}

/// Sorts rows by the key `by` computes ([`compare`]), ascending or descending; equal keys keep
/// their order.
pub fn sort(value: Value, by: &Expr, descending: bool, params: &Params) -> Result<Value, Cause> {
    rows::sort(value, by, descending, params).map_err(with_row)
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
