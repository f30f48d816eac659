//! What the dashboard's bindings point at: a `push` or `tui.initial` names a screen
//! (`unknown-screen`), a driver (`on_cursor.source`, an action's `from`) has a focused row
//! (`driver-kind`), and the `${cursor…}` / `${selection…}` tokens of a binding, and the
//! `${selection…}` tokens a pushed screen reads, name a column the driving table has
//! (`unknown-column`).

use sources_config::template::{Template, TemplateErrorKind, TokenKind};
use sources_config::{Bind, Component, ComponentKind, Config, Spanned, Text};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span, did_you_mean};

use crate::references::unknown_name;
use crate::templates::text_span;

/// Every driver and screen rule.
pub(crate) fn check_drivers(config: &Config, file: &str, out: &mut Collector) {
    check_screens(config, out);
    for component in &config.components {
        let Some(on_cursor) = &component.on_cursor else {
            continue;
        };
        let Some(driver) = on_cursor
            .source
            .as_ref()
            .and_then(|source| driver(config, source, out))
        else {
            continue;
        };
        for bind in &on_cursor.bind {
            check_tokens(
                driver,
                bind.template.as_ref(),
                RowNamespace::Cursor,
                file,
                out,
            );
        }
    }
    for screen in &config.dashboard.screens {
        for component in &config.components {
            let placed = component.name().is_some_and(|name| screen.places(name));
            let driver = component
                .on_cursor
                .as_ref()
                .and_then(|on| on.source.as_ref());
            if let (true, Some(driver)) = (placed, driver) {
                not_placed(config, screen, driver, "`on_cursor.source`", out);
            }
        }
        for binding in &screen.actions {
            let Some(driver) = binding.from.as_ref().and_then(|from| {
                not_placed(config, screen, from, "`from`", out);
                driver(config, from, out)
            }) else {
                continue;
            };
            let templates = binding
                .bind
                .iter()
                .filter_map(|bind: &Bind| bind.template.as_ref())
                .chain(binding.confirm.as_ref());
            for template in templates {
                check_tokens(driver, Some(template), RowNamespace::Selection, file, out);
            }
        }
    }
    check_pushed_screens(config, file, out);
}

/// `unknown-column` for the `${selection…}` tokens a pushed screen reads outside its bindings: its
/// `title`, the templates of the components it places and the fields of the entries they show,
/// against the `from` component of the pushes that open it. A template reached from screens
/// pushed from different drivers is left alone (a title may be right for one and not another).
fn check_pushed_screens(config: &Config, file: &str, out: &mut Collector) {
    let dashboard = &config.dashboard;
    // Each template with the one driver whose selection fills it, `None` once two disagree.
    let mut read: Vec<(Spanned<Text>, Option<&Component>)> = Vec::new();
    fn note<'a>(
        read: &mut Vec<(Spanned<Text>, Option<&'a Component>)>,
        template: Spanned<Text>,
        driver: &'a Component,
    ) {
        if !template.value.text.contains("${selection.") {
            return;
        }
        match read.iter_mut().find(|(seen, _)| seen.span == template.span) {
            Some((_, known)) => {
                if known.is_some_and(|known| !std::ptr::eq(known, driver)) {
                    *known = None;
                }
            }
            None => read.push((template, Some(driver))),
        }
    }
    for screen in &dashboard.screens {
        let Some(name) = &screen.name else {
            continue;
        };
        let mut drivers = dashboard
            .pushes()
            .filter(|push| push.target.value == name.value)
            .filter_map(|push| driver_named(config, &push.binding.from.as_ref()?.value));
        let Some(driver) = drivers.next() else {
            continue;
        };
        if drivers.any(|other| !std::ptr::eq(other, driver)) {
            continue;
        }
        if let Some(title) = &screen.title {
            note(&mut read, title.clone(), driver);
        }
        let placed = config
            .components
            .iter()
            .filter(|component| component.name().is_some_and(|own| screen.places(own)));
        for component in placed {
            for template in &component.templates {
                note(&mut read, template.clone(), driver);
            }
            let Some(entry) = config.shown_by(component) else {
                continue;
            };
            for site in crate::templates::sites(entry) {
                let text = Text {
                    text: site.text.into(),
                    style: site.style,
                };
                note(&mut read, Spanned::new(text, site.span), driver);
            }
        }
    }
    for (template, driver) in &read {
        if let Some(driver) = driver {
            check_tokens(driver, Some(template), RowNamespace::Selection, file, out);
        }
    }
}

/// `unknown-screen` for a `push` and for `tui.initial`.
fn check_screens(config: &Config, out: &mut Collector) {
    let dashboard = &config.dashboard;
    let names: Vec<&str> = dashboard
        .screens
        .iter()
        .filter_map(|screen| screen.name.as_ref().map(|name| name.value.as_str()))
        .collect();
    let mut named: Vec<(&Spanned<String>, String)> = Vec::new();
    if let Some(initial) = &dashboard.initial {
        named.push((
            initial,
            format!("`tui.initial` names no screen `{}`", initial.value),
        ));
    }
    for action in &dashboard.actions {
        if let Some(push) = &action.push {
            named.push((
                push,
                format!(
                    "action `{}` pushes unknown screen `{}`",
                    action.name.value, push.value
                ),
            ));
        }
    }
    for screen in &dashboard.screens {
        for push in screen
            .actions
            .iter()
            .filter_map(|binding| binding.push.as_ref())
        {
            named.push((
                push,
                format!(
                    "an action of {} pushes unknown screen `{}`",
                    screen.describe(),
                    push.value
                ),
            ));
        }
    }
    for (name, message) in named {
        if names.contains(&name.value.as_str()) {
            continue;
        }
        out.push(unknown_name(
            Rule::UnknownScreen,
            name,
            names.iter().copied(),
            message,
            "no screen of `tui.screens` has this name",
            format!(
                "define a screen named `{}` under `tui.screens`, or name an existing one",
                name.value
            ),
        ));
    }
}

/// `driver-placement` when `named` is a component that `screen` does not place (a name that
/// matches no component is `unknown-component`'s to report).
fn not_placed(
    config: &Config,
    screen: &sources_config::Screen,
    named: &Spanned<String>,
    what: &str,
    out: &mut Collector,
) {
    let name = named.value.as_str();
    let exists = config
        .components
        .iter()
        .any(|component| component.name() == Some(name));
    if !exists || screen.places(name) {
        return;
    }
    out.push(
        Diagnostic::new(
            Rule::DriverPlacement,
            named.span,
            format!(
                "{what} names `{name}`, which {} does not place: it has no focused row there",
                screen.describe()
            ),
        )
        .with_label("not on this screen")
        .with_secondary(screen.span, "the screen")
        .with_help(format!(
            "name a table, list or tree {} places, or place `{name}` in its layout",
            screen.describe()
        )),
    );
}

/// The component a driver names, when it exists; `driver-kind` when its kind has no focused row.
/// (A name that matches no component is `unknown-component`'s to report.)
fn driver<'a>(
    config: &'a Config,
    named: &Spanned<String>,
    out: &mut Collector,
) -> Option<&'a Component> {
    let component = config
        .components
        .iter()
        .find(|component| component.name() == Some(named.value.as_str()))?;
    let kind = component.kind.as_ref()?;
    let has_row = kind.value.has_cursor();
    // A kind we do not know may well have a cursor: only the kinds known to have none are judged.
    let known_without = matches!(kind.value, ComponentKind::Eventlog)
        || matches!(kind.value.as_str(), "inspector" | "logview" | "textview");
    if !has_row && known_without {
        out.push(
            Diagnostic::new(
                Rule::DriverKind,
                named.span,
                format!(
                    "`{}` is {}, which has no focused row to bind from",
                    named.value,
                    article(kind.value.as_str())
                ),
            )
            .with_label("not a table, list or tree")
            .with_secondary(kind.span, "its kind")
            .with_help(
                "drive the binding from a table, list or tree that shows the rows to pick from",
            ),
        );
        return None;
    }
    has_row.then_some(component)
}

fn article(kind: &str) -> String {
    match kind.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {kind}"),
        _ => format!("a {kind}"),
    }
}

/// Which focused row a binding's token reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowNamespace {
    /// `${cursor…}` in `on_cursor.bind`: the driver's live focused row.
    Cursor,
    /// `${selection…}` in an action binding's `bind` and `confirm`: the `from` component's row.
    Selection,
}

impl RowNamespace {
    /// The namespace as written in a token.
    pub fn as_str(self) -> &'static str {
        match self {
            RowNamespace::Cursor => "cursor",
            RowNamespace::Selection => "selection",
        }
    }

    /// What the dashboard does with a token of this namespace that reads nothing.
    pub fn fate(self) -> &'static str {
        match self {
            RowNamespace::Cursor => "it renders empty",
            RowNamespace::Selection => "it stays literal",
        }
    }
}

/// What a `${cursor.NAME}` or `${selection.NAME}` token may name on a driver besides a 1-based
/// cell number: the facts `unknown-column` judges by, and the names the editor completes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowNames<'a> {
    /// A table's column titles in order, hidden ones included; a token matches one ignoring case,
    /// and otherwise exactly (spaces included: `${cursor.Last Seen}`).
    pub titles: Vec<&'a str>,
    /// The words the driver's kind gives the namespace: a table's `depth` and `path` (its cell
    /// count and its cells joined with `/`), a list's `item` and `label`, a tree's `label`.
    pub words: &'static [&'static str],
}

/// The names a token of `namespace` can read on `driver` (templating.md's "Cursor" table).
pub fn row_names(driver: &Component, namespace: RowNamespace) -> RowNames<'_> {
    let kind = driver.kind.as_ref().map(|kind| &kind.value);
    let words: &'static [&'static str] = match (namespace, kind) {
        (RowNamespace::Cursor, Some(ComponentKind::Table)) => &["depth", "path"],
        (RowNamespace::Cursor, Some(ComponentKind::List)) => &["item", "label", "depth", "path"],
        (RowNamespace::Cursor, Some(ComponentKind::Tree)) => &["label", "depth", "path"],
        _ => &[],
    };
    let titles = match kind {
        Some(ComponentKind::Table) => driver.titles().map(|title| title.value.as_str()).collect(),
        _ => Vec::new(),
    };
    RowNames { titles, words }
}

/// The component named `name` when its kind has a focused row to bind from (a table, list or
/// tree): the driver of an `on_cursor.source` or an action's `from`.
pub fn driver_named<'a>(config: &'a Config, name: &str) -> Option<&'a Component> {
    config
        .components
        .iter()
        .find(|component| component.name() == Some(name))
        .filter(|component| {
            component
                .kind
                .as_ref()
                .is_some_and(|kind| kind.value.has_cursor())
        })
}

/// The drivers whose focused row a `${selection…}` written at `offset` reads (templating.md's
/// "Tokens"): in an action binding's `bind` or `confirm`, its `from` component; in a screen's
/// `title`, in a template of a component a screen places, or in a field of an entry such a
/// component shows, the `from` component of every push that opens that screen. Empty where no
/// selection is read (a root screen, an `on_cursor`, a driver that is no table, list or tree).
pub fn selection_drivers(config: &Config, offset: usize) -> Vec<&Component> {
    let dashboard = &config.dashboard;
    let mut named: Vec<&str> = Vec::new();
    if let Some(binding) = dashboard
        .screens
        .iter()
        .flat_map(|screen| &screen.actions)
        .find(|binding| binding.span.contains(offset))
    {
        named.extend(binding.from.as_ref().map(|from| from.value.as_str()));
    } else {
        let in_on_cursor = |component: &Component| {
            component.on_cursor.as_ref().is_some_and(|on_cursor| {
                on_cursor
                    .bind
                    .iter()
                    .filter_map(|bind| bind.template.as_ref())
                    .any(|template| template.span.contains(offset))
            })
        };
        let placed: Vec<&str> = match (config.component_at(offset), config.entry_at(offset)) {
            (Some(component), _) if in_on_cursor(component) => Vec::new(),
            (Some(component), _) => component.name().into_iter().collect(),
            (None, Some(entry)) => config
                .components_bound_to(&entry.name.value)
                .filter_map(Component::name)
                .collect(),
            (None, None) => Vec::new(),
        };
        let screens = dashboard.screens.iter().filter(|screen| {
            screen
                .title
                .as_ref()
                .is_some_and(|title| title.span.contains(offset))
                || placed.iter().any(|name| screen.places(name))
        });
        for screen in screens {
            let Some(name) = &screen.name else {
                continue;
            };
            named.extend(
                dashboard
                    .pushes()
                    .filter(|push| push.target.value == name.value)
                    .filter_map(|push| push.binding.from.as_ref())
                    .map(|from| from.value.as_str()),
            );
        }
    }
    let mut drivers: Vec<&Component> = Vec::new();
    for name in named {
        if let Some(driver) = driver_named(config, name)
            && !drivers.iter().any(|seen| std::ptr::eq(*seen, driver))
        {
            drivers.push(driver);
        }
    }
    drivers
}

/// `unknown-column` for the tokens of one template read from a table driver.
fn check_tokens(
    driver: &Component,
    template: Option<&Spanned<Text>>,
    namespace: RowNamespace,
    file: &str,
    out: &mut Collector,
) {
    let Some(template) = template else {
        return;
    };
    let kind = driver.kind.as_ref().map(|kind| &kind.value);
    let is_table = kind == Some(&ComponentKind::Table);
    if !is_table && !matches!(kind, Some(ComponentKind::List | ComponentKind::Tree)) {
        return;
    }
    let RowNames { titles, words } = row_names(driver, namespace);
    if is_table && titles.is_empty() {
        return;
    }
    let text = template.value.text.as_str();
    let parsed = Template::parse(text);
    let mut names = Vec::new();
    for token in parsed.tokens() {
        if let (TokenKind::Selection(Some(name)), RowNamespace::Selection) =
            (&token.kind, namespace)
        {
            names.push((*name, token.range.clone()));
        }
    }
    if namespace == RowNamespace::Cursor {
        for error in &parsed.errors {
            if error.kind != TemplateErrorKind::UnknownNamespace("cursor".to_owned()) {
                continue;
            }
            let written = &text[error.range.clone()];
            if let Some(name) = written
                .strip_prefix("${cursor.")
                .and_then(|rest| rest.strip_suffix('}'))
            {
                names.push((name, error.range.clone()));
            }
        }
    }
    let driver_name = driver.name().unwrap_or("the driver");
    if !is_table {
        untitled_row(driver, template, namespace, &names, file, out);
        return;
    }
    for (name, range) in names {
        let problem = match name.parse::<usize>() {
            Ok(cell) if (1..=titles.len()).contains(&cell) => continue,
            Ok(cell) => format!(
                "reads cell {cell} of `{driver_name}`, which has {} columns",
                titles.len()
            ),
            Err(_) if words.contains(&name) => continue,
            Err(_) if titles.iter().any(|title| title.eq_ignore_ascii_case(name)) => continue,
            Err(_) => format!("names no column of `{driver_name}`"),
        };
        let span = at(file, template, range.clone());
        let ns = namespace.as_str();
        let fate = namespace.fate();
        let mut diagnostic = Diagnostic::new(
            Rule::UnknownColumn,
            span,
            format!("`${{{ns}.{name}}}` {problem}: {fate}"),
        )
        .with_label("no such column");
        let suggestions = did_you_mean(name, titles.iter().copied());
        diagnostic = match suggestions.first() {
            Some(best) => {
                diagnostic = diagnostic.with_help(format!("did you mean `${{{ns}.{best}}}`?"));
                let start = range.start + 3 + ns.len();
                let name_span: Span = at(file, template, start..start + name.len());
                with_rename(diagnostic, file, name_span, name, best)
            }
            None => diagnostic.with_help(format!(
                "the columns of `{driver_name}` are {}",
                quoted(&titles)
            )),
        };
        out.push(diagnostic);
    }
}

/// `unknown-column` for a name read from the row of a list or a tree: only a table's row has
/// column titles (templating.md's "Cursor": a list's row is its item, a tree's its node), so
/// `${cursor.Title}` renders empty and `${selection.Title}` stays literal. The words of the kind
/// (`item`, `label`, `depth`, `path`, in any case) and cell numbers are left alone.
fn untitled_row(
    driver: &Component,
    template: &Spanned<Text>,
    namespace: RowNamespace,
    names: &[(&str, std::ops::Range<usize>)],
    file: &str,
    out: &mut Collector,
) {
    let words = row_names(driver, RowNamespace::Cursor).words;
    let kind = driver
        .kind
        .as_ref()
        .map_or("list", |kind| kind.value.as_str());
    let driver_name = driver.name().unwrap_or("the driver");
    let ns = namespace.as_str();
    for (name, range) in names {
        if name.parse::<usize>().is_ok() || words.iter().any(|word| word.eq_ignore_ascii_case(name))
        {
            continue;
        }
        let span = at(file, template, range.clone());
        let fate = namespace.fate();
        let whole = match kind {
            "tree" => "the node's label",
            _ => "the item",
        };
        let spelled: Vec<String> = words
            .iter()
            .map(|word| format!("`${{{ns}.{word}}}`"))
            .collect();
        out.push(
            Diagnostic::new(
                Rule::UnknownColumn,
                span,
                format!(
                    "`${{{ns}.{name}}}` reads a column title, but `{driver_name}` is {}: only a table's row has columns, so {fate}",
                    article(kind)
                ),
            )
            .with_label("no columns")
            .with_secondary(driver.kind.as_ref().map_or(driver.span, |kind| kind.span), format!("a {kind}"))
            .with_help(format!(
                "read `${{{ns}}}` ({whole}) or one of {}",
                spelled.join(", ")
            )),
        );
    }
}

/// Column titles as a message lists them: "`Name`, `Region`".
pub(crate) fn quoted(titles: &[&str]) -> String {
    titles
        .iter()
        .map(|title| format!("`{title}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `diagnostic` with the fix renaming `name` to `best`, when `name` is written at `span` as is.
pub(crate) fn with_rename(
    diagnostic: Diagnostic,
    file: &str,
    span: Span,
    name: &str,
    best: &str,
) -> Diagnostic {
    if crate::fixes::written_as(file, span, name) {
        diagnostic.with_correction(format!("Rename `{name}` to `{best}`"), span, name, best)
    } else {
        diagnostic
    }
}

/// The span of `range`, a range inside the text of `template`, in `file`.
fn at(file: &str, template: &Spanned<Text>, range: std::ops::Range<usize>) -> Span {
    let text = template.value.text.as_str();
    text_span(file, text, template.value.style, template.span, range)
}
