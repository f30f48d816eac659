//! The dashboard's side of the document, as far as it binds entries of `data.sources`: the
//! components of `tui.components`, the screens that place them (`tui.screen` or `tui.screens`),
//! the action bindings that push a screen, the registry of `actions`, and the boot prompts of
//! `app.prompts`. The shapes are those the format's origin reads; every other key belongs to the
//! dashboard and is never judged here.

use sources_syntax::Span;

use crate::enums::EventlogStart;
use crate::spanned::{Spanned, Text};

/// A component of `tui.components`, as far as the bindings need it.
#[derive(Clone, Debug, PartialEq)]
pub struct Component {
    /// The component's name (its key when `tui.components` is a map; its `name` or `id` in a
    /// list).
    pub name: Option<Spanned<String>>,
    /// The span of the component's map.
    pub span: Span,
    /// The component kind from `kind` or `type`.
    pub kind: Option<Spanned<ComponentKind>>,
    /// The bound entry's name.
    pub source: Option<Spanned<String>>,
    /// A table's columns.
    pub columns: Vec<Column>,
    /// An event log's `start`.
    pub start: Option<Spanned<EventlogStart>>,
    /// `on_cursor`: the driver whose focused row fills this component's source parameters.
    pub on_cursor: Option<OnCursor>,
    /// The dot-paths that read each item: a list's `item`, a tree's `label`, `children` and
    /// `group_by`, an event log's `key`, `text` and `mark`, `mark_key` and `row_key`, with the
    /// key each is written under. Each is one path or a list tried in order (the first that
    /// gives a non-empty value wins).
    pub paths: Vec<(&'static str, Vec<Spanned<String>>)>,
    /// `title`, a template.
    pub title: Option<Spanned<Text>>,
    /// A source-bound tree's `root_label`, a template.
    pub root_label: Option<Spanned<Text>>,
    /// An inspector's `fields`, in order.
    pub fields: Vec<InspectorField>,
    /// An inspector's `auto: true`: its rows are built from whatever the entry gives.
    pub auto: bool,
    /// `markable: true`: rows can be marked.
    pub markable: bool,
    /// A list's or a log view's `color_rules`: what colours each item or line.
    pub color_rules: Vec<ColorRule>,
    /// A tree's or an inspector's `initial_depth`: every node shallower than it starts open (0,
    /// the default: the root alone, closed).
    pub initial_depth: u32,
    /// A table's `initial_sort`: the sort it opens with.
    pub initial_sort: Option<InitialSort>,
    /// Every key written on the component, with its span (what a rule about a field points at).
    pub keys: Vec<Spanned<String>>,
    /// The display templates: `title`, the filter and search fields, a tree's `root_label` and
    /// static `root` labels, a list's `items`, a log's `lines`, a text view's `content` and an
    /// inspector's field labels and values (`${env…}` anywhere, `${selection…}` on a pushed
    /// screen).
    pub templates: Vec<Spanned<Text>>,
}

impl Component {
    /// The component's name, or `None` for an unnamed item of a list.
    pub fn name(&self) -> Option<&str> {
        self.name.as_ref().map(|name| name.value.as_str())
    }

    /// How the component is named in a message: "table `apps`" or "a table".
    pub fn describe(&self) -> String {
        let kind = self
            .kind
            .as_ref()
            .map_or("component", |kind| kind.value.as_str());
        match &self.name {
            Some(name) => format!("{kind} `{}`", name.value),
            None => format!("a {kind}"),
        }
    }

    /// The paths written under `key` (one, or a list tried in order); empty when it is not
    /// written.
    pub fn path(&self, key: &str) -> &[Spanned<String>] {
        self.paths
            .iter()
            .find(|(written, _)| *written == key)
            .map_or(&[], |(_, paths)| paths.as_slice())
    }

    /// Where the key `name` is written on the component.
    pub fn key(&self, name: &str) -> Option<Span> {
        self.keys
            .iter()
            .find(|key| key.value == name)
            .map(|key| key.span)
    }

    /// Whether the component is of kind `kind`.
    pub fn is(&self, kind: &ComponentKind) -> bool {
        self.kind.as_ref().is_some_and(|own| &own.value == kind)
    }

    /// The column titles of a table, in order.
    pub fn titles(&self) -> impl Iterator<Item = &Spanned<String>> {
        self.columns
            .iter()
            .filter_map(|column| column.title.as_ref())
    }
}

/// The kind of a component, as far as the bindings need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComponentKind {
    /// `table`.
    Table,
    /// `eventlog`.
    Eventlog,
    /// `list`.
    List,
    /// `tree`.
    Tree,
    /// Any other kind (not ours to judge).
    Other(String),
}

impl ComponentKind {
    /// The kind for a `kind`/`type` value.
    pub fn from_name(name: &str) -> ComponentKind {
        match name {
            "table" => ComponentKind::Table,
            "eventlog" => ComponentKind::Eventlog,
            "list" => ComponentKind::List,
            "tree" => ComponentKind::Tree,
            other => ComponentKind::Other(other.to_string()),
        }
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        match self {
            ComponentKind::Table => "table",
            ComponentKind::Eventlog => "eventlog",
            ComponentKind::List => "list",
            ComponentKind::Tree => "tree",
            ComponentKind::Other(name) => name,
        }
    }

    /// Whether the kind has a focused row another component can read (`on_cursor.source`, an
    /// action's `from`): a table, a list or a tree.
    pub fn has_cursor(&self) -> bool {
        matches!(
            self,
            ComponentKind::Table | ComponentKind::List | ComponentKind::Tree
        )
    }
}

/// A table column.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// The span of the column's map.
    pub span: Span,
    /// The column's title.
    pub title: Option<Spanned<String>>,
    /// Whether the column is sortable.
    pub sortable: Option<Spanned<bool>>,
    /// The dot-paths of `value` (one, or a list tried in order).
    pub value: Vec<Spanned<String>>,
    /// `hidden: true`: not drawn, but still in the row (`${cursor.Title}` reads it).
    pub hidden: bool,
    /// `width`: a fixed width in cells; 0 (the default) sizes the column to its content.
    pub width: u32,
    /// `flex`: the column's share of the width left over; 0 (the default) takes none.
    pub flex: u32,
    /// `max_width`: the most a flex column grows to; 0 (the default) is no cap.
    pub max_width: u32,
    /// `align`: where a cell's text sits in the column.
    pub align: Align,
    /// `sort`: how the column's cells compare when it is sorted.
    pub sort: SortMode,
    /// `color_rules`: what colours each cell.
    pub color_rules: Vec<ColorRule>,
}

/// One rule of `color_rules`: the first rule whose `when` matches a text colours it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColorRule {
    /// `when`: exact text (ignoring case), `~` and a regular expression, a comparison of
    /// numbers (`> 5`), or empty (always).
    pub when: String,
    /// `color`: a named colour, a palette index or a `theme:` token.
    pub color: String,
}

impl ColorRule {
    /// The regular expression of a `when` that is one: the text after the `~`, once blanks around
    /// `when` are trimmed (the dashboard compiles it with Go's `regexp`, ignoring case; see
    /// [`crate::go_regexp::compile`]). `None` for exact text, a comparison or empty.
    pub fn pattern_of(when: &str) -> Option<&str> {
        when.trim().strip_prefix('~')
    }
}

/// A table's `initial_sort`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitialSort {
    /// `column`: a column's title (or a case-insensitive prefix of it), or its 1-based number.
    pub column: String,
    /// `desc: true`: descending.
    pub desc: bool,
}

/// How a sortable column compares its cells (`sort`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortMode {
    /// `string` (the default): case-insensitive text.
    #[default]
    String,
    /// `number`: a number, commas stripped.
    Number,
    /// `si`: a number with a K, M, B, G or T suffix.
    Si,
}

impl SortMode {
    /// The mode a value of `sort` names; `None` for any other text.
    pub fn from_name(name: &str) -> Option<SortMode> {
        match name {
            "string" => Some(SortMode::String),
            "number" => Some(SortMode::Number),
            "si" => Some(SortMode::Si),
            _ => None,
        }
    }
}

impl Column {
    /// The column's title as the header shows it: empty when it has none.
    pub fn title_text(&self) -> String {
        self.title
            .as_ref()
            .map(|title| title.value.clone())
            .unwrap_or_default()
    }

    /// The text the column shows for `row`: its first `value` path that gives a non-empty text.
    pub fn text_in(&self, row: &serde_json::Value) -> String {
        crate::item_path::first_text(row, self.value.iter().map(|path| path.value.as_str()))
    }
}

/// Where a column's cells sit (`align`): `left` (the default), `right` or `center`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Align {
    /// `left`.
    #[default]
    Left,
    /// `right`.
    Right,
    /// `center`.
    Center,
}

impl Align {
    /// The alignment a value of `align` names; `None` for any other text.
    pub fn from_name(name: &str) -> Option<Align> {
        match name {
            "left" => Some(Align::Left),
            "right" => Some(Align::Right),
            "center" => Some(Align::Center),
            _ => None,
        }
    }
}

/// One row of an inspector's `fields`.
#[derive(Clone, Debug, PartialEq)]
pub struct InspectorField {
    /// `label`, a template.
    pub label: Option<Spanned<Text>>,
    /// `path`: the dot-path into the entry's value that gives the row's value.
    pub path: Option<Spanned<String>>,
    /// `value`: the static value, a template (shown when there is no `path`).
    pub value: Option<Spanned<Text>>,
    /// `children`: the nested rows of a group.
    pub children: Vec<InspectorField>,
}

/// One `PARAM: TEMPLATE` of a `bind` map.
#[derive(Clone, Debug, PartialEq)]
pub struct Bind {
    /// The parameter (or action input) it fills.
    pub param: Spanned<String>,
    /// The template, when it is a scalar.
    pub template: Option<Spanned<Text>>,
}

/// A component's `on_cursor`: `{source: DRIVER_COMPONENT, bind: {PARAM: TEMPLATE}}`.
#[derive(Clone, Debug, PartialEq)]
pub struct OnCursor {
    /// Where the `on_cursor` key is written.
    pub key_span: Span,
    /// The driver: a component (table, list or tree) whose focused row is `${cursor…}`.
    pub source: Option<Spanned<String>>,
    /// The parameters it fills, from templates over `${cursor…}`.
    pub bind: Vec<Bind>,
}

/// A screen: `tui.screen` (unnamed) or a value of `tui.screens`.
#[derive(Clone, Debug, PartialEq)]
pub struct Screen {
    /// Its key under `tui.screens`; `None` for the single `tui.screen`.
    pub name: Option<Spanned<String>>,
    /// The span of the screen's map.
    pub span: Span,
    /// `title`, a template (over `${selection…}` on a pushed screen).
    pub title: Option<Spanned<Text>>,
    /// The components the layout places (every `component:` of the layout tree), in order.
    pub placed: Vec<Spanned<String>>,
    /// The action bindings of `actions`.
    pub actions: Vec<ActionBinding>,
}

impl Screen {
    /// Whether the layout places the component `name`.
    pub fn places(&self, name: &str) -> bool {
        self.placed.iter().any(|placed| placed.value == name)
    }

    /// How the screen is named in a message.
    pub fn describe(&self) -> String {
        match &self.name {
            Some(name) => format!("screen `{}`", name.value),
            None => "the screen".to_owned(),
        }
    }
}

/// One binding of a screen's `actions`: a registry action by `action`, or one declared inline
/// (`name` plus the action's fields, of which only `push` matters here).
#[derive(Clone, Debug, PartialEq)]
pub struct ActionBinding {
    /// The span of the binding's map.
    pub span: Span,
    /// `action`: the registry action it fires.
    pub action: Option<Spanned<String>>,
    /// `push` written on the binding itself (an inline push declaration).
    pub push: Option<Spanned<String>>,
    /// `from`: the component whose focused row is `${selection…}`.
    pub from: Option<Spanned<String>>,
    /// `bind`: the action's inputs, or on a push the pushed screen's source parameters.
    pub bind: Vec<Bind>,
    /// `confirm`, a template over `${selection…}`.
    pub confirm: Option<Spanned<Text>>,
    /// `key`: the key that fires it.
    pub key: Option<Spanned<String>>,
    /// `name`: the registry name of an inline declaration.
    pub name: Option<Spanned<String>>,
    /// `type` written on the binding itself (an inline declaration's kind).
    pub kind: Option<Spanned<String>>,
    /// `multi: true` written on the binding itself (an inline declaration).
    pub multi: bool,
    /// `interactive` as written (the key's span), when it is `true`.
    pub interactive: Option<Span>,
}

impl ActionBinding {
    /// The texts of `bind` and `confirm`: the templates a binding fills from its `from`
    /// component's focused row.
    pub fn selection_templates(&self) -> impl Iterator<Item = &Spanned<Text>> {
        self.bind
            .iter()
            .filter_map(|bind| bind.template.as_ref())
            .chain(self.confirm.as_ref())
    }
}

/// An action of the top-level `actions` map, as far as a binding needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// Its key.
    pub name: Spanned<String>,
    /// `push`: the screen it opens.
    pub push: Option<Spanned<String>>,
    /// `type`, as written.
    pub kind: Option<Spanned<String>>,
    /// `multi: true`: it runs once per marked row.
    pub multi: bool,
}

impl Action {
    /// The action's kind: its `type`, else `push` when it pushes, else `exec`.
    pub fn kind_name(&self) -> &str {
        kind_name(self.kind.as_ref(), self.push.as_ref())
    }
}

/// An action's kind from its `type` and `push` as written.
fn kind_name<'a>(kind: Option<&'a Spanned<String>>, push: Option<&Spanned<String>>) -> &'a str {
    match (kind, push) {
        (Some(kind), _) => kind.value.as_str(),
        (None, Some(_)) => "push",
        (None, None) => "exec",
    }
}

/// One boot prompt of `app.prompts`: its value becomes the environment variable `key`.
#[derive(Clone, Debug, PartialEq)]
pub struct Prompt {
    /// `key`: the environment variable written.
    pub key: Spanned<String>,
    /// `label`: the form field's caption.
    pub label: Option<Spanned<String>>,
}

/// The dashboard's side of a document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dashboard {
    /// `tui.screen` (one, unnamed) or `tui.screens`, in source order.
    pub screens: Vec<Screen>,
    /// `tui.initial`: the root screen of `tui.screens`.
    pub initial: Option<Spanned<String>>,
    /// The top-level `actions` map.
    pub actions: Vec<Action>,
    /// `app.prompts`.
    pub prompts: Vec<Prompt>,
    /// The keys `app` keeps for the dashboard (`actions_key`, `theme_key`, `output_key`), each
    /// with the field that sets it, as written.
    pub app_keys: Vec<(&'static str, Spanned<String>)>,
}

impl Dashboard {
    /// The screen named `name`.
    pub fn screen(&self, name: &str) -> Option<&Screen> {
        self.screens
            .iter()
            .find(|screen| screen.name.as_ref().is_some_and(|own| own.value == name))
    }

    /// The screen a binding pushes: its own `push`, else the `push` of the registry action it
    /// names.
    pub fn push_target<'a>(&'a self, binding: &'a ActionBinding) -> Option<&'a Spanned<String>> {
        binding.push.as_ref().or_else(|| {
            let action = binding.action.as_ref()?;
            self.actions
                .iter()
                .find(|declared| declared.name.value == action.value)?
                .push
                .as_ref()
        })
    }

    /// The action a binding fires: the registry action it names (`None` for an inline
    /// declaration, or a name the registry lacks).
    pub fn action_of(&self, binding: &ActionBinding) -> Option<&Action> {
        let name = binding.action.as_ref()?;
        self.actions
            .iter()
            .find(|declared| declared.name.value == name.value)
    }

    /// The kind of the action a binding fires (`exec`, `http`, `push`, or another name as
    /// written): an inline declaration's own, else the registry action's; `None` when the
    /// binding names an action the registry lacks.
    pub fn binding_kind<'a>(&'a self, binding: &'a ActionBinding) -> Option<&'a str> {
        if binding.action.is_none() || binding.kind.is_some() || binding.push.is_some() {
            return Some(kind_name(binding.kind.as_ref(), binding.push.as_ref()));
        }
        self.action_of(binding).map(Action::kind_name)
    }

    /// Every push binding, with the screen it is written on and the screen it pushes.
    pub fn pushes(&self) -> impl Iterator<Item = Push<'_>> {
        self.screens.iter().flat_map(move |screen| {
            screen.actions.iter().filter_map(move |binding| {
                Some(Push {
                    on: screen,
                    binding,
                    target: self.push_target(binding)?,
                })
            })
        })
    }

    /// Whether the screen is shown without a push: the single `tui.screen`, or the `initial` one;
    /// when `initial` names no screen (or is missing), any screen no binding pushes (the dashboard
    /// could open any of them).
    pub fn is_root(&self, screen: &Screen) -> bool {
        let Some(name) = &screen.name else {
            return true;
        };
        match self.initial_screen() {
            Some(initial) => initial
                .name
                .as_ref()
                .is_some_and(|own| own.value == name.value),
            None => !self.pushes().any(|push| push.target.value == name.value),
        }
    }

    /// The screen `tui.initial` names, when it names one.
    pub fn initial_screen(&self) -> Option<&Screen> {
        self.screen(&self.initial.as_ref()?.value)
    }

    /// The boot prompt whose `key` is `name`.
    pub fn prompt(&self, name: &str) -> Option<&Prompt> {
        self.prompts.iter().find(|prompt| prompt.key.value == name)
    }
}

/// A binding that pushes a screen.
#[derive(Clone, Copy, Debug)]
pub struct Push<'a> {
    /// The screen the binding is written on.
    pub on: &'a Screen,
    /// The binding.
    pub binding: &'a ActionBinding,
    /// The pushed screen's name, as written.
    pub target: &'a Spanned<String>,
}
