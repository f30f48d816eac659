//! How a reference that misses the data it reads is reported, for every check that reads data
//! (`data_refs`, `data_paths`, `data_types`): the `unknown-data-field` diagnostic naming the key,
//! where it is missing and the keys that are there, or the step the data cannot take (a key of a
//! text, a key of a list) and what the data holds there; its severity from how sure the shape is
//! (`from_shape`), and the names an expression reads besides a row's fields.

use sources_diagnostics::{Diagnostic, Rule, Severity, Span, did_you_mean};

use crate::shape::{Fields, PathLookup, Shape};
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

/// A step a path cannot take: a key read from a scalar, or from a list (whose steps are indexes).
pub(crate) struct Wrong<'a> {
    /// The path to the value the step is read from.
    pub at: String,
    /// The step.
    pub step: String,
    /// What is at `at`: a scalar's shape, or a list's items' shape when `list`.
    pub shape: &'a Shape,
    /// Whether `at` is a list.
    pub list: bool,
}

/// Where a path stops resolving in a shape it is checked against.
pub(crate) enum Unresolved<'a> {
    /// A key the object there does not have.
    Key(Miss<'a>),
    /// A step the value there cannot take.
    Step(Wrong<'a>),
}

impl<'a> Unresolved<'a> {
    /// What `lookup` says cannot resolve, if anything.
    pub(crate) fn of(lookup: PathLookup<'a>) -> Option<Unresolved<'a>> {
        match lookup {
            PathLookup::Missing { at, step, keys } => Some(Unresolved::Key(Miss {
                at,
                name: step,
                keys,
            })),
            PathLookup::NotObject { at, step, shape } => Some(Unresolved::Step(Wrong {
                at,
                step,
                shape,
                list: false,
            })),
            PathLookup::IntoList { at, step, item } => Some(Unresolved::Step(Wrong {
                at,
                step,
                shape: item,
                list: true,
            })),
            PathLookup::Found(_) | PathLookup::Unknown => None,
        }
    }

    /// The path walked before the step that fails, and that step.
    pub(crate) fn place(&self) -> (&str, &str) {
        match self {
            Unresolved::Key(miss) => (&miss.at, &miss.name),
            Unresolved::Step(wrong) => (&wrong.at, &wrong.step),
        }
    }

    /// The index of the failing step among the path's steps.
    pub(crate) fn index(&self) -> usize {
        let (at, _) = self.place();
        if at.is_empty() {
            0
        } else {
            at.split('.').count()
        }
    }

    /// Its `unknown-data-field` diagnostic at `span`; a list is indexed as `indexing` writes it.
    pub(crate) fn diagnostic(
        &self,
        shaped: &Shaped,
        reader: &Reader<'_>,
        span: Span,
        indexing: Indexing,
    ) -> Diagnostic {
        match self {
            Unresolved::Key(miss) => unknown_field(shaped, reader, span, miss),
            Unresolved::Step(wrong) => wrong_step(shaped, reader, span, wrong, indexing),
        }
    }
}

/// How a path indexes a list, for the help.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Indexing {
    /// A dot-path: `items.0.name`.
    Dot,
    /// An expression: `items[0].name`.
    Brackets,
}

/// An `unknown-data-field` diagnostic at `span` for a step the value at `wrong.at` cannot take.
fn wrong_step(
    shaped: &Shaped,
    reader: &Reader<'_>,
    span: Span,
    wrong: &Wrong<'_>,
    indexing: Indexing,
) -> Diagnostic {
    let Reader {
        entry, what, field, ..
    } = *reader;
    let Wrong {
        at,
        step,
        shape,
        list,
    } = wrong;
    let place = format!("`{at}` in the {what} of {entry}");
    let (message, label, help) = if *list {
        let first = match indexing {
            Indexing::Dot => format!("{at}.0"),
            Indexing::Brackets => format!("{at}[0]"),
        };
        let help = match shape.fields() {
            Some(keys) if keys.contains_key(step.as_str()) => format!(
                "each item of `{at}` has `{step}`: read one item's, `{first}.{step}` for the first"
            ),
            Some(keys) => format!(
                "index the list first (`{first}`); its items have the keys {}",
                list_keys(keys)
            ),
            None => format!("index the list first: `{first}`"),
        };
        (
            format!(
                "{field} reads `{step}` of `{at}`, but {place} is a list, whose steps are indexes, not keys"
            ),
            "a key of a list".to_owned(),
            help,
        )
    } else {
        let noun = shape.noun();
        (
            format!("{field} reads `{step}` of `{at}`, but {place} is {noun}, which has no keys"),
            format!("`{at}` is {noun}"),
            format!("read `{at}` itself, or the path of an object that has `{step}`"),
        )
    };
    let diagnostic = Diagnostic::new(Rule::UnknownDataField, span, message).with_label(label);
    from_shape(diagnostic, shaped, &help)
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
