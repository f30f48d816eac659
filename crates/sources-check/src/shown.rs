//! Where a component is shown and what binds its source's parameters there: its own `on_cursor`,
//! and on a pushed screen the `bind` of each binding that pushes it. One function answers "which
//! parameters of the entry a component shows are bound, and by what"; `unbound-param` and the
//! checks of `bind` keys read it. A push that names no screen stands for the screen its name
//! misspells (`unknown-screen` reports the name, with that did-you-mean): what lies behind it is
//! checked in the same run.

use sources_config::{Bind, Component, Config, Dashboard, Push, Screen};
use sources_diagnostics::did_you_mean;

/// One way a component can come on screen, and the bindings that fill its source's parameters
/// that way.
#[derive(Clone, Debug)]
pub struct Showing<'a> {
    /// The screen it is placed on (`None` when the document declares no screens).
    pub screen: Option<&'a Screen>,
    /// The push that shows that screen (`None` when the screen is shown without one).
    pub push: Option<Push<'a>>,
}

impl<'a> Showing<'a> {
    /// The parameters bound this way: the component's `on_cursor.bind` keys, then the push's.
    pub fn bound(&self, component: &'a Component) -> impl Iterator<Item = &'a Bind> {
        let cursor = component
            .on_cursor
            .iter()
            .flat_map(|on_cursor| on_cursor.bind.iter());
        let push = self.push.iter().flat_map(|push| push.binding.bind.iter());
        cursor.chain(push)
    }

    /// The binding sites looked at this way, for a message: "its `on_cursor`, the push to
    /// screen `pod` from screen `pods`".
    pub fn describe(&self, component: &Component) -> String {
        let mut sites = Vec::new();
        if component.on_cursor.is_some() {
            sites.push("its `on_cursor`".to_owned());
        }
        match (&self.push, self.screen) {
            (
                Some(push),
                Some(Screen {
                    name: Some(name), ..
                }),
            ) if name.value != push.target.value => sites.push(format!(
                "the push to screen `{}` (written `{}`) from {}",
                name.value,
                push.target.value,
                push.on.describe()
            )),
            (Some(push), _) => sites.push(format!(
                "the push to screen `{}` from {}",
                push.target.value,
                push.on.describe()
            )),
            (None, Some(screen)) => {
                sites.push(format!("{}, shown without a push", screen.describe()))
            }
            (None, None) => {}
        }
        let mut text = sites.join(", ");
        if component.on_cursor.is_none() {
            let own = component
                .name()
                .map_or_else(|| "the component".to_owned(), |name| format!("`{name}`"));
            if text.is_empty() {
                text = format!("{own} has no `on_cursor`");
            } else {
                text.push_str(&format!(" ({own} has no `on_cursor`)"));
            }
        }
        text
    }
}

/// Every way `component` comes on screen. A document without screens is taken to show every
/// component on one screen nothing pushes; with screens, a component no layout places is never
/// shown and has none.
pub fn showings<'a>(config: &'a Config, component: &'a Component) -> Vec<Showing<'a>> {
    let dashboard = &config.dashboard;
    if dashboard.screens.is_empty() {
        return vec![Showing {
            screen: None,
            push: None,
        }];
    }
    let Some(name) = component.name() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for screen in dashboard
        .screens
        .iter()
        .filter(|screen| screen.places(name))
    {
        if dashboard.is_root(screen) && !misses_a_push(config, screen) {
            out.push(Showing {
                screen: Some(screen),
                push: None,
            });
        }
        out.extend(
            pushes_opening(config, screen)
                .into_iter()
                .map(|push| Showing {
                    screen: Some(screen),
                    push: Some(push),
                }),
        );
    }
    out
}

/// The name of the screen `push` shows: the one it names, or, when no screen has that name, the
/// one it misspells by the did-you-mean rule, other than the screen the push is on (`None` when it
/// is like none).
pub fn pushed<'a>(dashboard: &'a Dashboard, push: &Push<'a>) -> Option<&'a str> {
    let target = push.target.value.as_str();
    if dashboard.screen(target).is_some() {
        return Some(target);
    }
    let on = push.on.name.as_ref().map(|name| name.value.as_str());
    let names = dashboard
        .screens
        .iter()
        .filter_map(|screen| screen.name.as_ref())
        .map(|name| name.value.as_str())
        .filter(|name| Some(*name) != on);
    did_you_mean(target, names).first().copied()
}

/// The pushes that open `screen`: those naming it, and those whose name misspells it
/// ([`pushed`]).
pub fn pushes_opening<'a>(config: &'a Config, screen: &Screen) -> Vec<Push<'a>> {
    let dashboard = &config.dashboard;
    let Some(name) = &screen.name else {
        return Vec::new();
    };
    dashboard
        .pushes()
        .filter(|push| pushed(dashboard, push) == Some(name.value.as_str()))
        .collect()
}

/// Whether the dashboard ever shows `screen`: it is the root (the single `tui.screen`, or the one
/// `tui.initial` names) or a push opens it.
pub fn is_shown(config: &Config, screen: &Screen) -> bool {
    config.dashboard.is_root(screen) || !pushes_opening(config, screen).is_empty()
}

/// Whether `screen` is probably the one a misspelt push meant: it is not the first screen, and
/// some push names a screen that does not exist and is like no screen (that push's mistake is
/// `unknown-screen`'s to report, once). A push whose name is like `screen`'s shows it
/// ([`pushed`]).
fn misses_a_push(config: &Config, screen: &Screen) -> bool {
    let dashboard = &config.dashboard;
    let first = screen.name.is_none()
        || screen
            .name
            .as_ref()
            .zip(dashboard.initial.as_ref())
            .is_some_and(|(name, initial)| name.value == initial.value);
    let name = screen.name.as_ref().map(|name| name.value.as_str());
    !first
        && dashboard.pushes().any(|push| {
            dashboard.screen(&push.target.value).is_none()
                && pushed(dashboard, &push).is_none_or(|meant| Some(meant) == name)
        })
}

/// The components a push shows: those the pushed screen ([`pushed`]) places.
pub fn pushed_components<'a>(config: &'a Config, push: &Push<'a>) -> Vec<&'a Component> {
    let Some(screen) =
        pushed(&config.dashboard, push).and_then(|name| config.dashboard.screen(name))
    else {
        return Vec::new();
    };
    config
        .components
        .iter()
        .filter(|component| component.name().is_some_and(|name| screen.places(name)))
        .collect()
}
