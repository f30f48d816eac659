//! `sources graph`: the lineage of the entries (the model is `sources_check::Graph`) rendered as
//! Graphviz DOT, a Mermaid `flowchart LR` or JSON, its edges labelled with the shapes of the data
//! they carry with `--shapes`. Reference cycles are drawn in red and reported on standard error
//! (exit status 1).

#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;

use serde_json::json;
use sources_check::{EdgeKind, Graph, GraphNode, NodeKind};
use sources_diagnostics::did_you_mean;

use crate::Outcome;
use crate::outputs::Outputs;
use crate::r#try::{Error, analyze_sources, name_meant_for_config};

/// An output format of `sources graph`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphFormat {
    /// Graphviz DOT (`dot -Tsvg`).
    Dot,
    /// A Mermaid `flowchart LR` (renders in GitHub Markdown).
    Mermaid,
    /// `{"nodes": […], "edges": […], "cycles": […]}` for other tools.
    Json,
}

/// Arguments of `sources graph`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only this entry (or component), what it depends on and what depends on it.
    pub name: Option<String>,
    /// The configuration file [default: $SOURCES_CONFIG, else the nearest sources.yaml,
    /// sources.yml or sources.toml in this directory or a parent].
    #[arg(short = 'c', long = "config", value_name = "CONFIG")]
    pub config: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "dot")]
    pub format: GraphFormat,
    /// Label each edge leaving an entry with the shape of that entry's data, where it is known
    /// (`static` data, the demo backend's routes, a recorded sample, what an operator writes).
    #[arg(long)]
    pub shapes: bool,
}

/// Runs `sources graph`, printing through `outputs`.
pub fn run(args: &Args, outputs: &mut Outputs) -> Result<Outcome, Error> {
    let Some((loaded, analysis)) = analyze_sources(args.config.as_deref(), &outputs.err)
        .map_err(|error| name_meant_for_config(error, args.name.as_deref(), "graph"))?
    else {
        return Ok(Outcome::Failure);
    };
    let mut whole = Graph::of(&analysis.config);
    if args.shapes {
        label_shapes(&mut whole, &analysis);
    }
    let graph = match &args.name {
        None => whole,
        Some(name) => match whole.around(name) {
            Some(graph) => graph,
            None => {
                let names = whole.nodes.iter().map(|node| node.name.as_str());
                let hint = match did_you_mean(name, names).first() {
                    Some(best) => format!(": did you mean `{best}`?"),
                    None => ": `sources list` shows the entries".to_owned(),
                };
                return Err(Error::Usage(format!(
                    "`{}` has no entry or component named `{name}`{hint}",
                    loaded.path
                )));
            }
        },
    };
    let text = match args.format {
        GraphFormat::Dot => dot(&graph),
        GraphFormat::Mermaid => mermaid(&graph),
        GraphFormat::Json => json(&graph),
    };
    match outputs.out.write_all(text.as_bytes()) {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        written => written.map_err(Error::Write)?,
    }
    for cycle in &graph.cycles {
        outputs
            .err
            .line(&format!("sources: reference cycle: {}", cycle.join(" → ")));
    }
    Ok(if graph.cycles.is_empty() {
        Outcome::Success
    } else {
        Outcome::Failure
    })
}

/// The text shown in a node: its name and details on separate lines.
fn caption(node: &GraphNode) -> Vec<String> {
    let mut lines = vec![node.name.clone()];
    if !node.details.is_empty() {
        lines.push(node.details.join(" · "));
    }
    if node.kind == NodeKind::Missing {
        lines.push("(not declared)".to_owned());
    }
    lines
}

/// A DOT quoted string.
fn dot_quote(text: &str) -> String {
    let escaped: String = text
        .chars()
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            '\n' => vec!['\\', 'n'],
            c => vec![c],
        })
        .collect();
    format!("\"{escaped}\"")
}

/// Graphviz DOT: entries as boxes, components as ellipses, parameters as small notes, screens as
/// tabs, missing names dashed; pushes bold, cursors dotted, cycle edges red.
pub fn dot(graph: &Graph) -> String {
    let mut text =
        String::from("digraph sources {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n");
    for node in &graph.nodes {
        let shape = match node.kind {
            NodeKind::Entry => "shape=box, style=rounded",
            NodeKind::Component => "shape=ellipse",
            NodeKind::Parameter => "shape=note",
            NodeKind::Screen => "shape=tab",
            NodeKind::Missing => "shape=box, style=dashed",
        };
        let _ = writeln!(
            text,
            "  {} [label={}, {shape}];",
            dot_quote(&node.id),
            dot_quote(&caption(node).join("\n"))
        );
    }
    for edge in &graph.edges {
        let style = match edge.kind {
            EdgeKind::Shows | EdgeKind::Parameter | EdgeKind::Places => ", style=dashed",
            EdgeKind::Cursor => ", style=dotted",
            EdgeKind::Push => ", style=bold",
            _ => "",
        };
        let color = if edge.in_cycle {
            ", color=red, fontcolor=red"
        } else {
            ""
        };
        let _ = writeln!(
            text,
            "  {} -> {} [label={}{style}{color}];",
            dot_quote(&edge.from),
            dot_quote(&edge.to),
            dot_quote(&edge.label)
        );
    }
    text.push_str("}\n");
    text
}

/// Adds to the label of each edge leaving an entry the shape of that entry's data (`?` marks a
/// key not every row has), where it is known.
fn label_shapes(graph: &mut Graph, analysis: &sources_check::Analysis) {
    for edge in &mut graph.edges {
        let Some(name) = edge.from.strip_prefix("entry:") else {
            continue;
        };
        if let Some(shaped) = analysis.shapes.output(&analysis.config, name) {
            let shape = shaped.shape.render(1);
            edge.label = if edge.label.is_empty() {
                shape
            } else {
                format!("{}: {shape}", edge.label)
            };
        }
    }
}

/// Text Mermaid shows verbatim inside `"…"`: quotes and angle brackets as entities.
fn mermaid_text(text: &str) -> String {
    text.replace('&', "#amp;")
        .replace('"', "#quot;")
        .replace('<', "#lt;")
        .replace('>', "#gt;")
        .replace('|', "#124;")
}

/// A Mermaid `flowchart LR`; node ids are `n0`, `n1`, … (names may hold any character).
pub fn mermaid(graph: &Graph) -> String {
    let mut text = String::from("flowchart LR\n");
    let id = |wanted: &str| {
        graph
            .nodes
            .iter()
            .position(|node| node.id == wanted)
            .map_or_else(|| "missing".to_owned(), |index| format!("n{index}"))
    };
    for (index, node) in graph.nodes.iter().enumerate() {
        let lines: Vec<String> = caption(node)
            .iter()
            .map(|line| mermaid_text(line))
            .collect();
        let label = lines.join("<br/>");
        let (open, close) = match node.kind {
            NodeKind::Entry => ("(", ")"),
            NodeKind::Component => ("([", "])"),
            NodeKind::Parameter => ("[/", "/]"),
            NodeKind::Screen => ("[[", "]]"),
            NodeKind::Missing => ("[", "]"),
        };
        let _ = writeln!(text, "  n{index}{open}\"{label}\"{close}");
    }
    let mut cycle_links = Vec::new();
    for (index, edge) in graph.edges.iter().enumerate() {
        let arrow = match edge.kind {
            EdgeKind::Shows | EdgeKind::Parameter | EdgeKind::Cursor | EdgeKind::Places => "-.->",
            EdgeKind::Push => "==>",
            _ => "-->",
        };
        let _ = writeln!(
            text,
            "  {} {arrow}|\"{}\"| {}",
            id(&edge.from),
            mermaid_text(&edge.label),
            id(&edge.to)
        );
        if edge.in_cycle {
            cycle_links.push(index.to_string());
        }
    }
    if !cycle_links.is_empty() {
        let _ = writeln!(
            text,
            "  linkStyle {} stroke:red,color:red",
            cycle_links.join(",")
        );
    }
    text
}

/// `{"nodes": […], "edges": […], "cycles": […]}`, pretty-printed.
pub fn json(graph: &Graph) -> String {
    let nodes: Vec<_> = graph
        .nodes
        .iter()
        .map(|node| {
            json!({
                "id": node.id,
                "name": node.name,
                "kind": node.kind.as_str(),
                "details": node.details,
            })
        })
        .collect();
    let edges: Vec<_> = graph
        .edges
        .iter()
        .map(|edge| {
            json!({
                "from": edge.from,
                "to": edge.to,
                "kind": edge.kind.as_str(),
                "label": edge.label,
                "in_cycle": edge.in_cycle,
            })
        })
        .collect();
    let document = json!({"nodes": nodes, "edges": edges, "cycles": graph.cycles});
    format!("{document:#}\n")
}
