//! `expression-language`: a file whose expressions are written in the language the settings do not
//! select. When some of its expressions fail in the selected language (they do not compile, or call
//! a function it lacks) and every one of them compiles in the other, one warning names the setting,
//! rather than leaving the user with a translation per expression.

use std::ops::Range;

use sources_config::model::{Growing, Source};
use sources_config::{Config, Text};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span};
use sources_expr::Language;

use crate::expressions::{self, title};
use crate::templates::text_span;

/// One `expression-language` warning for the file, where its first expression that fails in
/// `language` fails (the place of that expression's own error), when every expression of the file
/// compiles in the other language.
pub(crate) fn check_language(config: &Config, file: &str, language: Language, out: &mut Collector) {
    let mut failing = 0_usize;
    let mut first: Option<Span> = None;
    let mut total = 0_usize;
    for_each_expression(config, |text, span| {
        total += 1;
        if let Some(range) = failure(language, &text.text) {
            failing += 1;
            first.get_or_insert_with(|| text_span(file, &text.text, text.style, span, range));
        }
        true
    });
    let Some(at) = first else {
        return;
    };
    let other = match language {
        Language::Cel => Language::Expr,
        Language::Expr => Language::Cel,
    };
    if !for_each_expression(config, |text, _| failure(other, &text.text).is_none()) {
        return;
    }
    let (selected, written) = (title(language), title(other));
    out.push(
        Diagnostic::new(
            Rule::ExpressionLanguage,
            at,
            format!(
                "{failing} of this file's {total} expressions fail as {selected}, and every one \
                 compiles as {written}: the file is written in {written}"
            ),
        )
        .with_label(format!("fails as {selected}"))
        .with_help(format!(
            "select its language in `sources-lint.toml` beside the file (or above it): \
             `[expressions]` then `language = \"{}\"`",
            other.name()
        )),
    );
}

/// Where `text` fails in `language`, inside it: its compile error, or its first call of a function
/// the language lacks. `None` when it compiles and calls only functions the language has.
fn failure(language: Language, text: &str) -> Option<Range<usize>> {
    match expressions::facts(language, text) {
        Err(error) => Some(error.range),
        Ok(facts) => facts
            .calls
            .iter()
            .find(|call| !language.has_function(&call.name))
            .map(|call| call.range.clone()),
    }
}

/// Calls `each` with every expression of the file (its entries', their pipe stages', and each
/// `growing.while`) and where its value is written, until it returns `false`; whether it never
/// did.
fn for_each_expression(config: &Config, mut each: impl FnMut(&Text, Span) -> bool) -> bool {
    config.entries.iter().all(|source| {
        expressions::entry_sites(source)
            .iter()
            .all(|site| each(site.text, site.span))
            && growing_while(source).is_none_or(|(text, span)| each(text, span))
    })
}

/// An entry's `window.growing.while`, and where it is written.
fn growing_while(source: &Source) -> Option<(&Text, Span)> {
    let window = source.body.window()?;
    let Growing::While(growing) = &window.value.growing.as_ref()?.value else {
        return None;
    };
    let condition = growing.condition.as_ref()?;
    Some((&condition.value, condition.value_span))
}
