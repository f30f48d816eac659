//! What a compiled CEL expression reads: the top-level names (with the dot-path written after
//! them) and the functions it calls, each with its byte range inside the expression, and the kind
//! of value it gives where that is evident. Read from the parser's tree once per distinct text
//! (remembered with the compile outcome, `expressions::compile_refs`); the shape checks and the
//! shapes of `project`/`derive` outputs use it.

use std::collections::HashSet;
use std::ops::Range;

use cel::IdedExpr;
use cel::common::ast::{EntryExpr, Expr, IdedEntryExpr, LiteralValue};

use crate::shape::Shape;

/// The names and calls of one expression.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ExprRefs {
    /// Each top-level name with the path written after it (`status.phase`), outermost first.
    pub fields: Vec<FieldPath>,
    /// Each call of a named function (operators and macros aside).
    pub calls: Vec<Call>,
    /// The kind of the value it gives, where evident (a literal, a comparison, a bare path).
    pub result: ResultKind,
    /// Each operator applied to an operand whose kind is evident (a literal, a bare path, an
    /// operator's result), for the type checks of `data_types`.
    pub operations: Vec<Operation>,
}

/// An operator (`>`, `+`, unary `-`, `!`, `&&`, …) and what it is applied to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Operation {
    /// The operator as written (`>`, `-`, `&&`; `-` with one operand is the negation).
    pub operator: &'static str,
    /// Where the operator is written.
    pub range: Range<usize>,
    /// Its operands, left to right.
    pub operands: Vec<Operand>,
}

/// One operand of an operator.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Operand {
    /// Its kind where evident: a literal's or an operator's, or the row's at a bare path.
    pub kind: ResultKind,
    /// How it is written, when it is a literal or a bare path (for messages).
    pub written: Option<String>,
}

/// A name and the keys selected after it: `status.phase` is `[status, phase]`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FieldPath {
    /// The segments, each with its byte range in the expression.
    pub segments: Vec<(String, Range<usize>)>,
}

/// A function call.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Call {
    /// The function's name (`lower`), or the qualified name (`optional.of`) when the call is
    /// written on a name that is not a field.
    pub name: String,
    /// Whether it is written as a method (`x.f()`).
    pub method: bool,
    /// Where the name is written.
    pub range: Range<usize>,
}

/// What an expression evaluates to, as far as its outermost node tells.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) enum ResultKind {
    /// Not evident.
    #[default]
    Unknown,
    /// A literal or an operator of this kind.
    Kind(Shape),
    /// A bare path into the row: its value's shape is the row's at that path.
    Path(Vec<String>),
}

/// The names, calls and result kind of `program`, whose text is `text`.
pub(crate) fn refs(program: &cel::Program, text: &str) -> ExprRefs {
    let info = program.source_info();
    // The parser's offsets are bytes, its end inclusive; a select is placed at its dot.
    let range = |id: u64| -> Range<usize> {
        info.offset_for(id)
            .map(|(start, stop)| clamp(text, start as usize)..clamp(text, stop as usize + 1))
            .unwrap_or(0..0)
    };
    let root = program.expression();
    let mut bound: HashSet<&str> = HashSet::new();
    let mut out = ExprRefs {
        result: result_kind(root),
        ..ExprRefs::default()
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
            Expr::Literal(_) | Expr::Unspecified => {}
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
        Expr::Literal(literal) => ResultKind::Kind(match literal {
            LiteralValue::Boolean(_) => Shape::Bool,
            LiteralValue::String(_) | LiteralValue::Bytes(_) => Shape::String,
            LiteralValue::Double(_) | LiteralValue::Int(_) | LiteralValue::UInt(_) => Shape::Number,
            LiteralValue::Null => Shape::Null,
        }),
        // `has(a.b)` tests a key: a boolean.
        Expr::Select(select) if select.test => ResultKind::Kind(Shape::Bool),
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
            | "startsWith" | "endsWith" | "contains" | "matches" => ResultKind::Kind(Shape::Bool),
            "size" | "int" | "uint" | "double" | "_*_" | "_/_" | "_%_" | "-_" | "_-_" => {
                ResultKind::Kind(Shape::Number)
            }
            "string" => ResultKind::Kind(Shape::String),
            _ => ResultKind::Unknown,
        },
        Expr::List(_) => ResultKind::Kind(Shape::Array(Box::new(Shape::Unknown))),
        Expr::Map(_) => ResultKind::Kind(Shape::Unknown),
        _ => ResultKind::Unknown,
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

    fn of(text: &str) -> ExprRefs {
        let program = crate::expressions::parse_program(text).expect("compiles");
        refs(&program, text)
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
        assert_eq!(found.result, ResultKind::Kind(Shape::Bool));
    }

    #[test]
    fn has_tests_its_last_key_and_results_are_read_from_the_top_node() {
        let found = of("has(meta.owner)");
        assert_eq!(found.fields[0].segments.len(), 1);
        assert_eq!(
            of("log.level").result,
            ResultKind::Path(vec!["log".to_owned(), "level".to_owned()])
        );
        assert_eq!(of("'x'").result, ResultKind::Kind(Shape::String));
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
