//! The row operators (`filter`, `project`, `derive`, `sort`) over an entry's value: the one
//! implementation that `try`'s evaluator runs and lint runs over static data. Pure: generic over
//! the expression that reads a row ([`RowExpression`]), so each caller keeps its own errors.
//!
//! A list is transformed row by row; any other value is treated as a single row, so a `pipe` on an
//! object-shaped source (a detail document) works the same way and keeps the shape.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::{Compiled, EvalError};

/// Parameters as operators' expressions see them.
pub type Params = BTreeMap<String, Value>;

/// An expression an operator evaluates over each row.
pub trait RowExpression {
    /// Why an evaluation failed.
    type Error;

    /// The value of the expression over `row`.
    fn eval(&self, row: &Value, params: &Params) -> Result<Value, Self::Error>;

    /// Whether the expression, as a predicate, holds for `row` by its language's rules.
    fn eval_bool(&self, row: &Value, params: &Params) -> Result<bool, Self::Error>;
}

impl RowExpression for Compiled {
    type Error = EvalError;

    fn eval(&self, row: &Value, params: &Params) -> Result<Value, EvalError> {
        self.evaluate(row, params)
    }

    fn eval_bool(&self, row: &Value, params: &Params) -> Result<bool, EvalError> {
        self.language().truthy(&self.evaluate(row, params)?)
    }
}

/// An operator's failure: the error of the expression that failed, the row it failed on (`None`:
/// the value was a single row, not a list) and which of the operator's expressions it was (the
/// position in `keep` or `compute`; 0 for `where` and `by`).
#[derive(Clone, Debug, PartialEq)]
pub struct RowError<E> {
    /// What the expression's evaluation said.
    pub error: E,
    /// The index of the row in the list.
    pub row: Option<usize>,
    /// The position of the expression among the operator's.
    pub expression: usize,
}

impl<E> RowError<E> {
    fn at(row: Option<usize>, expression: usize) -> impl FnOnce(E) -> RowError<E> {
        move |error| RowError {
            error,
            row,
            expression,
        }
    }
}

/// Keeps the rows for which `condition` is true (a single value becomes `null` when dropped).
pub fn filter<X: RowExpression>(
    value: Value,
    condition: &X,
    params: &Params,
) -> Result<Value, RowError<X::Error>> {
    match value {
        Value::Array(rows) => {
            let mut kept = Vec::with_capacity(rows.len());
            for (index, row) in rows.into_iter().enumerate() {
                if condition
                    .eval_bool(&row, params)
                    .map_err(RowError::at(Some(index), 0))?
                {
                    kept.push(row);
                }
            }
            Ok(Value::Array(kept))
        }
        single => Ok(
            if condition
                .eval_bool(&single, params)
                .map_err(RowError::at(None, 0))?
            {
                single
            } else {
                Value::Null
            },
        ),
    }
}

/// Replaces each row by the keys of `keep`, in the order written. A row that is not a map is
/// dropped (a single value that is not one becomes `null`).
pub fn project<X: RowExpression>(
    value: Value,
    keep: &[(String, X)],
    params: &Params,
) -> Result<Value, RowError<X::Error>> {
    let value = match value {
        Value::Array(rows) => Value::Array(rows.into_iter().filter(Value::is_object).collect()),
        single if !single.is_object() => return Ok(Value::Null),
        single => single,
    };
    map_rows(value, |row, index| {
        let mut out = Map::new();
        for (at, (key, expr)) in keep.iter().enumerate() {
            let computed = expr.eval(&row, params).map_err(RowError::at(index, at))?;
            out.insert(key.clone(), computed);
        }
        Ok(Value::Object(out))
    })
}

/// Adds the keys of `compute` to each row (a computed key replaces an existing one). Every
/// expression sees the row as it came in. A row that is not a map passes through unchanged.
pub fn derive<X: RowExpression>(
    value: Value,
    compute: &[(String, X)],
    params: &Params,
) -> Result<Value, RowError<X::Error>> {
    map_rows(value, |row, index| {
        let Value::Object(fields) = &row else {
            return Ok(row);
        };
        let mut out = fields.clone();
        for (at, (key, expr)) in compute.iter().enumerate() {
            let computed = expr.eval(&row, params).map_err(RowError::at(index, at))?;
            out.insert(key.clone(), computed);
        }
        Ok(Value::Object(out))
    })
}

/// Sorts rows by the key `by` computes ([`compare`]), ascending or descending; equal keys keep
/// their order.
pub fn sort<X: RowExpression>(
    value: Value,
    by: &X,
    descending: bool,
    params: &Params,
) -> Result<Value, RowError<X::Error>> {
    let Value::Array(rows) = value else {
        return Ok(value);
    };
    let mut keyed = Vec::with_capacity(rows.len());
    for (index, row) in rows.into_iter().enumerate() {
        let key = by
            .eval(&row, params)
            .map_err(RowError::at(Some(index), 0))?;
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

fn map_rows<E>(
    value: Value,
    mut apply: impl FnMut(Value, Option<usize>) -> Result<Value, RowError<E>>,
) -> Result<Value, RowError<E>> {
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
    use crate::{Language, compile};
    use serde_json::json;

    fn keyed(keys: &[(&str, &str)]) -> Vec<(String, Compiled)> {
        keys.iter()
            .map(|(key, text)| {
                let compiled = compile(Language::Cel, text).expect("compiles");
                ((*key).to_owned(), compiled)
            })
            .collect()
    }

    #[test]
    fn a_failure_names_its_row_and_which_expression() {
        let keep = keyed(&[("x", "x"), ("ratio", "10 / x")]);
        let rows = json!([{"x": 1}, {"x": 0}]);
        let failure = project(rows, &keep, &Params::new()).expect_err("row 1 divides by zero");
        assert_eq!((failure.row, failure.expression), (Some(1), 1));
        let message = failure.error.to_string();
        assert!(message.contains("Division by zero"), "{message}");
        let single = derive(json!({"x": 0}), &keep, &Params::new()).expect_err("one row");
        assert_eq!((single.row, single.expression), (None, 1));
    }

    #[test]
    fn compiled_expressions_filter_and_sort_rows() {
        let rows = json!([{"n": 3}, {"n": 1}, {"n": 2}]);
        let condition = compile(Language::Cel, "n > 1").expect("compiles");
        let kept = filter(rows, &condition, &Params::new()).expect("filters");
        let by = compile(Language::Cel, "n").expect("compiles");
        let sorted = sort(kept, &by, true, &Params::new()).expect("sorts");
        assert_eq!(sorted, json!([{"n": 3}, {"n": 2}]));
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
}
