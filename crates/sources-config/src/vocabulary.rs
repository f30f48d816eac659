//! The dashboard's vocabulary: every map of `app`, `tui` and `actions` (a [`Block`]), the fields
//! each accepts, the kinds a field applies to, its value's type and its documentation. It is the
//! one place these are written: the decoder checks the dashboard's keys and values against it,
//! the JSON Schema's `tui`, `app` and `actions` are generated from it, and the language server
//! hovers and completes from it. This module owns the types and the kinds; the fields are in
//! one submodule per part of the file.

mod actions;
mod app;
mod components;
mod screens;

use actions::{ACTION, BINDING, INPUT};
use app::{APP, BORDERS, ENV_VAR, GLYPHS, PROMPT};
pub use app::{COLOR_NAMES, THEME_TOKENS, THEMES, color_error};
use components::{
    COLOR_RULE, COLORS, COLUMN, COMPONENT, INITIAL_SORT, INSPECTOR_FIELD, ON_CURSOR, TREE_NODE,
};
use screens::{LAYOUT_NODE, SCREEN, STACK_ITEM, TUI, ZSTACK};

/// A map of the dashboard's side, with its own fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Block {
    /// The `tui` map.
    Tui,
    /// The `app` map.
    App,
    /// `app.glyphs`.
    Glyphs,
    /// `app.borders`.
    Borders,
    /// One boot prompt of `app.prompts`.
    Prompt,
    /// One variable of `app.env`.
    EnvVar,
    /// A component of `tui.components`.
    Component,
    /// A table column.
    Column,
    /// A table's `initial_sort`.
    InitialSort,
    /// One of `color_rules`.
    ColorRule,
    /// A component's `colors`.
    Colors,
    /// A component's `on_cursor`.
    OnCursor,
    /// A node of a static tree's `root`.
    TreeNode,
    /// A field of an inspector's `fields`.
    InspectorField,
    /// A screen: `tui.screen` or a value of `tui.screens`.
    Screen,
    /// A layout node: `layout`, a `zstack`'s `base` or `overlay`.
    LayoutNode,
    /// An item of a `vstack` or `hstack`: a layout node with its size.
    StackItem,
    /// A `zstack`.
    Zstack,
    /// An action binding of a screen's `actions` (an inline declaration takes the action's fields
    /// too).
    Binding,
    /// An action of the top-level `actions` map.
    Action,
    /// One of an action's `inputs`.
    Input,
}

/// The type of a field's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A string.
    Str,
    /// A template: a string (a number or boolean is kept as its text).
    Template,
    /// A dot-path, or a list of them tried in order.
    Path,
    /// `true` or `false`.
    Bool,
    /// An integer, at least the given minimum.
    Int(i64),
    /// A Go duration (`400ms`).
    Duration,
    /// A color value: a name, a palette index, `#rrggbb` or `theme:TOKEN`.
    Color,
    /// One character.
    Glyph,
    /// One of the listed words.
    OneOf(&'static [&'static str]),
    /// A map with the block's fields.
    Map(Block),
    /// A list of maps with the block's fields.
    List(Block),
    /// A map from names to maps with the block's fields (or a list of them named by `name`).
    Named(Block),
    /// A list of templates.
    Templates,
    /// A list of strings.
    Strings,
    /// A map from names to templates.
    TemplateMap,
    /// A static table's rows: a list of lists of cells.
    Rows,
}

/// One field of a [`Block`].
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The key users write.
    pub name: &'static str,
    /// The value's type.
    pub ty: Ty,
    /// The kinds it applies to (a component's `type`, an action's `type`); empty: every kind.
    pub on: &'static [&'static str],
    /// What it does.
    pub doc: &'static str,
}

impl Field {
    /// Whether the field applies to `kind` (always, when the kind is unknown).
    pub fn applies_to(&self, kind: Option<&str>) -> bool {
        self.on.is_empty() || kind.is_none_or(|kind| self.on.contains(&kind))
    }
}

const fn f(name: &'static str, ty: Ty, doc: &'static str) -> Field {
    Field {
        name,
        ty,
        on: &[],
        doc,
    }
}

const fn on(
    name: &'static str,
    ty: Ty,
    kinds: &'static [&'static str],
    doc: &'static str,
) -> Field {
    Field {
        name,
        ty,
        on: kinds,
        doc,
    }
}

/// The component kinds.
pub const COMPONENT_KINDS: &[&str] = &[
    "list",
    "table",
    "logview",
    "textview",
    "tree",
    "inspector",
    "eventlog",
];

/// The action kinds.
pub const ACTION_KINDS: &[&str] = &["exec", "http", "push"];

/// The keys the dashboard keeps for itself: no binding may use them.
pub const RESERVED_KEYS: &[&str] = &["q", "ctrl+c", "ctrl+z", "?", "esc", "tab", "shift+tab", "r"];

const INPUT_TYPES: &[&str] = &["string", "int", "bool", "duration"];
const KINDS_WITH_CURSOR: &[&str] = &["list", "table", "tree", "inspector"];
const MARKABLE: &[&str] = &["list", "table", "tree"];
const FILTERABLE: &[&str] = &["list", "table", "inspector", "eventlog"];
const SEARCHABLE: &[&str] = &["logview", "textview", "tree", "eventlog"];
const EXEC_HTTP: &[&str] = &["exec", "http"];

impl Block {
    /// Every block.
    pub const ALL: &'static [Block] = &[
        Block::Tui,
        Block::App,
        Block::Glyphs,
        Block::Borders,
        Block::Prompt,
        Block::EnvVar,
        Block::Component,
        Block::Column,
        Block::InitialSort,
        Block::ColorRule,
        Block::Colors,
        Block::OnCursor,
        Block::TreeNode,
        Block::InspectorField,
        Block::Screen,
        Block::LayoutNode,
        Block::StackItem,
        Block::Zstack,
        Block::Binding,
        Block::Action,
        Block::Input,
    ];

    /// The block's fields.
    pub fn fields(self) -> &'static [Field] {
        match self {
            Block::Tui => TUI,
            Block::App => APP,
            Block::Glyphs => GLYPHS,
            Block::Borders => BORDERS,
            Block::Prompt => PROMPT,
            Block::EnvVar => ENV_VAR,
            Block::Component => COMPONENT,
            Block::Column => COLUMN,
            Block::InitialSort => INITIAL_SORT,
            Block::ColorRule => COLOR_RULE,
            Block::Colors => COLORS,
            Block::OnCursor => ON_CURSOR,
            Block::TreeNode => TREE_NODE,
            Block::InspectorField => INSPECTOR_FIELD,
            Block::Screen => SCREEN,
            Block::LayoutNode => LAYOUT_NODE,
            Block::StackItem => STACK_ITEM,
            Block::Zstack => ZSTACK,
            Block::Binding => BINDING,
            Block::Action => ACTION,
            Block::Input => INPUT,
        }
    }

    /// The field named `name`.
    pub fn field(self, name: &str) -> Option<&'static Field> {
        self.fields().iter().find(|field| field.name == name)
    }

    /// How messages name a map of the block.
    pub fn describe(self) -> &'static str {
        match self {
            Block::Tui => "`tui`",
            Block::App => "`app`",
            Block::Glyphs => "`app.glyphs`",
            Block::Borders => "`app.borders`",
            Block::Prompt => "a prompt of `app.prompts`",
            Block::EnvVar => "a variable of `app.env`",
            Block::Component => "a component",
            Block::Column => "a column",
            Block::InitialSort => "`initial_sort`",
            Block::ColorRule => "a color rule",
            Block::Colors => "`colors`",
            Block::OnCursor => "`on_cursor`",
            Block::TreeNode => "a tree node",
            Block::InspectorField => "an inspector field",
            Block::Screen => "a screen",
            Block::LayoutNode => "a layout node",
            Block::StackItem => "a stack item",
            Block::Zstack => "`zstack`",
            Block::Binding => "an action binding",
            Block::Action => "an action",
            Block::Input => "an action input",
        }
    }

    /// The name of the block's definition in the JSON Schema.
    pub fn schema_name(self) -> &'static str {
        match self {
            Block::Tui => "Tui",
            Block::App => "App",
            Block::Glyphs => "Glyphs",
            Block::Borders => "Borders",
            Block::Prompt => "Prompt",
            Block::EnvVar => "EnvVar",
            Block::Component => "Component",
            Block::Column => "Column",
            Block::InitialSort => "InitialSort",
            Block::ColorRule => "ColorRule",
            Block::Colors => "Colors",
            Block::OnCursor => "OnCursor",
            Block::TreeNode => "TreeNode",
            Block::InspectorField => "InspectorField",
            Block::Screen => "Screen",
            Block::LayoutNode => "LayoutNode",
            Block::StackItem => "StackItem",
            Block::Zstack => "Zstack",
            Block::Binding => "Binding",
            Block::Action => "Action",
            Block::Input => "Input",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_names_its_fields_once() {
        for block in Block::ALL {
            let fields = block.fields();
            for (index, field) in fields.iter().enumerate() {
                assert!(
                    fields[..index].iter().all(|other| other.name != field.name),
                    "{block:?} lists `{}` twice",
                    field.name
                );
                assert!(field.doc.ends_with('.'), "{block:?}.{} doc", field.name);
            }
        }
    }
}
