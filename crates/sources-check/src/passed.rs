//! Parameters passed from one entry to another: an entry read by a reader that passes it none of
//! its parameters (an operator that declares its own, which serve only its expressions; a join
//! lookup, which binds only the names of its `on` map; a `growing` condition, which reads its
//! `source` with none) renders each optional parameter without a
//! default empty, as `try` binds it; so does every entry that one passes its parameters through
//! to. When a value it sends, starts or reads is refused only under
//! that rendering (`runnable`'s rules, on `placeholders::Placeholders::with_empty`), the reference is
//! an `unbound-param` error: the entry runs when named alone, never through this reader.
//!
//! A reader that passes parameters through gives one value to each input that declares the name:
//! where two of its inputs declare one name with types no value satisfies together (`bool` and
//! `int`, `bool` and `duration`), any value given is refused by one of them; and where nothing is
//! given, the default it binds (that of the declaration `sources_config::Config::accepted_params`
//! picks) reaches the other declarations too, which may refuse it (`-1` is an `int`, not a
//! `duration`), judged by the parser the evaluator binds with
//! (`sources_config::param_value::parse_param_value`). Each is a `conflicting-fields` error at
//! the reference that reaches the second declaration.

use sources_config::accepted::forwards_through;
use sources_config::enums::{Enumeration, ParamType};
use sources_config::param_value::parse_param_value;
use sources_config::{
    AcceptedParam, Body, Config, ReferenceField, Source, SourceRef, passes_through,
};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span};
use sources_expr::Language;

use crate::param_expressions;
use crate::placeholders::Placeholders;
use crate::runnable::check_requests;

/// `unbound-param` at each reference whose reader leaves the entry unrunnable.
pub(crate) fn check_passed(
    config: &Config,
    reader: &Source,
    refs: &[SourceRef],
    file: &str,
    out: &mut Collector,
) {
    for reference in refs {
        let supplied: Vec<&str> = match reference.field {
            ReferenceField::Lookup => {
                lookup_binds(reader, &reference.name.value, reference.name.span)
            }
            // The growing condition reads its source with no parameters at all.
            ReferenceField::Growing => Vec::new(),
            // What a passing-through reader is given reaches the entry from its own caller.
            _ if passes_through(reader) => continue,
            _ => Vec::new(),
        };
        // The entry read, and each entry it passes what it is given through to: all get nothing.
        let mut reached: Vec<&Source> = Vec::new();
        for declaration in config.accepted_declarations(&reference.name.value) {
            if !reached
                .iter()
                .any(|entry| std::ptr::eq(*entry, declaration.entry))
            {
                reached.push(declaration.entry);
            }
        }
        for input in reached {
            check_reached(file, reader, reference, input, &supplied, out);
        }
    }
}

/// `unbound-param` at `reference` when `input`, reached through it with only `supplied` given,
/// cannot send, start or read what it must with its other optional parameters empty.
fn check_reached(
    file: &str,
    reader: &Source,
    reference: &sources_config::SourceRef,
    input: &Source,
    supplied: &[&str],
    out: &mut Collector,
) {
    let unsupplied = Placeholders::unsupplied(input, supplied);
    if unsupplied.is_empty() {
        return;
    }
    let all = Placeholders::with_empty(input, &unsupplied);
    let Some(refusal) = first_new_refusal(input, file, &all) else {
        return;
    };
    // Name the parameters that are refused alone, when there are such.
    let alone: Vec<&String> = unsupplied
        .iter()
        .filter(|name| {
            let one = Placeholders::with_empty(input, std::slice::from_ref(*name));
            first_new_refusal(input, file, &one).is_some()
        })
        .collect();
    let emptied: Vec<&String> = if alone.is_empty() {
        unsupplied.iter().collect()
    } else {
        alone
    };
    let names = emptied
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let how = match reference.field {
        ReferenceField::Lookup => "add the parameter to this lookup's `on` map",
        ReferenceField::Growing => {
            "name in `growing.source` an entry that needs no value for it (the condition passes none)"
        }
        _ => "remove the reader's own `parameters`, so that it passes its caller's values through",
    };
    let through = if input.name.value == reference.name.value {
        String::new()
    } else {
        format!(" (through `{}`)", reference.name.value)
    };
    out.push(
        Diagnostic::new(
            Rule::UnboundParam,
            reference.name.span,
            format!(
                "`{}` reads `{}`{through} without a value for {names}, which is then empty: {}",
                reader.name.value, input.name.value, refusal.message
            ),
        )
        .with_label("passes no value")
        .with_secondary(refusal.span, "refused when the parameter is empty")
        .with_help(format!(
            "give {names} a `default` in `{}`, or {how}",
            input.name.value
        )),
    );
}

/// `conflicting-fields` where a passing-through reader gives one value to two declarations of a
/// name whose types share no value, reached through two of its references.
pub(crate) fn check_shared_types(config: &Config, reader: &Source, out: &mut Collector) {
    if !passes_through(reader) {
        return;
    }
    let forwarded: Vec<sources_config::SourceRef> = reader
        .references()
        .into_iter()
        .filter(|reference| forwards_through(reference.field))
        .collect();
    // Two declarations meet only where the reader reads two entries (asked before walking
    // any input: a chain of single readers is as long as the document).
    if forwarded.len() < 2 {
        return;
    }
    let inputs: Vec<(sources_config::SourceRef, Vec<AcceptedParam<'_>>)> = forwarded
        .into_iter()
        .map(|reference| {
            let declarations = config.accepted_declarations(&reference.name.value);
            (reference, declarations)
        })
        .collect();
    let mut reported: Vec<String> = Vec::new();
    let bound = config.accepted_params(&reader.name.value);
    for given in &bound {
        let Some(default) = given.param.value.value.default.as_ref() else {
            continue;
        };
        let from = inputs.iter().position(|(_, declarations)| {
            declarations
                .iter()
                .any(|declaration| std::ptr::eq(declaration.param, given.param))
        });
        for (index, (reference, declarations)) in inputs.iter().enumerate() {
            if Some(index) == from || reported.iter().any(|name| name == given.name()) {
                continue;
            }
            let refusal = declarations.iter().find_map(|declaration| {
                let kind = kind(declaration).filter(|_| declaration.name() == given.name())?;
                let error = parse_param_value(kind.value, &default.value).err()?;
                Some((declaration, error))
            });
            if let Some((declaration, error)) = refusal {
                reported.push(given.name().to_owned());
                out.push(default_conflict(
                    reader,
                    reference,
                    given,
                    declaration,
                    &error.to_string(),
                ));
            }
        }
    }
    for (index, (reference, later)) in inputs.iter().enumerate() {
        for (_, earlier) in &inputs[..index] {
            for second in later {
                let Some(first) = earlier
                    .iter()
                    .find(|first| first.name() == second.name() && share_no_value(first, second))
                else {
                    continue;
                };
                if reported.iter().any(|name| name == second.name()) {
                    continue;
                }
                reported.push(second.name().to_owned());
                out.push(type_conflict(reader, reference, first, second));
            }
        }
    }
}

fn kind<'a>(param: &AcceptedParam<'a>) -> Option<&'a sources_config::Field<ParamType>> {
    param.param.value.value.kind.as_ref()
}

/// Whether no text is a value of both declarations' types (`bool` and `int` or `duration`).
fn share_no_value(a: &AcceptedParam<'_>, b: &AcceptedParam<'_>) -> bool {
    let (Some(a), Some(b)) = (kind(a), kind(b)) else {
        return false;
    };
    matches!(
        (a.value, b.value),
        (ParamType::Bool, ParamType::Int | ParamType::Duration)
            | (ParamType::Int | ParamType::Duration, ParamType::Bool)
    )
}

fn type_conflict(
    reader: &Source,
    reference: &sources_config::SourceRef,
    first: &AcceptedParam<'_>,
    second: &AcceptedParam<'_>,
) -> Diagnostic {
    let name = second.name();
    let type_of =
        |param: &AcceptedParam<'_>| kind(param).map_or("string", |kind| kind.value.as_str());
    let mut diagnostic = Diagnostic::new(
        Rule::ConflictingFields,
        reference.name.span,
        format!(
            "`{}` passes one value for `{name}` to `{}`, which declares it `{}`, and to `{}`, which declares it `{}`: no value is both",
            reader.name.value,
            first.entry.name.value,
            type_of(first),
            second.entry.name.value,
            type_of(second)
        ),
    )
    .with_label(format!("reaches `{name}` as `{}`", type_of(second)))
    .with_help(format!(
        "rename one of the two parameters, or declare `{name}` with the same `type` in `{}` and `{}`",
        first.entry.name.value, second.entry.name.value
    ));
    for param in [first, second] {
        if let Some(kind) = kind(param) {
            diagnostic = diagnostic.with_secondary(
                kind.value_span,
                format!(
                    "`{}` declares `{name}` `{}`",
                    param.entry.name.value,
                    type_of(param)
                ),
            );
        }
    }
    diagnostic
}

fn default_conflict(
    reader: &Source,
    reference: &sources_config::SourceRef,
    given: &AcceptedParam<'_>,
    declaration: &AcceptedParam<'_>,
    refusal: &str,
) -> Diagnostic {
    let name = given.name();
    let declared = &given.param.value.value;
    let value = declared
        .default
        .as_ref()
        .map(|default| default.value.as_str())
        .unwrap_or_default();
    let mut diagnostic = Diagnostic::new(
        Rule::ConflictingFields,
        reference.name.span,
        format!(
            "`{}` binds `{name}` to `{value}`, the default of `{}`, and passes it to `{}`, which declares `{name}` `{}`: {refusal}",
            reader.name.value,
            given.entry.name.value,
            declaration.entry.name.value,
            kind(declaration).map_or("string", |kind| kind.value.as_str()),
        ),
    )
    .with_label(format!("refuses the default of `{name}`"))
    .with_help(format!(
        "give `{name}` a default that every entry reading it accepts, or rename the parameter in `{}` or `{}`",
        given.entry.name.value, declaration.entry.name.value
    ));
    if let Some(default) = declared.default.as_ref() {
        diagnostic = diagnostic.with_secondary(default.value_span, "the default");
    }
    if let Some(kind) = kind(declaration) {
        diagnostic = diagnostic.with_secondary(kind.value_span, "declared here");
    }
    diagnostic
}

/// The names a join lookup binds with its `on` map (the lookup of `entry` whose `from` is at
/// `span`).
fn lookup_binds<'a>(reader: &'a Source, entry: &'a str, span: Span) -> Vec<&'a str> {
    let Body::Join(join) = &reader.body else {
        return Vec::new();
    };
    join.lookups_reading(entry)
        .filter(|lookup| {
            lookup
                .from
                .as_ref()
                .is_some_and(|from| from.value_span == span)
        })
        .flat_map(|lookup| lookup.on.iter())
        .flat_map(|on| on.value.iter().map(|bound| bound.name.value.as_str()))
        .collect()
}

/// `join-lookup` at each `on` value that does not read the driver's row (a literal, or an
/// expression over the join's own parameters) and that, evaluated as the engine evaluates it, gives
/// for every value of those parameters a text the looked-up entry's parameter refuses (as binding
/// refuses it: `sources_config::param_value::parse_param_value`).
pub(crate) fn check_lookup_values(
    config: &Config,
    reader: &Source,
    language: Language,
    out: &mut Collector,
) {
    let Body::Join(join) = &reader.body else {
        return;
    };
    let declared = crate::params::declared(reader);
    for lookup in join.lookups.iter().flat_map(|lookups| lookups.value.iter()) {
        let lookup = &lookup.value.value;
        let (Some(from), Some(on)) = (&lookup.from, &lookup.on) else {
            continue;
        };
        let accepted = config.accepted_declarations(&from.value);
        for item in on.value.iter() {
            let Some(declaration) = accepted
                .iter()
                .find(|accepted| accepted.name() == item.name.value && kind(accepted).is_some())
            else {
                continue;
            };
            let Some(kind) = kind(declaration) else {
                continue;
            };
            let text = &item.value.value.text;
            let refusal =
                param_expressions::refused_for_every_value(language, text, declared, |value| {
                    parse_param_value(kind.value, &value)
                        .map(drop)
                        .map_err(|error| format!("`{value}`: {error}"))
                });
            let Some(refusal) = refusal else {
                continue;
            };
            out.push(
                Diagnostic::new(
                    Rule::JoinLookup,
                    item.value.span,
                    format!(
                        "`{}` binds `{}` of `{}` to a value its type `{}` refuses, on every row: {refusal}",
                        reader.name.value,
                        item.name.value,
                        declaration.entry.name.value,
                        kind.value.as_str()
                    ),
                )
                .with_label(format!("never a `{}`", kind.value.as_str()))
                .with_secondary(kind.value_span, "declared here")
                .with_help(format!(
                    "give `{}` a value of type `{}` (a field of the driver's row, or a literal such as {})",
                    item.name.value,
                    kind.value.as_str(),
                    example(kind.value)
                )),
            );
        }
    }
}

/// A literal of `kind` as an `on` value.
fn example(kind: ParamType) -> &'static str {
    match kind {
        ParamType::Int => "`\"42\"`",
        ParamType::Bool => "`\"true\"`",
        ParamType::Duration => "`\"'30s'\"`",
        ParamType::String => "`\"'text'\"`",
    }
}

/// The first refusal of `input`'s values under `placeholders` that its own placeholders do not
/// give (those are reported at the value already).
fn first_new_refusal(
    input: &Source,
    file: &str,
    placeholders: &Placeholders,
) -> Option<Diagnostic> {
    let mut own = Collector::unbounded();
    check_requests(input, file, &Placeholders::of(input), &mut own);
    let own = own.finish().diagnostics;
    let mut passed = Collector::unbounded();
    check_requests(input, file, placeholders, &mut passed);
    passed
        .finish()
        .diagnostics
        .into_iter()
        .find(|diagnostic| !own.contains(diagnostic))
}
