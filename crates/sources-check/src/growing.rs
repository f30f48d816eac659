//! `growing`: `growing-invalid` (`growing: false`, a map without `source` or `while`, a `while`
//! that does not compile, `follow_every` without `growing` or not positive) and
//! `conflicting-fields` for `growing` with `refresh`. Who may bind a growing source is checked with
//! the bindings.

use sources_config::Config;
use sources_config::Field;
use sources_config::model::{Growing, Source, Window};
use sources_diagnostics::{Collector, Diagnostic, Rule};
use sources_expr::Language;

use crate::{expressions, fixes};

/// Every growing rule, for the window of `source`.
pub(crate) fn check_growing(
    config: &Config,
    source: &Source,
    file: &str,
    language: Language,
    out: &mut Collector,
) {
    let Some(window) = source.body.window() else {
        return;
    };
    let w = &window.value;
    match &w.growing {
        Some(growing) => {
            check_declared(source, w, growing, file, language, out);
            check_growing_source(config, growing, out);
        }
        None => {
            if let Some(every) = &w.follow_every {
                out.push(
                    Diagnostic::new(
                        Rule::GrowingInvalid,
                        every.key_span,
                        "`follow_every` without `growing`: it is the poll interval while growing",
                    )
                    .with_label("needs `growing`")
                    .with_help("add `growing: true` (or a `growing` map) or remove `follow_every`"),
                );
            }
        }
    }
}

/// `growing-invalid` when the `source` of a `growing` map requires a parameter without a default:
/// the condition reads that entry with no parameters (nothing binds them), so it can never tell.
fn check_growing_source(config: &Config, growing: &Field<Growing>, out: &mut Collector) {
    let Growing::While(map) = &growing.value else {
        return;
    };
    let Some(name) = &map.source else {
        return;
    };
    // The one rule of which parameters an entry takes: an operator that declares none passes
    // through to what it reads, so its inputs' required parameters count too.
    let accepted = config.accepted_params(&name.value);
    let unbound = accepted.iter().find(|accepted| accepted.is_required());
    if let Some(param) = unbound {
        let declarer = param.entry.name.value.as_str();
        let whose = if declarer == name.value.as_str() {
            format!(
                "`{}`, whose required parameter `{}`",
                name.value,
                param.name()
            )
        } else {
            format!(
                "`{}`, which passes parameters through to `{declarer}`, whose required parameter `{}`",
                name.value,
                param.name()
            )
        };
        out.push(
            Diagnostic::new(
                Rule::GrowingInvalid,
                name.value_span,
                format!(
                    "`growing` reads {whose} nothing binds: the condition reads it with no parameters and can never tell"
                ),
            )
            .with_label("needs a parameter")
            .with_secondary(param.param.name.span, "required here")
            .with_help(format!(
                "give `{}` a default, or name an entry that needs no parameter",
                param.name()
            )),
        );
    }
}

fn check_declared(
    source: &Source,
    w: &Window,
    growing: &Field<Growing>,
    file: &str,
    language: Language,
    out: &mut Collector,
) {
    if let Some(every) = w
        .follow_every
        .as_ref()
        .filter(|every| every.value.0.is_zero())
    {
        out.push(
            Diagnostic::new(
                Rule::GrowingInvalid,
                every.value_span,
                "`follow_every` must be positive: it is the poll interval while growing",
            )
            .with_label("zero")
            .with_help("write an interval such as `2s` (the default), or remove `follow_every`"),
        );
    }
    if let Some(refresh) = source.body.leaf().and_then(|leaf| leaf.refresh.as_ref()) {
        out.push(
            Diagnostic::new(
                Rule::ConflictingFields,
                refresh.key_span,
                "`refresh` and `window.growing` exclude each other",
            )
            .with_label("polls the whole window")
            .with_secondary(growing.key_span, "grows here")
            .with_help(
                "a growing window polls its newest end every `follow_every`: remove `refresh`",
            ),
        );
    }
    match &growing.value {
        Growing::Flag(true) => {}
        Growing::Flag(false) => {
            let mut diagnostic = Diagnostic::new(
                Rule::GrowingInvalid,
                growing.value_span,
                "`growing: false` is not a setting: a window that does not grow has no `growing`",
            )
            .with_label("remove this")
            .with_help("remove `growing`; write `growing: true` to grow while the screen is open");
            if let Some(edit) = fixes::remove_field(file, growing.key_span, growing.value_span) {
                diagnostic = diagnostic.with_replacement(
                    "Remove `growing: false`",
                    edit.span,
                    edit.replacement,
                );
            }
            out.push(diagnostic);
        }
        Growing::While(map) => {
            for (missing, name, meaning) in [
                (
                    map.source.is_none(),
                    "source",
                    "the entry whose value decides",
                ),
                (
                    map.condition.is_none(),
                    "while",
                    "the condition over that entry's value",
                ),
            ] {
                if missing {
                    out.push(
                        Diagnostic::new(
                            Rule::GrowingInvalid,
                            growing.key_span,
                            format!("`growing` has no `{name}`, {meaning}"),
                        )
                        .with_label(format!("no `{name}`"))
                        .with_help(
                            "write `growing: {source: job, while: \"status == 'running'\"}`, or `growing: true` to grow while the screen is open",
                        ),
                    );
                }
            }
            if let Some(condition) = &map.condition {
                let text = &condition.value;
                if let Err(error) = expressions::facts(language, &text.text) {
                    let span = crate::templates::text_span(
                        file,
                        &text.text,
                        text.style,
                        condition.value_span,
                        error.range.clone(),
                    );
                    out.push(
                        Diagnostic::new(
                            Rule::GrowingInvalid,
                            span,
                            format!("`growing.while` does not compile: {}", error.message),
                        )
                        .with_label("does not compile here")
                        .with_help(format!(
                            "`while` is a {} expression over the `source` entry's value, e.g. `status == 'running'`",
                            expressions::title(language)
                        )),
                    );
                }
            }
        }
    }
}
