//! The keys around `data.sources`: the file's top level and the `data` map. A key the format
//! does not have there is `unknown-field` with a did-you-mean, or, when it is a key of another
//! level (`sources` written at the top, `components` under `data`), says where it belongs.

use sources_diagnostics::{Diagnostic, Rule, did_you_mean};
use sources_syntax::{Entry, Map, Span, Value};

use super::{Decoder, join_or, name_span};

/// The keys of the file's top level.
const TOP_LEVEL: [&str; 4] = ["app", "data", "tui", "actions"];

/// The keys of `data`.
const DATA: [&str; 1] = ["sources"];

/// The keys of `tui`, where a key misplaced into another level is sent.
const TUI: [&str; 4] = ["components", "screen", "screens", "initial"];

/// Reports the keys of `root` (the file's top-level map) and of its `data` map that the format
/// does not have. A map with none of its level's keys is not taken for the format's: only its
/// keys that look like a misspelling of one are reported (`data: {other: 1}` is some other
/// file's). A top-level key that holds a YAML anchor the entries (`entries`, those of
/// `data.sources`) merge is left alone, and so is one starting with `x-`, the usual name of such
/// a holder: the dashboard's decoder ignores them.
pub(super) fn check(decoder: &mut Decoder, root: &Map, entries: &[Entry]) {
    let dashboard = root
        .entries
        .iter()
        .any(|entry| TOP_LEVEL.contains(&entry.key.name.as_str()));
    for entry in root.entries.iter() {
        let name = entry.key.name.as_str();
        if TOP_LEVEL.contains(&name) || name.starts_with("x-") || merged(entry, entries) {
            continue;
        }
        let suggestions = did_you_mean(name, TOP_LEVEL);
        let belongs = home(name, "the top level");
        // Outside a dashboard a key of another level is ours only when it holds what that level
        // holds (a CI file's job may be named `sources`).
        let ours = belongs.is_some() && (dashboard || holds_entries(&entry.value.value));
        if !dashboard && suggestions.is_empty() && !ours {
            continue;
        }
        report(
            decoder,
            root,
            entry,
            "the top level",
            &suggestions,
            belongs,
            &TOP_LEVEL,
        );
    }
    let data = root
        .entries
        .iter()
        .find(|entry| entry.key.name == "data")
        .map(|entry| &entry.value.value);
    if let Some(Value::Map(data)) = data {
        let ours = data
            .entries
            .iter()
            .any(|entry| DATA.contains(&entry.key.name.as_str()));
        for entry in data.entries.iter() {
            let name = entry.key.name.as_str();
            if DATA.contains(&name) {
                continue;
            }
            let suggestions = did_you_mean(name, DATA);
            let belongs = home(name, "data");
            if !ours && suggestions.is_empty() && belongs.is_none() {
                continue;
            }
            report(decoder, data, entry, "`data`", &suggestions, belongs, &DATA);
        }
    }
}

/// Whether a top-level key named `name` is reported by what its value holds: a key of another
/// level, which outside a dashboard is ours only when it holds entries.
pub(super) fn judged_by_value(name: &str) -> bool {
    home(name, "the top level").is_some()
}

/// Whether `value` is a map of maps that each have a `type`: entries of `data.sources` (or
/// components of `tui`).
fn holds_entries(value: &Value) -> bool {
    let Value::Map(map) = value else {
        return false;
    };
    !map.entries.is_empty()
        && map.entries.iter().all(|entry| match &entry.value.value {
            Value::Map(fields) => fields.entries.iter().any(|field| field.key.name == "type"),
            _ => false,
        })
}

/// Whether `holder`'s value is an anchor that an entry of `entries` merges: a key of the entry
/// is written inside it.
fn merged(holder: &Entry, entries: &[Entry]) -> bool {
    let within = |span: Span| {
        holder.value.span.start() <= span.start() && span.end() <= holder.value.span.end()
    };
    entries.iter().any(|entry| match &entry.value.value {
        Value::Map(map) => map.entries.iter().any(|field| within(field.key.span)),
        _ => false,
    })
}

/// The level `name` is a key of, when it is one of another level than `here`.
fn home(name: &str, here: &str) -> Option<&'static str> {
    if DATA.contains(&name) && here != "data" {
        Some("data")
    } else if TUI.contains(&name) {
        Some("tui")
    } else if TOP_LEVEL.contains(&name) && here != "the top level" {
        Some("the top level")
    } else {
        None
    }
}

/// Reports `entry`, a key of `map` (at `level`) that the format does not have there.
fn report(
    decoder: &mut Decoder,
    map: &Map,
    entry: &Entry,
    level: &str,
    suggestions: &[&str],
    belongs: Option<&str>,
    known: &[&str],
) {
    let name = entry.key.name.as_str();
    let mut diagnostic = match belongs {
        Some(home) => {
            let target = if home == "the top level" {
                home.to_owned()
            } else {
                format!("`{home}`")
            };
            Diagnostic::new(
                Rule::UnknownField,
                entry.key.span,
                format!("`{name}` is not a key of {level}; it belongs under {target}"),
            )
            .with_label("misplaced key")
            .with_help(format!("move `{name}` and what it holds under {target}"))
        }
        None => {
            let diagnostic = Diagnostic::new(
                Rule::UnknownField,
                entry.key.span,
                format!("unknown key `{name}` at {level}"),
            )
            .with_label("not part of the format here");
            if suggestions.is_empty() {
                let list: Vec<String> = known.iter().map(|key| format!("`{key}`")).collect();
                diagnostic.with_help(format!("the keys of {level} are {}", join_or(&list)))
            } else {
                let list: Vec<String> = suggestions.iter().map(|key| format!("`{key}`")).collect();
                diagnostic.with_help(format!("did you mean {}?", join_or(&list)))
            }
        }
    };
    if belongs.is_none()
        && let Some(best) = suggestions.first()
        && let Some(span) = name_span(entry.key.span, name)
        && !map.entries.iter().any(|other| other.key.name == *best)
    {
        diagnostic =
            diagnostic.with_correction(format!("Rename `{name}` to `{best}`"), span, name, best);
    }
    decoder.report(diagnostic);
}
