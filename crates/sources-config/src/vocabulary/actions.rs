//! The vocabulary of the top-level `actions`, of a screen's action bindings (which take an
//! action's fields too, for an inline declaration) and of an action's inputs.

use super::{ACTION_KINDS, EXEC_HTTP, INPUT_TYPES};
use super::{Block, Field, Ty, f, on};

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

pub(super) const ACTION: &[Field] = action_fields!();

pub(super) const BINDING: &[Field] = action_fields!(
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

pub(super) const INPUT: &[Field] = &[
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
