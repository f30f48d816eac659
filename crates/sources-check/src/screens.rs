//! The rules of the dashboard's screens and components that read more than one map: what each
//! screen's layout places (`unknown-component` for a name no component has, `duplicate-placement`
//! for a component placed twice), the keys its action bindings take (`binding-key`), and the
//! component fields a source's window rules out or needs (`window-component-field`).

use sources_config::vocabulary::RESERVED_KEYS;
use sources_config::{Component, ComponentKind, Config, Screen, Spanned};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span};

/// `unknown-component` and `duplicate-placement` over every screen's layout.
pub(crate) fn check_layouts(config: &Config, out: &mut Collector) {
    let names: Vec<&str> = config
        .components
        .iter()
        .filter_map(Component::name)
        .collect();
    for screen in &config.dashboard.screens {
        for (index, placed) in screen.placed.iter().enumerate() {
            crate::references::unknown_component(
                placed,
                &names,
                format!(
                    "the layout of {} places unknown component `{}`",
                    screen.describe(),
                    placed.value
                ),
                out,
            );
            if let Some(first) = screen.placed[..index]
                .iter()
                .find(|earlier| earlier.value == placed.value)
            {
                out.push(
                    Diagnostic::new(
                        Rule::DuplicatePlacement,
                        placed.span,
                        format!(
                            "the layout of {} places component `{}` a second time",
                            screen.describe(),
                            placed.value
                        ),
                    )
                    .with_label("placed again here")
                    .with_secondary(first.span, "first placed here")
                    .with_help(
                        "place it once; to show the source twice, declare a second component with the same `source`",
                    ),
                );
            }
        }
    }
}

/// `binding-key` for each binding of a screen on a reserved key, on a key `app` keeps, or on a
/// key an earlier binding of the screen takes.
pub(crate) fn check_binding_keys(config: &Config, out: &mut Collector) {
    for screen in &config.dashboard.screens {
        check_screen_keys(config, screen, out);
    }
}

fn check_screen_keys(config: &Config, screen: &Screen, out: &mut Collector) {
    let mut taken: Vec<&Spanned<String>> = Vec::new();
    for key in screen
        .actions
        .iter()
        .filter_map(|binding| binding.key.as_ref())
    {
        let written = key.value.as_str();
        let app_key = app_key(config, written);
        let diagnostic = if RESERVED_KEYS.contains(&written) {
            Some(
                Diagnostic::new(
                    Rule::BindingKey,
                    key.span,
                    format!(
                        "an action of {} is bound to `{written}`, which the dashboard keeps ({})",
                        screen.describe(),
                        reserved_use(written)
                    ),
                )
                .with_label("reserved key"),
            )
        } else if let Some((field, set)) = app_key {
            let mut diagnostic = Diagnostic::new(
                Rule::BindingKey,
                key.span,
                format!(
                    "an action of {} is bound to `{written}`, the key of `app.{field}`",
                    screen.describe()
                ),
            )
            .with_label(format!("`app.{field}`"));
            if let Some(set) = set {
                diagnostic = diagnostic.with_secondary(set, "set here");
            }
            Some(diagnostic)
        } else {
            taken
                .iter()
                .find(|earlier| earlier.value == written)
                .map(|earlier| {
                    Diagnostic::new(
                        Rule::BindingKey,
                        key.span,
                        format!(
                            "two actions of {} are bound to `{written}`",
                            screen.describe()
                        ),
                    )
                    .with_label("bound again here")
                    .with_secondary(earlier.span, "first bound here")
                })
        };
        if let Some(diagnostic) = diagnostic {
            out.push(diagnostic.with_help(
                "pick a key no other binding of the screen and no dashboard command uses, or leave out `key` to offer the action in the menu only",
            ));
        }
        taken.push(key);
    }
}

/// What a reserved key does.
fn reserved_use(key: &str) -> &'static str {
    match key {
        "q" | "ctrl+c" => "it quits",
        "ctrl+z" => "it suspends the dashboard",
        "?" => "it opens the key overlay",
        "esc" => "it closes the screen",
        "tab" | "shift+tab" => "it moves the focus",
        _ => "it refreshes every source",
    }
}

/// The `app` field whose key `key` is (with where it is set, when it is set), by default `a`, `t`
/// and `o`; `-` turns a key off.
fn app_key(config: &Config, key: &str) -> Option<(&'static str, Option<Span>)> {
    [
        ("actions_key", "a"),
        ("theme_key", "t"),
        ("output_key", "o"),
    ]
    .into_iter()
    .find_map(|(field, default)| {
        let set = config
            .dashboard
            .app_keys
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, value)| value);
        let current = set.map_or(default, |value| value.value.as_str());
        (current != "-" && current == key).then(|| (field, set.map(|value| value.span)))
    })
}

/// `window-component-field` for each table with `markable: true` over a windowed source, or
/// `sort_debounce` over a source without a window.
pub(crate) fn check_window_fields(config: &Config, out: &mut Collector) {
    for component in &config.components {
        if !component.is(&ComponentKind::Table) {
            continue;
        }
        let Some(binding) = &component.source else {
            if let Some(key) = component.key("sort_debounce") {
                out.push(
                    Diagnostic::new(
                        Rule::WindowComponentField,
                        key,
                        format!(
                            "`sort_debounce` on {}, which shows no source: a static table sorts its own rows at once",
                            component.describe()
                        ),
                    )
                    .with_label("nothing to debounce")
                    .with_help("remove `sort_debounce`"),
                );
            }
            continue;
        };
        let Some(entry) = config.get(&binding.value) else {
            continue;
        };
        let window = entry.body.window();
        match (window, component.key("markable"), component.key("sort_debounce")) {
            (Some(window), Some(markable), _) if component.markable => out.push(
                Diagnostic::new(
                    Rule::WindowComponentField,
                    markable,
                    format!(
                        "`markable` on {}, which shows `{}`, a windowed source: a window holds rows without the identities marks are kept by",
                        component.describe(),
                        binding.value
                    ),
                )
                .with_label("not over a window")
                .with_secondary(window.key_span, "windowed here")
                .with_help(format!(
                    "remove `markable`, or show a source that returns every row (without `window`) in the table `{}`",
                    component.name().unwrap_or("it")
                )),
            ),
            (None, _, Some(debounce)) => out.push(
                Diagnostic::new(
                    Rule::WindowComponentField,
                    debounce,
                    format!(
                        "`sort_debounce` on {}, which shows `{}`, a source without `window`: the table sorts its own rows at once, so there is no request to delay",
                        component.describe(),
                        binding.value
                    ),
                )
                .with_label("only over a window")
                .with_secondary(entry.name.span, "declared here without `window`")
                .with_help("remove `sort_debounce`, or give the source a `window`"),
            ),
            _ => {}
        }
    }
}

/// `unshown-screen` for each screen of `tui.screens` that is neither the one `tui.initial` names
/// nor opened by a push. Judged only when `initial` names a screen (else `missing-field` or
/// `unknown-screen` says what is wrong), and not while a push names no screen (it may have meant
/// this one: `unknown-screen` reports that push, and the one mistake is said once).
pub(crate) fn check_unshown(config: &Config, out: &mut Collector) {
    let dashboard = &config.dashboard;
    let Some(initial) = dashboard
        .initial
        .as_ref()
        .filter(|_| dashboard.initial_screen().is_some())
    else {
        return;
    };
    if dashboard
        .pushes()
        .any(|push| dashboard.screen(&push.target.value).is_none())
    {
        return;
    }
    for screen in &dashboard.screens {
        let Some(name) = &screen.name else {
            continue;
        };
        if crate::shown::is_shown(config, screen) {
            continue;
        }
        out.push(
            Diagnostic::new(
                Rule::UnshownScreen,
                name.span,
                format!(
                    "screen `{}` is neither `tui.initial` nor opened by any push: the dashboard never shows it",
                    name.value
                ),
            )
            .with_label("never shown")
            .with_secondary(initial.span, format!("the dashboard opens `{}`", initial.value))
            .with_help(format!(
                "open it from a binding of a shown screen (`push: {}` with `from:`), make it `tui.initial`, or remove it",
                name.value
            )),
        );
    }
}
