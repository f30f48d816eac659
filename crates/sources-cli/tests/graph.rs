//! `sources graph`: the three formats, `NAME`, cycles and an unknown name, through the binary.

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use sources_testkit::process::{in_dir, stdout};

const CONFIG: &str = "\
tui:
  components:
    list: {kind: table, source: apps}
    detail: {kind: tree, source: app, on_cursor: {source: list, bind: {id: '${cursor.1}'}}}
data:
  sources:
    raw: {type: http, url: 'http://x.invalid/apps', cache: {ttl: 30s}}
    apps: {type: filter, from: raw, where: 'row.name != \"a|b\"'}
    app: {type: http, url: 'http://x.invalid/apps/${params.id}', parameters: {id: {required: true}}}
    other: {type: static, data: []}
";

fn graph(dir: &Path, config: &str, args: &[&str]) -> Output {
    std::fs::write(dir.join("sources.yaml"), config).expect("write config");
    in_dir(env!("CARGO_BIN_EXE_sources"), dir, &["graph"])
        .args(args)
        .output()
        .expect("run sources")
}

#[test]
fn json_lists_nodes_and_edges_and_name_keeps_what_is_connected() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = graph(dir.path(), CONFIG, &["--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let document: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let edges = document["edges"].as_array().expect("edges");
    assert!(edges.iter().any(|edge| edge["from"] == "component:list"
        && edge["to"] == "parameter:app.id"
        && edge["kind"] == "cursor"));
    assert_eq!(document["nodes"][0]["details"][1], "cache 30s");

    let around = graph(dir.path(), CONFIG, &["raw", "--format", "json"]);
    let document: Value = serde_json::from_str(&stdout(&around)).expect("json");
    let names: Vec<&str> = document["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|node| node["name"].as_str().expect("name"))
        .collect();
    assert!(
        names.contains(&"app") && !names.contains(&"other"),
        "{names:?}"
    );
}

#[test]
fn mermaid_is_a_left_to_right_flowchart_with_escaped_labels() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = graph(dir.path(), CONFIG, &["--format", "mermaid"]);
    let text = stdout(&output);
    assert!(text.starts_with("flowchart LR\n"), "{text}");
    assert!(text.contains("n0(\"raw<br/>http · cache 30s\")"), "{text}");
    assert!(text.contains("n0 -->|\"from\"| n1"), "{text}");
}

#[test]
fn a_cycle_is_drawn_red_and_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cyclic = "data:\n  sources:\n    a: {type: passthrough, from: b}\n    b: {type: passthrough, from: a}\n";
    let output = graph(dir.path(), cyclic, &[]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.contains("\"entry:b\" -> \"entry:a\" [label=\"from\", color=red, fontcolor=red];"),
        "{text}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("sources: reference cycle: a → b → a"),
        "{stderr}"
    );
}

#[test]
fn an_unknown_name_is_a_usage_error_with_a_suggestion() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = graph(dir.path(), CONFIG, &["rae"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("has no entry or component named `rae`: did you mean `raw`?"),
        "{stderr}"
    );
}

#[test]
fn shapes_label_the_edges_with_the_data_they_carry() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = "\
data:
  sources:
    people: {type: static, data: [{name: Ada, team: core}, {name: Bob}]}
    named: {type: project, from: people, keep: {who: name}}
    raw: {type: http, url: 'http://x.invalid/apps'}
    apps: {type: filter, from: raw, where: 'true'}
";
    let output = graph(dir.path(), config, &["--format", "json", "--shapes"]);
    assert_eq!(output.status.code(), Some(0));
    let document: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let labels: Vec<(&str, &str)> = document["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|edge| {
            (
                edge["from"].as_str().expect("from"),
                edge["label"].as_str().expect("label"),
            )
        })
        .collect();
    assert_eq!(
        labels,
        [
            ("entry:people", "from: [{name: string, team?: string}]"),
            ("entry:raw", "from")
        ]
    );
    let plain = graph(dir.path(), config, &["--format", "json"]);
    let document: Value = serde_json::from_str(&stdout(&plain)).expect("json");
    assert_eq!(document["edges"][0]["label"], "from", "without --shapes");
}

/// The dashboard's edges in each format, held to files (`UPDATE_EXPECT=1` rewrites them): a
/// two-level drill-down (screens placing components, pushes from the component whose row they
/// read, the parameters each push binds) and a list driving a table through `on_cursor`.
#[test]
fn pushes_and_cursors_are_drawn_in_every_format() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for case in ["pass-multi-level-push", "pass-list-drives-table"] {
        let config = std::fs::read_to_string(root.join(format!("testdata/corpus/{case}.yaml")))
            .expect("the corpus case");
        let dir = tempfile::tempdir().expect("tempdir");
        for (format, extension) in [("dot", "dot"), ("mermaid", "mmd"), ("json", "json")] {
            let output = graph(dir.path(), &config, &["--format", format]);
            assert_eq!(output.status.code(), Some(0), "{case} as {format}");
            sources_testkit::assert_file(
                &root.join(format!(
                    "crates/sources-cli/tests/expected/graph/{case}.{extension}"
                )),
                &stdout(&output),
                "UPDATE_EXPECT=1 cargo test -p sources-cli --test graph",
            );
        }
    }
}
