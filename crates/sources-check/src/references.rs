//! References between entries: `unknown-source` for every reference field and component `source`,
//! `unknown-component` for an `on_cursor.component` that names no component, and
//! `reference-cycle` for entries that depend on themselves.

use sources_config::cadence::MAX_CHAIN_DEPTH;
use sources_config::{Config, ReferenceField, Source, SourceRef, name_span};
use sources_diagnostics::{Collector, Diagnostic, Rule, did_you_mean};

/// Every entry's references to other entries, collected once per analysis for each check that
/// follows them.
pub(crate) struct References {
    references: Vec<SourceRef>,
    /// Where each entry's references end in `references`, by entry index.
    ends: Vec<usize>,
}

impl References {
    /// The references of every entry of `config`, in entry order.
    pub(crate) fn of(config: &Config) -> References {
        let mut references = Vec::new();
        let mut ends = Vec::with_capacity(config.entries.len());
        for source in &config.entries {
            references.extend(source.references());
            ends.push(references.len());
        }
        References { references, ends }
    }

    /// The references the entry at `index` of `config.entries` makes, in source order.
    pub(crate) fn of_entry(&self, index: usize) -> &[SourceRef] {
        let start = match index.checked_sub(1) {
            Some(previous) => self.ends.get(previous).copied().unwrap_or_default(),
            None => 0,
        };
        let end = self.ends.get(index).copied().unwrap_or(start);
        self.references.get(start..end).unwrap_or_default()
    }

    /// Every reference with the entry that makes it, in entry order (`config` is the one they were
    /// collected from).
    pub(crate) fn with_entries<'a>(
        &'a self,
        config: &'a Config,
    ) -> impl Iterator<Item = (&'a Source, &'a SourceRef)> {
        config
            .entries
            .iter()
            .enumerate()
            .flat_map(move |(index, source)| {
                self.of_entry(index)
                    .iter()
                    .map(move |reference| (source, reference))
            })
    }
}

/// Reports references to names that no entry has, with a did-you-mean and a rename fix.
pub(crate) fn check_unknown_sources(config: &Config, references: &References, out: &mut Collector) {
    for (source, reference) in references.with_entries(config) {
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

/// Reports an `on_cursor.component` that names no component of `tui.components`, with a
/// did-you-mean and a rename fix.
pub(crate) fn check_unknown_components(config: &Config, out: &mut Collector) {
    let names: Vec<&str> = config
        .components
        .iter()
        .filter_map(|component| component.name.as_ref().map(|name| name.value.as_str()))
        .collect();
    for component in &config.components {
        let Some(cursor) = &component.cursor_of else {
            continue;
        };
        let name = cursor.value.as_str();
        if names.contains(&name) {
            continue;
        }
        let who = match &component.name {
            Some(own) => format!("component `{}`", own.value),
            None => "a component".to_string(),
        };
        let mut diagnostic = Diagnostic::new(
            Rule::UnknownComponent,
            cursor.span,
            format!("{who} takes its parameters from the cursor of unknown component `{name}`"),
        )
        .with_label("no component of `tui.components` has this name");
        let suggestions = did_you_mean(name, names.iter().copied());
        match suggestions.first() {
            Some(best) => {
                let list: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
                diagnostic = diagnostic.with_help(format!("did you mean {}?", list.join(" or ")));
                if let Some(span) = name_span(cursor.span, name) {
                    diagnostic = diagnostic.with_replacement(
                        format!("Rename `{name}` to `{best}`"),
                        span,
                        *best,
                    );
                }
            }
            None => {
                diagnostic = diagnostic.with_help(format!(
                    "define a component named `{name}` under `tui.components`, or name an existing one"
                ));
            }
        }
        out.push(diagnostic);
    }
}

fn unknown(config: &Config, reference: &SourceRef, message: String) -> Diagnostic {
    let name = &reference.name.value;
    let suggestions = did_you_mean(name, config.names());
    let mut diagnostic = Diagnostic::new(Rule::UnknownSource, reference.name.span, message)
        .with_label("no entry of `data.sources` has this name");
    match suggestions.first() {
        Some(best) => {
            let list: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
            diagnostic = diagnostic.with_help(format!("did you mean {}?", list.join(" or ")));
            if let Some(span) = name_span(reference.name.span, name) {
                diagnostic = diagnostic.with_replacement(
                    format!("Rename `{name}` to `{best}`"),
                    span,
                    *best,
                );
            }
        }
        None => {
            diagnostic = diagnostic.with_help(format!(
                "declare `{name}` under `data.sources`, or name an existing entry"
            ));
        }
    }
    diagnostic
}

/// One edge of the reference graph: entry `from` reads entry `to` through `reference`.
struct Edge<'a> {
    to: usize,
    reference: &'a SourceRef,
}

/// Reports every strongly connected group of entries once, naming one cycle through it.
pub(crate) fn check_cycles(config: &Config, references: &References, out: &mut Collector) {
    let edges: Vec<Vec<Edge<'_>>> = (0..config.entries.len())
        .map(|index| {
            references
                .of_entry(index)
                .iter()
                .filter_map(|reference| {
                    let to = config.position(&reference.name.value)?;
                    Some(Edge { to, reference })
                })
                .collect()
        })
        .collect();
    let components = strongly_connected(&edges);
    check_depth(config, &edges, &components, out);
    for component in components {
        let start = component.iter().copied().min().unwrap_or_default();
        let self_loop = edges[start].iter().any(|edge| edge.to == start);
        if component.len() < 2 && !self_loop {
            continue;
        }
        let members: std::collections::HashSet<usize> = component.iter().copied().collect();
        let Some(cycle) = shortest_cycle(&edges, start, &members) else {
            continue;
        };
        out.push(cycle_diagnostic(config, &edges, start, &cycle));
    }
}

/// `reference-depth` at each entry that starts a chain longer than [`MAX_CHAIN_DEPTH`] (no deeper
/// entry reads it). `components` come in Tarjan's order, so an entry's inputs are measured first;
/// entries on a cycle (reported by `reference-cycle`) count as one.
fn check_depth(
    config: &Config,
    edges: &[Vec<Edge<'_>>],
    components: &[Vec<usize>],
    out: &mut Collector,
) {
    let followed = |edge: &&Edge<'_>| edge.reference.field != ReferenceField::Growing;
    let mut depth = vec![1usize; edges.len()];
    for component in components {
        if component.len() > 1 {
            continue;
        }
        let node = component[0];
        depth[node] = 1 + edges[node]
            .iter()
            .filter(followed)
            .filter(|edge| edge.to != node)
            .map(|edge| depth[edge.to])
            .max()
            .unwrap_or(0);
    }
    let mut read_by_deep = vec![false; edges.len()];
    for (node, outgoing) in edges.iter().enumerate() {
        if depth[node] > MAX_CHAIN_DEPTH {
            for edge in outgoing.iter().filter(followed) {
                read_by_deep[edge.to] = true;
            }
        }
    }
    for node in 0..edges.len() {
        if depth[node] <= MAX_CHAIN_DEPTH || read_by_deep[node] {
            continue;
        }
        let mut chain = vec![node];
        let mut at = node;
        while let Some(next) = edges[at]
            .iter()
            .filter(followed)
            .filter(|edge| depth[edge.to] + 1 == depth[at])
            .map(|edge| edge.to)
            .next()
        {
            chain.push(next);
            at = next;
        }
        let name = |index: usize| config.entries[index].name.value.as_str();
        let shown = if chain.len() > 4 {
            format!(
                "{} → {} → … → {}",
                name(chain[0]),
                name(chain[1]),
                name(chain[chain.len() - 1])
            )
        } else {
            chain
                .iter()
                .map(|&index| name(index))
                .collect::<Vec<_>>()
                .join(" → ")
        };
        let source = &config.entries[node];
        let mut diagnostic = Diagnostic::new(
            Rule::ReferenceDepth,
            source.name.span,
            format!(
                "`{}` starts a chain of {} entries ({shown}): deeper than the limit of {MAX_CHAIN_DEPTH}",
                name(node),
                depth[node]
            ),
        )
        .with_label(format!("{} entries deep", depth[node]))
        .with_help(format!(
            "`try` and the dashboard follow at most {MAX_CHAIN_DEPTH} entries: read a nearer entry, or fold steps into one `pipe`"
        ));
        if let Some(edge) = edges[node]
            .iter()
            .filter(followed)
            .find(|edge| chain.get(1) == Some(&edge.to))
        {
            diagnostic = diagnostic.with_secondary(
                edge.reference.name.span,
                format!("`{}` reads `{}` here", name(node), name(edge.to)),
            );
        }
        out.push(diagnostic);
    }
}

/// The edges (as (entry, edge index)) of a shortest cycle from `start` back to it within `members`.
fn shortest_cycle(
    edges: &[Vec<Edge<'_>>],
    start: usize,
    members: &std::collections::HashSet<usize>,
) -> Option<Vec<(usize, usize)>> {
    let mut previous: std::collections::HashMap<usize, (usize, usize)> =
        std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for (index, edge) in edges[node].iter().enumerate() {
            if !members.contains(&edge.to) {
                continue;
            }
            if edge.to == start {
                let mut path = vec![(node, index)];
                let mut at = node;
                while at != start {
                    let (from, via) = *previous.get(&at)?;
                    path.push((from, via));
                    at = from;
                }
                path.reverse();
                return Some(path);
            }
            if edge.to != start && !previous.contains_key(&edge.to) {
                previous.insert(edge.to, (node, index));
                queue.push_back(edge.to);
            }
        }
    }
    None
}

fn cycle_diagnostic(
    config: &Config,
    edges: &[Vec<Edge<'_>>],
    start: usize,
    cycle: &[(usize, usize)],
) -> Diagnostic {
    let name = |index: usize| config.entries[index].name.value.as_str();
    let mut names: Vec<&str> = cycle.iter().map(|(from, _)| name(*from)).collect();
    names.push(name(start));
    let path = names.join(" → ");
    let (first_from, first_edge) = cycle[0];
    let first = &edges[first_from][first_edge];
    let mut diagnostic = Diagnostic::new(
        Rule::ReferenceCycle,
        first.reference.name.span,
        format!("reference cycle: {path}"),
    )
    .with_label(format!("`{}` reads `{}` here", name(first_from), name(first.to)))
    .with_help("an entry cannot depend on itself: make one of these entries read something outside the cycle");
    for (from, via) in &cycle[1..] {
        let edge = &edges[*from][*via];
        diagnostic = diagnostic.with_secondary(
            edge.reference.name.span,
            format!("`{}` reads `{}` here", name(*from), name(edge.to)),
        );
    }
    diagnostic
}

/// Tarjan's strongly connected components, iteratively (no recursion on long chains).
fn strongly_connected(edges: &[Vec<Edge<'_>>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let count = edges.len();
    let mut index = vec![UNSEEN; count];
    let mut low = vec![0; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut next = 0;
    for root in 0..count {
        if index[root] != UNSEEN {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut edge)) = work.last_mut() {
            if let Some(target) = edges[node].get(*edge).map(|edge| edge.to) {
                *edge += 1;
                if index[target] == UNSEEN {
                    index[target] = next;
                    low[target] = next;
                    next += 1;
                    stack.push(target);
                    on_stack[target] = true;
                    work.push((target, 0));
                } else if on_stack[target] {
                    low[node] = low[node].min(index[target]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                components.push(component);
            }
        }
    }
    components
}
