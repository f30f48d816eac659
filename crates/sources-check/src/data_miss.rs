//! How a reference that misses the data it reads is reported, for every check that reads data
//! (`data_refs`, `data_paths`, `data_types`): the `unknown-data-field` diagnostic naming the key,
//! where it is missing and the keys that are there, its severity from how sure the shape is
//! (`from_shape`), and the names an expression reads besides a row's fields.

use sources_diagnostics::{Diagnostic, Rule, Severity, Span, did_you_mean};

use crate::shape::Fields;
use crate::shapes::{Certainty, Shaped};

/// Names every expression may read besides the row's fields.
pub(crate) const BUILT_IN_NAMES: &[&str] = &["params", "item"];

/// What a reference reads: which entry's data, its rows or its response, and from which field.
pub(crate) struct Reader<'a> {
    /// The entry whose data is read, as the message names it (`` `apps` ``).
    pub entry: &'a str,
    /// `rows` or `response`.
    pub what: &'static str,
    /// The field that reads it, as the message names it (`` `where` ``, ``the `value` of column
    /// `Name` ``).
    pub field: &'a str,
    /// The top-level keys of what is read (for a key written one level too high).
    pub top: &'a Fields,
}

/// Where a key is missing: the path walked before it, the key, and the keys that are there.
pub(crate) struct Miss<'a> {
    /// The path before the missing key (empty: the top level).
    pub at: String,
    /// The missing key.
    pub name: String,
    /// The keys where it is missing.
    pub keys: &'a Fields,
}

/// An `unknown-data-field` diagnostic at `span`. When the missing name is a key one level down
/// (a tag under `_meta`, a driver's key under a join's `row`), the help gives that exact path.
pub(crate) fn unknown_field(
    shaped: &Shaped,
    reader: &Reader<'_>,
    span: Span,
    miss: &Miss<'_>,
) -> Diagnostic {
    let Reader {
        entry,
        what,
        field,
        top,
    } = *reader;
    let Miss { at, name, keys } = miss;
    let (at, name, keys) = (at.as_str(), name.as_str(), *keys);
    let place = if at.is_empty() {
        format!("the {what} of {entry}")
    } else {
        format!("`{at}` in the {what} of {entry}")
    };
    let listed = list_keys(keys);
    let have = if matches!(what, "rows" | "items") && at.is_empty() {
        "have"
    } else {
        "has"
    };
    let message =
        format!("{field} reads `{name}`, but {place} {have} no such key (keys: {listed})");
    let nested = at.is_empty().then(|| nested_path(top, name)).flatten();
    let help = match (
        nested,
        did_you_mean(name, keys.keys().map(String::as_str)).first(),
    ) {
        (Some(path), _) => format!("`{name}` is at `{path}` in these rows: read `{path}`"),
        (None, Some(best)) => format!("did you mean `{best}`?"),
        (None, None) => format!("read one of the keys {place} {have}: {listed}"),
    };
    let diagnostic = Diagnostic::new(Rule::UnknownDataField, span, message)
        .with_label(format!("no key `{name}` here"));
    from_shape(diagnostic, shaped, &help)
}

/// `diagnostic` with `help` and where the shape it was checked against comes from; a warning
/// when that shape is only a sample's.
pub(crate) fn from_shape(mut diagnostic: Diagnostic, shaped: &Shaped, help: &str) -> Diagnostic {
    diagnostic = diagnostic.with_help(format!(
        "{help} (the shape comes from {})",
        shaped.origin.describe()
    ));
    if shaped.certainty == Certainty::Sampled {
        diagnostic.severity = Severity::Warning;
    }
    diagnostic
}

/// `KEY.name` when exactly one object key of `fields` holds `name`.
fn nested_path(fields: &Fields, name: &str) -> Option<String> {
    let mut found = fields.iter().filter_map(|(key, field)| {
        field
            .shape
            .rows()
            .fields()
            .filter(|inner| inner.contains_key(name))
            .map(|_| format!("{key}.{name}"))
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// The keys, for a message: at most 12, then how many more.
pub(crate) fn list_keys(keys: &Fields) -> String {
    if keys.is_empty() {
        return "none".to_owned();
    }
    let mut listed: Vec<String> = keys.keys().take(12).map(|key| format!("`{key}`")).collect();
    if keys.len() > 12 {
        listed.push(format!("and {} more", keys.len() - 12));
    }
    listed.join(", ")
}
