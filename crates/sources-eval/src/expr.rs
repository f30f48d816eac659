//! CEL expressions over rows: an item's fields are top-level names and `params.NAME` holds the
//! entry's parameters (strings).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use cel::objects::{Key, Map};
use cel::{Context, Program};
use serde_json::Value;

use crate::error::Cause;

/// A compiled expression and where it was written, for error messages.
pub struct Expr {
    program: Program,
    field: String,
    text: String,
}

impl std::fmt::Debug for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Expr")
            .field("field", &self.field)
            .field("text", &self.text)
            .finish()
    }
}

impl Expr {
    /// Compiles `text`, written in `field` (`where`, `keep.name`, `by`, …).
    pub fn compile(field: impl Into<String>, text: &str) -> Result<Expr, Cause> {
        let field = field.into();
        // The one guarded compile: too-deep or too-long expressions are refused, and larger ones
        // compile on a thread with a stack big enough for the recursive parser.
        match sources_check::compile_program(text) {
            Ok(program) => Ok(Expr {
                program,
                field,
                text: text.to_owned(),
            }),
            Err(errors) => Err(Cause::Expression {
                field,
                expression: text.to_owned(),
                detail: errors
                    .first()
                    .map(|error| error.message.clone())
                    .unwrap_or_else(|| "the expression does not compile".to_owned()),
            }),
        }
    }

    /// The expression as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Evaluates over `item` (its fields become top-level names) with `params`.
    pub fn eval(&self, item: &Value, params: &BTreeMap<String, Value>) -> Result<Value, Cause> {
        let mut context = Context::default();
        if let Value::Object(fields) = item {
            for (name, value) in fields {
                context.add_variable_from_value(name.as_str(), to_cel(value));
            }
        }
        let params: HashMap<Key, cel::Value> = params
            .iter()
            .map(|(name, value)| (Key::String(Arc::new(name.clone())), to_cel(value)))
            .collect();
        context.add_variable_from_value(
            "params",
            cel::Value::Map(Map {
                map: Arc::new(params),
            }),
        );
        let result = self
            .program
            .execute(&context)
            .map_err(|error| self.error(error.to_string()))?;
        result
            .json()
            .map_err(|_| self.error(format!("the result ({result:?}) has no JSON form")))
    }

    /// Evaluates a condition: the result must be a boolean.
    pub fn eval_bool(&self, item: &Value, params: &BTreeMap<String, Value>) -> Result<bool, Cause> {
        match self.eval(item, params)? {
            Value::Bool(flag) => Ok(flag),
            other => Err(self.error(format!(
                "expected a boolean, got {} `{other}`",
                crate::path::kind(&other)
            ))),
        }
    }

    /// An error about this expression.
    pub fn error(&self, detail: String) -> Cause {
        Cause::Expression {
            field: self.field.clone(),
            expression: self.text.clone(),
            detail,
        }
    }
}

/// Converts JSON to a CEL value; integers become `int` when they fit, so `rev > 3` works.
pub fn to_cel(value: &Value) -> cel::Value {
    match value {
        Value::Null => cel::Value::Null,
        Value::Bool(flag) => cel::Value::Bool(*flag),
        Value::Number(number) => {
            if let Some(int) = number.as_i64() {
                cel::Value::Int(int)
            } else if let Some(uint) = number.as_u64() {
                cel::Value::UInt(uint)
            } else {
                cel::Value::Float(number.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(text) => cel::Value::String(Arc::new(text.clone())),
        Value::Array(items) => cel::Value::List(Arc::new(items.iter().map(to_cel).collect())),
        Value::Object(fields) => cel::Value::Map(Map {
            map: Arc::new(
                fields
                    .iter()
                    .map(|(name, value)| (Key::String(Arc::new(name.clone())), to_cel(value)))
                    .collect(),
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_are_top_level_and_params_are_strings() {
        let expr = Expr::compile("where", "health == 'Degraded' && region == params.region")
            .expect("compiles");
        let params = BTreeMap::from([("region".to_owned(), json!("eu-west"))]);
        let row = json!({"health": "Degraded", "region": "eu-west"});
        assert!(expr.eval_bool(&row, &params).expect("evaluates"));
        let row = json!({"health": "Healthy", "region": "eu-west"});
        assert!(!expr.eval_bool(&row, &params).expect("evaluates"));
    }

    #[test]
    fn numbers_nested_values_and_results_come_back_as_json() {
        let expr =
            Expr::compile("compute.label", "name + ':' + string(rev + 1)").expect("compiles");
        let row = json!({"name": "a", "rev": 41});
        assert_eq!(
            expr.eval(&row, &BTreeMap::new()).expect("ok"),
            json!("a:42")
        );
        let nested = Expr::compile("keep.level", "log.level").expect("compiles");
        let row = json!({"log": {"level": "WARN"}});
        assert_eq!(
            nested.eval(&row, &BTreeMap::new()).expect("ok"),
            json!("WARN")
        );
        let list = Expr::compile("keep.ids", "[rev, rev * 2]").expect("compiles");
        assert_eq!(
            list.eval(&json!({"rev": 3}), &BTreeMap::new()).expect("ok"),
            json!([3, 6])
        );
    }

    #[test]
    fn errors_name_the_field_and_the_expression() {
        let expr = Expr::compile("where", "missing_field > 1").expect("compiles");
        let error = expr
            .eval_bool(&json!({"rev": 1}), &BTreeMap::new())
            .expect_err("undeclared");
        let text = error.to_string();
        assert!(text.starts_with("where `missing_field > 1`: "), "{text}");
        let not_bool = Expr::compile("where", "rev").expect("compiles");
        assert_eq!(
            not_bool
                .eval_bool(&json!({"rev": 1}), &BTreeMap::new())
                .expect_err("not bool")
                .to_string(),
            "where `rev`: expected a boolean, got a number `1`"
        );
        let broken = Expr::compile("by", "rev +").expect_err("does not compile");
        assert!(broken.to_string().starts_with("by `rev +`: "), "{broken}");
    }
}
