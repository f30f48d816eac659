//! The facts of a CEL expression, read from the `cel` parser's tree: the top-level names (with the
//! dot-path written after them), the functions it calls, the operators it applies with operand
//! kinds where evident, its literals, each with its byte range inside the expression, the kind of
//! value it gives where evident, and the row paths evaluation fills.

use std::collections::HashSet;
use std::ops::Range;

use cel::IdedExpr;
use cel::common::ast::{EntryExpr, Expr, IdedEntryExpr, LiteralValue};

use crate::facts::{Call, Facts, FieldPath, Literal, Operand, Operation, ResultKind, ValueKind};

/// The facts of `program`, whose text is `text`.
pub(crate) fn of(program: &cel::Program, text: &str) -> Facts {
    let info = program.source_info();
    // The parser's offsets are bytes, its end inclusive; a select is placed at its dot.
    let range = |id: u64| -> Range<usize> {
        info.offset_for(id)
            .map(|(start, stop)| clamp(text, start as usize)..clamp(text, stop as usize + 1))
            .unwrap_or(0..0)
    };
    let root = program.expression();
    let mut bound: HashSet<&str> = HashSet::new();
    let mut out = Facts {
        result: result_kind(root),
        row_paths: row_paths(root),
        ..Facts::default()
    };
    // An explicit stack: a long chain of operators is a deep tree.
    let mut stack: Vec<&IdedExpr> = vec![root];
    while let Some(node) = stack.pop() {
        match &node.expr {
            Expr::Ident(name) => {
                if !name.starts_with('@') {
                    out.fields.push(FieldPath {
                        segments: vec![(name.clone(), range(node.id))],
                    });
                }
            }
            Expr::Select(select) => match path_of(node) {
                Some(mut segments) => {
                    if select.test {
                        segments.pop();
                    }
                    let segments = segments
                        .into_iter()
                        .enumerate()
                        .map(|(at, (name, id))| {
                            let written = range(id);
                            let written = if at == 0 {
                                written
                            } else {
                                after_dot(text, written.start, name)
                            };
                            (name.to_owned(), written)
                        })
                        .collect();
                    out.fields.push(FieldPath { segments });
                }
                None => stack.push(&select.operand),
            },
            Expr::Call(call) => {
                if let Some(operator) = operator_symbol(&call.func_name)
                    && call.target.is_none()
                {
                    out.operations.push(Operation {
                        operator,
                        range: range(node.id),
                        operands: call
                            .args
                            .iter()
                            .map(|arg| Operand {
                                kind: result_kind(arg),
                                written: written(text, arg, &range),
                            })
                            .collect(),
                    });
                }
                if is_named_function(&call.func_name) {
                    out.calls.push(Call {
                        name: call.func_name.clone(),
                        method: call.target.is_some(),
                        range: name_range(text, range(node.id), &call.func_name),
                    });
                }
                stack.extend(call.args.iter().rev());
                if let Some(target) = &call.target {
                    stack.push(target);
                }
            }
            Expr::Comprehension(comprehension) => {
                bound.insert(&comprehension.iter_var);
                if let Some(second) = &comprehension.iter_var2 {
                    bound.insert(second);
                }
                bound.insert(&comprehension.accu_var);
                stack.extend([
                    &comprehension.result,
                    &comprehension.loop_step,
                    &comprehension.loop_cond,
                    &comprehension.accu_init,
                    &comprehension.iter_range,
                ]);
            }
            Expr::List(list) => stack.extend(list.elements.iter().rev()),
            Expr::Map(map) => push_entries(&mut stack, &map.entries),
            Expr::Struct(structure) => push_entries(&mut stack, &structure.entries),
            Expr::Literal(literal) => {
                let kind = literal_kind(literal);
                let at = range(node.id);
                // A macro's own literals (the `true` a comprehension starts from) are not written.
                if text
                    .get(at.clone())
                    .is_some_and(|written| is_written(kind, written))
                {
                    out.literals.push(Literal { kind, range: at });
                }
            }
            Expr::Unspecified => {}
        }
    }
    // A comprehension's variables (`x` in `tags.exists(x, x == 'a')`) are not fields. They are
    // left out wherever they are written: a name bound by one comprehension is rarely a field
    // read elsewhere in the same expression.
    out.fields
        .retain(|path| !bound.contains(path.segments[0].0.as_str()));
    for operation in &mut out.operations {
        for operand in &mut operation.operands {
            if let ResultKind::Path(path) = &operand.kind
                && path
                    .first()
                    .is_some_and(|first| bound.contains(first.as_str()))
            {
                operand.kind = ResultKind::Unknown;
            }
        }
    }
    out.operations
        .sort_by_key(|operation| operation.range.start);
    out.calls.sort_by_key(|call| call.range.start);
    out.fields
        .sort_by_key(|path| path.segments.first().map_or(0, |(_, range)| range.start));
    out.literals.sort_by_key(|literal| literal.range.start);
    out
}

/// Pushes the keys and values of a map or struct literal, first entry on top.
fn push_entries<'e>(stack: &mut Vec<&'e IdedExpr>, entries: &'e [IdedEntryExpr]) {
    for entry in entries.iter().rev() {
        match &entry.expr {
            EntryExpr::StructField(field) => stack.push(&field.value),
            EntryExpr::MapEntry(entry) => {
                stack.push(&entry.value);
                stack.push(&entry.key);
            }
        }
    }
}

/// `a.b.c` as `[(a, id), (b, id), (c, id)]` when `node` is a chain of selects on a name.
fn path_of(node: &IdedExpr) -> Option<Vec<(&str, u64)>> {
    let mut segments = Vec::new();
    let mut current = node;
    loop {
        match &current.expr {
            Expr::Select(select) => {
                segments.push((select.field.as_str(), current.id));
                current = &select.operand;
            }
            Expr::Ident(name) if !name.starts_with('@') => {
                segments.push((name.as_str(), current.id));
                segments.reverse();
                return Some(segments);
            }
            _ => return None,
        }
    }
}

/// Operators (`_==_`, `!_`, `@in`) are calls in the parser's tree; named functions are not.
fn is_named_function(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
}

/// The symbol of an operator the type checks judge, from its name in the parser's tree.
fn operator_symbol(name: &str) -> Option<&'static str> {
    Some(match name {
        "_<_" => "<",
        "_<=_" => "<=",
        "_>_" => ">",
        "_>=_" => ">=",
        "_==_" => "==",
        "_!=_" => "!=",
        "_+_" => "+",
        "_-_" | "-_" => "-",
        "_*_" => "*",
        "_/_" => "/",
        "_%_" => "%",
        "!_" => "!",
        "_&&_" => "&&",
        "_||_" => "||",
        _ => return None,
    })
}

/// How an operand is written, when it is a literal (its text) or a bare path (`status.phase`).
fn written(text: &str, node: &IdedExpr, range: &dyn Fn(u64) -> Range<usize>) -> Option<String> {
    match &node.expr {
        Expr::Literal(_) => text.get(range(node.id)).map(str::to_owned),
        Expr::Ident(_) | Expr::Select(_) => path_of(node).map(|segments| {
            segments
                .iter()
                .map(|(name, _)| *name)
                .collect::<Vec<_>>()
                .join(".")
        }),
        _ => None,
    }
}

/// The range of the function's name inside the call's range (the parser places a call at its
/// opening parenthesis or its dot).
fn name_range(text: &str, call: Range<usize>, name: &str) -> Range<usize> {
    let around = call.start.saturating_sub(name.len() + 1);
    let window = text.get(around..text.len().min(call.end + name.len() + 1));
    match window.and_then(|window| window.find(name)) {
        Some(at) => around + at..around + at + name.len(),
        None => call,
    }
}

/// The kind an expression's outermost node gives.
fn result_kind(node: &IdedExpr) -> ResultKind {
    match &node.expr {
        Expr::Literal(literal) => ResultKind::Kind(literal_kind(literal)),
        // `has(a.b)` tests a key: a boolean.
        Expr::Select(select) if select.test => ResultKind::Kind(ValueKind::Bool),
        Expr::Ident(_) | Expr::Select(_) => match path_of(node) {
            Some(segments) => ResultKind::Path(
                segments
                    .iter()
                    .map(|(name, _)| (*name).to_owned())
                    .collect(),
            ),
            None => ResultKind::Unknown,
        },
        Expr::Call(call) => match call.func_name.as_str() {
            "_==_" | "_!=_" | "_<_" | "_<=_" | "_>_" | "_>=_" | "_&&_" | "_||_" | "!_" | "@in"
            | "startsWith" | "endsWith" | "contains" | "matches" => {
                ResultKind::Kind(ValueKind::Bool)
            }
            "size" | "int" | "uint" | "double" | "_*_" | "_/_" | "_%_" | "-_" | "_-_" => {
                ResultKind::Kind(ValueKind::Number)
            }
            "string" => ResultKind::Kind(ValueKind::String),
            _ => ResultKind::Unknown,
        },
        Expr::List(_) => ResultKind::Kind(ValueKind::List),
        Expr::Map(_) => ResultKind::Kind(ValueKind::Map),
        _ => ResultKind::Unknown,
    }
}

/// Whether `written` is how a literal of `kind` is written (not a macro's generated value, which
/// the parser places at the macro's call).
fn is_written(kind: ValueKind, written: &str) -> bool {
    match kind {
        ValueKind::Bool => matches!(written, "true" | "false"),
        ValueKind::Null => written == "null",
        ValueKind::Number => written.starts_with(|ch: char| ch.is_ascii_digit() || ch == '.'),
        ValueKind::String => written.starts_with(['\'', '"', 'r', 'R', 'b', 'B']),
        ValueKind::List | ValueKind::Map => false,
    }
}

/// The kind of a literal.
fn literal_kind(literal: &LiteralValue) -> ValueKind {
    match literal {
        LiteralValue::Boolean(_) => ValueKind::Bool,
        LiteralValue::String(_) | LiteralValue::Bytes(_) => ValueKind::String,
        LiteralValue::Double(_) | LiteralValue::Int(_) | LiteralValue::UInt(_) => ValueKind::Number,
        LiteralValue::Null => ValueKind::Null,
    }
}

/// The field paths an expression reads from the row: each chain of field selections that starts
/// at a name (`status.phase` gives `[status, phase]`, `name` gives `[name]`), except `params`,
/// `item` and the variables of a comprehension (`rows.all(r, r.ok)`). A selection under a
/// `has(…)` test is left to the test.
fn row_paths(root: &IdedExpr) -> Vec<Vec<String>> {
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
            Expr::Select(select) => stack.push(&select.operand),
            Expr::Call(call) => {
                stack.extend(call.target.as_deref());
                stack.extend(call.args.iter());
            }
            Expr::List(list) => stack.extend(list.elements.iter()),
            Expr::Map(map) => {
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(entry) = &entry.expr {
                        stack.push(&entry.key);
                        stack.push(&entry.value);
                    }
                }
            }
            Expr::Struct(object) => {
                for entry in &object.entries {
                    if let EntryExpr::StructField(field) = &entry.expr {
                        stack.push(&field.value);
                    }
                }
            }
            Expr::Comprehension(comprehension) => {
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
            Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
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
            Expr::Ident(name) => {
                names.push(name.clone());
                names.reverse();
                return Some(names);
            }
            Expr::Select(select) if !select.test => {
                names.push(select.field.clone());
                at = &select.operand;
            }
            _ => return None,
        }
    }
}

/// `offset` moved back to a character boundary of `text` and clamped to its length.
pub(crate) fn clamp(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The range of the key `name` selected by the dot at `dot`.
pub(crate) fn after_dot(text: &str, dot: usize, name: &str) -> Range<usize> {
    let rest = text.get(dot..).unwrap_or("");
    match rest.find(name) {
        Some(at) => dot + at..dot + at + name.len(),
        None => dot..dot,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Facts {
        crate::compile(crate::Language::Cel, text)
            .expect("compiles")
            .facts
    }

    fn written<'t>(text: &'t str, range: &Range<usize>) -> &'t str {
        &text[range.clone()]
    }

    #[test]
    fn names_paths_and_calls_point_at_what_is_written() {
        let text =
            "status.phase == 'Running' && lower(name) != '' && tags.exists(t, t == params.x)";
        let found = of(text);
        let paths: Vec<Vec<&str>> = found
            .fields
            .iter()
            .map(|path| {
                path.segments
                    .iter()
                    .map(|(_, range)| written(text, range))
                    .collect()
            })
            .collect();
        assert_eq!(
            paths,
            [
                vec!["status", "phase"],
                vec!["name"],
                vec!["tags"],
                vec!["params", "x"]
            ]
        );
        let calls: Vec<(&str, &str)> = found
            .calls
            .iter()
            .map(|call| (call.name.as_str(), written(text, &call.range)))
            .collect();
        assert_eq!(calls, [("lower", "lower")]);
        assert_eq!(found.result, ResultKind::Kind(ValueKind::Bool));
    }

    #[test]
    fn has_tests_its_last_key_and_results_are_read_from_the_top_node() {
        let found = of("has(meta.owner)");
        assert_eq!(found.fields[0].segments.len(), 1);
        assert_eq!(
            of("log.level").result,
            ResultKind::Path(vec!["log".to_owned(), "level".to_owned()])
        );
        assert_eq!(of("'x'").result, ResultKind::Kind(ValueKind::String));
        assert_eq!(of("size(a)").calls.len(), 1);
    }

    #[test]
    fn ranges_are_bytes_after_non_ascii_text() {
        let text = "'é ü' == name.first";
        let found = of(text);
        let segments: Vec<&str> = found.fields[0]
            .segments
            .iter()
            .map(|(_, range)| written(text, range))
            .collect();
        assert_eq!(segments, ["name", "first"]);
    }
}
