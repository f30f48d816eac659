//! `reference-cycle` for entries that depend on themselves and `reference-depth` for chains longer
//! than the runtime follows, over the graph of the references that name an entry.
//!
//! The graph holds only the entries that make or receive such a reference, in flat arrays: a
//! document of 100,000 entries without references allocates nothing here.

use std::collections::{HashMap, HashSet, VecDeque};

use sources_config::cadence::MAX_CHAIN_DEPTH;
use sources_config::{Config, ReferenceField, SourceRef};
use sources_diagnostics::{Collector, Diagnostic, Rule};

use super::References;

/// One edge of the reference graph: a node reads node `to` through `reference`.
struct Edge<'a> {
    to: usize,
    reference: &'a SourceRef,
}

/// The reference graph over the entries that make or receive a reference naming an entry. Nodes
/// are numbered in entry order; the edges of node `n` are `edges[starts[n]..starts[n + 1]]`, in the
/// source order of its references.
struct Graph<'a> {
    /// The index in `config.entries` of each node (ascending).
    entries: Vec<usize>,
    /// Where each node's edges start in `edges`; one more item, `edges.len()`, at the end.
    starts: Vec<usize>,
    edges: Vec<Edge<'a>>,
}

impl<'a> Graph<'a> {
    fn of(config: &Config, references: &'a References) -> Graph<'a> {
        let resolved: Vec<(usize, usize, &SourceRef)> = references
            .with_makers()
            .filter_map(|(from, reference)| {
                Some((from, config.position(&reference.name.value)?, reference))
            })
            .collect();
        let mut entries: Vec<usize> = resolved
            .iter()
            .flat_map(|&(from, to, _)| [from, to])
            .collect();
        entries.sort_unstable();
        entries.dedup();
        // Every entry of `resolved` is in `entries`.
        let node = |entry: usize| entries.binary_search(&entry).unwrap_or_default();
        let mut starts = Vec::with_capacity(entries.len() + 1);
        let mut edges = Vec::with_capacity(resolved.len());
        for &(from, to, reference) in &resolved {
            let from = node(from);
            while starts.len() <= from {
                starts.push(edges.len());
            }
            edges.push(Edge {
                to: node(to),
                reference,
            });
        }
        while starts.len() <= entries.len() {
            starts.push(edges.len());
        }
        Graph {
            entries,
            starts,
            edges,
        }
    }

    /// The number of nodes.
    fn len(&self) -> usize {
        self.entries.len()
    }

    /// The edges of `node`, in source order.
    fn edges(&self, node: usize) -> &[Edge<'a>] {
        let start = self.starts.get(node).copied().unwrap_or_default();
        let end = self.starts.get(node + 1).copied().unwrap_or(start);
        self.edges.get(start..end).unwrap_or_default()
    }

    /// The name of the entry at `node`.
    fn name<'c>(&self, config: &'c Config, node: usize) -> &'c str {
        self.entries
            .get(node)
            .and_then(|&entry| config.entries.get(entry))
            .map_or("", |source| source.name.value.as_str())
    }
}

/// Strongly connected components, flat: component `c` is `members[ends[c - 1]..ends[c]]`.
struct Components {
    members: Vec<usize>,
    ends: Vec<usize>,
}

impl Components {
    /// The components, in the order Tarjan's algorithm completes them.
    fn iter(&self) -> impl Iterator<Item = &[usize]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| self.members.get(start..end).unwrap_or_default())
    }
}

/// Reports every strongly connected group of entries once, naming one cycle through it, and
/// every chain too long. When it reports nothing, gives how deep each entry of `config.entries`
/// is (see [`check_depth`]), which the editor keeps to judge its next version's changed entries
/// alone.
pub(crate) fn check_cycles(
    config: &Config,
    references: &References,
    out: &mut Collector,
) -> Option<Vec<u32>> {
    let graph = Graph::of(config, references);
    let components = strongly_connected(&graph);
    let depth = check_depth(config, &graph, &components, out);
    let mut clean = depth.is_some();
    for component in components.iter() {
        let start = component.iter().copied().min().unwrap_or_default();
        let self_loop = graph.edges(start).iter().any(|edge| edge.to == start);
        if component.len() < 2 && !self_loop {
            continue;
        }
        let members: HashSet<usize> = component.iter().copied().collect();
        let Some(cycle) = shortest_cycle(&graph, start, &members) else {
            continue;
        };
        out.push(cycle_diagnostic(config, &graph, start, &cycle));
        clean = false;
    }
    let depth = depth.filter(|_| clean)?;
    let mut of_entries = vec![1; config.entries.len()];
    for (node, &entry) in graph.entries.iter().enumerate() {
        if let (Some(slot), Some(&deep)) = (of_entries.get_mut(entry), depth.get(node)) {
            *slot = u32::try_from(deep).unwrap_or(u32::MAX);
        }
    }
    Some(of_entries)
}

/// `reference-depth` at each entry that starts a chain longer than [`MAX_CHAIN_DEPTH`] (no deeper
/// entry reads it). `components` come in Tarjan's order, so an entry's inputs are measured first;
/// entries on a cycle (reported by `reference-cycle`) count as one. An entry outside the graph is
/// one deep. Gives each node's depth when it reports nothing.
fn check_depth(
    config: &Config,
    graph: &Graph<'_>,
    components: &Components,
    out: &mut Collector,
) -> Option<Vec<usize>> {
    let followed = |edge: &&Edge<'_>| edge.reference.field != ReferenceField::Growing;
    let mut depth = vec![1usize; graph.len()];
    for component in components.iter() {
        let [node] = *component else {
            continue;
        };
        depth[node] = 1 + graph
            .edges(node)
            .iter()
            .filter(followed)
            .filter(|edge| edge.to != node)
            .map(|edge| depth[edge.to])
            .max()
            .unwrap_or(0);
    }
    if depth.iter().all(|&deep| deep <= MAX_CHAIN_DEPTH) {
        return Some(depth);
    }
    let mut read_by_deep = vec![false; graph.len()];
    for (node, &deep) in depth.iter().enumerate() {
        if deep > MAX_CHAIN_DEPTH {
            for edge in graph.edges(node).iter().filter(followed) {
                read_by_deep[edge.to] = true;
            }
        }
    }
    for node in 0..graph.len() {
        if depth[node] <= MAX_CHAIN_DEPTH || read_by_deep[node] {
            continue;
        }
        let mut chain = vec![node];
        let mut at = node;
        while let Some(next) = graph
            .edges(at)
            .iter()
            .filter(followed)
            .filter(|edge| depth[edge.to] + 1 == depth[at])
            .map(|edge| edge.to)
            .next()
        {
            chain.push(next);
            at = next;
        }
        let name = |node: usize| graph.name(config, node);
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
                .map(|&node| name(node))
                .collect::<Vec<_>>()
                .join(" → ")
        };
        let Some(source) = config.entries.get(graph.entries[node]) else {
            continue;
        };
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
        if let Some(edge) = graph
            .edges(node)
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
    None
}

/// The edges (as (node, edge index)) of a shortest cycle from `start` back to it within `members`.
fn shortest_cycle(
    graph: &Graph<'_>,
    start: usize,
    members: &HashSet<usize>,
) -> Option<Vec<(usize, usize)>> {
    let mut previous: HashMap<usize, (usize, usize)> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for (index, edge) in graph.edges(node).iter().enumerate() {
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
    graph: &Graph<'_>,
    start: usize,
    cycle: &[(usize, usize)],
) -> Diagnostic {
    let name = |node: usize| graph.name(config, node);
    let mut names: Vec<&str> = cycle.iter().map(|(from, _)| name(*from)).collect();
    names.push(name(start));
    let path = names.join(" → ");
    let (first_from, first_edge) = cycle[0];
    let first = &graph.edges(first_from)[first_edge];
    let mut diagnostic = Diagnostic::new(
        Rule::ReferenceCycle,
        first.reference.name.span,
        format!("reference cycle: {path}"),
    )
    .with_label(format!("`{}` reads `{}` here", name(first_from), name(first.to)))
    .with_help("an entry cannot depend on itself: make one of these entries read something outside the cycle");
    for (from, via) in &cycle[1..] {
        let edge = &graph.edges(*from)[*via];
        diagnostic = diagnostic.with_secondary(
            edge.reference.name.span,
            format!("`{}` reads `{}` here", name(*from), name(edge.to)),
        );
    }
    diagnostic
}

/// Tarjan's strongly connected components, iteratively (no recursion on long chains).
fn strongly_connected(graph: &Graph<'_>) -> Components {
    const UNSEEN: usize = usize::MAX;
    let count = graph.len();
    let mut index = vec![UNSEEN; count];
    let mut low = vec![0; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut components = Components {
        members: Vec::with_capacity(count),
        ends: Vec::new(),
    };
    let mut next = 0;
    let mut work: Vec<(usize, usize)> = Vec::new();
    for root in 0..count {
        if index[root] != UNSEEN {
            continue;
        }
        work.push((root, 0));
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut edge)) = work.last_mut() {
            if let Some(target) = graph.edges(node).get(*edge).map(|edge| edge.to) {
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
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    components.members.push(member);
                    if member == node {
                        break;
                    }
                }
                components.ends.push(components.members.len());
            }
        }
    }
    components
}
