//! Parameters: `required` with a `default` (`conflicting-fields`), a `default` that does not parse
//! as its `type` (`invalid-value`, `invalid-duration`), a join `on` key the lookup source does not
//! declare or a `bind` key (of an `on_cursor` or a push) the bound entries do not take
//! (`undeclared-param`), a required parameter no binding supplies (`unbound-param`),
//! and `${params.X}` where `X` is not declared (`undeclared-param-reference`, labelled on the
//! token inside the string).

use sources_config::param_value::{ParamValueError, parse_param_value};
use sources_config::template::{TokenKind, is_name};
use sources_config::{
    AcceptedParam, Body, Config, Named, NamedMap, ParamType, Parameter, Source, SourceRef, Spanned,
    forwards_when_bare, passes_through,
};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span, did_you_mean};

use crate::expressions::ExpressionSite;
use crate::fixes;
use crate::shown::{self, Showing};
use crate::templates::{self, ParsedSite};

/// The parameter rules of one entry's declarations and join lookups.
pub(crate) fn check_entry_params(
    config: &Config,
    source: &Source,
    file: &str,
    out: &mut Collector,
) {
    let declared = declared(source);
    if let Some(parameters) = declared {
        for parameter in parameters.iter() {
            check_declaration(parameter, file, out);
        }
    }
    if let Body::Join(join) = &source.body {
        for lookup in join.lookups.iter().flat_map(|lookups| lookups.value.iter()) {
            let lookup = &lookup.value.value;
            let (Some(from), Some(on)) = (&lookup.from, &lookup.on) else {
                continue;
            };
            let Some(target) = config.get(&from.value) else {
                continue;
            };
            let Some(target_params) = self::declared(target) else {
                continue;
            };
            let names: Vec<&str> = target_params
                .iter()
                .map(|param| param.name.value.as_str())
                .collect();
            for key in on.value.iter() {
                check_supplied(&key.name, &from.value, &names, file, out);
            }
        }
    }
}

/// `undeclared-param` for a `bind` key (of an `on_cursor`, or of a push) that names no parameter
/// the bound entries take; otherwise `unbound-param` for a required parameter (no `default`) of a
/// shown entry that some way of showing it leaves unbound.
pub(crate) fn check_component_params(config: &Config, file: &str, out: &mut Collector) {
    let misspelt_pushes = check_push_binds(config, file, out);
    for component in &config.components {
        let Some(bound) = component.source.as_ref() else {
            continue;
        };
        if config.get(&bound.value).is_none() {
            continue;
        }
        let accepted = config.accepted_params(&bound.value);
        let names: Vec<&str> = accepted.iter().map(AcceptedParam::name).collect();
        let mut misspelt = false;
        for bind in component
            .on_cursor
            .iter()
            .flat_map(|on_cursor| &on_cursor.bind)
        {
            if !names.contains(&bind.param.value.as_str()) {
                check_supplied(&bind.param, &bound.value, &names, file, out);
                misspelt = true;
            }
        }
        // A supplied name the source does not take is most likely the misspelt required one:
        // that one mistake is reported once, as `undeclared-param`.
        if misspelt {
            continue;
        }
        let showings: Vec<Showing<'_>> = shown::showings(config, component)
            .into_iter()
            .filter(|showing| {
                showing
                    .push
                    .is_none_or(|push| !misspelt_pushes.contains(&push.binding.span))
            })
            .collect();
        for parameter in accepted.iter().filter(|accepted| accepted.is_required()) {
            let name = parameter.name();
            let missing: Vec<String> = showings
                .iter()
                .filter(|showing| {
                    !showing
                        .bound(component)
                        .any(|bind| bind.param.value == name)
                })
                .map(|showing| showing.describe(component))
                .collect();
            if missing.is_empty() {
                continue;
            }
            let declared_in = &parameter.entry.name.value;
            let through = if declared_in == &bound.value {
                String::new()
            } else {
                format!(
                    " (declared by `{declared_in}`, which `{}` passes parameters through to)",
                    bound.value
                )
            };
            out.push(
                Diagnostic::new(
                    Rule::UnboundParam,
                    bound.span,
                    format!(
                        "{} shows `{}`, whose required parameter `{name}`{through} no binding supplies; looked at: {}",
                        component.describe(),
                        bound.value,
                        missing.join("; ")
                    ),
                )
                .with_label(format!("`{name}` is never supplied to `{}`", bound.value))
                .with_secondary(parameter.param.name.span, "required here")
                .with_help(format!(
                    "bind it from a driver's focused row (`on_cursor: {{source: DRIVER, bind: {{{name}: ${{cursor.1}}}}}}`) or in the `bind` of the action that pushes the screen, or give `{name}` a `default` in `{declared_in}`"
                )),
            );
        }
    }
}

/// `undeclared-param` for a push binding's `bind` key that no entry shown on the pushed screen
/// takes; the spans of the bindings so reported.
fn check_push_binds(config: &Config, file: &str, out: &mut Collector) -> Vec<Span> {
    let mut misspelt = Vec::new();
    for push in config.dashboard.pushes() {
        let shown = shown::pushed_components(config, &push);
        let entries: Vec<&str> = shown
            .iter()
            .filter_map(|component| component.source.as_ref())
            .map(|source| source.value.as_str())
            .filter(|name| config.get(name).is_some())
            .collect();
        if entries.is_empty() {
            continue;
        }
        let accepted: Vec<AcceptedParam<'_>> = entries
            .iter()
            .flat_map(|name| config.accepted_params(name))
            .collect();
        let names: Vec<&str> = accepted.iter().map(AcceptedParam::name).collect();
        let target = if let [only] = entries.as_slice() {
            (*only).to_owned()
        } else {
            format!("screen `{}`", push.target.value)
        };
        for bind in &push.binding.bind {
            if !names.contains(&bind.param.value.as_str()) {
                check_supplied(&bind.param, &target, &names, file, out);
                misspelt.push(push.binding.span);
            }
        }
    }
    misspelt
}

/// `unbound-param` where an operator (or `merge`) that declares parameters of its own reads an
/// entry that needs a parameter: an operator's parameters serve its own expressions and are never
/// forwarded, so nothing could ever bind the input's. (An operator that declares none passes
/// what it is given through, so the need moves up to whoever shows it.)
pub(crate) fn check_unbound(
    config: &Config,
    source: &Source,
    refs: &[SourceRef],
    out: &mut Collector,
) {
    if passes_through(source) || source.is_leaf() && !matches!(source.body, Body::Merge(_)) {
        return;
    }
    let Some(own) = declared(source) else {
        return;
    };
    for reference in refs {
        if !sources_config::accepted::forwards_through(reference.field) {
            continue;
        }
        let Some(input) = config.get(&reference.name.value) else {
            continue;
        };
        for parameter in config.accepted_params(&input.name.value) {
            if !parameter.is_required() {
                continue;
            }
            let name = parameter.name();
            let declared_in = &parameter.entry.name.value;
            let mut diagnostic = Diagnostic::new(
                Rule::UnboundParam,
                reference.name.span,
                format!(
                    "`{}` reads `{}`, whose required parameter `{name}` nothing binds: `{}` declares parameters of its own, and an operator's parameters are not forwarded",
                    source.name.value, input.name.value, source.name.value
                ),
            )
            .with_label(format!("`{name}` is never passed to `{}`", input.name.value))
            .with_secondary(parameter.param.name.span, "required here");
            if let Some(shadow) = own.get(name) {
                diagnostic = diagnostic.with_secondary(
                    shadow.name.span,
                    format!("serves `{}`'s own expressions only", source.name.value),
                );
            }
            out.push(diagnostic.with_help(format!(
                "remove `parameters` from `{}` (an operator that declares none passes `--param` and bindings through to what it reads), or give `{name}` a `default` in `{declared_in}`",
                source.name.value
            )));
        }
    }
}

/// The parameters an entry declares.
pub(crate) fn declared(source: &Source) -> Option<&NamedMap<Parameter>> {
    source
        .body
        .common()?
        .parameters
        .as_ref()
        .map(|field| &field.value)
}

/// The names of the parameters an entry declares, in order (none when it declares none).
pub(crate) fn declared_names(declared: Option<&NamedMap<Parameter>>) -> Vec<&str> {
    declared
        .map(|declared| {
            declared
                .iter()
                .map(|param| param.name.value.as_str())
                .collect()
        })
        .unwrap_or_default()
}

fn check_declaration(parameter: &Named<Parameter>, file: &str, out: &mut Collector) {
    let name = &parameter.name.value;
    let declaration = &parameter.value.value;
    if let (Some(required), Some(default)) = (&declaration.required, &declaration.default) {
        if required.value {
            let mut diagnostic = Diagnostic::new(
                Rule::ConflictingFields,
                required.key_span,
                format!("parameter `{name}` is `required` and has a `default`: a default means no caller has to supply it"),
            )
            .with_label("has no effect with a default")
            .with_secondary(default.key_span, "default given here")
            .with_help("remove `required: true` to keep the default, or remove `default` to make callers supply it");
            if let Some(edit) = fixes::remove_field(file, required.key_span, required.value_span) {
                diagnostic = diagnostic.with_replacement(
                    "Remove `required: true`",
                    edit.span,
                    edit.replacement,
                );
            }
            out.push(diagnostic);
        }
    }
    let (Some(default), Some(kind)) = (&declaration.default, &declaration.kind) else {
        return;
    };
    let text = default.value.as_str();
    let problem = parse_param_value(kind.value, text)
        .err()
        .map(|error| match error {
            ParamValueError::NotInt => (Rule::InvalidValue, format!("`{text}` is not an integer")),
            ParamValueError::NotBool => (
                Rule::InvalidValue,
                format!("`{text}` is not `true` or `false`"),
            ),
            ParamValueError::NotDuration(error) => (
                Rule::InvalidDuration,
                format!("`{text}` is not a duration: {error}"),
            ),
        });
    if let Some((rule, problem)) = problem {
        out.push(
            Diagnostic::new(
                rule,
                default.value_span,
                format!(
                    "the default of parameter `{name}` does not parse as its type `{}`: {problem}",
                    kind.value
                ),
            )
            .with_label(format!("not a valid `{}`", kind.value))
            .with_secondary(kind.value_span, "type declared here")
            .with_help(match kind.value {
                ParamType::Int => "write a whole number, e.g. `default: 25`",
                ParamType::Bool => "write `true` or `false`",
                _ => "write a Go duration, e.g. `30s` or `1m30s`",
            }),
        );
    }
}

/// `undeclared-param`: a parameter supplied to `target` (a join `on` key, a `bind` key) that it
/// does not take; `names` are the parameters it takes.
fn check_supplied(
    supplied: &Spanned<String>,
    target: &str,
    names: &[&str],
    file: &str,
    out: &mut Collector,
) {
    let name = supplied.value.as_str();
    if names.contains(&name) {
        return;
    }
    let target = if target.starts_with("screen ") {
        target.to_owned()
    } else {
        format!("`{target}`")
    };
    let suggestions = did_you_mean(name, names.iter().copied());
    let mut diagnostic = Diagnostic::new(
        Rule::UndeclaredParam,
        supplied.span,
        format!("{target} declares no parameter `{name}`"),
    )
    .with_label(format!("not a parameter of {target}"));
    diagnostic = match (suggestions.as_slice(), names.is_empty()) {
        ([best, ..], _) => diagnostic.with_help(format!("did you mean `{best}`?")),
        ([], true) => diagnostic.with_help(format!(
            "{target} declares no parameters: declare `{name}` under its `parameters`, or stop supplying it"
        )),
        ([], false) => diagnostic.with_help(format!(
            "the parameters of {target} are {}",
            names
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    };
    if let ([best], Some(span)) = (
        suggestions.as_slice(),
        sources_config::name_span(supplied.span, name),
    ) {
        if fixes::written_as(file, span, name) {
            diagnostic = diagnostic.with_correction(
                format!("Rename `{name}` to `{best}`"),
                span,
                name,
                best,
            );
        }
    }
    out.push(diagnostic);
}

/// `undeclared-param-reference`: `${params.X}` in a template of `source` where `X` is not declared.
pub(crate) fn check_references(
    source: &Source,
    sites: &[ParsedSite<'_>],
    file: &str,
    out: &mut Collector,
) {
    let declared = declared(source);
    let names = declared_names(declared);
    // Only a name a template can spell is suggested: renaming `${params.wait}` to a declared
    // `wait}` would write `${params.wait}}`, which still reads `wait`, so the fix never settles.
    let referenceable: Vec<&str> = names.iter().copied().filter(|name| is_name(name)).collect();
    for ParsedSite { site, template } in sites {
        for token in template.tokens() {
            let TokenKind::Param(name) = token.kind else {
                continue;
            };
            if names.contains(&name) {
                continue;
            }
            let span = site.span_of(file, token.range.clone());
            let mut diagnostic = if site.kind == templates::SiteKind::Method {
                // Left literal, the token can never be an HTTP method: `try` could not send it.
                Diagnostic::new(
                    Rule::InvalidValue,
                    span,
                    format!(
                        "`${{params.{name}}}` names no parameter of `{}`: the `method` would stay `${{params.{name}}}`, which is not an HTTP method",
                        source.name.value
                    ),
                )
            } else {
                Diagnostic::new(
                    Rule::UndeclaredParamReference,
                    span,
                    format!(
                        "`${{params.{name}}}` names no parameter of `{}`: it stays literal",
                        source.name.value
                    ),
                )
            }
            .with_label("undeclared");
            let suggestions = did_you_mean(name, referenceable.iter().copied());
            match suggestions.as_slice() {
                [best] => {
                    let name_start = token.range.start + "${params.".len();
                    let name_span = site.span_of(file, name_start..name_start + name.len());
                    diagnostic =
                        diagnostic.with_help(format!("did you mean `${{params.{best}}}`?"));
                    if fixes::written_as(file, name_span, name) {
                        diagnostic = diagnostic.with_correction(
                            format!("Rename `{name}` to `{best}`"),
                            name_span,
                            name,
                            best,
                        );
                    }
                }
                [best, ..] => {
                    diagnostic = diagnostic.with_help(format!("did you mean `${{params.{best}}}`?"))
                }
                [] => {
                    diagnostic = diagnostic.with_help(format!(
                        "declare it under `parameters` (e.g. `parameters: {{{name}: {{required: true}}}}`)"
                    ));
                }
            }
            out.push(diagnostic);
        }
    }
}

/// `unused-param`: a parameter `source` declares that none of its templates (`sites`) and none of
/// its expressions (`expressions`, its own and its pipe stages') reads. A read is looked for in
/// the written text (`params.NAME`, `params["NAME"]`), so a placeholder of another template
/// language or a `${params.NAME}` quoted in an expression counts as one: those are their own
/// findings, and one mistake gives one diagnostic. A text that reads `params` whole, or by a
/// computed key, may read any, and nothing is reported.
pub(crate) fn check_unused(
    source: &Source,
    sites: &[ParsedSite<'_>],
    expressions: &[ExpressionSite<'_>],
    file: &str,
    out: &mut Collector,
) {
    // A static entry's parameters are its interface to the bindings of whoever shows it (it
    // stands in for an entry that fetches), not values it could read.
    if matches!(source.body, Body::Static(_)) {
        return;
    }
    let Some(field) = source
        .body
        .common()
        .and_then(|common| common.parameters.as_deref())
    else {
        return;
    };
    // Most parameters are read by a `${params.NAME}` the template parser already found: when
    // every one is, nothing is unused and no text needs scanning.
    let read_by_token = |name: &str| {
        sites.iter().any(|parsed| {
            parsed
                .template
                .tokens()
                .any(|token| token.kind == TokenKind::Param(name))
        })
    };
    if field
        .value
        .iter()
        .all(|parameter| read_by_token(&parameter.name.value))
    {
        return;
    }
    let texts = sites
        .iter()
        .map(|parsed| parsed.site.text)
        .chain(expressions.iter().map(|site| site.text.text.as_str()));
    // Each text is scanned once: the text after each `params` in it, and the names its
    // placeholders of other template languages read.
    let mut afters = Vec::new();
    let mut foreign = Vec::new();
    for text in texts {
        afters.extend(params_at(text));
        foreign.extend(foreign_token_names(text));
    }
    if afters.iter().any(|after| reads_all_at(after)) {
        return;
    }
    let declared = &field.value;
    let names = declared_names(Some(declared));
    // A read of an undeclared name stands for the declared one it misspells, which that
    // read's own finding proposes.
    let misspelt: Vec<&str> = afters
        .iter()
        .filter_map(|after| name_at(after))
        .chain(foreign.iter().copied())
        .filter(|read| !names.contains(read))
        .filter_map(|read| did_you_mean(read, names.iter().copied()).first().copied())
        .collect();
    let keyed_cache = source.body.leaf().is_some_and(|leaf| leaf.cache.is_some());
    for parameter in declared.iter() {
        let name = parameter.name.value.as_str();
        if misspelt.contains(&name)
            || foreign.contains(&name)
            || afters.iter().any(|after| reads_at(after, name))
        {
            continue;
        }
        let mut diagnostic = Diagnostic::new(
            Rule::UnusedParam,
            parameter.name.span,
            format!(
                "parameter `{name}` of `{}` is declared but no template or expression of the entry reads it",
                source.name.value
            ),
        )
        .with_label("never read")
        .with_help(format!(
            "read it where it belongs (`${{params.{name}}}` in a template, `params.{name}` in an expression), or remove it"
        ));
        let declaration = &parameter.value.value;
        let required =
            declaration.required.as_ref().is_some_and(|r| r.value) && declaration.default.is_none();
        let last = declared.0.len() == 1;
        // Removing it cannot change what the entry does only when no caller has to supply it,
        // no cache is keyed on it, and an operator keeps a parameter of its own after it (with
        // none, it would pass its callers' parameters through).
        let removal = if last {
            fixes::remove_field(file, field.key_span, field.value_span)
        } else {
            fixes::remove_field(file, parameter.name.span, parameter.value.span)
        };
        if let Some(edit) = removal {
            let title = format!("Remove parameter `{name}`");
            let safe = !(required || keyed_cache || last && forwards_when_bare(source));
            diagnostic = diagnostic.with_fix(sources_diagnostics::Fix {
                title,
                edits: vec![edit],
                applicability: if safe {
                    sources_diagnostics::Applicability::Safe
                } else {
                    sources_diagnostics::Applicability::Unsafe
                },
            });
        }
        out.push(diagnostic);
    }
}

/// Whether `text` reads the parameter `name`: `params.NAME` not followed by a letter, digit or
/// `_`, or `params["NAME"]` / `params['NAME']`, with `params` not the end of a longer name.
#[cfg(test)]
fn reads_param(text: &str, name: &str) -> bool {
    params_at(text).any(|after| reads_at(after, name))
}

/// Whether the text `after` a `params` reads the parameter `name` ([`reads_param`]).
fn reads_at(after: &str, name: &str) -> bool {
    if let Some(rest) = after.strip_prefix('.') {
        rest.strip_prefix(name)
            .is_some_and(|tail| !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    } else {
        ['"', '\''].into_iter().any(|quote| {
            after
                .strip_prefix('[')
                .and_then(|rest| rest.trim_start().strip_prefix(quote))
                .and_then(|rest| rest.strip_prefix(name))
                .is_some_and(|tail| tail.starts_with(quote))
        })
    }
}

/// The name the text `after` a `params` reads as `.NAME` (letters, digits, `_` and `-`).
fn name_at(after: &str) -> Option<&str> {
    let rest = after.strip_prefix('.')?;
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// The names of the `${NAMESPACE.NAME}` tokens of `text` whose namespace is none of the others
/// (`${parms.id}`): a misspelt `params`, which `unknown-namespace` reports.
fn foreign_token_names(text: &str) -> impl Iterator<Item = &str> {
    opens(text).filter_map(move |at| {
        let token = &text[at + 2..];
        let token = opens(token).next().map_or(token, |end| &token[..end]);
        let inner = token.split('}').next()?.trim();
        let (namespace, name) = inner.split_once('.')?;
        (!["env", "window", "selection", "cursor"].contains(&namespace)).then_some(name)
    })
}

/// Whether the text `after` a `params` reads `params` otherwise than by a written name: whole
/// (`params` passed on) or by a computed key (`params[key]`).
fn reads_all_at(after: &str) -> bool {
    let after = after.trim_start();
    !(after.starts_with('.')
        || after.starts_with('[') && after[1..].trim_start().starts_with(['"', '\'']))
}

/// The text after each `params` of `text` that is a name of its own (not the end of a longer
/// name, nor followed by a letter, digit or `_`).
fn params_at(text: &str) -> impl Iterator<Item = &str> {
    let name_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    starts_of(text, "params").filter_map(move |at| {
        let before = text[..at].chars().next_back();
        let after = &text[at + "params".len()..];
        let whole = !before.is_some_and(name_char) && !after.starts_with(name_char);
        whole.then_some(after)
    })
}

/// The offsets of each `${` in `text`.
fn opens(text: &str) -> impl Iterator<Item = usize> {
    starts_of(text, "${")
}

/// The offsets where `needle` starts in `text`, found from its first byte with `memchr`: the texts
/// are short, and this is cheaper than setting up a substring search for each.
fn starts_of<'t>(text: &'t str, needle: &'static str) -> impl Iterator<Item = usize> + 't {
    let bytes = text.as_bytes();
    memchr::memchr_iter(needle.as_bytes()[0], bytes)
        .filter(move |&at| bytes[at..].starts_with(needle.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_is_a_whole_name_after_params() {
        assert!(reads_param("params.id == 1", "id"));
        assert!(reads_param("x + params[\"id\"]", "id"));
        assert!(reads_param("${params.id}", "id"));
        assert!(!reads_param("params.identity", "id"));
        assert!(!reads_param("myparams.id", "id"));
        let reads_all = |text| params_at(text).any(reads_all_at);
        assert!(reads_all("f(params)"));
        assert!(reads_all("params[key]"));
        assert!(!reads_all("params.id + params['x']"));
        assert_eq!(
            foreign_token_names("/a/${parms.id}/${env.HOME}").collect::<Vec<_>>(),
            ["id"]
        );
    }

    #[test]
    fn a_declared_name_a_template_cannot_reference_is_never_offered_as_a_rename() {
        let text = "data:\n  sources:\n    apps:\n      type: http\n      url: http://127.0.0.1:8099/apps?wait=${params.wait}\n      parameters:\n        wait}: {type: duration, default: 90s}\n";
        let analysis = crate::analyze(text, sources_syntax::Syntax::Yaml);
        let [diagnostic] = analysis.diagnostics.as_slice() else {
            panic!("{:?}", analysis.diagnostics);
        };
        assert_eq!(diagnostic.rule, Rule::UndeclaredParamReference);
        assert!(diagnostic.fixes.is_empty(), "{:?}", diagnostic.fixes);
        assert_eq!(
            diagnostic.help.as_deref(),
            Some("declare it under `parameters` (e.g. `parameters: {wait: {required: true}}`)")
        );
    }
}
