//! The vocabulary of `tui.components`: a component's fields by kind, and the maps inside one
//! (columns, `initial_sort`, color rules, `colors`, `on_cursor`, tree nodes, inspector fields).

use super::{Block, Field, Ty, f, on};
use super::{COMPONENT_KINDS, FILTERABLE, KINDS_WITH_CURSOR, MARKABLE, SEARCHABLE};

pub(super) const COMPONENT: &[Field] = &[
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

pub(super) const COLUMN: &[Field] = &[
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

pub(super) const INITIAL_SORT: &[Field] = &[
    f(
        "column",
        Ty::Template,
        "A column's title (or a prefix of it), or its 1-based number.",
    ),
    f("desc", Ty::Bool, "Sorts descending."),
];

pub(super) const COLOR_RULE: &[Field] = &[
    f(
        "when",
        Ty::Template,
        "What the value must match, ignoring case: the text, `~` and a regular expression (Go's syntax), or a comparison such as `> 5`; empty matches everything.",
    ),
    f("color", Ty::Color, "The color of a match; required."),
];

pub(super) const COLORS: &[Field] = &[
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

pub(super) const ON_CURSOR: &[Field] = &[
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

pub(super) const TREE_NODE: &[Field] = &[
    f("label", Ty::Template, "The node's label; required."),
    f(
        "children",
        Ty::List(Block::TreeNode),
        "The node's children.",
    ),
];

pub(super) const INSPECTOR_FIELD: &[Field] = &[
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
