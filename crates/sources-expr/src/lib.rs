//! Expressions, in one place: parsing and compiling an expression of a selected [`Language`], the
//! facts the checks read from it ([`Facts`]: names with their dot-paths, calls, operators with
//! operand kinds, literals, each with its byte range inside the expression), its evaluation over
//! a JSON row with the operator's parameters, predicate truthiness, and the tokens an editor
//! highlights. Every check, the `try` evaluator and the editor go through this crate; no other
//! crate imports a language's own crate.
//!
//! Pure: no file, process, network or clock access.

mod cel_language;
mod docs;
mod expr_language;
mod facts;
mod guard;
mod memo;
pub mod operators;
mod scan;

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use serde_json::Value;

pub use docs::{Function, Operator};
pub use facts::{Call, Facts, FieldPath, Literal, Operand, Operation, ResultKind, ValueKind};
pub use guard::{MAX_EXPRESSION_LEN, MAX_EXPRESSION_NESTING};

/// The expression language a project's expressions are written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Language {
    /// The Common Expression Language (the `cel` crate): the default.
    #[default]
    Cel,
    /// expr-lang, as the dashboard evaluates it (the `expr-lang` crate).
    Expr,
}

impl Language {
    /// Every language, in the order they are offered.
    pub const ALL: &'static [Language] = &[Language::Cel, Language::Expr];

    /// The name a settings file writes (`cel`).
    pub fn name(self) -> &'static str {
        match self {
            Language::Cel => "cel",
            Language::Expr => "expr",
        }
    }

    /// The language a settings file names, if any.
    pub fn from_name(name: &str) -> Option<Language> {
        Language::ALL
            .iter()
            .copied()
            .find(|language| language.name() == name)
    }

    /// Whether the language has a function `name` (as a call or a method).
    pub fn has_function(self, name: &str) -> bool {
        match self {
            Language::Cel => cel_language::has_function(name),
            Language::Expr => expr_language::has_function(name),
        }
    }

    /// The functions the language offers users, for did-you-mean and completion.
    pub fn functions(self) -> &'static [&'static str] {
        match self {
            Language::Cel => cel_language::FUNCTIONS,
            Language::Expr => expr_language::FUNCTIONS,
        }
    }

    /// Whether a predicate's value (a `where`, a `growing.while`) holds: true for `true`, a
    /// non-zero number or a non-empty string; false for `false`, `null`, `0` and `""`. Any other
    /// value is false under CEL and an error under expr.
    pub fn truthy(self, value: &Value) -> Result<bool, EvalError> {
        match self {
            Language::Cel => Ok(cel_language::truthy(value)),
            Language::Expr => expr_language::truthy(value),
        }
    }

    /// A parameter's value as the language's expressions read it under `params`, from the text it
    /// was bound to and `typed`, the value of its declared type: expr-lang reads the text whatever
    /// the type (the dashboard passes parameters as strings, so `int(params.min)` converts), CEL
    /// reads the typed value.
    pub fn param_value(self, typed: Value, text: &str) -> Value {
        match self {
            Language::Cel => typed,
            Language::Expr => Value::String(text.to_owned()),
        }
    }

    /// The tokens of `text` for highlighting, in order, with their byte ranges. Never fails.
    pub fn tokens(self, text: &str) -> Vec<(Token, Range<usize>)> {
        match self {
            Language::Cel => cel_language::lex::lex(text),
            Language::Expr => expr_language::lex::tokens(text),
        }
    }
}

/// What a token of an expression is, for highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    /// A name: a field of the item, a variable, a member after `.`.
    Identifier,
    /// A name followed by `(`: a function or method call.
    Function,
    /// `params`, the namespace of the entry's parameters.
    Namespace,
    /// A keyword (`true`, `false`, `null`, `nil`, `in`, `and`, `contains`, …).
    Keyword,
    /// A number (integer, unsigned, float, hex).
    Number,
    /// A string or bytes literal, quotes included.
    String,
    /// An operator or punctuation (`==`, `&&`, `.`, `(`, …).
    Operator,
}

/// One compile error, located inside the expression's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CompileError {
    /// What is wrong, in plain words.
    pub message: String,
    /// Byte range inside the expression text (empty at the end for "ends too early").
    pub range: Range<usize>,
}

/// Why evaluating an expression failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// The evaluation itself failed (a type an operator cannot take, a division by zero, …).
    #[error("{message}")]
    Failed {
        /// What the language says, in plain words.
        message: String,
    },
    /// It gave a value that has no JSON form (a CEL duration or timestamp, bytes).
    #[error("the {what} ({shown}) has no JSON form")]
    NoJsonForm {
        /// `result` for a whole expression, `value` for a part of one.
        what: &'static str,
        /// The value as the language shows it.
        shown: String,
    },
}

/// A compiled expression: its language, text, facts, and what evaluates it.
pub struct Compiled {
    language: Language,
    text: String,
    facts: Facts,
    program: Program,
}

/// A compiled program, in its language's own form.
enum Program {
    Cel(::cel::Program),
    Expr(expr::Program),
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("language", &self.language)
            .field("text", &self.text)
            .finish()
    }
}

/// Compiles `text` as `language`: the one guarded entry to the parsers. An empty expression, one
/// longer than [`MAX_EXPRESSION_LEN`] or nested deeper than [`MAX_EXPRESSION_NESTING`] is refused
/// with a located error; otherwise the first error the language reports, located.
pub fn compile(language: Language, text: &str) -> Result<Compiled, CompileError> {
    guard::check(text)?;
    let (program, facts) = match language {
        Language::Cel => {
            let program = cel_language::parse(text)?;
            let facts = cel_language::facts::of(&program, text);
            (Program::Cel(program), facts)
        }
        Language::Expr => {
            let program = expr_language::parse(text)?;
            let facts = expr_language::facts::of(text);
            expr_language::refuse_shadowed(&facts)?;
            (Program::Expr(program), facts)
        }
    };
    Ok(Compiled {
        language,
        text: text.to_owned(),
        facts,
        program,
    })
}

/// Compiles `text` for evaluation: [`compile`], also refusing a call of a function the language
/// does not have (which would compile and then fail on every row), at the call.
pub fn compile_to_run(language: Language, text: &str) -> Result<Compiled, CompileError> {
    let compiled = compile(language, text)?;
    match compiled
        .facts
        .calls
        .iter()
        .find(|call| !language.has_function(&call.name))
    {
        None => Ok(compiled),
        Some(call) => Err(CompileError {
            message: format!(
                "it calls `{}`, which is not a function of the expression language",
                call.name
            ),
            range: call.range.clone(),
        }),
    }
}

/// The facts of `text` as `language`, or its first compile error: [`compile`]'s outcome without
/// the program, remembered process-wide by text (see [`memo`]), for the checks.
pub fn facts(language: Language, text: &str) -> Result<Arc<Facts>, CompileError> {
    memo::facts(language, text)
}

impl Compiled {
    /// The language it is written in.
    pub fn language(&self) -> Language {
        self.language
    }

    /// The expression as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// What it reads, calls and applies, with byte ranges.
    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// The field paths it reads from the row (`status.phase` as `[status, phase]`), leaving out
    /// `params`, `item` and the variables it binds itself, in the order evaluation meets them.
    pub fn row_paths(&self) -> &[Vec<String>] {
        &self.facts.row_paths
    }

    /// Evaluates over `row` with `params`: a map row's fields are top-level names (a field the
    /// row lacks is `null`, also under a missing parent), the whole row is `item` unless it has a
    /// field of that name, and the operator's parameters are `params.NAME`.
    pub fn evaluate(
        &self,
        row: &Value,
        params: &BTreeMap<String, Value>,
    ) -> Result<Value, EvalError> {
        match &self.program {
            Program::Cel(program) => {
                cel_language::evaluate(program, &self.facts.row_paths, row, params)
            }
            Program::Expr(program) => {
                expr_language::evaluate(program, &self.facts.row_paths, row, params)
            }
        }
    }

    /// Whether it reads the row (a field, `item`, a variable it binds): its value is then known
    /// only at run time.
    pub fn reads_row(&self) -> bool {
        match &self.program {
            Program::Cel(program) => cel_language::params::reads_row(program),
            Program::Expr(_) => expr_language::params::reads_row(&self.facts),
        }
    }

    /// The parts of it evaluated for every row that read nothing but `params.NAME` and literals
    /// (the largest such parts, each once, outermost first): what a check can evaluate before any
    /// row exists.
    pub fn param_parts(&self) -> Vec<ParamPart> {
        match &self.program {
            Program::Cel(program) => cel_language::params::parts(program, &self.text),
            Program::Expr(_) => expr_language::params::whole(&self.facts, &self.text)
                .into_iter()
                .collect(),
        }
    }

    /// The whole expression as a [`ParamPart`], when it reads nothing but `params.NAME` and
    /// literals.
    pub fn as_param_part(&self) -> Option<ParamPart> {
        match &self.program {
            Program::Cel(program) => cel_language::params::whole(program, &self.text),
            Program::Expr(_) => expr_language::params::whole(&self.facts, &self.text),
        }
    }

    /// Each `params.NAME` read where its text cannot go ([`TextParam`]): under expr-lang only,
    /// where parameters are text; none under CEL, whose parameters have their declared types.
    pub fn text_params(&self) -> Vec<TextParam> {
        match self.language {
            Language::Cel => Vec::new(),
            Language::Expr => expr_language::params::text_params(&self.text),
        }
    }

    /// Evaluates `part` (from [`Compiled::param_parts`] or [`Compiled::as_param_part`]) with
    /// `params` alone.
    pub fn evaluate_part(
        &self,
        part: &ParamPart,
        params: &BTreeMap<String, Value>,
    ) -> Result<Value, EvalError> {
        match &self.program {
            Program::Cel(program) => cel_language::params::evaluate(program, part, params),
            Program::Expr(program) => expr_language::evaluate(program, &[], &Value::Null, params),
        }
    }
}

/// A `params.NAME` read where its text cannot go: under expr-lang a parameter is the text it was
/// given whatever its declared type, and this operator cannot take a string there, so evaluating
/// the expression fails for every value of the parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextParam {
    /// The parameter's name.
    pub name: String,
    /// Where `params.NAME` is written in the expression.
    pub range: Range<usize>,
    /// The operator (`>=`, `*`).
    pub operator: String,
    /// Where the operator is written.
    pub operator_range: Range<usize>,
}

/// A part of an expression that reads nothing but `params.NAME` and literals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamPart {
    /// Where it is written in the expression.
    pub range: Range<usize>,
    /// Each parameter it reads, once, in order, with the range of its name (after `params.`).
    pub names: Vec<(String, Range<usize>)>,
    /// The language's own handle on the part.
    node: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(source: &str) -> (String, &str) {
        let error = compile_to_run(Language::Cel, source).expect_err("does not compile");
        (error.message, &source[error.range])
    }

    #[test]
    fn deep_or_long_expressions_are_refused_not_overflowing_the_stack() {
        let cel = Language::Cel;
        let deep = format!("{}1{}", "(".repeat(5_000), ")".repeat(5_000));
        assert!(
            compile(cel, &deep)
                .expect_err("too long")
                .message
                .contains("bytes long")
        );
        let nested = format!("{}1{}", "[".repeat(33), "]".repeat(33));
        let error = compile(cel, &nested).expect_err("too deep");
        assert!(
            error.message.contains("nested 33 levels"),
            "{}",
            error.message
        );
        assert_eq!(error.range, 32..33);
        let brackets_in_strings = format!("'{}' == name", "(".repeat(100));
        assert!(compile(cel, &brackets_in_strings).is_ok());
        let at_the_limit = format!("{}1{}", "(".repeat(32), ")".repeat(32));
        assert!(compile(cel, &at_the_limit).is_ok());
        let long_chain = vec!["1"; 4_000].join("+");
        assert!(compile(cel, &long_chain).is_ok());
    }

    #[test]
    fn a_function_the_evaluation_context_lacks_is_a_compile_error_at_the_call() {
        for (source, name) in [
            ("len(name) > 3", "len"),
            ("size(name) > 1 && name.upper() == 'A'", "upper"),
            ("max (a, b) > 1", "max"),
        ] {
            let (message, at) = error(source);
            assert_eq!(
                message,
                format!("it calls `{name}`, which is not a function of the expression language")
            );
            assert_eq!(at, name, "{source}");
            assert!(
                compile(Language::Cel, source).is_ok(),
                "checks see {source}"
            );
        }
        for known in [
            "size(x)",
            "x.size()",
            "int(x)",
            "x.startsWith('a')",
            "x.endsWith('a')",
            "x.matches('a')",
            "[1].map(i, i).filter(i, i > 0).exists(i, true)",
        ] {
            assert!(compile_to_run(Language::Cel, known).is_ok(), "{known}");
        }
    }

    #[test]
    fn the_functions_offered_exist_and_the_others_do_not() {
        for name in Language::Cel.functions() {
            assert!(
                Language::Cel.has_function(name),
                "`{name}` is offered but CEL has no such function"
            );
        }
        assert!(!Language::Cel.has_function("hasSuffix"));
    }

    #[test]
    fn valid_expressions_compile() {
        for source in [
            "status == 'Running'",
            "params.region == region && size(items) > 0",
            "rows.exists(r, r.finished == null)",
            "has(status.health) ? status.health.status : 'Unknown'",
            "name.startsWith(\"app-\")",
        ] {
            assert!(facts(Language::Cel, source).is_ok(), "{source}");
        }
    }

    #[test]
    fn errors_point_at_the_offending_character() {
        let (message, at) = error("status == && x");
        assert_eq!(at, "&");
        assert!(message.contains("`&&`"), "{message:?}");
        assert_eq!(error("a ==\n  b )").1, ")");
    }

    #[test]
    fn an_early_end_points_at_the_end() {
        let source = "count > ";
        let error = facts(Language::Cel, source).expect_err("incomplete");
        assert_eq!(error.range, 7..7);
        assert!(error.message.contains("ends too early"));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        assert_eq!(error("'é' + 'ü' + )").1, ")");
    }

    #[test]
    fn empty_and_macro_misuse_are_reported() {
        assert_eq!(error("  ").0, "the expression is empty");
        let (message, at) = error("has(1)");
        assert_eq!(at, "1");
        assert!(message.contains("field selection"), "{message}");
    }

    #[test]
    fn literals_and_row_paths_are_told() {
        let text = "status.phase == 'x' || note > 2 && rows.all(r, r.ok) && params.n == null";
        let compiled = compile(Language::Cel, text).expect("compiles");
        let literals: Vec<(ValueKind, &str)> = compiled
            .facts()
            .literals
            .iter()
            .map(|literal| (literal.kind, &text[literal.range.clone()]))
            .collect();
        assert_eq!(
            literals,
            [
                (ValueKind::String, "'x'"),
                (ValueKind::Number, "2"),
                (ValueKind::Null, "null")
            ]
        );
        let mut paths: Vec<String> = compiled
            .row_paths()
            .iter()
            .map(|path| path.join("."))
            .collect();
        paths.sort();
        assert_eq!(paths, ["note", "rows", "status.phase"]);
    }

    #[test]
    fn parts_over_parameters_alone_are_evaluated_with_params_only() {
        let text = "size(params.name) > 2 && region == params.region";
        let compiled = compile(Language::Cel, text).expect("compiles");
        assert!(compiled.reads_row());
        assert_eq!(compiled.as_param_part(), None);
        let parts = compiled.param_parts();
        assert_eq!(
            parts.len(),
            1,
            "the right of `&&` is not evaluated for every row"
        );
        assert_eq!(&text[parts[0].range.clone()], ">", "placed at its operator");
        assert_eq!(&text[parts[0].names[0].1.clone()], "name");
        let params = BTreeMap::from([("name".to_owned(), Value::from("abc"))]);
        assert_eq!(
            compiled.evaluate_part(&parts[0], &params),
            Ok(Value::from(true))
        );
        let failed = compiled
            .evaluate_part(&parts[0], &BTreeMap::new())
            .expect_err("no such parameter");
        assert!(matches!(failed, EvalError::Failed { .. }), "{failed:?}");
        let whole = compile(Language::Cel, "duration(params.wait)").expect("compiles");
        assert!(!whole.reads_row());
        let part = whole.as_param_part().expect("params alone");
        let params = BTreeMap::from([("wait".to_owned(), Value::from("1s"))]);
        assert_eq!(
            whole.evaluate_part(&part, &params),
            Ok(Value::from(1_000_000_000))
        );
    }

    #[test]
    fn cel_truth_and_tokens() {
        let truths: Vec<bool> = [
            Value::from(1),
            Value::from(0),
            Value::from("x"),
            Value::from(""),
            Value::Null,
            Value::from(vec![1]),
        ]
        .iter()
        .map(|value| Language::Cel.truthy(value).expect("never fails"))
        .collect();
        assert_eq!(truths, [true, false, true, false, false, false]);
        let tokens: Vec<Token> = Language::Cel
            .tokens("size(x) > 1")
            .into_iter()
            .map(|(token, _)| token)
            .collect();
        assert_eq!(tokens[0], Token::Function);
        assert_eq!(Language::from_name("cel"), Some(Language::Cel));
        assert_eq!(Language::from_name("cell"), None);
    }
}
