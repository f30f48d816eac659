//! The dashboard's vocabulary: every map of `app`, `tui` and `actions` (a [`Block`]), the fields
//! each accepts, the kinds a field applies to, its value's type and its documentation. It is the
//! one place these are written: the decoder checks the dashboard's keys and values against it,
//! the JSON Schema's `tui`, `app` and `actions` are generated from it, and the language server
//! hovers and completes from it.

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

/// The tokens a `theme:TOKEN` color names: the colors of the active palette.
pub const THEME_TOKENS: &[&str] = &[
    "accent",
    "current",
    "muted",
    "subtle",
    "key",
    "border-active",
    "border-inactive",
    "bar-bg",
    "bar-fg",
    "info-bg",
    "info-fg",
    "error-bg",
    "error-fg",
];

/// The named colors (each also as `bright_NAME`).
pub const COLOR_NAMES: &[&str] = &[
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "gray", "grey",
];

/// The built-in palettes `app.theme` names.
pub const THEMES: &[&str] = &[
    "dark",
    "accent",
    "light",
    "solarized",
    "nord",
    "dracula",
    "gruvbox",
    "catppuccin-mocha",
    "catppuccin-latte",
    "tokyo-night",
    "rose-pine",
    "rose-pine-dawn",
    "one-dark",
    "monokai",
    "everforest-dark",
    "base16-ocean",
    "base16-eighties",
    "base16-railscasts",
    "base16-tomorrow-night",
];

/// The keys the dashboard keeps for itself: no binding may use them.
pub const RESERVED_KEYS: &[&str] = &["q", "ctrl+c", "ctrl+z", "?", "esc", "tab", "shift+tab", "r"];

const BORDER_SHAPES: &[&str] = &[
    "normal", "rounded", "thick", "double", "hidden", "block", "ascii",
];
const INPUT_TYPES: &[&str] = &["string", "int", "bool", "duration"];
const KINDS_WITH_CURSOR: &[&str] = &["list", "table", "tree", "inspector"];
const MARKABLE: &[&str] = &["list", "table", "tree"];
const FILTERABLE: &[&str] = &["list", "table", "inspector", "eventlog"];
const SEARCHABLE: &[&str] = &["logview", "textview", "tree", "eventlog"];
const EXEC_HTTP: &[&str] = &["exec", "http"];

const TUI: &[Field] = &[
    f(
        "components",
        Ty::Named(Block::Component),
        "Every component, by name; layouts place them by that name.",
    ),
    f(
        "screen",
        Ty::Map(Block::Screen),
        "The one screen of a single-screen dashboard; not with `screens`.",
    ),
    f(
        "screens",
        Ty::Named(Block::Screen),
        "The screens of a multi-screen dashboard, by name, reached by push actions; needs `initial`.",
    ),
    f(
        "initial",
        Ty::Str,
        "The screen of `screens` the dashboard opens first; required with `screens`.",
    ),
];

const APP: &[Field] = &[
    f(
        "title",
        Ty::Str,
        "Heads the breadcrumb; the current screen's title follows it.",
    ),
    f("version", Ty::Str, "Shown on the right of the status bar."),
    f(
        "theme",
        Ty::OneOf(THEMES),
        "The palette the dashboard starts with (default: the first built-in, `dark`).",
    ),
    f(
        "glyphs",
        Ty::Map(Block::Glyphs),
        "The one-character marks components draw, overriding the defaults.",
    ),
    f(
        "borders",
        Ty::Map(Block::Borders),
        "Border shapes, and how a pane's title meets its border.",
    ),
    f(
        "actions_key",
        Ty::Str,
        "The key that opens the action menu (default `a`; `-` turns the menu off). No binding may use it.",
    ),
    f(
        "theme_key",
        Ty::Str,
        "The key that cycles the palettes (default `t`; `-` keeps `theme`). No binding may use it.",
    ),
    f(
        "output_key",
        Ty::Str,
        "The key that opens the output console (default `o`; `-` turns it off). No binding may use it.",
    ),
    f(
        "prompts",
        Ty::List(Block::Prompt),
        "A form shown before the first screen; each value becomes the environment variable `key`.",
    ),
    f(
        "env",
        Ty::List(Block::EnvVar),
        "The environment variables the file reads, checked when it loads.",
    ),
];

const GLYPHS: &[Field] = &[
    f(
        "cursor",
        Ty::Glyph,
        "Marks the focused row of a list, a log view and the action menu.",
    ),
    f(
        "mark",
        Ty::Glyph,
        "Marks a selected row of a markable component.",
    ),
    f(
        "expand_open",
        Ty::Glyph,
        "The arrow of an open node of a tree or an inspector.",
    ),
    f("expand_closed", Ty::Glyph, "The arrow of a closed node."),
    f("rule", Ty::Glyph, "The line under an inline filter."),
    f(
        "scroll_thumb",
        Ty::Glyph,
        "The vertical scroll bar's thumb.",
    ),
    f(
        "scroll_track",
        Ty::Glyph,
        "The vertical scroll bar's track.",
    ),
    f(
        "h_scroll_thumb",
        Ty::Glyph,
        "The horizontal scroll bar's thumb.",
    ),
    f(
        "h_scroll_track",
        Ty::Glyph,
        "The horizontal scroll bar's track.",
    ),
    f(
        "sort_asc",
        Ty::Glyph,
        "Follows the title of a column sorted ascending.",
    ),
    f(
        "sort_desc",
        Ty::Glyph,
        "Follows the title of a column sorted descending.",
    ),
    f("column_sep", Ty::Glyph, "Divides a table's columns."),
    f(
        "placeholder",
        Ty::Glyph,
        "Fills a row a windowed table has not received yet.",
    ),
];

const BORDERS: &[Field] = &[
    f(
        "active",
        Ty::OneOf(BORDER_SHAPES),
        "The border of the focused component (default `normal`).",
    ),
    f(
        "inactive",
        Ty::OneOf(BORDER_SHAPES),
        "The border of the other components (default `normal`).",
    ),
    f(
        "overlay",
        Ty::OneOf(BORDER_SHAPES),
        "The border of what floats over a screen: dialogs, the key overlay, the action menu (default `thick`).",
    ),
    f(
        "slot_brackets",
        Ty::OneOf(&["none", "corners", "tees"]),
        "How a pane's title meets the border line (default `none`).",
    ),
];

const PROMPT: &[Field] = &[
    f(
        "key",
        Ty::Str,
        "The environment variable the value is written to (`${env.KEY}`); required.",
    ),
    f(
        "type",
        Ty::OneOf(INPUT_TYPES),
        "The value's type, which also picks the widget (default `string`).",
    ),
    f("label", Ty::Str, "The field's caption (default: the key)."),
    f(
        "default",
        Ty::Template,
        "The starting value; not with `required`.",
    ),
    f(
        "required",
        Ty::Bool,
        "The form does not submit while the field is empty; not with `default`.",
    ),
    f(
        "description",
        Ty::Str,
        "One line saying what the value is for.",
    ),
    f("placeholder", Ty::Str, "A hint inside an empty text input."),
    f(
        "options",
        Ty::Strings,
        "Makes the field a choice among these values; not with `mask`.",
    ),
    f(
        "mask",
        Ty::Bool,
        "Shows typed characters as bullets; not with `options`.",
    ),
    f(
        "order",
        Ty::Int(i64::MIN),
        "The field's place in the form; ties go by name.",
    ),
];

const ENV_VAR: &[Field] = &[
    f("name", Ty::Str, "The variable's name; required."),
    f(
        "required",
        Ty::Bool,
        "Loading fails while the variable is unset; not with `default`.",
    ),
    f(
        "default",
        Ty::Template,
        "Set when the variable is unset; not with `required`.",
    ),
    f(
        "description",
        Ty::Str,
        "Shown when the variable is missing.",
    ),
];

const COMPONENT: &[Field] = &[
    f(
        "type",
        Ty::OneOf(COMPONENT_KINDS),
        "The kind: `list`, `table`, `logview`, `textview`, `tree`, `inspector` or `eventlog`; required (`kind` is read the same).",
    ),
    f("kind", Ty::OneOf(COMPONENT_KINDS), "The kind, as `type`."),
    f("title", Ty::Template, "Shown on the pane's border."),
    f(
        "source",
        Ty::Str,
        "The entry of `data.sources` the component shows; its static content is then not read.",
    ),
    f(
        "colors",
        Ty::Map(Block::Colors),
        "Colors of this component, over the theme's.",
    ),
    on(
        "color_rules",
        Ty::List(Block::ColorRule),
        &["list", "logview", "eventlog"],
        "Colors each item or line by its value.",
    ),
    on(
        "filterable",
        Ty::Bool,
        FILTERABLE,
        "`/` (`f` on an event log) opens a filter that narrows the rows.",
    ),
    on(
        "searchable",
        Ty::Bool,
        SEARCHABLE,
        "`/` opens a search that highlights matches.",
    ),
    f(
        "filter_placeholder",
        Ty::Template,
        "A hint inside the empty filter or search input.",
    ),
    on(
        "initial_filter",
        Ty::Template,
        &["list", "table"],
        "The filter the component opens with.",
    ),
    on(
        "initial_query",
        Ty::Template,
        &["logview", "textview", "tree", "inspector"],
        "The search or filter the component opens with.",
    ),
    on(
        "initial_cursor",
        Ty::Int(0),
        KINDS_WITH_CURSOR,
        "The row the cursor starts on.",
    ),
    on(
        "markable",
        Ty::Bool,
        MARKABLE,
        "Rows can be marked, and actions with `multi: true` run once per marked row; not over a windowed source.",
    ),
    on(
        "mark_key",
        Ty::Path,
        &["table"],
        "The identity marks are held by, read from each item; required on a markable table bound to a source.",
    ),
    f(
        "on_cursor",
        Ty::Map(Block::OnCursor),
        "Fetches this component's source again as another component's cursor moves.",
    ),
    on("items", Ty::Templates, &["list"], "A static list's rows."),
    on(
        "item",
        Ty::Path,
        &["list"],
        "The dot-path to each item's text; required when the list is bound to a source.",
    ),
    on(
        "columns",
        Ty::List(Block::Column),
        &["table"],
        "The table's columns; required.",
    ),
    on(
        "rows",
        Ty::Rows,
        &["table"],
        "A static table's rows, each a list of cells.",
    ),
    on(
        "initial_sort",
        Ty::Map(Block::InitialSort),
        &["table"],
        "The sort the table opens with.",
    ),
    on(
        "sort_debounce",
        Ty::Duration,
        &["table"],
        "How long sort input must be quiet before a windowed source is asked for the new order; only on a table bound to a windowed source.",
    ),
    on(
        "max_rows",
        Ty::Int(-1),
        &["table"],
        "How many rows a streaming table keeps (default 100; `-1`: no limit).",
    ),
    on(
        "row_key",
        Ty::Path,
        &["table"],
        "The dot-path to each event's identity: a streaming table updates the row with the same key.",
    ),
    on(
        "lines",
        Ty::Templates,
        &["logview"],
        "A static log view's first lines.",
    ),
    on(
        "max_lines",
        Ty::Int(-1),
        &["logview"],
        "How many lines the log view keeps (default 10000; `-1`: no limit).",
    ),
    on(
        "filter_mode",
        Ty::Bool,
        &["logview"],
        "The search hides the lines that do not match instead of highlighting those that do.",
    ),
    on(
        "content",
        Ty::Template,
        &["textview"],
        "A static text view's text.",
    ),
    on("wrap", Ty::Bool, &["textview"], "Wraps long lines."),
    on(
        "root",
        Ty::Map(Block::TreeNode),
        &["tree"],
        "A static tree's root node; required when the tree is not bound to a source.",
    ),
    on(
        "label",
        Ty::Path,
        &["tree"],
        "The dot-path to each node's label; required when the tree is bound to a source.",
    ),
    on(
        "children",
        Ty::Path,
        &["tree"],
        "The dot-path to each node's children; not with `group_by`.",
    ),
    on(
        "group_by",
        Ty::Path,
        &["tree"],
        "Groups a flat list under a node per value of this dot-path; not with `children`.",
    ),
    on(
        "root_label",
        Ty::Template,
        &["tree"],
        "The label of a bound tree's root node.",
    ),
    on(
        "initial_depth",
        Ty::Int(0),
        &["tree", "inspector"],
        "Nodes shallower than this start expanded.",
    ),
    on(
        "fields",
        Ty::List(Block::InspectorField),
        &["inspector"],
        "The inspector's rows; not with `auto`.",
    ),
    on(
        "auto",
        Ty::Bool,
        &["inspector"],
        "Builds the rows from whatever the source returns; not with `fields`.",
    ),
    on(
        "key",
        Ty::Path,
        &["eventlog"],
        "The dot-path to each event's identity; required.",
    ),
    on(
        "text",
        Ty::Path,
        &["eventlog"],
        "The dot-path to the text an event draws as; required.",
    ),
    on(
        "mark",
        Ty::Path,
        &["eventlog"],
        "The dot-path to what the gutter shows, such as a timestamp.",
    ),
    on(
        "start",
        Ty::OneOf(&["oldest", "newest"]),
        &["eventlog"],
        "Where the event log opens when its source is not growing: `oldest` (the default) or `newest`.",
    ),
    on(
        "max_items",
        Ty::Int(0),
        &["eventlog"],
        "How many events the event log holds at once.",
    ),
];

const COLUMN: &[Field] = &[
    f(
        "title",
        Ty::Template,
        "The header, and the name `${selection.Title}`, `${cursor.Title}`, filters and a window's `sorts` and `filters` use; required.",
    ),
    f(
        "value",
        Ty::Path,
        "The dot-path to the cell in each item, or a list tried in order; required when the table is bound to a source.",
    ),
    f(
        "width",
        Ty::Int(0),
        "A fixed width (`0`, the default, sizes to the content).",
    ),
    f(
        "flex",
        Ty::Int(0),
        "The column's share of the width left over.",
    ),
    f(
        "max_width",
        Ty::Int(0),
        "The widest a flexible or sized-to-content column grows.",
    ),
    f(
        "align",
        Ty::OneOf(&["left", "right", "center"]),
        "`left` (the default), `right` or `center`.",
    ),
    f(
        "sortable",
        Ty::Bool,
        "The column can be sorted from the keyboard; over a window it needs `window.sort_param`.",
    ),
    f(
        "sort",
        Ty::OneOf(&["string", "number", "si"]),
        "How a sortable column compares: `string` (the default), `number` or `si` (with K/M/G suffixes).",
    ),
    f(
        "hidden",
        Ty::Bool,
        "Not drawn, but still in the row for filters, `${selection…}` and `${cursor…}`.",
    ),
    f(
        "color_rules",
        Ty::List(Block::ColorRule),
        "Colors each cell by its value.",
    ),
];

const INITIAL_SORT: &[Field] = &[
    f(
        "column",
        Ty::Template,
        "A column's title (or a prefix of it), or its 1-based number.",
    ),
    f("desc", Ty::Bool, "Sorts descending."),
];

const COLOR_RULE: &[Field] = &[
    f(
        "when",
        Ty::Template,
        "The text (`~regex`, or a comparison such as `> 5`) the value must match; empty matches everything.",
    ),
    f("color", Ty::Color, "The color of a match; required."),
];

const COLORS: &[Field] = &[
    f(
        "border_active",
        Ty::Color,
        "The border when the component is focused.",
    ),
    f("border_inactive", Ty::Color, "The border when it is not."),
    f("spinner", Ty::Color, "The loading spinner."),
    f("selected", Ty::Color, "A list's focused item."),
    f(
        "selected_fg",
        Ty::Color,
        "The text of a table's focused row.",
    ),
    f(
        "selected_bg",
        Ty::Color,
        "The background of a table's focused row.",
    ),
    f("header", Ty::Color, "A table's header text."),
    f("cell", Ty::Color, "A table's cell text."),
    f(
        "column_separator",
        Ty::Color,
        "The line between a table's columns.",
    ),
    f("header_rule", Ty::Color, "The line under a table's header."),
    f("label", Ty::Color, "An inspector's labels."),
    f("value", Ty::Color, "An inspector's values."),
    f("match", Ty::Color, "A search match."),
    f(
        "current_line_bg",
        Ty::Color,
        "The background of the cursor's line.",
    ),
];

const ON_CURSOR: &[Field] = &[
    f(
        "source",
        Ty::Str,
        "The driver: a table, list or tree on the same screen (a component, not an entry); required.",
    ),
    f(
        "bind",
        Ty::TemplateMap,
        "This component's source parameters, from templates over the driver's focused row (`${cursor…}`).",
    ),
];

const TREE_NODE: &[Field] = &[
    f("label", Ty::Template, "The node's label; required."),
    f(
        "children",
        Ty::List(Block::TreeNode),
        "The node's children.",
    ),
];

const INSPECTOR_FIELD: &[Field] = &[
    f("label", Ty::Template, "The text on the left; required."),
    f(
        "value",
        Ty::Template,
        "A static value on the right (none for a group's header).",
    ),
    f(
        "path",
        Ty::Path,
        "The dot-path to the value in the source's value; over `value`.",
    ),
    f(
        "color_rules",
        Ty::List(Block::ColorRule),
        "Colors the value.",
    ),
    f(
        "children",
        Ty::List(Block::InspectorField),
        "Nested fields, shown as a group that expands.",
    ),
];

const SCREEN: &[Field] = &[
    f(
        "title",
        Ty::Template,
        "Shown in the breadcrumb; a pushed screen's may read `${selection…}`.",
    ),
    f(
        "layout",
        Ty::Map(Block::LayoutNode),
        "The root of the screen's layout; required.",
    ),
    f(
        "actions",
        Ty::List(Block::Binding),
        "The actions the screen offers, on which keys, fed by which component.",
    ),
];

const LAYOUT_NODE: &[Field] = &[
    f(
        "vstack",
        Ty::List(Block::StackItem),
        "Items stacked top to bottom; a node is exactly one of `vstack`, `hstack`, `zstack` and `component`.",
    ),
    f(
        "hstack",
        Ty::List(Block::StackItem),
        "Items side by side, left to right.",
    ),
    f(
        "zstack",
        Ty::Map(Block::Zstack),
        "`overlay` drawn over `base`.",
    ),
    f(
        "component",
        Ty::Str,
        "A component of `tui.components`, by name; at most once per screen.",
    ),
];

const STACK_ITEM: &[Field] = &[
    f(
        "vstack",
        Ty::List(Block::StackItem),
        "Items stacked top to bottom; a node is exactly one of `vstack`, `hstack`, `zstack` and `component`.",
    ),
    f(
        "hstack",
        Ty::List(Block::StackItem),
        "Items side by side, left to right.",
    ),
    f(
        "zstack",
        Ty::Map(Block::Zstack),
        "`overlay` drawn over `base`.",
    ),
    f(
        "component",
        Ty::Str,
        "A component of `tui.components`, by name; at most once per screen.",
    ),
    f(
        "flex",
        Ty::Int(0),
        "The item's share of the space the fixed items leave (default 1); not with `fixed`.",
    ),
    f(
        "fixed",
        Ty::Int(0),
        "The item's exact size in rows (vstack) or columns (hstack); not with `flex`.",
    ),
];

const ZSTACK: &[Field] = &[
    f(
        "base",
        Ty::Map(Block::LayoutNode),
        "The node underneath; required.",
    ),
    f(
        "overlay",
        Ty::Map(Block::LayoutNode),
        "The node drawn on top; required.",
    ),
];

/// The fields of an action, which an inline binding takes too.
macro_rules! action_fields {
    ($($extra:expr),* $(,)?) => {
        &[
            $($extra,)*
            f("type", Ty::OneOf(ACTION_KINDS), "`exec` (the default), `http`, or `push` (the default when `push` is written)."),
            f("description", Ty::Str, "One line saying what the action does."),
            on("inputs", Ty::Named(Block::Input), EXEC_HTTP, "The typed values the action reads as `${inputs.NAME}`."),
            on("run", Ty::Templates, &["exec"], "The command and its arguments, not through a shell; required on `exec`."),
            on("method", Ty::Template, &["http"], "The HTTP method (default `POST`)."),
            on("url", Ty::Template, &["http"], "The endpoint; required on `http`."),
            on("headers", Ty::TemplateMap, &["http"], "The request's headers."),
            on("body", Ty::Template, &["http"], "The request's body."),
            on("timeout", Ty::Duration, &["http"], "The request's time limit (default `30s`)."),
            on("push", Ty::Str, &["push"], "The screen of `tui.screens` it opens."),
            on("success", Ty::Template, EXEC_HTTP, "The expression over `code`, `output` and `body` that tells success from failure."),
            on("message", Ty::Template, EXEC_HTTP, "The summary shown on success."),
            on("error_message", Ty::Template, EXEC_HTTP, "The summary shown on failure."),
            on("multi", Ty::Bool, EXEC_HTTP, "Runs once per marked row."),
            f("exclusive", Ty::Bool, "Refuses a second run on a target it is running on (default: `true` on `http`)."),
        ]
    };
}

const ACTION: &[Field] = action_fields!();

const BINDING: &[Field] = action_fields!(
    f(
        "action",
        Ty::Str,
        "The action of the top-level `actions` it fires; not with an inline declaration (`name`)."
    ),
    f(
        "name",
        Ty::Str,
        "The name an inline action declaration gets in the `actions` registry."
    ),
    f(
        "key",
        Ty::Str,
        "The key that fires it (`enter` directly; another key inside the action menu); none lists it in the menu only."
    ),
    f(
        "label",
        Ty::Str,
        "Its name in the menu and the help (default: the action's name)."
    ),
    f(
        "from",
        Ty::Str,
        "The list, table or tree whose focused row is `${selection…}`."
    ),
    f(
        "bind",
        Ty::TemplateMap,
        "The action's inputs (on a push, the pushed screen's source parameters), from `${selection…}` and `${env…}`."
    ),
    f("confirm", Ty::Template, "A question asked before it runs."),
    on(
        "interactive",
        Ty::Bool,
        &["exec"],
        "Hands the terminal to the command instead of capturing its output."
    ),
    on(
        "notice",
        Ty::Template,
        &["exec"],
        "Printed once before an interactive command starts."
    ),
);

const INPUT: &[Field] = &[
    f(
        "type",
        Ty::OneOf(INPUT_TYPES),
        "The value's type, which also picks the form's widget (default `string`).",
    ),
    f(
        "required",
        Ty::Bool,
        "The action does not run without a value; not with `default`.",
    ),
    f(
        "default",
        Ty::Template,
        "The value when nothing else gives one; not with `required`.",
    ),
    f(
        "description",
        Ty::Str,
        "One line saying what the input is for.",
    ),
    f(
        "label",
        Ty::Str,
        "The form field's caption (default: the input's name).",
    ),
    f("placeholder", Ty::Str, "A hint inside an empty text input."),
    f(
        "options",
        Ty::Strings,
        "Makes the field a choice among these values; not with `mask`.",
    ),
    f(
        "mask",
        Ty::Bool,
        "Shows typed characters as bullets; not with `options`.",
    ),
    f(
        "order",
        Ty::Int(i64::MIN),
        "The field's place in the form; ties go by name.",
    ),
];

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

/// Why a color value is refused, or `None` when it is one: a name (or `bright_` and a name), a
/// palette index 0–255, `#rrggbb`, or `theme:` and a token of [`THEME_TOKENS`].
pub fn color_error(text: &str) -> Option<String> {
    if let Some(token) = text.strip_prefix("theme:") {
        return (!THEME_TOKENS.contains(&token)).then(|| {
            format!(
                "`{token}` is not a theme color; the theme colors are {}",
                quoted(THEME_TOKENS)
            )
        });
    }
    if let Some(hex) = text.strip_prefix('#') {
        return (hex.len() != 6 || !hex.bytes().all(|byte| byte.is_ascii_hexdigit()))
            .then(|| "a hex color is `#` and six hex digits, such as `#ff8800`".to_owned());
    }
    if text.bytes().all(|byte| byte.is_ascii_digit()) && !text.is_empty() {
        return (text.parse::<u16>().map_or(true, |index| index > 255))
            .then(|| "a palette index is a number from 0 to 255".to_owned());
    }
    let name = text.strip_prefix("bright_").unwrap_or(text);
    (!COLOR_NAMES.contains(&name)).then(|| {
        format!(
            "a color is a name ({}, or `bright_` and one of them), a palette index 0–255, `#rrggbb` or `theme:TOKEN`",
            quoted(COLOR_NAMES)
        )
    })
}

/// The names, each in backquotes, joined with commas.
fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
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

    #[test]
    fn colors_take_the_four_forms() {
        for good in [
            "red",
            "bright_cyan",
            "160",
            "#ff8800",
            "theme:accent",
            "theme:bar-bg",
        ] {
            assert_eq!(color_error(good), None, "{good}");
        }
        for (bad, says) in [
            ("theme:acent", "not a theme color"),
            ("#ff88", "six hex digits"),
            ("300", "0 to 255"),
            ("purple", "a color is a name"),
        ] {
            let error = color_error(bad).unwrap_or_default();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }
}
