//! References between entries: `unknown-source` for every reference field and component `source`,
//! `unknown-component` for an `on_cursor.component` that names no component, and
//! `reference-cycle` for entries that depend on themselves (`cycles`, which also measures chains).

mod cycles;

pub(crate) use cycles::check_cycles;
use sources_config::{Config, Source, SourceRef, Spanned, name_span};
use sources_diagnostics::{Collector, Diagnostic, Rule, did_you_mean};

/// Every entry's references to other entries, collected once per analysis for each check that
/// follows them.
pub(crate) struct References {
    references: Vec<SourceRef>,
    /// Where the references of each entry start in `references`; one more item, its length, at
    /// the end.
    starts: Vec<usize>,
}

impl References {
    /// The references of every entry of `config`, in entry order.
    pub(crate) fn of(config: &Config) -> References {
        let mut references = Vec::new();
        let mut starts = Vec::with_capacity(config.entries.len() + 1);
        for source in &config.entries {
            starts.push(references.len());
            references.extend(source.references());
        }
        starts.push(references.len());
        References { references, starts }
    }

    /// The references the entry at `index` of `config.entries` makes, in source order.
    pub(crate) fn of_entry(&self, index: usize) -> &[SourceRef] {
        let start = self.starts.get(index).copied().unwrap_or_default();
        let end = self.starts.get(index + 1).copied().unwrap_or(start);
        self.references.get(start..end).unwrap_or_default()
    }

    /// Every entry of `config` (the one they were collected from) with its index and its
    /// references, in order.
    pub(crate) fn with_entries<'a>(
        &'a self,
        config: &'a Config,
    ) -> impl Iterator<Item = (usize, &'a Source, &'a [SourceRef])> {
        let spans = self.starts.windows(2);
        config
            .entries
            .iter()
            .zip(spans)
            .enumerate()
            .map(|(index, (source, span))| {
                let refs = self.references.get(span[0]..span[1]).unwrap_or_default();
                (index, &**source, refs)
            })
    }

    /// Every reference with the index of the entry that makes it, in entry order.
    pub(crate) fn with_makers(&self) -> impl Iterator<Item = (usize, &SourceRef)> {
        (0..self.starts.len().saturating_sub(1))
            .flat_map(move |index| self.of_entry(index).iter().map(move |made| (index, made)))
    }
}

/// Reports the references of `source` (its `refs`) to names that no entry has, with a
/// did-you-mean and a rename fix.
pub(crate) fn check_unknown_refs(
    config: &Config,
    source: &Source,
    refs: &[SourceRef],
    out: &mut Collector,
) {
    for reference in refs {
        if config.get(&reference.name.value).is_none() {
            let what = format!(
                "source `{}` reads unknown source `{}` in `{}`",
                source.name.value,
                reference.name.value,
                reference.field.as_str()
            );
            out.push(unknown(config, reference, what));
        }
    }
}

/// Reports a component's `source` that names no entry, with a did-you-mean and a rename fix.
pub(crate) fn check_unknown_bound(config: &Config, out: &mut Collector) {
    for component in &config.components {
        let Some(bound) = &component.source else {
            continue;
        };
        if config.get(&bound.value).is_none() {
            let who = match &component.name {
                Some(name) => format!("component `{}`", name.value),
                None => "a component".to_string(),
            };
            let reference = SourceRef {
                name: bound.clone(),
                field: sources_config::ReferenceField::From,
            };
            out.push(unknown(
                config,
                &reference,
                format!("{who} binds unknown source `{}`", bound.value),
            ));
        }
    }
}

/// Reports an `on_cursor.source` or an action binding's `from` that names no component of
/// `tui.components`, with a did-you-mean and a rename fix.
pub(crate) fn check_unknown_components(config: &Config, out: &mut Collector) {
    let names: Vec<&str> = config
        .components
        .iter()
        .filter_map(|component| component.name())
        .collect();
    for component in &config.components {
        let Some(driver) = component
            .on_cursor
            .as_ref()
            .and_then(|on_cursor| on_cursor.source.as_ref())
        else {
            continue;
        };
        let who = match &component.name {
            Some(own) => format!("component `{}`", own.value),
            None => "a component".to_string(),
        };
        unknown_component(
            driver,
            &names,
            format!(
                "{who} takes its parameters from the cursor of unknown component `{}`",
                driver.value
            ),
            out,
        );
    }
    for screen in &config.dashboard.screens {
        for from in screen
            .actions
            .iter()
            .filter_map(|binding| binding.from.as_ref())
        {
            unknown_component(
                from,
                &names,
                format!(
                    "an action of {} reads the selection of unknown component `{}`",
                    screen.describe(),
                    from.value
                ),
                out,
            );
        }
    }
}

/// `unknown-component` for `named` unless it is one of `names`.
pub(crate) fn unknown_component(
    named: &Spanned<String>,
    names: &[&str],
    message: String,
    out: &mut Collector,
) {
    if names.contains(&named.value.as_str()) {
        return;
    }
    out.push(unknown_name(
        Rule::UnknownComponent,
        named,
        names.iter().copied(),
        message,
        "no component of `tui.components` has this name",
        format!(
            "define a component named `{}` under `tui.components`, or name an existing one",
            named.value
        ),
    ));
}

fn unknown(config: &Config, reference: &SourceRef, message: String) -> Diagnostic {
    unknown_name(
        Rule::UnknownSource,
        &reference.name,
        config.names(),
        message,
        "no entry of `data.sources` has this name",
        format!(
            "declare `{}` under `data.sources`, or name an existing entry",
            reference.name.value
        ),
    )
}

/// A name that names nothing of its kind: the message, a did-you-mean over `candidates` with a
/// rename fix, or `otherwise` as the help when nothing is close.
pub(crate) fn unknown_name<'a>(
    rule: Rule,
    named: &Spanned<String>,
    candidates: impl IntoIterator<Item = &'a str>,
    message: String,
    label: &str,
    otherwise: String,
) -> Diagnostic {
    let name = named.value.as_str();
    let suggestions = did_you_mean(name, candidates);
    let mut diagnostic = Diagnostic::new(rule, named.span, message).with_label(label);
    match suggestions.first() {
        Some(best) => {
            let list: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
            diagnostic = diagnostic.with_help(format!("did you mean {}?", list.join(" or ")));
            if let Some(span) = name_span(named.span, name) {
                diagnostic = diagnostic.with_correction(
                    format!("Rename `{name}` to `{best}`"),
                    span,
                    name,
                    best,
                );
            }
        }
        None => diagnostic = diagnostic.with_help(otherwise),
    }
    diagnostic
}
