//! Who fills a selection: a binding's `from` is there exactly when the binding reads a selection
//! (`binding-from`), `interactive` is on an action that can hand over the terminal (an `exec`
//! run once), and a `${selection…}` token is written only where a selection fills it
//! (`unfilled-selection`): on a pushed screen, or in a binding's `bind` and `confirm`.

use std::cell::OnceCell;

use sources_config::template::{Template, TokenKind};
use sources_config::{ActionBinding, Component, Config, Screen, Spanned, Text};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span};

use crate::shown;
use crate::templates::text_span;

/// `binding-from` and the `interactive` rules over every binding of every screen.
pub(crate) fn check_bindings(config: &Config, file: &str, out: &mut Collector) {
    for screen in &config.dashboard.screens {
        for binding in &screen.actions {
            check_from(config, screen, binding, file, out);
            check_interactive(config, binding, out);
        }
    }
}

/// The first `${selection…}` token of `template`, as its span in the file and its text.
fn first_selection(file: &str, template: &Spanned<Text>) -> Option<(Span, String)> {
    let text = template.value.text.as_str();
    if !text.contains("${selection") {
        return None;
    }
    let parsed = Template::parse(text);
    let token = parsed
        .tokens()
        .find(|token| matches!(token.kind, TokenKind::Selection(_)))?;
    let span = text_span(
        file,
        text,
        template.value.style,
        template.span,
        token.range.clone(),
    );
    Some((span, text[token.range.clone()].to_owned()))
}

/// How a binding is named in a message: "the binding of `open_app`" or "a binding".
fn describe(binding: &ActionBinding) -> String {
    match binding.action.as_ref().or(binding.name.as_ref()) {
        Some(name) => format!("the binding of `{}`", name.value),
        None => "a binding".to_owned(),
    }
}

fn check_from(
    config: &Config,
    screen: &Screen,
    binding: &ActionBinding,
    file: &str,
    out: &mut Collector,
) {
    let dashboard = &config.dashboard;
    let kind = dashboard.binding_kind(binding);
    let pushed = dashboard.push_target(binding);
    let read = binding
        .selection_templates()
        .find_map(|template| first_selection(file, template));
    match (&binding.from, pushed, read) {
        (None, Some(target), _) => {
            let at = binding
                .action
                .as_ref()
                .filter(|_| binding.push.is_none())
                .map_or(target.span, |action| action.span);
            out.push(
                Diagnostic::new(
                    Rule::BindingFrom,
                    at,
                    format!(
                        "{} on {} pushes screen `{}` without `from`: a push opens its screen on the focused row of `from`",
                        describe(binding),
                        screen.describe(),
                        target.value
                    ),
                )
                .with_label("no `from`")
                .with_help(missing_from_help(config, screen)),
            );
        }
        (None, None, Some((span, token))) => out.push(
            Diagnostic::new(
                Rule::BindingFrom,
                span,
                format!(
                    "`{token}` in {} on {}, which has no `from`: no component's focused row fills it",
                    describe(binding),
                    screen.describe()
                ),
            )
            .with_label("read without `from`")
            .with_help(missing_from_help(config, screen)),
        ),
        (Some(from), None, None) if kind.is_some() && !is_multi(config, binding) => out.push(
            Diagnostic::new(
                Rule::BindingFrom,
                from.span,
                format!(
                    "`from: {}` on {} of {}, which reads no selection: the dashboard refuses a `from` nothing reads",
                    from.value,
                    describe(binding),
                    screen.describe()
                ),
            )
            .with_label("nothing reads it")
            .with_help(
                "remove `from` (the key then fires whichever component has focus), or read the row in `bind` or `confirm` (`${selection.Name}`)",
            ),
        ),
        _ => {}
    }
}

/// Whether the action a binding fires runs over marked rows (`multi: true`), for which `from`
/// names whose marks it reads.
fn is_multi(config: &Config, binding: &ActionBinding) -> bool {
    binding.multi
        || config
            .dashboard
            .action_of(binding)
            .is_some_and(|action| action.multi)
}

/// The help of a missing `from`: the components of the screen that have a focused row.
fn missing_from_help(config: &Config, screen: &Screen) -> String {
    let drivers: Vec<&str> = screen
        .placed
        .iter()
        .filter_map(|placed| crate::drivers::driver_named(config, &placed.value))
        .filter_map(Component::name)
        .collect();
    match drivers.as_slice() {
        [] => format!(
            "add `from:` naming a table, list or tree {} places, whose focused row the binding reads",
            screen.describe()
        ),
        [only] => format!("add `from: {only}`, the component whose focused row the binding reads"),
        many => format!(
            "add `from:` naming the component whose focused row the binding reads: {}",
            crate::drivers::quoted(many)
        ),
    }
}

/// `interactive: true` on a binding of a registry `http` action (`unknown-field`, as on an inline
/// one) or of a `multi` action (`conflicting-fields`): the origin refuses both.
fn check_interactive(config: &Config, binding: &ActionBinding, out: &mut Collector) {
    let Some(span) = binding.interactive else {
        return;
    };
    let action = config.dashboard.action_of(binding);
    let inline = binding.kind.is_some() || binding.push.is_some() || action.is_none();
    if let Some(action) = action.filter(|action| !inline && action.kind_name() == "http") {
        let mut diagnostic = Diagnostic::new(
            Rule::UnknownField,
            span,
            format!(
                "`interactive` applies to `exec`, not `http`: `{}` is an http action, with no terminal to hand over",
                action.name.value
            ),
        )
        .with_label("not on an http action")
        .with_help("remove `interactive`: an http action's response goes to the output console");
        if let Some(kind) = &action.kind {
            diagnostic = diagnostic.with_secondary(kind.span, "an http action");
        }
        out.push(diagnostic);
        return;
    }
    if is_multi(config, binding) {
        let name = binding
            .action
            .as_ref()
            .or(binding.name.as_ref())
            .map_or("the action", |name| name.value.as_str());
        out.push(
            Diagnostic::new(
                Rule::ConflictingFields,
                span,
                format!(
                    "`interactive: true` on a binding of `{name}`, a `multi` action: the terminal goes to one process at a time"
                ),
            )
            .with_label("conflicts with `multi`")
            .with_help("remove `interactive`, or make the action run once (`multi: false`)"),
        );
    }
}

/// Whether a selection fills the tokens read on `screen`: a push opens it.
fn filled(config: &Config, screen: &Screen) -> bool {
    !shown::pushes_opening(config, screen).is_empty()
}

/// Whether the component is placed only on screens shown without a push (and on one at least).
fn only_unpushed(config: &Config, component: &Component) -> bool {
    let Some(name) = component.name() else {
        return false;
    };
    let mut placed = config
        .dashboard
        .screens
        .iter()
        .filter(|screen| screen.places(name))
        .peekable();
    placed.peek().is_some()
        && placed.all(|screen| config.dashboard.is_root(screen) && !filled(config, screen))
}

/// `unfilled-selection` for the `${selection…}` tokens of screens shown only without a push: their
/// titles, the templates and `on_cursor.bind` of the components placed only there, and the fields
/// of the entries only such components show (and no other entry reads).
pub(crate) fn check_unfilled(config: &Config, file: &str, out: &mut Collector) {
    let dashboard = &config.dashboard;
    for screen in &dashboard.screens {
        if !dashboard.is_root(screen) || filled(config, screen) {
            continue;
        }
        if let Some(title) = &screen.title {
            let what = format!("the title of {}, which no push opens", screen.describe());
            unfilled(file, title, &what, out);
        }
    }
    let read_by_entries = OnceCell::new();
    for component in &config.components {
        if !only_unpushed(config, component) {
            continue;
        }
        let who = component.describe();
        let placed = "placed only where no push opens the screen";
        for template in &component.templates {
            unfilled(file, template, &format!("{who}, {placed}"), out);
        }
        for bind in component.on_cursor.iter().flat_map(|on| &on.bind) {
            if let Some(template) = &bind.template {
                let what = format!("the `on_cursor` of {who}, {placed}");
                unfilled(file, template, &what, out);
            }
        }
        let Some(entry) = config.shown_by(component) else {
            continue;
        };
        let name = entry.name.value.as_str();
        // The first component showing the entry reports it, once the others show it unpushed too.
        let mut showing = config.components_bound_to(name);
        if !showing
            .next()
            .is_some_and(|first| std::ptr::eq(first, component))
            || !config
                .components_bound_to(name)
                .all(|other| other.name().is_none() || only_unpushed(config, other))
        {
            continue;
        }
        let sites = crate::templates::sites(entry);
        if !sites.iter().any(|site| site.text.contains("${selection")) {
            continue;
        }
        let read: &Vec<String> = read_by_entries.get_or_init(|| {
            config
                .references()
                .into_iter()
                .map(|(_, reference)| reference.name.value)
                .collect()
        });
        if read.iter().any(|read| read == name) {
            continue;
        }
        for site in sites {
            let text = Spanned::new(
                Text {
                    text: site.text.into(),
                    style: site.style,
                },
                site.span,
            );
            let what = format!("entry `{name}`, shown only by {who}, {placed}");
            unfilled(file, &text, &what, out);
        }
    }
}

/// `unfilled-selection` for the first `${selection…}` token of `template`, written in `what`.
fn unfilled(file: &str, template: &Spanned<Text>, what: &str, out: &mut Collector) {
    let Some((span, token)) = first_selection(file, template) else {
        return;
    };
    out.push(
        Diagnostic::new(
            Rule::UnfilledSelection,
            span,
            format!(
                "`{token}` in {what}: no selection fills it, so it stays literal"
            ),
        )
        .with_label("never filled")
        .with_help(
            "read the row where it is filled: bind it into a parameter in the `bind` of a push (`${selection.Name}`) or of an `on_cursor` (`${cursor.Name}`) and read `${params.NAME}` here; or remove the token",
        ),
    );
}
