//! Completion on the dashboard's side (`tui`, `app`, `actions`), from its vocabulary
//! ([`sources_config::vocabulary`]): the keys a map of the cursor's block accepts, and the values
//! of a field: component names (a layout's `component`, a binding's `from`, `on_cursor.source`),
//! screen names (`push`, `tui.initial`), action names (a binding's `action`), `theme:` colors and
//! named colors, and the words of an enumeration; and the hover of its keys and `theme:` colors.

use sources_config::Config;
use sources_syntax::Span;

use crate::context::Slot;
use sources_config::vocabulary::{Block, COLOR_NAMES, THEME_TOKENS, Ty};

/// What to offer: a label, the text inserted, a detail and documentation.
pub(crate) struct Offer {
    /// The label.
    pub(crate) label: String,
    /// The text inserted.
    pub(crate) insert: String,
    /// A short detail shown beside it.
    pub(crate) detail: &'static str,
    /// Its documentation.
    pub(crate) doc: String,
}

/// The type of the value at `path` (the keys of the maps enclosing the cursor, list items adding
/// none), when the path leads into the dashboard's side.
fn type_at(path: &[String]) -> Option<Ty> {
    let (root, rest) = path.split_first()?;
    let mut ty = match root.as_str() {
        "tui" => Ty::Map(Block::Tui),
        "app" => Ty::Map(Block::App),
        "actions" => Ty::Named(Block::Action),
        _ => return None,
    };
    for segment in rest {
        ty = match ty {
            Ty::Named(block) => Ty::Map(block),
            Ty::Map(block) | Ty::List(block) => block.field(segment)?.ty,
            _ => return None,
        };
    }
    Some(ty)
}

/// The keys to offer in the map at `path`, without those already written (`siblings`).
pub(crate) fn keys(path: &[String], siblings: &[String]) -> Option<Vec<Offer>> {
    let block = match type_at(path)? {
        Ty::Map(block) | Ty::List(block) => block,
        _ => return None,
    };
    Some(
        block
            .fields()
            .iter()
            .filter(|field| !siblings.iter().any(|sibling| sibling == field.name))
            .map(|field| Offer {
                label: field.name.to_owned(),
                insert: field.name.to_owned(),
                detail: "field",
                doc: field.doc.to_owned(),
            })
            .collect(),
    )
}

/// The values to offer for `key` of the map at `path`; `after_theme`: the word being typed follows
/// `theme:`, so a theme color inserts its token alone.
pub(crate) fn values(
    config: &Config,
    path: &[String],
    key: &str,
    after_theme: bool,
) -> Option<Vec<Offer>> {
    let field = match type_at(path)? {
        Ty::Map(block) | Ty::List(block) => block.field(key)?,
        _ => return None,
    };
    let names = |names: Vec<&str>, detail| {
        names
            .into_iter()
            .map(|name| Offer {
                label: name.to_owned(),
                insert: name.to_owned(),
                detail,
                doc: String::new(),
            })
            .collect()
    };
    let in_on_cursor = path.last().is_some_and(|last| last == "on_cursor");
    Some(match (key, field.ty) {
        ("component" | "from", _) | ("source", _) if key != "source" || in_on_cursor => names(
            config.components.iter().filter_map(|c| c.name()).collect(),
            "component",
        ),
        ("push" | "initial", _) => names(
            config
                .dashboard
                .screens
                .iter()
                .filter_map(|screen| Some(screen.name.as_ref()?.value.as_str()))
                .collect(),
            "screen",
        ),
        ("action", _) => names(
            config
                .dashboard
                .actions
                .iter()
                .map(|action| action.name.value.as_str())
                .collect(),
            "action",
        ),
        (_, Ty::Color) => THEME_TOKENS
            .iter()
            .map(|token| Offer {
                label: format!("theme:{token}"),
                insert: match after_theme {
                    true => (*token).to_owned(),
                    false => format!("theme:{token}"),
                },
                detail: "theme color",
                doc: theme_doc(token),
            })
            .chain(names(COLOR_NAMES.to_vec(), "color"))
            .collect(),
        (_, Ty::OneOf(words)) => names(words.to_vec(), "value"),
        (_, Ty::Bool) => names(vec!["true", "false"], "value"),
        _ => return None,
    })
}

/// The hover of a key of the dashboard's side (its field's documentation) or of a `theme:` color
/// value (what the token is).
pub(crate) fn hover(path: &[String], slot: &Slot) -> Option<(String, Span)> {
    let block = match type_at(path)? {
        Ty::Map(block) | Ty::List(block) => block,
        _ => return None,
    };
    match slot {
        Slot::Key { word, span } => {
            let field = block.field(word)?;
            let on = match field.on {
                [] => String::new(),
                kinds => format!(" (on {})", kinds.join(", ")),
            };
            Some((format!("**`{}`**{on} — {}", field.name, field.doc), *span))
        }
        Slot::Value { key, word, span } => {
            // `:` ends a word, so the token is the word after `theme:`.
            let token = word.strip_prefix("theme:").unwrap_or(word);
            (block.field(key)?.ty == Ty::Color && THEME_TOKENS.contains(&token))
                .then(|| (theme_doc(token), *span))
        }
    }
}

/// What a `theme:` color token is, for its hover and completion.
pub(crate) fn theme_doc(token: &str) -> String {
    format!(
        "`theme:{token}`: the active palette's `{token}` color; it follows the palette when the themes are cycled"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(keys: &[&str]) -> Vec<String> {
        keys.iter().map(|key| (*key).to_owned()).collect()
    }

    #[test]
    fn the_path_leads_through_named_maps_and_lists() {
        assert_eq!(
            type_at(&path(&["tui", "components", "apps", "columns"])),
            Some(Ty::List(Block::Column))
        );
        assert_eq!(
            type_at(&path(&["tui", "screens", "main", "layout", "vstack"])),
            Some(Ty::List(Block::StackItem))
        );
        let offered =
            keys(&path(&["tui", "components", "apps"]), &["type".to_owned()]).unwrap_or_default();
        assert!(offered.iter().any(|offer| offer.label == "columns"));
        assert!(!offered.iter().any(|offer| offer.label == "type"));
        assert!(type_at(&path(&["data", "sources"])).is_none());
    }
}
