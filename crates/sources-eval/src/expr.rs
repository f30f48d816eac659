//! CEL expressions over rows, with the names and semantics the format's origin gives its
//! expressions: an item's fields are top-level names, the whole item is `item` (how a plain text
//! line is read), `params.NAME` holds the operator's own parameters, a field the item does not
//! have is `null` rather than an error (also under a missing parent: `status.phase` on an item
//! without `status`), and a predicate is true for `true`, a non-zero number or a non-empty string.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, PoisonError};

use cel::common::ast::{EntryExpr, Expr as Node};
use cel::{Context, IdedExpr, Program};
use serde_json::Value;

use crate::error::Cause;

/// A compiled expression and where it was written, for error messages.
pub struct Expr {
    program: Program,
    field: String,
    text: String,
    /// The field paths the expression reads from the item (see [`field_paths`]).
    paths: Vec<Vec<String>>,
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
                paths: field_paths(program.expression()),
                misses: Mutex::new(Misses::default()),
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

    /// The field (`where`, `keep.name`) it was written in.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The fields read so far that some items did not have (an absent key, not a `null` value),
    /// each once.
    pub fn missing_fields(&self) -> Vec<MissingField> {
        let misses = self.misses.lock().unwrap_or_else(PoisonError::into_inner);
        self.paths
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
        let mut context = Context::default();
        let empty = serde_json::Map::new();
        let fields = match item {
            Value::Object(fields) => fields,
            _ => &empty,
        };
        let filled = self.filled(fields);
        for (name, value) in filled.as_ref().unwrap_or(fields) {
            context.add_variable_from_value(name.as_str(), to_cel(value));
        }
        if !fields.contains_key("item") {
            context.add_variable_from_value("item", to_cel(item));
        }
        // `params` as lint builds it to judge the parts of an expression over parameters alone.
        context.add_variable_from_value("params", sources_check::params_variable(params));
        let result = self
            .program
            .execute(&context)
            .map_err(|error| self.error(error.to_string()))?;
        result
            .json()
            .map_err(|_| self.error(format!("the result ({result:?}) has no JSON form")))
    }

    /// Evaluates a predicate: true for `true`, a non-zero number or a non-empty string; false for
    /// anything else (`false`, `null`, zero, `""`, a list or a map).
    pub fn eval_bool(&self, item: &Value, params: &BTreeMap<String, Value>) -> Result<bool, Cause> {
        Ok(match self.eval(item, params)? {
            Value::Bool(flag) => flag,
            Value::Number(number) => number.as_f64().is_some_and(|number| number != 0.0),
            Value::String(text) => !text.is_empty(),
            _ => false,
        })
    }

    /// The item's fields with every path the expression reads and the item lacks filled in
    /// (`null` at the end, maps on the way), or `None` when nothing is missing.
    fn filled(
        &self,
        fields: &serde_json::Map<String, Value>,
    ) -> Option<serde_json::Map<String, Value>> {
        let missing: Vec<&Vec<String>> = self
            .paths
            .iter()
            .filter(|path| !present(fields, path))
            .collect();
        self.count(fields);
        if missing.is_empty() {
            return None;
        }
        let mut filled = fields.clone();
        for path in missing {
            fill(&mut filled, path);
        }
        Some(filled)
    }

    /// Counts one item evaluated, and each path it lacks.
    fn count(&self, fields: &serde_json::Map<String, Value>) {
        let mut misses = self.misses.lock().unwrap_or_else(PoisonError::into_inner);
        misses.items += 1;
        misses.missing.resize(self.paths.len(), 0);
        let mut lacked = false;
        for (at, path) in self.paths.iter().enumerate() {
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
            expression: self.text.clone(),
            detail,
        }
    }
}

/// Whether `fields` has every step of `path` (a `null` on the way counts as missing).
fn present(fields: &serde_json::Map<String, Value>, path: &[String]) -> bool {
    let Some((first, rest)) = path.split_first() else {
        return true;
    };
    match (fields.get(first), rest.is_empty()) {
        (Some(_), true) => true,
        (Some(Value::Object(inner)), false) => present(inner, rest),
        // A scalar or list on the way is the item's own value: selecting into it is the
        // expression's error to report, not a missing field.
        (Some(Value::Null) | None, _) => false,
        (Some(_), false) => true,
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

/// Fills `path` into `fields`: maps where a step is missing or `null`, `null` at the end.
fn fill(fields: &mut serde_json::Map<String, Value>, path: &[String]) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let slot = fields.entry(first.clone()).or_insert(Value::Null);
    if rest.is_empty() {
        return;
    }
    if slot.is_null() {
        *slot = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(inner) = slot {
        fill(inner, rest);
    }
}

/// The field paths an expression reads from the item: each chain of field selections that starts
/// at a name (`status.phase` gives `[status, phase]`, `name` gives `[name]`), except `params`,
/// `item` and the variables of a comprehension (`rows.all(r, r.ok)`). A selection under a
/// `has(…)` test is left to the test.
fn field_paths(root: &IdedExpr) -> Vec<Vec<String>> {
    let mut locals: Vec<&str> = vec!["params", "item"];
    let mut chains: Vec<Vec<String>> = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let Some(chain) = chain(node) {
            if !chains.contains(&chain) {
                chains.push(chain);
            }
            continue;
        }
        match &node.expr {
            Node::Select(select) => stack.push(&select.operand),
            Node::Call(call) => {
                stack.extend(call.target.as_deref());
                stack.extend(call.args.iter());
            }
            Node::List(list) => stack.extend(list.elements.iter()),
            Node::Map(map) => {
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(entry) = &entry.expr {
                        stack.push(&entry.key);
                        stack.push(&entry.value);
                    }
                }
            }
            Node::Struct(object) => {
                for entry in &object.entries {
                    if let EntryExpr::StructField(field) = &entry.expr {
                        stack.push(&field.value);
                    }
                }
            }
            Node::Comprehension(comprehension) => {
                locals.push(&comprehension.iter_var);
                locals.extend(comprehension.iter_var2.as_deref());
                locals.push(&comprehension.accu_var);
                stack.extend([
                    &comprehension.iter_range,
                    &comprehension.accu_init,
                    &comprehension.loop_cond,
                    &comprehension.loop_step,
                    &comprehension.result,
                ]);
            }
            Node::Ident(_) | Node::Literal(_) | Node::Unspecified => {}
        }
    }
    chains.retain(|chain| !locals.contains(&chain[0].as_str()));
    chains
}

/// The names of a chain of plain selections ending at a name, outermost last.
fn chain(node: &IdedExpr) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut at = node;
    loop {
        match &at.expr {
            Node::Ident(name) => {
                names.push(name.clone());
                names.reverse();
                return Some(names);
            }
            Node::Select(select) if !select.test => {
                names.push(select.field.clone());
                at = &select.operand;
            }
            _ => return None,
        }
    }
}

pub use sources_check::to_cel;

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
    fn a_missing_field_is_null_and_a_predicate_follows_the_origins_truth() {
        let none = BTreeMap::new();
        let missing = Expr::compile("where", "status.phase == 'Running'").expect("compiles");
        assert!(!missing.eval_bool(&json!({"rev": 1}), &none).expect("null"));
        assert!(
            missing
                .eval_bool(&json!({"status": {"phase": "Running"}}), &none)
                .expect("present")
        );
        let null = Expr::compile("keep.x", "missing_field").expect("compiles");
        assert_eq!(
            null.eval(&json!({"rev": 1}), &none).expect("null"),
            json!(null)
        );
        let truth = Expr::compile("where", "value").expect("compiles");
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
        let line = Expr::compile("where", "item.contains('ERROR')").expect("compiles");
        assert!(
            line.eval_bool(&json!("an ERROR here"), &none)
                .expect("item")
        );
        let local = Expr::compile("where", "rows.all(r, r.ok)").expect("compiles");
        assert!(
            local
                .eval_bool(&json!({"rows": [{"ok": true}]}), &none)
                .expect("local")
        );
    }

    #[test]
    fn absent_keys_are_counted_and_null_values_are_not() {
        let none = BTreeMap::new();
        let expr = Expr::compile("where", "status.phase == 'x' || note == 'y'").expect("compiles");
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
        let expr = Expr::compile("where", "rev.x > 1").expect("compiles");
        let error = expr
            .eval_bool(&json!({"rev": 1}), &BTreeMap::new())
            .expect_err("not a map");
        let text = error.to_string();
        assert!(text.starts_with("where `rev.x > 1`: "), "{text}");
        let broken = Expr::compile("by", "rev +").expect_err("does not compile");
        assert!(broken.to_string().starts_with("by `rev +`: "), "{broken}");
    }
}
