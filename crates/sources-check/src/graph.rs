//! The lineage graph of a configuration (`sources graph`): which entry reads which (operators,
//! `pipe` stages, merge children, `growing` conditions), which components show which entries, which
//! `on_cursor` bindings feed which parameters, which screens place which components, which action
//! bindings push which screens and which parameters a push binds, and which entries cache. Edges
//! point the way data flows. Renderers (DOT, Mermaid, JSON) live in the command line; this is the
//! model.

use std::collections::{BTreeMap, BTreeSet};

use sources_config::{
    Body, Config, Enumeration, Growing, ReferenceField, Source, Spanned, format_duration,
};

/// What a node stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// An entry of `data.sources`.
    Entry,
    /// A component of `tui.components`.
    Component,
    /// A declared parameter of an entry that an `on_cursor` binding or a push feeds.
    Parameter,
    /// A screen: `tui.screen` (named `screen`) or one of `tui.screens`.
    Screen,
    /// A name that is referenced but declared nowhere.
    Missing,
}

impl NodeKind {
    /// `entry`, `component`, `parameter`, `screen` or `missing`.
    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::Entry => "entry",
            NodeKind::Component => "component",
            NodeKind::Parameter => "parameter",
            NodeKind::Screen => "screen",
            NodeKind::Missing => "missing",
        }
    }
}

/// One node of the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphNode {
    /// A stable identifier: `entry:NAME`, `component:NAME`, `parameter:ENTRY.NAME`.
    pub id: String,
    /// The name shown.
    pub name: String,
    /// What it stands for.
    pub kind: NodeKind,
    /// Details: the entry kind (`http`, `join`), `cache 30s`, `growing`, the component kind.
    pub details: Vec<String>,
}

/// What an edge means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// An operator or merge reads another entry (`from`, `sources`, `parts`, `lookups`, …).
    Reads,
    /// A `pipe` stage of an entry reads another entry.
    Pipe,
    /// A `growing` condition reads another entry.
    Growing,
    /// A component shows an entry.
    Shows,
    /// A component's cursor feeds a parameter (`on_cursor`).
    Cursor,
    /// A parameter is one of an entry's.
    Parameter,
    /// A screen's layout places a component.
    Places,
    /// An action binding pushes a screen (from the component whose row it reads, else from the
    /// screen it is written on), or the push binds a parameter of an entry the pushed screen shows.
    Push,
}

impl EdgeKind {
    /// `reads`, `pipe`, `growing`, `shows`, `cursor`, `parameter`, `places` or `push`.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Reads => "reads",
            EdgeKind::Pipe => "pipe",
            EdgeKind::Growing => "growing",
            EdgeKind::Shows => "shows",
            EdgeKind::Cursor => "cursor",
            EdgeKind::Parameter => "parameter",
            EdgeKind::Places => "places",
            EdgeKind::Push => "push",
        }
    }
}

/// One edge, in the direction data flows (from the entry read to the one reading it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphEdge {
    /// The source node's id.
    pub from: String,
    /// The target node's id.
    pub to: String,
    /// What it means.
    pub kind: EdgeKind,
    /// The field it comes from (`driver.from`, `pipe[0].lookups.*.from`, `on_cursor`), or the
    /// `growing` condition.
    pub label: String,
    /// Whether the edge is part of a reference cycle.
    pub in_cycle: bool,
}

/// The lineage of one configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// Nodes: entries in source order, then components, parameters, screens and missing names.
    pub nodes: Vec<GraphNode>,
    /// Edges in the order they are written.
    pub edges: Vec<GraphEdge>,
    /// Every reference cycle, as entry names in order (the first is repeated at the end).
    pub cycles: Vec<Vec<String>>,
}

fn entry_id(name: &str) -> String {
    format!("entry:{name}")
}

impl Graph {
    /// The graph of a decoded configuration.
    pub fn of(config: &Config) -> Graph {
        let mut graph = Graph::default();
        for source in &config.entries {
            graph.nodes.push(GraphNode {
                id: entry_id(&source.name.value),
                name: source.name.value.to_string(),
                kind: NodeKind::Entry,
                details: entry_details(source),
            });
        }
        for source in &config.entries {
            let to = entry_id(&source.name.value);
            for reference in source.references() {
                let kind = if reference.field == ReferenceField::Growing {
                    EdgeKind::Growing
                } else {
                    EdgeKind::Reads
                };
                let label = match (&source.body, reference.field) {
                    (_, ReferenceField::Growing) => growing_label(source),
                    _ => reference.field.as_str().to_owned(),
                };
                graph.reference(config, &reference.name, &to, kind, label);
            }
            let stages = source
                .body
                .common()
                .and_then(|common| common.pipe.as_ref())
                .map(|pipe| pipe.value.as_slice())
                .unwrap_or_default();
            for (index, stage) in stages.iter().enumerate() {
                let as_source = Source {
                    name: source.name.clone(),
                    span: stage.value.span,
                    kind: stage.value.kind.clone(),
                    body: stage.value.body.clone(),
                    keys: Box::default(),
                };
                for reference in as_source.references() {
                    let label = format!("pipe[{index}].{}", reference.field.as_str());
                    graph.reference(config, &reference.name, &to, EdgeKind::Pipe, label);
                }
            }
        }
        graph.components(config);
        graph.screens(config);
        graph.cycles = graph.find_cycles();
        let cyclic: BTreeSet<(String, String)> = graph
            .cycles
            .iter()
            .flat_map(|cycle| {
                cycle
                    .windows(2)
                    .map(|pair| (entry_id(&pair[1]), entry_id(&pair[0])))
            })
            .collect();
        for edge in &mut graph.edges {
            edge.in_cycle = cyclic.contains(&(edge.from.clone(), edge.to.clone()));
        }
        graph
    }

    /// An edge from the entry named `name` (a missing node when no entry has that name) to `to`.
    fn reference(
        &mut self,
        config: &Config,
        name: &Spanned<String>,
        to: &str,
        kind: EdgeKind,
        label: String,
    ) {
        let from = if config.get(&name.value).is_some() {
            entry_id(&name.value)
        } else {
            self.node(
                format!("missing:{}", name.value),
                &name.value,
                NodeKind::Missing,
            )
        };
        self.edges.push(GraphEdge {
            from,
            to: to.to_owned(),
            kind,
            label,
            in_cycle: false,
        });
    }

    /// The node `id`, added when new; returns its id.
    fn node(&mut self, id: String, name: &str, kind: NodeKind) -> String {
        if !self.nodes.iter().any(|node| node.id == id) {
            self.nodes.push(GraphNode {
                id: id.clone(),
                name: name.to_owned(),
                kind,
                details: Vec::new(),
            });
        }
        id
    }

    /// Component nodes, what they show and the parameters their cursors feed.
    fn components(&mut self, config: &Config) {
        for (index, component) in config.components.iter().enumerate() {
            let name = component
                .name
                .as_ref()
                .map_or_else(|| format!("#{index}"), |name| name.value.clone());
            let id = format!("component:{name}");
            self.nodes.push(GraphNode {
                id: id.clone(),
                name: name.clone(),
                kind: NodeKind::Component,
                details: component
                    .kind
                    .iter()
                    .map(|kind| kind.value.as_str().to_owned())
                    .collect(),
            });
            let Some(bound) = &component.source else {
                continue;
            };
            self.reference(config, bound, &id, EdgeKind::Shows, "source".to_owned());
            let Some(on_cursor) = &component.on_cursor else {
                continue;
            };
            let feeder = on_cursor.source.as_ref().map(|of| of.value.as_str());
            for param in on_cursor.bind.iter().map(|bind| &bind.param) {
                let param_id = self.node(
                    format!("parameter:{}.{}", bound.value, param.value),
                    &format!("{}.{}", bound.value, param.value),
                    NodeKind::Parameter,
                );
                if let Some(feeder) = feeder {
                    self.edges.push(GraphEdge {
                        from: format!("component:{feeder}"),
                        to: param_id.clone(),
                        kind: EdgeKind::Cursor,
                        label: format!("on_cursor of {name}"),
                        in_cycle: false,
                    });
                }
                if config.get(&bound.value).is_some() {
                    self.edges.push(GraphEdge {
                        from: param_id,
                        to: entry_id(&bound.value),
                        kind: EdgeKind::Parameter,
                        label: param.value.clone(),
                        in_cycle: false,
                    });
                }
            }
        }
    }

    /// Screen nodes, the components they place, the screens each push opens and the parameters
    /// a push binds on the entries the pushed screen shows (those the entry takes, as
    /// `unbound-param` counts them); then a missing node for every end no declaration made.
    fn screens(&mut self, config: &Config) {
        let dashboard = &config.dashboard;
        let screen_id = |name: Option<&Spanned<String>>| {
            format!(
                "screen:{}",
                name.map_or("screen", |name| name.value.as_str())
            )
        };
        for screen in &dashboard.screens {
            let id = screen_id(screen.name.as_ref());
            let initial = dashboard.initial.as_ref().zip(screen.name.as_ref());
            let details = match initial {
                Some((initial, name)) if initial.value == name.value => vec!["initial".to_owned()],
                _ => Vec::new(),
            };
            self.nodes.push(GraphNode {
                id: id.clone(),
                name: id["screen:".len()..].to_owned(),
                kind: NodeKind::Screen,
                details,
            });
            for placed in &screen.placed {
                self.edges.push(GraphEdge {
                    from: id.clone(),
                    to: format!("component:{}", placed.value),
                    kind: EdgeKind::Places,
                    label: "layout".to_owned(),
                    in_cycle: false,
                });
            }
        }
        for push in dashboard.pushes() {
            let on = screen_id(push.on.name.as_ref());
            let from = push
                .binding
                .from
                .as_ref()
                .map_or(on.clone(), |from| format!("component:{}", from.value));
            let target = push.target.value.as_str();
            self.edges.push(GraphEdge {
                from: from.clone(),
                to: format!("screen:{target}"),
                kind: EdgeKind::Push,
                label: format!("push from {}", &on["screen:".len()..]),
                in_cycle: false,
            });
            let Some(pushed) = dashboard.screen(target) else {
                continue;
            };
            let shown = pushed.placed.iter().filter_map(|placed| {
                config
                    .components
                    .iter()
                    .find(|component| component.name() == Some(placed.value.as_str()))?
                    .source
                    .as_ref()
            });
            for entry in shown {
                let accepted = config.accepted_params(&entry.value);
                for bind in &push.binding.bind {
                    if !accepted
                        .iter()
                        .any(|param| param.name() == bind.param.value)
                    {
                        continue;
                    }
                    let param_id = self.node(
                        format!("parameter:{}.{}", entry.value, bind.param.value),
                        &format!("{}.{}", entry.value, bind.param.value),
                        NodeKind::Parameter,
                    );
                    self.edges.push(GraphEdge {
                        from: from.clone(),
                        to: param_id.clone(),
                        kind: EdgeKind::Push,
                        label: format!("push to {target}"),
                        in_cycle: false,
                    });
                    if !self
                        .edges
                        .iter()
                        .any(|edge| edge.from == param_id && edge.kind == EdgeKind::Parameter)
                    {
                        self.edges.push(GraphEdge {
                            from: param_id,
                            to: entry_id(&entry.value),
                            kind: EdgeKind::Parameter,
                            label: bind.param.value.clone(),
                            in_cycle: false,
                        });
                    }
                }
            }
        }
        let known: BTreeSet<String> = self.nodes.iter().map(|node| node.id.clone()).collect();
        let mut dangling: Vec<String> = Vec::new();
        for edge in &self.edges {
            for end in [&edge.from, &edge.to] {
                if !known.contains(end) && !dangling.contains(end) {
                    dangling.push(end.clone());
                }
            }
        }
        for id in dangling {
            let name = id
                .split_once(':')
                .map_or(id.as_str(), |(_, name)| name)
                .to_owned();
            self.node(id, &name, NodeKind::Missing);
        }
    }

    /// Reference cycles between entries: each strongly connected set of entries that reads itself,
    /// walked in order of the edges.
    fn find_cycles(&self) -> Vec<Vec<String>> {
        let mut reads: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for edge in &self.edges {
            if matches!(
                edge.kind,
                EdgeKind::Reads | EdgeKind::Pipe | EdgeKind::Growing
            ) && edge.from.starts_with("entry:")
            {
                reads
                    .entry(&edge.to["entry:".len()..])
                    .or_default()
                    .push(&edge.from["entry:".len()..]);
            }
        }
        let mut cycles = Vec::new();
        let mut reported: BTreeSet<String> = BTreeSet::new();
        for node in &self.nodes {
            if node.kind != NodeKind::Entry || reported.contains(&node.name) {
                continue;
            }
            if let Some(path) = path_back(&reads, &node.name) {
                reported.extend(path.iter().cloned());
                cycles.push(path);
            }
        }
        cycles
    }

    /// The part of the graph around `name` (an entry or component): everything it depends on and
    /// everything that depends on it. `None` when no node has that name.
    pub fn around(&self, name: &str) -> Option<Graph> {
        let start = self
            .nodes
            .iter()
            .find(|node| node.name == name && node.kind == NodeKind::Entry)
            .or_else(|| self.nodes.iter().find(|node| node.name == name))?;
        let walk = |forward: bool| {
            let mut seen = BTreeSet::from([start.id.clone()]);
            let mut stack = vec![start.id.clone()];
            while let Some(id) = stack.pop() {
                for edge in &self.edges {
                    let (here, there) = if forward {
                        (&edge.from, &edge.to)
                    } else {
                        (&edge.to, &edge.from)
                    };
                    if *here == id && seen.insert(there.clone()) {
                        stack.push(there.clone());
                    }
                }
            }
            seen
        };
        let downstream = walk(true);
        let upstream = walk(false);
        let keep = |id: &String| downstream.contains(id) || upstream.contains(id);
        let edges: Vec<GraphEdge> = self
            .edges
            .iter()
            .filter(|edge| {
                (downstream.contains(&edge.from) && downstream.contains(&edge.to))
                    || (upstream.contains(&edge.from) && upstream.contains(&edge.to))
            })
            .cloned()
            .collect();
        let names: BTreeSet<&str> = self
            .nodes
            .iter()
            .filter(|node| keep(&node.id))
            .map(|node| node.name.as_str())
            .collect();
        Some(Graph {
            nodes: self
                .nodes
                .iter()
                .filter(|node| keep(&node.id))
                .cloned()
                .collect(),
            edges,
            cycles: self
                .cycles
                .iter()
                .filter(|cycle| cycle.iter().any(|entry| names.contains(entry.as_str())))
                .cloned()
                .collect(),
        })
    }
}

/// A cycle through `start` following `reads` (entry → the entries it reads), as the names from
/// `start` back to `start`; `None` when `start` is on no cycle. Iterative, bounded by the entries.
fn path_back(reads: &BTreeMap<&str, Vec<&str>>, start: &str) -> Option<Vec<String>> {
    let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
    let mut on_path: BTreeSet<&str> = BTreeSet::from([start]);
    let mut visited: BTreeSet<&str> = BTreeSet::new();
    while let Some((node, next)) = stack.pop() {
        let targets = reads.get(node).map(Vec::as_slice).unwrap_or_default();
        let Some(&target) = targets.get(next) else {
            on_path.remove(node);
            visited.insert(node);
            continue;
        };
        stack.push((node, next + 1));
        if target == start {
            let mut path: Vec<String> = stack.iter().map(|(name, _)| (*name).to_owned()).collect();
            path.push(start.to_owned());
            return Some(path);
        }
        if !on_path.contains(target) && !visited.contains(target) {
            on_path.insert(target);
            stack.push((target, 0));
        }
    }
    None
}

/// An entry's details: its kind, `cache TTL`, `window`, `growing`, `follow`.
fn entry_details(source: &Source) -> Vec<String> {
    let mut details = Vec::new();
    if let Some(kind) = &source.kind {
        details.push(kind.value.as_str().to_owned());
    }
    if let Some(cache) = source.body.leaf().and_then(|leaf| leaf.cache.as_ref())
        && let Some(ttl) = &cache.value.ttl
    {
        details.push(format!("cache {}", format_duration(ttl.value.0)));
    }
    if let Body::Cache(cache) = &source.body
        && let Some(ttl) = &cache.ttl
    {
        details.push(format!("ttl {}", format_duration(ttl.value.0)));
    }
    if let Some(window) = source.body.window() {
        if window.value.is_anchored() {
            details.push("anchored window".to_owned());
        } else {
            details.push("offset window".to_owned());
        }
        if let Some(growing) = &window.value.growing {
            match &growing.value {
                Growing::Flag(true) => details.push("growing".to_owned()),
                Growing::Flag(false) => {}
                Growing::While(_) => details.push("growing while".to_owned()),
            }
        }
    }
    details
}

/// The label of a `growing` edge: the condition.
fn growing_label(source: &Source) -> String {
    let condition =
        source
            .body
            .window()
            .and_then(|window| match &window.value.growing.as_ref()?.value {
                Growing::While(growing) => Some(growing.condition.as_ref()?.value.text.clone()),
                Growing::Flag(_) => None,
            });
    match condition {
        Some(condition) => format!("growing while {condition}"),
        None => "growing".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use sources_syntax::Syntax;

    use super::*;

    fn graph(text: &str) -> Graph {
        Graph::of(&crate::analyze(text, Syntax::Yaml).config)
    }

    fn edges(graph: &Graph) -> Vec<String> {
        graph
            .edges
            .iter()
            .map(|edge| {
                format!(
                    "{} -{}{}-> {}",
                    edge.from,
                    edge.kind.as_str(),
                    if edge.in_cycle { "!" } else { "" },
                    edge.to
                )
            })
            .collect()
    }

    const TEXT: &str = "\
tui:
  components:
    list: {kind: table, source: apps}
    detail: {kind: tree, source: app, on_cursor: {source: list, bind: {id: '${cursor.1}'}}}
data:
  sources:
    raw: {type: http, url: 'http://x.invalid/apps', cache: {ttl: 30s}}
    apps: {type: filter, from: raw, where: 'true', pipe: [{type: sort, by: 'row.name'}]}
    app: {type: http, url: 'http://x.invalid/apps/${params.id}', parameters: {id: {required: true}}}
    loop_a: {type: passthrough, from: loop_b}
    loop_b: {type: passthrough, from: loop_a}
";

    #[test]
    fn entries_components_cursors_and_cycles() {
        let graph = graph(TEXT);
        assert_eq!(
            edges(&graph),
            [
                "entry:raw -reads-> entry:apps",
                "entry:loop_b -reads!-> entry:loop_a",
                "entry:loop_a -reads!-> entry:loop_b",
                "entry:apps -shows-> component:list",
                "entry:app -shows-> component:detail",
                "component:list -cursor-> parameter:app.id",
                "parameter:app.id -parameter-> entry:app",
            ]
        );
        assert_eq!(graph.cycles, [["loop_a", "loop_b", "loop_a"]]);
        let raw = &graph.nodes[0];
        assert_eq!(raw.details, ["http", "cache 30s"]);
    }

    #[test]
    fn around_a_name_keeps_its_upstream_and_downstream() {
        let graph = graph(TEXT).around("apps").expect("apps");
        assert_eq!(
            edges(&graph),
            [
                "entry:raw -reads-> entry:apps",
                "entry:apps -shows-> component:list",
                "entry:app -shows-> component:detail",
                "component:list -cursor-> parameter:app.id",
                "parameter:app.id -parameter-> entry:app",
            ]
        );
        assert!(graph.cycles.is_empty());
        assert!(Graph::of(&Config::default()).around("nothing").is_none());
    }

    #[test]
    fn pushes_open_screens_and_bind_what_they_show_and_an_unknown_screen_is_missing() {
        let graph = graph(
            "\
tui:
  screens:
    main:
      layout: {component: list}
      actions:
        - {key: a, push: detail, from: list, bind: {id: '${selection.1}', stray: x}}
        - {key: b, push: nowhere}
    detail:
      layout: {component: one}
  components:
    list: {kind: table, source: apps}
    one: {kind: inspector, source: app}
data:
  sources:
    apps: {type: http, url: 'http://x.invalid/apps'}
    app: {type: http, url: 'http://x.invalid/apps/${params.id}', parameters: {id: {required: true}}}
",
        );
        assert_eq!(
            edges(&graph),
            [
                "entry:apps -shows-> component:list",
                "entry:app -shows-> component:one",
                "screen:main -places-> component:list",
                "screen:detail -places-> component:one",
                "component:list -push-> screen:detail",
                "component:list -push-> parameter:app.id",
                "parameter:app.id -parameter-> entry:app",
                "screen:main -push-> screen:nowhere",
            ]
        );
        let missing = graph.nodes.last().expect("a node");
        assert_eq!(
            (missing.id.as_str(), missing.kind),
            ("screen:nowhere", NodeKind::Missing)
        );
    }
}
