//! The names the server navigates: source names (declared as `data.sources` keys, referenced by
//! every reference field and component `source`), parameters (declared under `parameters`,
//! referenced as `${params.X}` and by join `on` keys), components (declared in `tui.components`,
//! named by `on_cursor.source`, an action binding's `from` and a layout's `component:`),
//! screens (declared in `tui.screens`, named by `push` and `tui.initial`) and actions (declared
//! in the top-level `actions`, named by a binding's `action`). Which one is under the
//! cursor, and where all of its occurrences are.

use sources_config::template::{Template, TokenKind};
use sources_config::{Body, Config, Source, Spanned, name_span};
use sources_syntax::{Span, Syntax};

use crate::context;

/// A name the cursor can be on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Symbol {
    /// An entry of `data.sources`.
    Source(String),
    /// A parameter of the entry `source`.
    Param {
        /// The entry declaring (or meant to declare) the parameter.
        source: String,
        /// The parameter's name.
        name: String,
    },
    /// A component of `tui.components`.
    Component(String),
    /// A screen of `tui.screens`.
    Screen(String),
    /// An action of the top-level `actions`.
    Action(String),
}

impl Symbol {
    /// The name itself.
    pub(crate) fn name(&self) -> &str {
        match self {
            Symbol::Source(name)
            | Symbol::Param { name, .. }
            | Symbol::Component(name)
            | Symbol::Screen(name)
            | Symbol::Action(name) => name,
        }
    }
}

/// One place a name is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Occurrence {
    /// The bare name's span (inside quotes), or the written span when it cannot be edited as
    /// plain text (escapes).
    pub(crate) span: Span,
    /// Whether the span is exactly the name, so a rename may replace it.
    pub(crate) editable: bool,
    /// Whether this is the declaration.
    pub(crate) declaration: bool,
}

fn occurrence(span: Span, name: &str, declaration: bool) -> Occurrence {
    match name_span(span, name) {
        Some(span) => Occurrence {
            span,
            editable: true,
            declaration,
        },
        None => Occurrence {
            span,
            editable: false,
            declaration,
        },
    }
}

/// The parameter declarations of an entry: name spans in source order.
fn declared_params(source: &Source) -> impl Iterator<Item = (&str, Span)> {
    source
        .body
        .common()
        .and_then(|common| common.parameters.as_ref())
        .into_iter()
        .flat_map(|parameters| parameters.value.iter())
        .map(|param| (param.name.value.as_str(), param.name.span))
}

/// Every join `on` key binding a parameter of the entry `target`: (key name, key span).
fn join_bindings<'a>(
    config: &'a Config,
    target: &'a str,
) -> impl Iterator<Item = (&'a str, Span)> + 'a {
    config.entries.iter().flat_map(move |entry| {
        let lookups = match &entry.body {
            Body::Join(join) => join.lookups.as_ref(),
            _ => None,
        };
        lookups
            .into_iter()
            .flat_map(|lookups| lookups.value.iter())
            .filter(move |lookup| {
                lookup
                    .value
                    .value
                    .from
                    .as_ref()
                    .is_some_and(|from| from.value == target)
            })
            .flat_map(|lookup| lookup.value.value.on.as_ref())
            .flat_map(|on| on.value.iter())
            .map(|binding| (binding.name.value.as_str(), binding.name.span))
    })
}

/// The `${params.X}` tokens written inside the entry's value, and on an operator the `params.X`
/// names in its expressions: (name, span of the name).
fn param_tokens<'a>(text: &'a str, source: &Source) -> Vec<(&'a str, Span)> {
    let Some(written) = text.get(source.span.range()) else {
        return Vec::new();
    };
    let template = Template::parse(written);
    let mut found: Vec<(&str, Span)> = template
        .tokens()
        .filter_map(|token| match token.kind {
            TokenKind::Param(name) => {
                let start = source.span.start() + token.range.start + "${params.".len();
                Some((name, Span::new(start, start + name.len())))
            }
            _ => None,
        })
        .collect();
    if !source.is_leaf() {
        found.extend(expression_params(written, source.span.start()));
    }
    found.sort_by_key(|(_, span)| span.start());
    found
}

/// The `params.NAME` names in CEL text (not inside `${…}`), with their spans offset by `base`.
fn expression_params(written: &str, base: usize) -> Vec<(&str, Span)> {
    let is_identifier = |c: char| c.is_ascii_alphanumeric() || c == '_';
    written
        .match_indices("params.")
        .filter(|(index, _)| {
            let before = written[..*index].chars().next_back();
            !before.is_some_and(|c| is_identifier(c) || c == '.' || c == '{')
        })
        .filter_map(|(index, _)| {
            let start = index + "params.".len();
            let length = written[start..]
                .find(|c: char| !is_identifier(c))
                .unwrap_or(written.len() - start);
            (length > 0).then(|| {
                (
                    &written[start..start + length],
                    Span::new(base + start, base + start + length),
                )
            })
        })
        .collect()
}

/// Where component names are used: each `on_cursor.source`, action binding `from` and layout
/// `component:`.
fn component_uses(config: &Config) -> impl Iterator<Item = &Spanned<String>> {
    let drivers = config
        .components
        .iter()
        .filter_map(|component| component.on_cursor.as_ref()?.source.as_ref());
    let screens = config.dashboard.screens.iter().flat_map(|screen| {
        screen
            .actions
            .iter()
            .filter_map(|binding| binding.from.as_ref())
            .chain(&screen.placed)
    });
    drivers.chain(screens)
}

/// Where screen names are used: each `push` (on a binding or a registry action) and
/// `tui.initial`.
fn screen_uses(config: &Config) -> impl Iterator<Item = &Spanned<String>> {
    let dashboard = &config.dashboard;
    let bindings = dashboard
        .screens
        .iter()
        .flat_map(|screen| &screen.actions)
        .filter_map(|binding| binding.push.as_ref());
    let registry = dashboard
        .actions
        .iter()
        .filter_map(|action| action.push.as_ref());
    bindings.chain(registry).chain(&dashboard.initial)
}

/// Where action names are used: each binding's `action`.
fn action_uses(config: &Config) -> impl Iterator<Item = &Spanned<String>> {
    config
        .dashboard
        .screens
        .iter()
        .flat_map(|screen| &screen.actions)
        .filter_map(|binding| binding.action.as_ref())
}

/// The dashboard name (component, screen or action) under the cursor, declared or used.
fn dashboard_symbol_at(config: &Config, offset: usize) -> Option<(Symbol, Span)> {
    let component_names = config
        .components
        .iter()
        .filter_map(|component| component.name.as_ref());
    let components = component_names
        .map(|name| (name, true))
        .chain(component_uses(config).map(|name| (name, false)))
        .map(|(name, declared)| (name, declared, Symbol::Component as fn(String) -> Symbol));
    let screen_names = config
        .dashboard
        .screens
        .iter()
        .filter_map(|screen| screen.name.as_ref());
    let screens = screen_names
        .map(|name| (name, true))
        .chain(screen_uses(config).map(|name| (name, false)))
        .map(|(name, declared)| (name, declared, Symbol::Screen as fn(String) -> Symbol));
    let actions = config
        .dashboard
        .actions
        .iter()
        .map(|action| (&action.name, true))
        .chain(action_uses(config).map(|name| (name, false)))
        .map(|(name, declared)| (name, declared, Symbol::Action as fn(String) -> Symbol));
    let (name, declared, symbol) = components
        .chain(screens)
        .chain(actions)
        .find(|(name, _, _)| name.span.contains(offset))?;
    let span = occurrence(name.span, &name.value, declared).span;
    Some((symbol(name.value.clone()), span))
}

/// The name under the cursor, and the span of the name there.
pub(crate) fn symbol_at(config: &Config, text: &str, offset: usize) -> Option<(Symbol, Span)> {
    if let Some((token, span)) = context::template_around(text, offset)
        && let Some(parsed) = Template::parse(token).tokens().next()
        && let TokenKind::Param(name) = parsed.kind
        && let Some(entry) = config.entry_at(offset)
    {
        let start = span.start() + "${params.".len();
        let symbol = Symbol::Param {
            source: entry.name.value.to_string(),
            name: name.to_owned(),
        };
        return Some((symbol, Span::new(start, start + name.len())));
    }
    if let Some(entry) = config.entry_at(offset).filter(|entry| !entry.is_leaf())
        && let Some((name, span)) = param_tokens(text, entry)
            .into_iter()
            .find(|(_, span)| span.contains(offset))
    {
        let symbol = Symbol::Param {
            source: entry.name.value.to_string(),
            name: name.to_owned(),
        };
        return Some((symbol, span));
    }
    for entry in &config.entries {
        if entry.name.span.contains(offset) {
            let name = &entry.name.value;
            return Some((
                Symbol::Source(name.to_string()),
                occurrence(entry.name.span, name, true).span,
            ));
        }
        if !entry.span.contains(offset) {
            continue;
        }
        for (name, span) in declared_params(entry) {
            if span.contains(offset) {
                let symbol = Symbol::Param {
                    source: entry.name.value.to_string(),
                    name: name.to_owned(),
                };
                return Some((symbol, occurrence(span, name, true).span));
            }
        }
        for reference in entry.references() {
            if reference.name.span.contains(offset) {
                let name = reference.name.value;
                let span = occurrence(reference.name.span, &name, false).span;
                return Some((Symbol::Source(name), span));
            }
        }
        if let Body::Join(join) = &entry.body {
            for lookup in join.lookups.iter().flat_map(|lookups| lookups.value.iter()) {
                let Some(target) = &lookup.value.value.from else {
                    continue;
                };
                for binding in lookup.value.value.on.iter().flat_map(|on| on.value.iter()) {
                    if binding.name.span.contains(offset) {
                        let name = &binding.name.value;
                        let symbol = Symbol::Param {
                            source: target.value.clone(),
                            name: name.clone(),
                        };
                        return Some((symbol, occurrence(binding.name.span, name, false).span));
                    }
                }
            }
        }
    }
    for component in &config.components {
        if let Some(source) = component
            .source
            .as_ref()
            .filter(|source| source.span.contains(offset))
        {
            let span = occurrence(source.span, &source.value, false).span;
            return Some((Symbol::Source(source.value.clone()), span));
        }
    }
    dashboard_symbol_at(config, offset)
}

/// Where the symbol is declared.
pub(crate) fn declaration(config: &Config, symbol: &Symbol) -> Option<Occurrence> {
    match symbol {
        Symbol::Source(name) => config
            .get(name)
            .map(|entry| occurrence(entry.name.span, name, true)),
        Symbol::Param { source, name } => {
            let entry = config.get(source)?;
            declared_params(entry)
                .find(|(declared, _)| declared == name)
                .map(|(_, span)| occurrence(span, name, true))
        }
        Symbol::Component(name) => config
            .components
            .iter()
            .find_map(|component| component.name.as_ref().filter(|own| &own.value == name))
            .map(|own| occurrence(own.span, name, true)),
        Symbol::Screen(name) => config
            .dashboard
            .screen(name)
            .and_then(|screen| screen.name.as_ref())
            .map(|own| occurrence(own.span, name, true)),
        Symbol::Action(name) => config
            .dashboard
            .actions
            .iter()
            .find(|action| &action.name.value == name)
            .map(|action| occurrence(action.name.span, name, true)),
    }
}

/// Every occurrence of the symbol, declaration first, then in source order.
pub(crate) fn occurrences(
    config: &Config,
    text: &str,
    syntax: Syntax,
    symbol: &Symbol,
) -> Vec<Occurrence> {
    let mut found: Vec<Occurrence> = declaration(config, symbol).into_iter().collect();
    match symbol {
        Symbol::Source(name) => {
            for (_, reference) in config.references() {
                if &reference.name.value == name {
                    found.push(occurrence(reference.name.span, name, false));
                }
            }
            toml_headers(&mut found, text, syntax, ["data", "sources"], name);
            for source in config
                .components
                .iter()
                .filter_map(|component| component.source.as_ref())
            {
                if &source.value == name {
                    found.push(occurrence(source.span, name, false));
                }
            }
        }
        Symbol::Param { source, name } => {
            if let Some(entry) = config.get(source) {
                for (token, span) in param_tokens(text, entry) {
                    if token == name {
                        found.push(Occurrence {
                            span,
                            editable: true,
                            declaration: false,
                        });
                    }
                }
            }
            for (key, span) in join_bindings(config, source) {
                if key == name {
                    found.push(occurrence(span, name, false));
                }
            }
        }
        Symbol::Component(name) => {
            for used in component_uses(config).filter(|used| &used.value == name) {
                found.push(occurrence(used.span, name, false));
            }
            toml_headers(&mut found, text, syntax, ["tui", "components"], name);
        }
        Symbol::Screen(name) => {
            for used in screen_uses(config).filter(|used| &used.value == name) {
                found.push(occurrence(used.span, name, false));
            }
            toml_headers(&mut found, text, syntax, ["tui", "screens"], name);
        }
        Symbol::Action(name) => {
            for used in action_uses(config).filter(|used| &used.value == name) {
                found.push(occurrence(used.span, name, false));
            }
        }
    }
    found.sort_by_key(|occurrence| (!occurrence.declaration, occurrence.span.start()));
    found
}

/// In TOML, the table headers below `parent` that repeat `name`, beside the occurrences found.
fn toml_headers(
    found: &mut Vec<Occurrence>,
    text: &str,
    syntax: Syntax,
    parent: [&str; 2],
    name: &str,
) {
    if syntax != Syntax::Toml {
        return;
    }
    for span in context::toml_headers_naming(text, parent, name) {
        if !found.iter().any(|occurrence| occurrence.span == span) {
            found.push(Occurrence {
                span,
                editable: true,
                declaration: false,
            });
        }
    }
}

/// Whether a new name is already taken where the symbol lives.
pub(crate) fn is_taken(config: &Config, symbol: &Symbol, new_name: &str) -> bool {
    match symbol {
        Symbol::Source(_) => config.get(new_name).is_some(),
        Symbol::Param { source, .. } => config
            .get(source)
            .is_some_and(|entry| declared_params(entry).any(|(declared, _)| declared == new_name)),
        Symbol::Component(_) => config
            .components
            .iter()
            .any(|component| component.name() == Some(new_name)),
        Symbol::Screen(_) => config.dashboard.screen(new_name).is_some(),
        Symbol::Action(_) => config
            .dashboard
            .actions
            .iter()
            .any(|action| action.name.value == new_name),
    }
}
