//! The facts a compiled expression gives the checks, whatever its language: the top-level names
//! it reads with the dot-path written after them, the functions it calls, the operators it
//! applies with the kinds of their operands where evident, its literals, and the kind of value it
//! gives where evident. Every range is a byte range inside the expression's text.

use std::ops::Range;

/// What one expression reads, calls and applies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// Each top-level name with the path written after it (`status.phase`), in written order;
    /// the variables the expression binds itself are left out.
    pub fields: Vec<FieldPath>,
    /// Each call of a named function (operators and macros aside), in written order.
    pub calls: Vec<Call>,
    /// The kind of the value it gives, where evident (a literal, a comparison, a bare path).
    pub result: ResultKind,
    /// Each operator applied, with its operands' kinds where evident, in written order.
    pub operations: Vec<Operation>,
    /// Each literal, in written order.
    pub literals: Vec<Literal>,
    /// The field paths read from the row, in the order evaluation fills them (see
    /// [`crate::Compiled::row_paths`]).
    pub(crate) row_paths: Vec<Vec<String>>,
}

/// An operator (`>`, `+`, unary `-`, `!`, `&&`, …) and what it is applied to.
#[derive(Clone, Debug, PartialEq)]
pub struct Operation {
    /// The operator as the checks name it (`>`, `-`, `&&`; `-` with one operand is the negation).
    pub operator: &'static str,
    /// Where the operator is written.
    pub range: Range<usize>,
    /// Its operands, left to right.
    pub operands: Vec<Operand>,
}

/// One operand of an operator.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    /// Its kind where evident: a literal's or an operator's, or the row's at a bare path.
    pub kind: ResultKind,
    /// How it is written, when it is a literal or a bare path (for messages).
    pub written: Option<String>,
}

/// A name and the keys selected after it: `status.phase` is `[status, phase]`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldPath {
    /// The segments, each with its byte range in the expression.
    pub segments: Vec<(String, Range<usize>)>,
}

/// A function call.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The function's name (`lower`), or the qualified name (`optional.of`) when the call is
    /// written on a name that is not a field.
    pub name: String,
    /// Whether it is written as a method (`x.f()`).
    pub method: bool,
    /// Where the name is written.
    pub range: Range<usize>,
}

/// A literal value written in the expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Literal {
    /// Its kind.
    pub kind: ValueKind,
    /// Where it is written.
    pub range: Range<usize>,
}

/// What an expression (or an operand) evaluates to, as far as its outermost node tells.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ResultKind {
    /// Not evident.
    #[default]
    Unknown,
    /// A literal or an operator of this kind.
    Kind(ValueKind),
    /// A bare path into the row: its value's kind is the row's at that path.
    Path(Vec<String>),
}

/// The kinds of value the facts tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// `true` or `false`.
    Bool,
    /// An integer or a float.
    Number,
    /// A string (or CEL bytes).
    String,
    /// `null` / `nil`.
    Null,
    /// A list, its items' kinds not told.
    List,
    /// A map, its keys not told.
    Map,
}
