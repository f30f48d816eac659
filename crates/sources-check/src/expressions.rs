//! CEL expressions: every `where`, `keep`/`compute` value, `by`, join `on` value and
//! `window.growing.while` is compiled with the `cel` crate (the engine `try` evaluates with), and a
//! compile error becomes an `expression` diagnostic at the exact byte inside the file.

use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use foldhash::HashMap;

use sources_config::Text;
use sources_config::model::{Body, Source};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span};

use crate::expression_refs::{self, ExprRefs};
use crate::templates::text_span;

/// One expression of an entry or stage: which field it is, its text and where it is written.
pub struct ExpressionSite<'a> {
    /// The field, as users write it (`where`, `keep.label`, `lookups.detail.on.id`).
    pub field: String,
    /// The expression.
    pub text: &'a Text,
    /// Where the value is written.
    pub span: Span,
}

impl ExpressionSite<'_> {
    /// The span in the file of `range`, a byte range inside the expression's text.
    pub fn span_of(&self, file: &str, range: Range<usize>) -> Span {
        text_span(file, &self.text.text, self.text.style, self.span, range)
    }
}

/// The expressions of one body (an entry or a pipe stage); `window.growing.while` is not
/// among them (it reads another entry's value, see `growing`).
pub fn sites(body: &Body) -> Vec<ExpressionSite<'_>> {
    let mut found = Vec::new();
    let site = |field: String, text, span| ExpressionSite { field, text, span };
    match body {
        Body::Filter(filter) => {
            if let Some(condition) = &filter.condition {
                found.push(site(
                    "where".to_owned(),
                    &condition.value,
                    condition.value_span,
                ));
            }
        }
        Body::Project(project) => {
            for item in project.keep.iter().flat_map(|keep| keep.value.iter()) {
                found.push(site(
                    format!("keep.{}", item.name.value),
                    &item.value.value,
                    item.value.span,
                ));
            }
        }
        Body::Derive(derive) => {
            for item in derive
                .compute
                .iter()
                .flat_map(|compute| compute.value.iter())
            {
                found.push(site(
                    format!("compute.{}", item.name.value),
                    &item.value.value,
                    item.value.span,
                ));
            }
        }
        Body::Sort(sort) => {
            if let Some(by) = &sort.by {
                found.push(site("by".to_owned(), &by.value, by.value_span));
            }
        }
        Body::Join(join) => {
            for lookup in join.lookups.iter().flat_map(|lookups| lookups.value.iter()) {
                for item in lookup.value.value.on.iter().flat_map(|on| on.value.iter()) {
                    found.push(site(
                        format!("lookups.{}.on.{}", lookup.name.value, item.name.value),
                        &item.value.value,
                        item.value.span,
                    ));
                }
            }
        }
        _ => {}
    }
    found
}

/// The expressions of an entry and of its `pipe`'s stages, in order: what the checks of one
/// entry that read its expressions (`expression` here, and `param_expressions`) share.
pub(crate) fn entry_sites(source: &Source) -> Vec<ExpressionSite<'_>> {
    let mut found = sites(&source.body);
    if let Some(pipe) = source.body.common().and_then(|common| common.pipe.as_ref()) {
        for stage in &pipe.value {
            found.extend(sites(&stage.value.body));
        }
    }
    found
}

/// `expression`: compiles every expression of an entry and its pipe stages (`sites`, from
/// [`entry_sites`]); the first error of each is reported at its exact position in the file.
pub(crate) fn check_expressions(sites: &[ExpressionSite<'_>], file: &str, out: &mut Collector) {
    for site in sites {
        let Err(error) = compile(&site.text.text) else {
            continue;
        };
        let span = site.span_of(file, error.range.clone());
        out.push(
            Diagnostic::new(
                Rule::Expression,
                span,
                format!("`{}` does not compile: {}", site.field, error.message),
            )
            .with_label("does not compile here")
            .with_help("expressions are CEL: the item's fields are top-level names, parameters are `params.NAME`"),
        );
    }
}

/// One compile error, located inside the expression's decoded text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// What is wrong, in plain words.
    pub message: String,
    /// Byte range inside the expression text (empty at the end for "ends too early").
    pub range: Range<usize>,
}

/// Compiles `source`, keeping what it reads (its names and calls) or, when it does not compile,
/// its first error.
///
/// The outcome is a pure function of the text, and compiling is the checker's most expensive step
/// (the CEL parser costs about as much per expression as parsing a hundred lines of YAML), so
/// outcomes are remembered process-wide by text ([`CompileMemo`]): an expression written in many
/// entries is compiled once, and the editor, which analyses every version of a document, compiles
/// only the expressions whose text changed.
pub(crate) fn compile(source: &str) -> Result<Arc<ExprRefs>, CompileError> {
    static MEMO: Mutex<CompileMemo> = Mutex::new(CompileMemo::new());
    if let Some(outcome) = MEMO
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(source)
    {
        return outcome;
    }
    let outcome = match parse_program(source) {
        Ok(program) => Ok(Arc::new(expression_refs::refs(&program, source))),
        Err(mut errors) => Err(if errors.is_empty() {
            CompileError {
                message: "the expression does not compile".to_owned(),
                range: 0..source.len(),
            }
        } else {
            errors.swap_remove(0)
        }),
    };
    MEMO.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(source, outcome.clone());
    outcome
}

/// What compiling one text gave.
type Outcome = Result<Arc<ExprRefs>, CompileError>;

/// Compile outcomes by expression text, bounded: when the texts kept reach [`CompileMemo::BYTES`],
/// the memo starts over (a document with that many distinct expressions is rare, and then it only
/// costs the compiles it would have cost anyway).
struct CompileMemo {
    outcomes: Option<HashMap<String, Outcome>>,
    bytes: usize,
}

impl CompileMemo {
    /// The most expression text kept, in bytes.
    const BYTES: usize = 1 << 20;

    const fn new() -> CompileMemo {
        CompileMemo {
            outcomes: None,
            bytes: 0,
        }
    }

    fn get(&self, source: &str) -> Option<Outcome> {
        self.outcomes.as_ref()?.get(source).cloned()
    }

    fn insert(&mut self, source: &str, outcome: Outcome) {
        if source.len() > Self::BYTES / 16 {
            return;
        }
        if self.bytes + source.len() > Self::BYTES {
            self.outcomes = None;
            self.bytes = 0;
        }
        self.bytes += source.len();
        self.outcomes
            .get_or_insert_with(HashMap::default)
            .insert(source.to_owned(), outcome);
    }
}

/// The deepest bracket nesting an expression may have. The CEL parser recurses per level and per
/// chained term, deeply enough that a few hundred levels overflow a thread's stack.
pub const MAX_EXPRESSION_NESTING: usize = 32;

/// The longest expression, in bytes, that is compiled.
pub const MAX_EXPRESSION_LEN: usize = 8 * 1024;

/// Stack for compiling any expression that is not trivially small: the parser's recursion at the
/// limits above needs far less, in debug builds too, and the pages are only touched when used.
const COMPILE_STACK: usize = 64 * 1024 * 1024;

/// Parses `source` as CEL: the one guarded entry to the parser, for the checker and the `try`
/// engine. An expression nested deeper than [`MAX_EXPRESSION_NESTING`] or longer than
/// [`MAX_EXPRESSION_LEN`] is refused with a located error instead of being handed to the
/// recursive parser, and anything but a small expression is compiled on a thread with a large
/// stack, so no expression can overflow the caller's stack (an LSP or tokio worker's is small).
pub(crate) fn parse_program(source: &str) -> Result<cel::Program, Vec<CompileError>> {
    if source.trim().is_empty() {
        return Err(vec![CompileError {
            message: "the expression is empty".to_owned(),
            range: 0..source.len(),
        }]);
    }
    if source.len() > MAX_EXPRESSION_LEN {
        return Err(vec![CompileError {
            message: format!(
                "the expression is {} bytes long; expressions longer than {MAX_EXPRESSION_LEN} bytes are not compiled",
                source.len()
            ),
            range: 0..source.len(),
        }]);
    }
    let (depth, deepest) = nesting(source);
    if depth > MAX_EXPRESSION_NESTING {
        return Err(vec![CompileError {
            message: format!(
                "brackets are nested {depth} levels deep here; at most {MAX_EXPRESSION_NESTING} are allowed"
            ),
            range: deepest,
        }]);
    }
    let compiled = if depth <= 4 && source.len() <= 256 {
        cel::Program::compile(source).map_err(|errors| errors.errors)
    } else {
        let owned = source.to_owned();
        std::thread::Builder::new()
            .name("cel-compile".to_owned())
            .stack_size(COMPILE_STACK)
            .spawn(move || cel::Program::compile(&owned).map_err(|errors| errors.errors))
            .ok()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_else(|| Err(Vec::new()))
    };
    let errors = match compiled {
        Ok(program) => return Ok(program),
        Err(errors) => errors,
    };
    let mut located: Vec<CompileError> = errors
        .iter()
        .map(|error| CompileError {
            message: readable(&error.msg),
            range: locate(source, error.pos),
        })
        .collect();
    located.dedup();
    if located.is_empty() {
        located.push(CompileError {
            message: "the expression does not compile".to_owned(),
            range: 0..source.len(),
        });
    }
    Err(located)
}

/// Compiles `source` for evaluation: [`parse_program`], refusing a call of a function the
/// expression language does not have (`data_refs::is_function`, the check behind lint's
/// `unknown-function`), which would compile and then fail on every row. The `try` engine compiles
/// through this, so it refuses before any I/O what lint reports.
pub fn compile_program(source: &str) -> Result<cel::Program, Vec<CompileError>> {
    let program = parse_program(source)?;
    let refs = expression_refs::refs(&program, source);
    match refs
        .calls
        .iter()
        .find(|call| !crate::data_refs::is_function(&call.name))
    {
        None => Ok(program),
        Some(call) => Err(vec![CompileError {
            message: format!(
                "it calls `{}`, which is not a function of the expression language",
                call.name
            ),
            range: call.range.clone(),
        }]),
    }
}

/// The deepest nesting of `(`, `[` and `{` outside string literals, and the byte range of the
/// bracket that reached it.
fn nesting(source: &str) -> (usize, Range<usize>) {
    let (mut depth, mut deepest, mut at) = (0usize, 0usize, 0..0);
    let mut quote: Option<char> = None;
    let mut chars = source.char_indices();
    while let Some((index, ch)) = chars.next() {
        match quote {
            Some(open) => {
                if ch == '\\' {
                    chars.next();
                } else if ch == open {
                    quote = None;
                }
            }
            None => match ch {
                '\'' | '"' => quote = Some(ch),
                '(' | '[' | '{' => {
                    depth += 1;
                    if depth > deepest {
                        deepest = depth;
                        at = index..index + 1;
                    }
                }
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    (deepest, at)
}

/// Converts the parser's 1-based line and 1-based Unicode-scalar column into a byte range of the
/// character there (an empty range at the end when the position is past the text).
fn locate(source: &str, (line, column): (isize, isize)) -> Range<usize> {
    let line_index = usize::try_from(line.saturating_sub(1)).unwrap_or(0);
    let column_index = usize::try_from(column.saturating_sub(1)).unwrap_or(0);
    let mut line_start = 0;
    for (index, text) in source.split_inclusive('\n').enumerate() {
        if index == line_index {
            break;
        }
        line_start += text.len();
    }
    let line_start = line_start.min(source.len());
    let line_text = source[line_start..].split('\n').next().unwrap_or("");
    match line_text.char_indices().nth(column_index) {
        Some((offset, ch)) => {
            let start = line_start + offset;
            start..start + ch.len_utf8()
        }
        None => {
            let end = source.trim_end().len();
            end..end
        }
    }
}

/// Rewords the ANTLR messages the `cel` parser produces ("mismatched input '<EOF>' expecting
/// {…}") into short sentences.
fn readable(message: &str) -> String {
    let message = message.strip_prefix("Syntax error: ").unwrap_or(message);
    let quoted = |rest: &str| -> Option<String> {
        let rest = rest.strip_prefix('\'')?;
        let end = rest.rfind("' expecting").or_else(|| rest.rfind('\''))?;
        Some(rest[..end].to_owned())
    };
    for prefix in [
        "mismatched input ",
        "extraneous input ",
        "no viable alternative at input ",
    ] {
        if let Some(rest) = message.strip_prefix(prefix) {
            return match quoted(rest) {
                Some(token) if token == "<EOF>" => {
                    "the expression ends too early: an operand or `)` is missing".to_owned()
                }
                Some(token) => format!("unexpected `{token}`"),
                None => message.to_owned(),
            };
        }
    }
    if let Some(rest) = message.strip_prefix("token recognition error at: ") {
        let token = rest.trim_matches('\'');
        return match token.chars().next() {
            Some('\'' | '"') => "unterminated string literal".to_owned(),
            _ => format!("unexpected character `{token}`"),
        };
    }
    if message == "invalid argument to has() macro" {
        return "`has()` takes a field selection, such as `has(status.health)`".to_owned();
    }
    message.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(source: &str) -> Vec<(String, &str)> {
        compile_program(source)
            .map(|_| ())
            .expect_err("does not compile")
            .into_iter()
            .map(|error| (error.message, &source[error.range]))
            .collect()
    }

    #[test]
    fn a_remembered_outcome_is_the_first_error_of_a_fresh_compile() {
        for source in ["status == && x", "a ==\n  b )", "health == 'ok'", ""] {
            let fresh = compile_program(source)
                .map(|program| Arc::new(expression_refs::refs(&program, source)))
                .map_err(|errors| errors[0].clone());
            assert_eq!(compile(source), fresh, "{source:?}");
            assert_eq!(compile(source), fresh, "{source:?}, remembered");
        }
    }

    #[test]
    fn the_compile_memo_starts_over_when_full_and_skips_huge_texts() {
        let mut memo = CompileMemo::new();
        let ok = || Ok(Arc::new(ExprRefs::default()));
        let text = "x".repeat(CompileMemo::BYTES / 16);
        memo.insert(&text, ok());
        assert_eq!(memo.get(&text), Some(ok()));
        memo.insert(&format!("{text}y"), ok());
        assert_eq!(memo.get(&format!("{text}y")), None, "too long to keep");
        for index in 0..16 {
            memo.insert(&format!("{index:02}{}", &text[2..]), ok());
        }
        assert!(memo.bytes <= CompileMemo::BYTES);
        assert_eq!(
            memo.get(&text),
            None,
            "forgotten when the memo started over"
        );
        assert_eq!(memo.get(&format!("15{}", &text[2..])), Some(ok()));
    }

    #[test]
    fn deep_or_long_expressions_are_refused_not_overflowing_the_stack() {
        let deep = format!("{}1{}", "(".repeat(5_000), ")".repeat(5_000));
        assert!(
            compile_program(&deep).expect_err("too long")[0]
                .message
                .contains("bytes long")
        );
        let nested = format!("{}1{}", "[".repeat(33), "]".repeat(33));
        let error = &compile_program(&nested).expect_err("too deep")[0];
        assert!(
            error.message.contains("nested 33 levels"),
            "{}",
            error.message
        );
        assert_eq!(error.range, 32..33);
        let brackets_in_strings = format!("'{}' == name", "(".repeat(100));
        assert!(compile_program(&brackets_in_strings).is_ok());
        let at_the_limit = format!("{}1{}", "(".repeat(32), ")".repeat(32));
        assert!(compile_program(&at_the_limit).is_ok());
        let long_chain = vec!["1"; 4_000].join("+");
        assert!(compile_program(&long_chain).is_ok());
    }

    #[test]
    fn a_function_the_evaluation_context_lacks_is_a_compile_error_at_the_call() {
        for (source, name) in [
            ("len(name) > 3", "len"),
            ("size(name) > 1 && name.upper() == 'A'", "upper"),
            ("max (a, b) > 1", "max"),
        ] {
            let errors = compile_program(source).expect_err(source);
            assert_eq!(
                errors[0].message,
                format!("it calls `{name}`, which is not a function of the expression language")
            );
            assert_eq!(&source[errors[0].range.clone()], name, "{source}");
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
            assert!(compile_program(known).is_ok(), "{known}");
        }
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
            assert!(compile(source).is_ok(), "{source}");
        }
    }

    #[test]
    fn errors_point_at_the_offending_character() {
        let found = errors("status == && x");
        assert_eq!(found[0].1, "&");
        assert!(found[0].0.contains("`&&`"), "{:?}", found[0].0);
        let found = errors("a ==\n  b )");
        assert_eq!(found[0].1, ")");
    }

    #[test]
    fn an_early_end_points_at_the_end() {
        let source = "count > ";
        let error = &compile(source).expect_err("incomplete");
        assert_eq!(error.range, 7..7);
        assert!(error.message.contains("ends too early"));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let found = errors("'é' + 'ü' + )");
        assert_eq!(found.last().map(|f| f.1), Some(")"));
    }

    #[test]
    fn empty_and_macro_misuse_are_reported() {
        assert_eq!(errors("  ")[0].0, "the expression is empty");
        let found = errors("has(1)");
        assert_eq!(found[0].1, "1");
        assert!(found[0].0.contains("field selection"), "{}", found[0].0);
    }
}
