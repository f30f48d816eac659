//! References into the data an entry gives, checked against its shape (`shapes`):
//! `unknown-data-field` for an expression name, a component's dot-path or a leaf's response path
//! that names a key the data does not have or takes a step the data cannot (a key of a text, a
//! key of a list) (an error when the shape is exact, a warning when it
//! comes from a sample), and `unknown-function` for a call of a function the expression language
//! does not have, in every entry whatever its shape (`try` refuses such an expression before any
//! I/O: `sources_expr::compile_to_run` asks the same `Language::has_function`). An unknown shape
//! is never reported.

use std::ops::Range;

use sources_config::Config;
use sources_config::model::{Body, Growing, Source};
use sources_diagnostics::{Collector, Diagnostic, Rule, did_you_mean};
use sources_expr::{Facts, Language};

use crate::data_miss::{BUILT_IN_NAMES, Indexing, Reader, Unresolved};
use crate::expressions::{self, ExpressionSite};
use crate::shape::{Fields, Shape};
use crate::shapes::{EntryShapes, Shaped, Shapes};

/// Every data reference of one entry (`shapes` its shapes, when known): the calls of its
/// expressions, the names they read, and its leaf's response paths.
pub(crate) fn check_data_refs(
    source: &Source,
    shapes: Option<&EntryShapes>,
    file: &str,
    language: Language,
    out: &mut Collector,
) {
    // A call of a function the language lacks fails whatever the data: judged everywhere.
    let stages = source.body.common().and_then(|common| common.pipe.as_ref());
    let bodies = stages.iter().flat_map(|pipe| pipe.value.iter());
    for body in std::iter::once(&source.body).chain(bodies.map(|stage| &stage.value.body)) {
        check_calls(body, file, language, out);
    }
    let Some(entry) = shapes else {
        return;
    };
    let read = match (&source.body, source.body.from()) {
        (_, Some(from)) => format!("`{}`", from.value),
        (Body::Join(join), None) => join
            .driver
            .as_ref()
            .and_then(|driver| driver.value.from.as_ref())
            .map_or_else(String::new, |from| format!("`{}`", from.value)),
        _ => String::new(),
    };
    check_expressions(
        &read,
        &source.body,
        entry.input.as_ref(),
        file,
        language,
        out,
    );
    if let Some(pipe) = source.body.common().and_then(|common| common.pipe.as_ref()) {
        for (at, (stage, input)) in pipe.value.iter().zip(&entry.stages).enumerate() {
            let read = if at == 0 {
                format!("`{}`", source.name.value)
            } else {
                format!("`{}` after pipe stage {at}", source.name.value)
            };
            check_expressions(
                &read,
                &stage.value.body,
                input.as_ref(),
                file,
                language,
                out,
            );
        }
    }
    crate::data_paths::check_leaf_paths(source, entry, out);
}

/// The expressions of one body against the rows it reads (`input`).
fn check_expressions(
    input_name: &str,
    body: &Body,
    input: Option<&Shaped>,
    file: &str,
    language: Language,
    out: &mut Collector,
) {
    for site in expressions::sites(body) {
        let Ok(refs) = expressions::facts(language, &site.text.text) else {
            continue;
        };
        let Some(input) = input else {
            continue;
        };
        // A sort passes anything but a list through without evaluating `by`.
        if matches!(body, Body::Sort(_))
            && !matches!(&*input.shape, Shape::Array(_) | Shape::Rows(_))
        {
            continue;
        }
        let Shape::Object(fields) = input.shape.rows() else {
            continue;
        };
        let field = format!("`{}`", site.field);
        let at = crate::data_types::Site {
            site: &site,
            field: &field,
            each: "every row",
        };
        check_fields(input_name, "rows", &at, &refs, fields, input, file, out);
        crate::data_types::check_operations(&at, &refs, fields, input, file, out);
    }
}

/// A growing window's `while` (of `source`) against the value of its `source`: it is evaluated
/// over that value (an object's keys are its names), and a call of an unknown function fails it
/// as anywhere.
pub(crate) fn check_growing(
    config: &Config,
    shapes: &Shapes,
    source: &Source,
    file: &str,
    language: Language,
    out: &mut Collector,
) {
    let Some(Growing::While(growing)) = source
        .body
        .window()
        .and_then(|window| window.value.growing.as_ref())
        .map(|growing| &growing.value)
    else {
        return;
    };
    let Some(condition) = &growing.condition else {
        return;
    };
    let site = ExpressionSite {
        field: "growing.while".to_owned(),
        text: &condition.value,
        span: condition.value_span,
    };
    check_site_calls(&site, file, language, out);
    let Ok(refs) = expressions::facts(language, &site.text.text) else {
        return;
    };
    let Some(name) = &growing.source else {
        return;
    };
    let Some(shaped) = shapes.output(config, &name.value) else {
        return;
    };
    let Shape::Object(fields) = &*shaped.shape else {
        return;
    };
    let at = crate::data_types::Site {
        site: &site,
        field: "`growing.while`",
        each: "every poll",
    };
    let entry = format!("`{}`", name.value);
    check_fields(&entry, "value", &at, &refs, fields, shaped, file, out);
    crate::data_types::check_operations(&at, &refs, fields, shaped, file, out);
}

/// `unknown-data-field` for each name of `refs` that is not a key of the rows `fields`.
#[allow(clippy::too_many_arguments)]
fn check_fields(
    input_name: &str,
    what: &'static str,
    site: &crate::data_types::Site<'_>,
    refs: &Facts,
    fields: &Fields,
    input: &Shaped,
    file: &str,
    out: &mut Collector,
) {
    let mut reported: Vec<(String, String)> = Vec::new();
    for path in &refs.fields {
        let Some((first, _)) = path.segments.first() else {
            continue;
        };
        if BUILT_IN_NAMES.contains(&first.as_str()) {
            continue;
        }
        let Some(unresolved) = unresolved(fields, &path.segments) else {
            continue;
        };
        let (at, name) = unresolved.place();
        // The same missing step read twice in one expression is one mistake.
        if reported.iter().any(|(a, n)| a == at && n == name) {
            continue;
        }
        reported.push((at.to_owned(), name.to_owned()));
        let Some((_, range)) = path.segments.get(unresolved.index()) else {
            continue;
        };
        let span = site.site.span_of(file, range.clone());
        let reader = Reader {
            entry: input_name,
            what,
            field: site.field,
            top: fields,
        };
        out.push(unresolved.diagnostic(input, &reader, span, Indexing::Brackets));
    }
}

/// `unknown-function` at each call in `body`'s expressions of a function the language lacks.
fn check_calls(body: &Body, file: &str, language: Language, out: &mut Collector) {
    for site in expressions::sites(body) {
        check_site_calls(&site, file, language, out);
    }
}

/// `unknown-function` at each call in one expression of a function the language lacks.
fn check_site_calls(
    site: &ExpressionSite<'_>,
    file: &str,
    language: Language,
    out: &mut Collector,
) {
    let Ok(refs) = expressions::facts(language, &site.text.text) else {
        return;
    };
    for call in &refs.calls {
        if !language.has_function(&call.name) {
            out.push(unknown_function(
                site,
                file,
                language,
                &call.name,
                call.range.clone(),
            ));
        }
    }
}

/// Where the path of `segments` stops resolving in the object `fields`: a key it does not have,
/// or a step the value there cannot take. `None` when the path is found or the shape stops
/// telling.
pub(crate) fn unresolved<'f>(
    fields: &'f Fields,
    segments: &[(String, Range<usize>)],
) -> Option<Unresolved<'f>> {
    let path: Vec<&str> = segments.iter().map(|(name, _)| name.as_str()).collect();
    Unresolved::of(Shape::lookup_in(fields, &path))
}

/// An `unknown-function` diagnostic for the call of `name` at `range` inside the site's text,
/// whose expressions are in `language`.
fn unknown_function(
    site: &ExpressionSite<'_>,
    file: &str,
    language: Language,
    name: &str,
    range: Range<usize>,
) -> Diagnostic {
    let span = site.span_of(file, range);
    let title = expressions::title(language);
    let translated = elsewhere(language)
        .iter()
        .find(|(other, _)| *other == name)
        .map(|(_, instead)| *instead);
    let help = match translated {
        Some(instead) => format!("expressions are {title}: write {instead}"),
        None => match did_you_mean(name, language.functions().iter().copied()).first() {
            Some(best) => format!("did you mean `{best}`? Expressions are {title}"),
            None => format!(
                "expressions are {title}; its functions include {}",
                language
                    .functions()
                    .iter()
                    .take(10)
                    .map(|name| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
    };
    Diagnostic::new(
        Rule::UnknownFunction,
        span,
        format!("`{}` calls `{name}`, which is not a function of the expression language: every row would fail", site.field),
    )
    .with_label("no such function")
    .with_help(help)
}

/// The functions of the other language (and of others people write) that `language` lacks, each
/// with what does the same in `language`.
fn elsewhere(language: Language) -> &'static [(&'static str, &'static str)] {
    match language {
        Language::Cel => IN_CEL,
        Language::Expr => IN_EXPR,
    }
}

/// Functions of other expression languages people write, and the CEL that does the same.
const IN_CEL: &[(&str, &str)] = &[
    ("len", "`size(x)`"),
    ("length", "`size(x)`"),
    (
        "lower",
        "a case-insensitive match, `x.matches('(?i)^text$')` (CEL has no case conversion)",
    ),
    (
        "upper",
        "a case-insensitive match, `x.matches('(?i)^text$')` (CEL has no case conversion)",
    ),
    ("hasPrefix", "`x.startsWith(prefix)`"),
    ("hasSuffix", "`x.endsWith(suffix)`"),
    (
        "now",
        "`timestamp(...)` over a field: expressions have no clock",
    ),
];

/// Functions of other expression languages people write (CEL's above all), and the expr-lang
/// that does the same.
const IN_EXPR: &[(&str, &str)] = &[
    ("size", "`len(x)`"),
    ("length", "`len(x)`"),
    (
        "startsWith",
        "`hasPrefix(x, prefix)` or `x startsWith prefix`",
    ),
    ("endsWith", "`hasSuffix(x, suffix)` or `x endsWith suffix`"),
    ("has", "`x?.field != nil` (a missing field is nil)"),
    ("exists", "`any(list, {predicate})`"),
    ("exists_one", "`one(list, {predicate})`"),
    ("timestamp", "`parseTime(x)`"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_functions_translated_are_not_the_languages_own() {
        for language in Language::ALL.iter().copied() {
            for (name, _) in elsewhere(language) {
                assert!(
                    !language.has_function(name),
                    "`{name}` exists in {}: no need to translate it",
                    language.name()
                );
            }
        }
    }
}
