//! The expressions of a configuration: where every `where`, `keep`/`compute` value, `by` and join
//! `on` value is written, and `expression`, a compile error (from `sources_expr`, what the `try`
//! engine compiles with) reported at the exact byte inside the file.

use std::ops::Range;
use std::sync::Arc;

use sources_config::Text;
use sources_config::model::{Body, Source};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span};
use sources_expr::{CompileError, Compiled, Facts, Language};

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
pub(crate) fn check_expressions(
    sites: &[ExpressionSite<'_>],
    file: &str,
    language: Language,
    out: &mut Collector,
) {
    for site in sites {
        let Err(error) = facts(language, &site.text.text) else {
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
            .with_help(format!(
                "expressions are {}: the item's fields are top-level names, parameters are `params.NAME`",
                title(language)
            )),
        );
    }
}

/// The facts of the expression `text`, or its first compile error, in `language` (the one the
/// settings select); remembered by `sources_expr`.
pub(crate) fn facts(language: Language, text: &str) -> Result<Arc<Facts>, CompileError> {
    sources_expr::facts(language, text)
}

/// `text` compiled in `language`, for the checks that evaluate parts of it.
pub(crate) fn compiled(language: Language, text: &str) -> Result<Compiled, CompileError> {
    sources_expr::compile(language, text)
}

/// The language's name as a message writes it: `CEL`, `expr-lang`.
pub(crate) fn title(language: Language) -> &'static str {
    match language {
        Language::Cel => "CEL",
        Language::Expr => "expr-lang",
    }
}
