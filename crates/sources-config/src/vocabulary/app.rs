//! The vocabulary of `app`: its fields, the glyphs and borders it draws with, boot prompts,
//! environment variables, and the themes and colors a color value names.

use super::INPUT_TYPES;
use super::{Block, Field, Ty, f};

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

const BORDER_SHAPES: &[&str] = &[
    "normal", "rounded", "thick", "double", "hidden", "block", "ascii",
];

pub(super) const APP: &[Field] = &[
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

pub(super) const GLYPHS: &[Field] = &[
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

pub(super) const BORDERS: &[Field] = &[
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

pub(super) const PROMPT: &[Field] = &[
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

pub(super) const ENV_VAR: &[Field] = &[
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
