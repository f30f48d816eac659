//! Placeholder text that is never substituted: a `${…}` token quoted inside an expression
//! (`template-in-expression`: expressions read `params.NAME` themselves) and a placeholder of
//! another template language in a templated field (`foreign-placeholder`: `{{ .params.id }}`,
//! `$params.id`, `{params.id}`).

use std::ops::Range;

use sources_config::template::{NAMESPACES, Template, TokenKind, is_name};
use sources_diagnostics::{Applicability, Collector, Diagnostic, Edit, Fix, Rule};

use crate::expressions::ExpressionSite;
use crate::templates::ParsedSite;

/// The two rules over one entry's parsed templates and its expression sites.
pub(crate) fn check_foreign(
    templates: &[ParsedSite<'_>],
    expressions: &[ExpressionSite<'_>],
    file: &str,
    out: &mut Collector,
) {
    for site in expressions {
        templates_in_expression(site, file, out);
    }
    for parsed in templates {
        for found in foreign_placeholders(parsed.site.text, &parsed.template) {
            let span = parsed.site.span_of(file, found.range.clone());
            let written = &parsed.site.text[found.range.clone()];
            let ours = format!("${{{}.{}}}", found.namespace, found.name);
            out.push(
                Diagnostic::new(
                    Rule::ForeignPlaceholder,
                    span,
                    format!("`{written}` is not a template of this format: it is sent as written"),
                )
                .with_label(format!("write `{ours}`"))
                .with_help(format!(
                    "templates are written `${{NAMESPACE.NAME}}`: replace `{written}` with `{ours}`"
                ))
                .with_fix(Fix {
                    title: format!("Replace `{written}` with `{ours}`"),
                    edits: vec![Edit {
                        span,
                        replacement: ours,
                    }],
                    applicability: Applicability::Unsafe,
                }),
            );
        }
    }
}

/// `template-in-expression` at each `${…}` token written inside a string literal of an
/// expression. A token outside any literal does not compile and is the `expression` error.
fn templates_in_expression(site: &ExpressionSite<'_>, file: &str, out: &mut Collector) {
    let text = site.text.text.as_str();
    if !text.contains("${") {
        return;
    }
    let template = Template::parse(text);
    let literals = string_literals(text);
    for token in template.tokens() {
        let Some(literal) = literals
            .iter()
            .find(|literal| literal.start < token.range.start && token.range.end < literal.end)
        else {
            continue;
        };
        let span = site.span_of(file, token.range.clone());
        let (help, fix) = match &token.kind {
            TokenKind::Param(name) => {
                let whole = literal.start..literal.end;
                let fix = (whole.start + 1 == token.range.start
                    && whole.end - 1 == token.range.end)
                    .then(|| Fix {
                        title: format!("Compare with `params.{name}`"),
                        edits: vec![Edit {
                            span: site.span_of(file, whole),
                            replacement: format!("params.{name}"),
                        }],
                        applicability: Applicability::Unsafe,
                    });
                (
                    format!(
                        "expressions read parameters directly: write `params.{name}` (outside the \
                         quotes) instead of `{}`",
                        token.written
                    ),
                    fix,
                )
            }
            _ => (
                "pass the value in through a declared parameter and read it as `params.NAME`"
                    .to_owned(),
                None,
            ),
        };
        let mut diagnostic = Diagnostic::new(
            Rule::TemplateInExpression,
            span,
            format!(
                "`{}` in `{}` is never substituted: expressions are not templates, so it stays \
                 the literal text",
                token.written, site.field
            ),
        )
        .with_label("stays literal")
        .with_help(help);
        if let Some(fix) = fix {
            diagnostic = diagnostic.with_fix(fix);
        }
        out.push(diagnostic);
    }
}

/// The byte ranges of the quoted string literals of a CEL expression, quotes included.
fn string_literals(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let quote = bytes[at];
        if quote != b'\'' && quote != b'"' {
            at += 1;
            continue;
        }
        let start = at;
        at += 1;
        while at < bytes.len() && bytes[at] != quote {
            at += if bytes[at] == b'\\' { 2 } else { 1 };
        }
        if at >= bytes.len() {
            break;
        }
        at += 1;
        found.push(start..at);
    }
    found
}

/// A placeholder of another template language: where it is, and the token it means.
#[derive(Debug, PartialEq)]
struct Foreign<'a> {
    range: Range<usize>,
    namespace: &'static str,
    name: &'a str,
}

/// The placeholders of other template languages in `text` outside its `${…}` tokens: Go's
/// `{{ .params.id }}`, a shell's `$params.id` and a format string's `{params.id}`, each over one
/// of our namespaces.
fn foreign_placeholders<'a>(text: &'a str, template: &Template<'_>) -> Vec<Foreign<'a>> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let inside_token = |at: usize| template.tokens().any(|token| token.range.contains(&at));
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if (byte != b'{' && byte != b'$') || inside_token(at) {
            at += 1;
            continue;
        }
        let matched = match byte {
            b'$' if bytes.get(at + 1) != Some(&b'{') => reference(text, at + 1),
            b'{' if bytes.get(at + 1) == Some(&b'{') => go_template(text, at + 2),
            b'{' if at == 0 || (bytes[at - 1] != b'$' && bytes[at - 1] != b'{') => {
                reference(text, at + 1).and_then(|(namespace, name, end)| {
                    (bytes.get(end) == Some(&b'}')).then_some((namespace, name, end + 1))
                })
            }
            _ => None,
        };
        match matched {
            Some((namespace, name, end)) => {
                found.push(Foreign {
                    range: at..end,
                    namespace,
                    name,
                });
                at = end;
            }
            None => at += 1,
        }
    }
    found
}

/// `NAMESPACE.NAME` at `at` (the namespace one of ours, in any case): the namespace, the name and
/// where the name ends.
fn reference(text: &str, at: usize) -> Option<(&'static str, &str, usize)> {
    let rest = text.get(at..)?;
    let (namespace, after) = rest.split_once('.')?;
    let namespace = NAMESPACES
        .iter()
        .find(|known| known.eq_ignore_ascii_case(namespace))?;
    let length = after
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(after.len());
    let name = &after[..length];
    if name.is_empty() || !is_name(name) {
        return None;
    }
    Some((namespace, name, at + namespace.len() + 1 + length))
}

/// Go's `{{ .NAMESPACE.NAME }}` (the dot and the spaces optional) from after its `{{`.
fn go_template(text: &str, at: usize) -> Option<(&'static str, &str, usize)> {
    let rest = text.get(at..)?;
    let skipped = rest.len() - rest.trim_start().len();
    let mut start = at + skipped;
    if text.as_bytes().get(start) == Some(&b'.') {
        start += 1;
    }
    let (namespace, name, end) = reference(text, start)?;
    let tail = &text[end..];
    let spaces = tail.len() - tail.trim_start().len();
    tail.trim_start()
        .starts_with("}}")
        .then_some((namespace, name, end + spaces + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placeholders(text: &str) -> Vec<String> {
        let template = Template::parse(text);
        foreign_placeholders(text, &template)
            .into_iter()
            .map(|found| format!("{}={}.{}", &text[found.range], found.namespace, found.name))
            .collect()
    }

    #[test]
    fn placeholders_of_other_languages_are_found_outside_our_tokens() {
        assert_eq!(
            placeholders("http://h/apps/{{ .params.id }}?a=$params.b&c={Env.c}"),
            [
                "{{ .params.id }}=params.id",
                "$params.b=params.b",
                "{Env.c}=env.c"
            ]
        );
        assert_eq!(
            placeholders("http://h/${params.id}?q={\"a\": 1}&x=$HOME"),
            Vec::<String>::new()
        );
        assert_eq!(placeholders("{{params.x}}"), ["{{params.x}}=params.x"]);
    }

    #[test]
    fn string_literals_keep_their_quotes_and_escapes() {
        let text = r#"a == 'x\'y' && b == "${params.z}""#;
        let found: Vec<&str> = string_literals(text)
            .into_iter()
            .map(|range| &text[range])
            .collect();
        assert_eq!(found, [r"'x\'y'", "\"${params.z}\""]);
    }
}
