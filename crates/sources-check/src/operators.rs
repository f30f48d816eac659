//! Operator and pipe structure beyond decoding: pipe stages limited to filter/project/derive/sort/
//! cache and without `from` (on every kind, `merge` included), non-empty `keep`/`compute`/`parts`/`lookups`
//! with non-empty keys, and join lookups that are leaves declaring the parameters `on` binds
//! (`join-lookup`), each bound to an expression whose evident kind of value (a boolean, a number)
//! its declared type accepts, judged by the parser the evaluator binds it with
//! (`sources_config::param_value::parse_param_value`).

use sources_config::{Body, Config, Enumeration, NamedMap, Source, Stage};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span, did_you_mean};
use sources_expr::{Language, ResultKind, ValueKind};

use crate::{fixes, params};

/// Every operator and pipe rule, for one entry.
pub(crate) fn check_operators(
    config: &Config,
    source: &Source,
    file: &str,
    language: Language,
    out: &mut Collector,
) {
    if let Some(pipe) = source.body.common().and_then(|common| common.pipe.as_ref()) {
        for stage in &pipe.value {
            check_stage(&stage.value, file, out);
        }
    }
    check_maps(&source.body, out);
    if let Body::Join(join) = &source.body {
        for lookup in join.lookups.iter().flat_map(|lookups| lookups.value.iter()) {
            let name = &lookup.name.value;
            let lookup = &lookup.value.value;
            let Some(from) = &lookup.from else {
                continue;
            };
            let Some(target) = config.get(&from.value) else {
                continue;
            };
            check_lookup(
                name,
                from.value_span,
                target,
                lookup.on.as_ref().map(|on| &on.value),
                language,
                out,
            );
        }
    }
}

fn check_stage(stage: &Stage, file: &str, out: &mut Collector) {
    if let Some(kind) = stage.kind.as_ref().filter(|kind| !kind.value.is_stage()) {
        out.push(
            Diagnostic::new(
                Rule::InvalidValue,
                kind.span,
                format!("`{}` cannot be a pipe stage", kind.value.as_str()),
            )
            .with_label("not a stage kind")
            .with_help(format!(
                "a stage is `filter`, `project`, `derive`, `sort` or `cache`; declare the `{}` as an entry of its own",
                kind.value.as_str()
            )),
        );
    }
    for key in stage
        .keys
        .iter()
        .filter(|key| key.name == "from" || key.name == "pipe")
    {
        let mut diagnostic = Diagnostic::new(
            Rule::UnknownField,
            key.span,
            format!(
                "`{}` in a pipe stage: a stage reads the output of the stage before it",
                key.name
            ),
        )
        .with_label("not in a stage")
        .with_help(format!("remove `{}`", key.name));
        if key.name == "from" {
            let value_span = stage.body.from().map_or(key.span, |from| from.value_span);
            if let Some(edit) = fixes::remove_field(file, key.span, value_span) {
                diagnostic =
                    diagnostic.with_replacement("Remove `from`", edit.span, edit.replacement);
            }
        }
        out.push(diagnostic);
    }
    check_maps(&stage.body, out);
}

/// `keep`, `compute`, `parts` and `lookups` must each have at least one item, with non-empty keys.
fn check_maps(body: &Body, out: &mut Collector) {
    let map = match body {
        Body::Project(project) => project
            .keep
            .as_ref()
            .map(|f| ("keep", f.value_span, keys(&f.value))),
        Body::Derive(derive) => derive
            .compute
            .as_ref()
            .map(|f| ("compute", f.value_span, keys(&f.value))),
        Body::Compose(compose) => compose
            .parts
            .as_ref()
            .map(|f| ("parts", f.value_span, keys(&f.value))),
        Body::Join(join) => join
            .lookups
            .as_ref()
            .map(|f| ("lookups", f.value_span, keys(&f.value))),
        _ => None,
    };
    if let Some((field, span, keys)) = map {
        if keys.is_empty() {
            out.push(
                Diagnostic::new(Rule::InvalidValue, span, format!("`{field}` is empty"))
                    .with_label("needs at least one entry")
                    .with_help(format!("add at least one `NAME: …` to `{field}`")),
            );
        }
        for (_, key_span) in keys.iter().filter(|(name, _)| name.trim().is_empty()) {
            out.push(
                Diagnostic::new(
                    Rule::InvalidValue,
                    *key_span,
                    format!("a key of `{field}` is empty"),
                )
                .with_label("empty name")
                .with_help("name the output key"),
            );
        }
    }
}

fn keys<T>(map: &NamedMap<T>) -> Vec<(&str, Span)> {
    map.iter()
        .map(|item| (item.name.value.as_str(), item.name.span))
        .collect()
}

/// `join-lookup`: the lookup's `from` must be a leaf that declares parameters, and `on` must bind
/// every required one.
fn check_lookup(
    lookup: &str,
    from_span: Span,
    target: &Source,
    on: Option<&NamedMap<sources_config::Text>>,
    language: Language,
    out: &mut Collector,
) {
    let target_name = &target.name.value;
    if let Some(kind) = target.kind.as_ref().filter(|kind| kind.value.is_operator()) {
        out.push(
            Diagnostic::new(
                Rule::JoinLookup,
                from_span,
                format!("lookup `{lookup}` reads `{target_name}`, a `{}` operator: a lookup is a leaf source fetched per driver row", kind.value.as_str()),
            )
            .with_label("not a leaf")
            .with_secondary(kind.span, "declared here")
            .with_help("point the lookup at an `http`, `exec` or `file` source that declares parameters"),
        );
        return;
    }
    if target.kind.is_none() {
        return;
    }
    let Some(declared) = params::declared(target).filter(|declared| !declared.is_empty()) else {
        out.push(
            Diagnostic::new(
                Rule::JoinLookup,
                from_span,
                format!("lookup `{lookup}` reads `{target_name}`, which declares no parameters: every driver row would fetch the same thing"),
            )
            .with_label("no parameters")
            .with_secondary(target.name.span, "declared here")
            .with_help(format!(
                "declare the parameters `{target_name}` needs (e.g. `parameters: {{id: {{required: true}}}}`) and bind them in `on`"
            )),
        );
        return;
    };
    let Some(on) = on else {
        return;
    };
    let names: Vec<&str> = declared
        .iter()
        .map(|item| item.name.value.as_str())
        .collect();
    // A misspelled `on` key is reported (with its rename) as `undeclared-param`; the parameter it
    // was meant to bind is not reported a second time.
    let meant: Vec<&str> = on
        .iter()
        .filter(|key| declared.get(&key.name.value).is_none())
        .filter_map(|key| {
            did_you_mean(&key.name.value, names.iter().copied())
                .first()
                .copied()
        })
        .collect();
    for parameter in declared.iter() {
        if meant.contains(&parameter.name.value.as_str()) {
            continue;
        }
        let required = parameter
            .value
            .value
            .required
            .as_ref()
            .is_some_and(|required| required.value)
            && parameter.value.value.default.is_none();
        if required && on.get(&parameter.name.value).is_none() {
            out.push(
                Diagnostic::new(
                    Rule::JoinLookup,
                    from_span,
                    format!(
                        "lookup `{lookup}` does not bind `{}`, a required parameter of `{target_name}`",
                        parameter.name.value
                    ),
                )
                .with_label("required parameter unbound")
                .with_secondary(parameter.name.span, "required here")
                .with_help(format!("add `{}: <expression over the driver row>` to `on`", parameter.name.value)),
            );
        }
    }
    for bound in on.iter() {
        let Some(parameter) = declared.get(&bound.name.value) else {
            continue;
        };
        let Some(kind) = parameter.value.value.kind.as_ref() else {
            continue;
        };
        check_bound_kind(lookup, bound, kind, language, out);
    }
}

/// `join-lookup` for an `on` expression whose evident kind of value gives only texts (`true`,
/// `false`; `0`, `1`) that the parameter's type refuses when the lookup binds it.
fn check_bound_kind(
    lookup: &str,
    bound: &sources_config::Named<sources_config::Text>,
    kind: &sources_config::Field<sources_config::enums::ParamType>,
    language: Language,
    out: &mut Collector,
) {
    let text = bound.value.value.as_str();
    // One that does not read the row is evaluated exactly (`passed::check_lookup_values`).
    if !crate::param_expressions::reads_row_in(language, text) {
        return;
    }
    let Ok(refs) = crate::expressions::facts(language, text) else {
        return;
    };
    // An integer literal binds exactly its digits; otherwise every value of the evident kind.
    let literal = text.trim();
    let (gives, texts): (String, Vec<&str>) = match &refs.result {
        _ if literal.parse::<i64>().is_ok() => (format!("`{literal}`"), vec![literal]),
        ResultKind::Kind(ValueKind::Bool) => ("a boolean".to_owned(), vec!["true", "false"]),
        ResultKind::Kind(ValueKind::Number) => ("a number".to_owned(), vec!["0", "1"]),
        _ => return,
    };
    let refused = texts
        .iter()
        .all(|text| sources_config::param_value::parse_param_value(kind.value, text).is_err());
    if !refused {
        return;
    }
    let name = &bound.name.value;
    out.push(
        Diagnostic::new(
            Rule::JoinLookup,
            bound.value.span,
            format!(
                "lookup `{lookup}` binds `{name}` to an expression that gives {gives}, and `{name}` is declared `{}`: the lookup would refuse every driver row",
                kind.value.as_str()
            ),
        )
        .with_label(format!("gives {gives}"))
        .with_secondary(kind.value_span, "declared here")
        .with_help(format!(
            "bind `{name}` to an expression that gives a `{}` value, or change its declared `type`",
            kind.value.as_str()
        )),
    );
}
