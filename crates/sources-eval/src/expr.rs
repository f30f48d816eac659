//! Expressions over rows, for the operators: compiled and evaluated by `sources_expr` (an item's
//! fields are top-level names, the whole item is `item`, `params.NAME` holds the operator's own
//! parameters, a field the item does not have is `null`), with what `try` reports besides: the
//! field and text of a failing expression, and the fields its items lacked.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, PoisonError};

use serde_json::Value;
use sources_expr::{Compiled, Language};

use crate::error::Cause;

/// A compiled expression and where it was written, for error messages.
pub struct Expr {
    compiled: Compiled,
    field: String,
    /// How often each path was missing, over how many items (see [`Expr::missing_fields`]).
    misses: Mutex<Misses>,
}

/// What the evaluations of one expression found missing.
#[derive(Debug, Default)]
struct Misses {
    /// Items evaluated.
    items: usize,
    /// Per path of [`Expr::paths`], the items that did not have it.
    missing: Vec<usize>,
    /// The keys of the items that lacked a path (at most [`MAX_KEYS_KEPT`]).
    keys: BTreeSet<String>,
}

/// How many keys of the items [`Misses`] keeps, for a message.
const MAX_KEYS_KEPT: usize = 64;

/// A field an expression read that some items did not have (it read as null there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingField {
    /// The dot-path as written (`status.phase`).
    pub path: String,
    /// The items that did not have it.
    pub missing: usize,
    /// The items evaluated.
    pub items: usize,
    /// Keys the items that lacked it had, sorted (at most 64).
    pub keys: Vec<String>,
}

impl std::fmt::Debug for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Expr")
            .field("field", &self.field)
            .field("text", &self.compiled.text())
            .finish()
    }
}

impl Expr {
    /// Compiles `text`, written in `field` (`where`, `keep.name`, `by`, …), as `language`.
    pub fn compile(
        language: Language,
        field: impl Into<String>,
        text: &str,
    ) -> Result<Expr, Cause> {
        let field = field.into();
        // The one guarded compile: too-deep or too-long expressions are refused, and so is a call
        // of a function the language lacks, which lint reports too.
        match sources_expr::compile_to_run(language, text) {
            Ok(compiled) => Ok(Expr {
                misses: Mutex::new(Misses::default()),
                compiled,
                field,
            }),
            Err(error) => Err(Cause::Expression {
                field,
                expression: text.to_owned(),
                detail: error.message,
            }),
        }
    }

    /// The expression as written.
    pub fn text(&self) -> &str {
        self.compiled.text()
    }

    /// The field (`where`, `keep.name`) it was written in.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The fields read so far that some items did not have (an absent key, not a `null` value),
    /// each once.
    pub fn missing_fields(&self) -> Vec<MissingField> {
        let misses = self.misses.lock().unwrap_or_else(PoisonError::into_inner);
        self.compiled
            .row_paths()
            .iter()
            .zip(&misses.missing)
            .filter(|(_, missing)| **missing > 0)
            .map(|(path, missing)| MissingField {
                path: path.join("."),
                missing: *missing,
                items: misses.items,
                keys: misses.keys.iter().cloned().collect(),
            })
            .collect()
    }

    /// Evaluates over `item` (its fields become top-level names, a missing one `null`; the whole
    /// item is `item` unless it has a field of that name) with `params`.
    pub fn eval(&self, item: &Value, params: &BTreeMap<String, Value>) -> Result<Value, Cause> {
        if let Value::Object(fields) = item {
            self.count(fields);
        } else {
            self.count(&serde_json::Map::new());
        }
        self.compiled
            .evaluate(item, params)
            .map_err(|error| self.error(error.to_string()))
    }

    /// Evaluates a predicate, true or false by the language's rules (see
    /// `sources_expr::Language::truthy`).
    pub fn eval_bool(&self, item: &Value, params: &BTreeMap<String, Value>) -> Result<bool, Cause> {
        let value = self.eval(item, params)?;
        self.compiled
            .language()
            .truthy(&value)
            .map_err(|error| self.error(error.to_string()))
    }

    /// Counts one item evaluated, and each path it lacks.
    fn count(&self, fields: &serde_json::Map<String, Value>) {
        let mut misses = self.misses.lock().unwrap_or_else(PoisonError::into_inner);
        misses.items += 1;
        let paths = self.compiled.row_paths();
        misses.missing.resize(paths.len(), 0);
        let mut lacked = false;
        for (at, path) in paths.iter().enumerate() {
            if absent(fields, path) {
                misses.missing[at] += 1;
                lacked = true;
            }
        }
        if lacked {
            for key in fields.keys() {
                if misses.keys.len() >= MAX_KEYS_KEPT {
                    break;
                }
                misses.keys.insert(key.clone());
            }
        }
    }

    /// An error about this expression.
    pub fn error(&self, detail: String) -> Cause {
        Cause::Expression {
            field: self.field.clone(),
            expression: self.compiled.text().to_owned(),
            detail,
        }
    }
}

/// Whether a key on `path` is absent from `fields` (a `null` value is there; under a `null`
/// parent the rest of the path is absent).
fn absent(fields: &serde_json::Map<String, Value>, path: &[String]) -> bool {
    let Some((first, rest)) = path.split_first() else {
        return false;
    };
    match (fields.get(first), rest.is_empty()) {
        (None, _) => true,
        (Some(_), true) => false,
        (Some(Value::Object(inner)), false) => absent(inner, rest),
        (Some(Value::Null), false) => true,
        // Selecting into a scalar or a list is the expression's own error, not a missing key.
        (Some(_), false) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_are_top_level_and_params_are_strings() {
        let expr = Expr::compile(
            Language::Cel,
            "where",
            "health == 'Degraded' && region == params.region",
        )
        .expect("compiles");
        let params = BTreeMap::from([("region".to_owned(), json!("eu-west"))]);
        let row = json!({"health": "Degraded", "region": "eu-west"});
        assert!(expr.eval_bool(&row, &params).expect("evaluates"));
        let row = json!({"health": "Healthy", "region": "eu-west"});
        assert!(!expr.eval_bool(&row, &params).expect("evaluates"));
    }

    #[test]
    fn numbers_nested_values_and_results_come_back_as_json() {
        let expr = Expr::compile(
            Language::Cel,
            "compute.label",
            "name + ':' + string(rev + 1)",
        )
        .expect("compiles");
        let row = json!({"name": "a", "rev": 41});
        assert_eq!(
            expr.eval(&row, &BTreeMap::new()).expect("ok"),
            json!("a:42")
        );
        let nested = Expr::compile(Language::Cel, "keep.level", "log.level").expect("compiles");
        let row = json!({"log": {"level": "WARN"}});
        assert_eq!(
            nested.eval(&row, &BTreeMap::new()).expect("ok"),
            json!("WARN")
        );
        let list = Expr::compile(Language::Cel, "keep.ids", "[rev, rev * 2]").expect("compiles");
        assert_eq!(
            list.eval(&json!({"rev": 3}), &BTreeMap::new()).expect("ok"),
            json!([3, 6])
        );
    }

    #[test]
    fn a_missing_field_is_null_and_a_predicate_follows_the_origins_truth() {
        let none = BTreeMap::new();
        let missing =
            Expr::compile(Language::Cel, "where", "status.phase == 'Running'").expect("compiles");
        assert!(!missing.eval_bool(&json!({"rev": 1}), &none).expect("null"));
        assert!(
            missing
                .eval_bool(&json!({"status": {"phase": "Running"}}), &none)
                .expect("present")
        );
        let null = Expr::compile(Language::Cel, "keep.x", "missing_field").expect("compiles");
        assert_eq!(
            null.eval(&json!({"rev": 1}), &none).expect("null"),
            json!(null)
        );
        let truth = Expr::compile(Language::Cel, "where", "value").expect("compiles");
        let truths: Vec<bool> = [
            json!(1),
            json!(0),
            json!("x"),
            json!(""),
            json!(null),
            json!([1]),
        ]
        .into_iter()
        .map(|value| {
            truth
                .eval_bool(&json!({"value": value}), &none)
                .expect("truth")
        })
        .collect();
        assert_eq!(truths, [true, false, true, false, false, false]);
        let line =
            Expr::compile(Language::Cel, "where", "item.contains('ERROR')").expect("compiles");
        assert!(
            line.eval_bool(&json!("an ERROR here"), &none)
                .expect("item")
        );
        let local = Expr::compile(Language::Cel, "where", "rows.all(r, r.ok)").expect("compiles");
        assert!(
            local
                .eval_bool(&json!({"rows": [{"ok": true}]}), &none)
                .expect("local")
        );
    }

    #[test]
    fn absent_keys_are_counted_and_null_values_are_not() {
        let none = BTreeMap::new();
        let expr = Expr::compile(Language::Cel, "where", "status.phase == 'x' || note == 'y'")
            .expect("compiles");
        for row in [
            json!({"status": {"phase": "x"}, "note": null}),
            json!({"status": null, "note": "y"}),
            json!({"name": "c"}),
        ] {
            expr.eval_bool(&row, &none).expect("evaluates");
        }
        let found: Vec<(String, usize, usize)> = expr
            .missing_fields()
            .into_iter()
            .map(|missing| (missing.path, missing.missing, missing.items))
            .collect();
        assert_eq!(
            found,
            [("note".to_owned(), 1, 3), ("status.phase".to_owned(), 2, 3)]
        );
        assert_eq!(expr.missing_fields()[0].keys, ["name", "note", "status"]);
    }

    #[test]
    fn errors_name_the_field_and_the_expression() {
        let expr = Expr::compile(Language::Cel, "where", "rev.x > 1").expect("compiles");
        let error = expr
            .eval_bool(&json!({"rev": 1}), &BTreeMap::new())
            .expect_err("not a map");
        let text = error.to_string();
        assert!(text.starts_with("where `rev.x > 1`: "), "{text}");
        let broken = Expr::compile(Language::Cel, "by", "rev +").expect_err("does not compile");
        assert!(broken.to_string().starts_with("by `rev +`: "), "{broken}");
    }
}
