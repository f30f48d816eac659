//! `expression-language`: a file whose expressions are written in the language the settings do not
//! select. When some of its expressions fail in the selected language (they do not compile, or call
//! a function it lacks) and every one of them compiles in the other, one warning names the setting,
//! rather than leaving the user with a translation per expression.

use std::ops::Range;

use sources_config::model::{Growing, Source};
use sources_config::{Config, Text};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span};
use sources_expr::Language;

use crate::expressions::{self, ExpressionSite, title};
use crate::templates::text_span;

/// What one entry's expressions give the `expression-language` check: how many it has, how many
/// fail in the selected language, and the first that fails (its place in [`expressions_of`]).
/// The editor keeps it with the entry's other findings, so an edit counts again only the entries
/// it touched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    total: usize,
    failing: usize,
    first: Option<usize>,
}

/// The [`Tally`] of `source`'s expressions in `language`, `sites` being its own and its pipe
/// stages' ([`expressions::entry_sites`]).
pub(crate) fn tally(source: &Source, sites: &[ExpressionSite<'_>], language: Language) -> Tally {
    let mut tally = Tally::default();
    let texts = sites
        .iter()
        .map(|site| site.text)
        .chain(growing_while(source).map(|(text, _)| text));
    for (nth, text) in texts.enumerate() {
        tally.total += 1;
        if failure(language, &text.text).is_some() {
            tally.failing += 1;
            tally.first.get_or_insert(nth);
        }
    }
    tally
}

/// One `expression-language` warning for the file, where its first expression that fails in
/// `language` fails (the place of that expression's own error), when every expression of the file
/// compiles in the other language; `tallies` holds each entry's [`Tally`], in order.
pub(crate) fn check_language(
    config: &Config,
    file: &str,
    language: Language,
    tallies: &[Tally],
    out: &mut Collector,
) {
    let total: usize = tallies.iter().map(|tally| tally.total).sum();
    let failing: usize = tallies.iter().map(|tally| tally.failing).sum();
    let Some((index, nth)) = tallies
        .iter()
        .enumerate()
        .find_map(|(index, tally)| tally.first.map(|nth| (index, nth)))
    else {
        return;
    };
    let other = match language {
        Language::Cel => Language::Expr,
        Language::Expr => Language::Cel,
    };
    // Only a file with a failure gets here: its entries are read as they are, not moved to this
    // version's spans (after an edit the editor moves only the entries the edit can change).
    let all_other = config.entries.iter().all(|entry| {
        entry.read_unmoved(|source| {
            expressions_of(source).all(|(text, _)| failure(other, &text.text).is_none())
        })
    });
    if !all_other {
        return;
    }
    let Some(source) = config.entries.get(index) else {
        return;
    };
    let Some((text, span)) = expressions_of(source).nth(nth) else {
        return;
    };
    let Some(range) = failure(language, &text.text) else {
        return;
    };
    let at = text_span(file, &text.text, text.style, span, range);
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

/// Every expression of `source` (its own, its pipe stages' and its `growing.while`), with where
/// its value is written.
fn expressions_of(source: &Source) -> impl Iterator<Item = (&Text, Span)> {
    expressions::entry_sites(source)
        .into_iter()
        .map(|site| (site.text, site.span))
        .chain(growing_while(source))
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
