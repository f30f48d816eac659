//! Hover: what the thing under the cursor means. A source name shows the entry's kind, cadence,
//! parameters and the shape of its data where known (and where from); `${params.X}` its
//! declaration; a component name its kind and entry; a screen name what it places and who pushes
//! it; an action name what it opens and where it is bound; a `theme:` color what the token is;
//! a column's `value` path its sample value (`column_values`); a field key its documentation (the model's doc
//! comments); a `type` value the kind's summary; a function called in an expression its signature
//! and an example (`expression_help`); a diagnostic its rule's explanation.

use sources_check::shapes::{Certainty, Shaped, Shapes};
use sources_config::fields::{self, FieldInfo};
use sources_config::template::{Template, TokenKind};
use sources_config::{Config, Enumeration, Kind};
use sources_diagnostics::Rule;
use sources_syntax::Span;
use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind, Uri};

use crate::context::{self, Scope, Slot};
use crate::document::Snapshot;
use crate::names::{self, Symbol};
use crate::position::Positions;
use crate::{completion, describe};

/// The explanation of every rule that reported a diagnostic under the cursor, each once.
fn rule_explanations(snapshot: &Snapshot, offset: usize) -> Vec<String> {
    let mut rules: Vec<Rule> = Vec::new();
    for diagnostic in &snapshot.current.analysis.diagnostics {
        if diagnostic.span.contains(offset) && !rules.contains(&diagnostic.rule) {
            rules.push(diagnostic.rule);
        }
    }
    rules
        .into_iter()
        .map(|rule| {
            format!(
                "**`{}`** — {}\n\n{}",
                rule.code(),
                rule.summary(),
                rule.explanation_markdown()
            )
        })
        .collect()
}

fn symbol(config: &Config, shapes: &Shapes, text: &str, symbol: &Symbol) -> String {
    match symbol {
        Symbol::Source(name) => match config.get(name) {
            Some(entry) => {
                let mut out = describe::source(config, entry, text);
                if let Some(shaped) = shapes.output(config, name) {
                    out.push_str(
                        "

",
                    );
                    out.push_str(&data_shape(shaped));
                }
                out
            }
            None => format!("**`{name}`** — no entry of `data.sources` has this name"),
        },
        Symbol::Param { source, name } => {
            let declaration = config
                .get(source)
                .and_then(|entry| entry.body.common())
                .and_then(|common| common.parameters.as_ref())
                .and_then(|parameters| parameters.value.get(name));
            match declaration {
                Some(declared) => format!(
                    "**`${{params.{name}}}`** — parameter of `{source}`\n\n{}",
                    describe::parameter(name, &declared.value.value)
                ),
                None => format!(
                    "**`${{params.{name}}}`** — `{source}` declares no parameter `{name}`: the token stays literal"
                ),
            }
        }
        Symbol::Component(name) => component(config, name),
        Symbol::Screen(name) => screen(config, name),
        Symbol::Action(name) => action(config, name),
    }
}

/// An action: the screen it pushes, and the screens whose bindings fire it.
fn action(config: &Config, name: &str) -> String {
    let dashboard = &config.dashboard;
    let Some(found) = dashboard
        .actions
        .iter()
        .find(|action| action.name.value == name)
    else {
        return format!("**`{name}`** — no action of `actions` has this name");
    };
    let mut out = format!("**`{name}`** — action");
    if let Some(push) = &found.push {
        out.push_str(&format!(" opening screen `{}`", push.value));
    }
    let bound_on: Vec<String> = dashboard
        .screens
        .iter()
        .filter(|screen| {
            screen
                .actions
                .iter()
                .any(|binding| binding.action.as_ref().is_some_and(|own| own.value == name))
        })
        .map(|screen| screen.describe())
        .collect();
    if bound_on.is_empty() {
        out.push_str("; bound on no screen");
    } else {
        out.push_str(&format!("; bound on {}", bound_on.join(", ")));
    }
    out
}

/// A component: its kind and the entry it shows.
fn component(config: &Config, name: &str) -> String {
    let Some(found) = config
        .components
        .iter()
        .find(|component| component.name() == Some(name))
    else {
        return format!("**`{name}`** — no component of `tui.components` has this name");
    };
    let mut out = format!("**`{name}`** — {}", found.describe());
    if let Some(source) = &found.source {
        out.push_str(&format!(", showing `{}`", source.value));
    }
    if let Some(driver) = found.on_cursor.as_ref().and_then(|on| on.source.as_ref()) {
        out.push_str(&format!(", following the cursor of `{}`", driver.value));
    }
    out
}

/// A screen: the components it places and the bindings that push it.
fn screen(config: &Config, name: &str) -> String {
    let dashboard = &config.dashboard;
    let Some(found) = dashboard.screen(name) else {
        return format!("**`{name}`** — no screen of `tui.screens` has this name");
    };
    let placed: Vec<String> = found
        .placed
        .iter()
        .map(|placed| format!("`{}`", placed.value))
        .collect();
    let pushed_from: Vec<String> = dashboard
        .pushes()
        .filter(|push| push.target.value == name)
        .map(|push| push.on.describe())
        .collect();
    let mut out = format!("**`{name}`** — screen");
    if !placed.is_empty() {
        out.push_str(&format!(" placing {}", placed.join(", ")));
    }
    if pushed_from.is_empty() {
        out.push_str("; shown without a push");
    } else {
        out.push_str(&format!("; pushed from {}", pushed_from.join(", ")));
    }
    out
}

/// What an entry's data looks like and where that is known from.
fn data_shape(shaped: &Shaped) -> String {
    let how = match shaped.certainty {
        Certainty::Exact => "exact",
        Certainty::Sampled => "sampled",
    };
    format!(
        "Data ({how}, from {}):\n\n```\n{}\n```",
        shaped.origin.describe(),
        shaped.shape.render(3)
    )
}

fn field_doc(info: &FieldInfo) -> String {
    let required = if info.required { " (required)" } else { "" };
    format!("**`{}`**{required}\n\n{}", info.name, info.doc)
}

/// The documentation of the field `key` where the context says it stands.
fn field_info(
    config: &Config,
    scope: &Scope,
    key: &str,
    offset: usize,
) -> Option<&'static FieldInfo> {
    match scope {
        Scope::Entry(name) => {
            let kind = config
                .get(name)
                .and_then(|entry| entry.kind.as_ref())
                .map(|kind| kind.value);
            match kind {
                Some(kind) => fields::field(kind, key),
                None => fields::kinds_with_field(key)
                    .first()
                    .and_then(|kind| fields::field(*kind, key)),
            }
        }
        Scope::Section(_, section) => fields::for_section(*section)
            .iter()
            .find(|info| info.name == key),
        Scope::Stage(name) => {
            completion::stage_kind(config, name, offset).and_then(|kind| fields::field(kind, key))
        }
        Scope::Parts(_) | Scope::Component | Scope::Other => None,
    }
}

/// What the layout says is under the cursor: a field key's docs or a `type` value's summary.
fn layout(snapshot: &Snapshot, offset: usize) -> Option<(String, Span)> {
    let analyzed = &snapshot.current;
    let config = &analyzed.analysis.config;
    let context = context::at(&analyzed.analysis.line_index, analyzed.syntax, offset);
    let scope = context.scope();
    if let Some(doc) = crate::dashboard_completion::hover(&context.path, &context.slot) {
        return Some(doc);
    }
    match &context.slot {
        Slot::Key { word, span } => {
            field_info(config, &scope, word, offset).map(|info| (field_doc(info), *span))
        }
        Slot::Value { key, word, span } if key == "type" && matches!(scope, Scope::Entry(_)) => {
            let kind = Kind::from_name(word)?;
            let role = if kind.is_leaf() {
                "leaf kind"
            } else {
                "operator kind"
            };
            Some((
                format!("**`{kind}`** — {role}\n\n{}", fields::kind_summary(kind)),
                *span,
            ))
        }
        Slot::Value { .. } => None,
    }
}

/// On `${env.KEY}` whose KEY a boot prompt of `app.prompts` sets: where its value comes from.
fn prompted_env(config: &Config, text: &str, offset: usize) -> Option<(String, Span)> {
    let (token, span) = context::template_around(text, offset)?;
    let parsed = Template::parse(token);
    let TokenKind::Env(key) = parsed.tokens().next()?.kind else {
        return None;
    };
    let prompt = config.dashboard.prompt(key)?;
    Some((
        format!(
            "**`${{env.{key}}}`** — set by {} (`app.prompts`): the dashboard asks for it at \
             start and sets the environment variable `{key}` before substituting `${{env.…}}`",
            describe::prompt(prompt)
        ),
        span,
    ))
}

/// The hover at `offset`, or `None` when there is nothing to say.
pub(crate) fn hover(
    snapshot: &Snapshot,
    uri: &Uri,
    offset: usize,
    positions: Positions<'_>,
) -> Option<Hover> {
    let analyzed = &snapshot.current;
    if !analyzed.analysis.has_sources {
        return None;
    }
    let config = &analyzed.analysis.config;
    let text = analyzed.text();
    let mut sections = Vec::new();
    let mut range = None;
    if let Some((doc, span)) = prompted_env(config, text, offset) {
        sections.push(doc);
        range = Some(span);
    } else if let Some((found, span)) = names::symbol_at(config, text, offset) {
        sections.push(symbol(config, &analyzed.analysis.shapes, text, &found));
        range = Some(span);
    } else if let Some((doc, span)) = crate::column_values::hover(analyzed, uri, offset) {
        sections.push(doc);
        range = Some(span);
    } else if let Some((doc, span)) = layout(snapshot, offset) {
        sections.push(doc);
        range = Some(span);
    } else if let Some((doc, span)) = crate::expression_help::hover(snapshot, uri, offset) {
        sections.push(doc);
        range = Some(span);
    }
    let explanations = rule_explanations(snapshot, offset);
    if range.is_none() {
        range = analyzed
            .analysis
            .diagnostics
            .iter()
            .find(|diagnostic| diagnostic.span.contains(offset))
            .map(|diagnostic| diagnostic.span);
    }
    sections.extend(explanations);
    if sections.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: sections.join("\n\n---\n\n"),
        }),
        range: range.map(|span| positions.range(span)),
    })
}
