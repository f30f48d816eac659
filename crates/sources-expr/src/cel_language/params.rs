//! The parts of a CEL expression over parameters alone, and their evaluation with `params` only:
//! only parts evaluated for every row are offered, not a branch of `&&`, `||` or `?:` past its
//! first operand, nor the body of a macro.

use std::collections::BTreeMap;
use std::ops::Range;

use cel::common::ast::{EntryExpr, Expr, IdedEntryExpr};
use cel::{IdedExpr, Program};
use serde_json::Value;

use super::facts::{after_dot, clamp};
use crate::{EvalError, ParamPart};

/// What a part reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reads {
    /// Literals only.
    Nothing,
    /// `params` and literals.
    ParamsOnly,
    /// The row (a field, `item`, a macro's variable).
    Row,
}

/// Whether `program` reads the row.
pub(crate) fn reads_row(program: &Program) -> bool {
    reads(program.expression()) == Reads::Row
}

/// The parts of `program` (text `text`) over `params.NAME` alone, outermost first.
pub(crate) fn parts(program: &Program, text: &str) -> Vec<ParamPart> {
    let mut nodes = Vec::new();
    unconditional_parts(program.expression(), &mut nodes);
    nodes
        .into_iter()
        .filter_map(|node| part(program, text, node))
        .collect()
}

/// The whole of `program` as a part, when it does not read the row.
pub(crate) fn whole(program: &Program, text: &str) -> Option<ParamPart> {
    let root = program.expression();
    if reads(root) == Reads::Row {
        return None;
    }
    part(program, text, root)
}

/// `node` as a part, when it reads `params` only as `params.NAME`.
fn part(program: &Program, text: &str, node: &IdedExpr) -> Option<ParamPart> {
    let info = program.source_info();
    let range = |id: u64| -> Range<usize> {
        info.offset_for(id)
            .map(|(start, stop)| clamp(text, start as usize)..clamp(text, stop as usize + 1))
            .unwrap_or(0..0)
    };
    let names = names_read(node)?
        .into_iter()
        .map(|(name, id)| {
            let at = after_dot(text, range(id).start, &name);
            (name, at)
        })
        .collect();
    Some(ParamPart {
        range: range(node.id),
        names,
        node: node.id,
    })
}

/// Evaluates `part` of `program` with `params` alone.
pub(crate) fn evaluate(
    program: &Program,
    part: &ParamPart,
    params: &BTreeMap<String, Value>,
) -> Result<Value, EvalError> {
    let node = find(program.expression(), part.node).ok_or_else(|| EvalError::Failed {
        message: "the part is not in this expression".to_owned(),
    })?;
    let value = super::in_scope(|mut context| {
        context.add_variable_from_value("params", super::params_variable(params));
        cel::Value::resolve(node, &context)
    })
    .map_err(|error| EvalError::Failed {
        message: error.to_string(),
    })?;
    value.json().map_err(|_| EvalError::NoJsonForm {
        what: "value",
        shown: format!("{value:?}"),
    })
}

/// The node of `root` with `id`.
fn find(root: &IdedExpr, id: u64) -> Option<&IdedExpr> {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.id == id {
            return Some(node);
        }
        match &node.expr {
            Expr::Call(call) => {
                stack.extend(call.args.iter());
                stack.extend(call.target.as_deref());
            }
            Expr::Select(select) => stack.push(&select.operand),
            Expr::Comprehension(comprehension) => stack.extend([
                &comprehension.iter_range,
                &comprehension.accu_init,
                &comprehension.loop_cond,
                &comprehension.loop_step,
                &comprehension.result,
            ]),
            Expr::List(list) => stack.extend(list.elements.iter()),
            Expr::Map(map) => stack.extend(map.entries.iter().flat_map(entry_parts)),
            Expr::Struct(structure) => {
                stack.extend(structure.entries.iter().flat_map(entry_parts));
            }
            Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
    None
}

/// The parts of `node` evaluated for every row, outermost first, that read nothing but `params`
/// (and literals): the largest such parts, each once.
fn unconditional_parts<'e>(node: &'e IdedExpr, out: &mut Vec<&'e IdedExpr>) {
    // An explicit stack: a long chain of operators is a deep tree.
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match reads(node) {
            Reads::ParamsOnly => {
                out.push(node);
                continue;
            }
            Reads::Nothing => continue,
            Reads::Row => {}
        }
        match &node.expr {
            Expr::Call(call) => {
                if matches!(
                    call.func_name.as_str(),
                    "_&&_" | "_||_" | "_?_:_" | "@not_strictly_false"
                ) {
                    stack.extend(call.args.first());
                } else {
                    stack.extend(call.args.iter().rev());
                    stack.extend(call.target.as_deref());
                }
            }
            Expr::Select(select) => stack.push(&select.operand),
            Expr::Comprehension(comprehension) => stack.push(&comprehension.iter_range),
            Expr::List(list) => stack.extend(list.elements.iter().rev()),
            Expr::Map(map) => stack.extend(map.entries.iter().rev().flat_map(entry_parts)),
            Expr::Struct(structure) => {
                stack.extend(structure.entries.iter().rev().flat_map(entry_parts));
            }
            Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
}

fn entry_parts(entry: &IdedEntryExpr) -> Vec<&IdedExpr> {
    match &entry.expr {
        EntryExpr::MapEntry(map) => vec![&map.value, &map.key],
        EntryExpr::StructField(field) => vec![&field.value],
    }
}

/// What `node` reads, walking it on an explicit stack.
fn reads(node: &IdedExpr) -> Reads {
    let mut found = Reads::Nothing;
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.expr {
            Expr::Ident(name) if name == "params" => found = Reads::ParamsOnly,
            Expr::Ident(_) | Expr::Comprehension(_) => return Reads::Row,
            Expr::Call(call) => {
                stack.extend(call.args.iter());
                stack.extend(call.target.as_deref());
            }
            Expr::Select(select) => stack.push(&select.operand),
            Expr::List(list) => stack.extend(list.elements.iter()),
            Expr::Map(map) => stack.extend(map.entries.iter().flat_map(entry_parts)),
            Expr::Struct(structure) => {
                stack.extend(structure.entries.iter().flat_map(entry_parts));
            }
            Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
    found
}

/// The names a part reads as `params.NAME`, each with the id of its select, in order; `None`
/// when it reads `params` in any other way (`params[k]`, `size(params)`): what it reads is then
/// not known.
fn names_read(part: &IdedExpr) -> Option<Vec<(String, u64)>> {
    let mut names: Vec<(String, u64)> = Vec::new();
    let mut stack = vec![part];
    while let Some(node) = stack.pop() {
        match &node.expr {
            Expr::Select(select) => match &select.operand.expr {
                Expr::Ident(name) if name == "params" => {
                    if !names.iter().any(|(read, _)| *read == select.field) {
                        names.push((select.field.clone(), node.id));
                    }
                }
                _ => stack.push(&select.operand),
            },
            Expr::Ident(name) if name == "params" => return None,
            Expr::Call(call) => {
                stack.extend(call.args.iter().rev());
                stack.extend(call.target.as_deref());
            }
            Expr::List(list) => stack.extend(list.elements.iter().rev()),
            Expr::Map(map) => stack.extend(map.entries.iter().rev().flat_map(entry_parts)),
            Expr::Struct(structure) => {
                stack.extend(structure.entries.iter().rev().flat_map(entry_parts));
            }
            Expr::Ident(_) | Expr::Comprehension(_) | Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
    Some(names)
}
