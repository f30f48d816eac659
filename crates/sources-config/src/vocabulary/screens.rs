//! The vocabulary of `tui` itself and of its screens: layouts, stacks and their items.

use super::{Block, Field, Ty, f};

pub(super) const TUI: &[Field] = &[
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

pub(super) const SCREEN: &[Field] = &[
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

pub(super) const LAYOUT_NODE: &[Field] = &[
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

pub(super) const STACK_ITEM: &[Field] = &[
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

pub(super) const ZSTACK: &[Field] = &[
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
