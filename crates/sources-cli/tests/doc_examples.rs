//! Every documented example that points at the demo address (`127.0.0.1:8099` or `localhost:8099`)
//! runs, as rustdoc runs doc examples: each fenced ```yaml or ```toml block of README.md,
//! docs/reference.md and docs/rules.md (which carries the `sources explain` texts) that lints
//! without errors and names the demo address is written to a file and tried whole with
//! `sources try --all --demo` (the real binary, the in-process demo world), and every entry must
//! answer with data: no failure, no warning, no empty list. An example whose address the demo
//! does not serve fails here, naming the file and line.

use std::path::{Path, PathBuf};
use std::process::Command;

use sources_diagnostics::Severity;
use sources_syntax::Syntax;
use sources_testkit::process::outcome;

/// The documents whose examples must run.
const DOCUMENTS: &[&str] = &["README.md", "docs/reference.md", "docs/rules.md"];

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fenced example: the line its text starts on, its syntax and its text.
struct Example {
    line: usize,
    /// How far its fence is indented (a block under a list item); its lines lose that much.
    indent: usize,
    syntax: Syntax,
    text: String,
}

/// The fenced ```yaml and ```toml blocks of `text`.
fn examples(text: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut current: Option<Example> = None;
    for (index, line) in text.lines().enumerate() {
        let fence = line.trim();
        match (&mut current, fence) {
            (None, "```yaml") | (None, "```toml") => {
                current = Some(Example {
                    line: index + 2,
                    indent: line.len() - line.trim_start().len(),
                    syntax: if fence == "```toml" {
                        Syntax::Toml
                    } else {
                        Syntax::Yaml
                    },
                    text: String::new(),
                });
            }
            (Some(_), "```") => examples.extend(current.take()),
            (Some(example), _) => {
                let indent = line.len() - line.trim_start().len();
                example.text.push_str(&line[indent.min(example.indent)..]);
                example.text.push('\n');
            }
            (None, _) => {}
        }
    }
    examples
}

/// Whether `text` names the demo backend's address.
fn points_at_the_demo(text: &str) -> bool {
    text.contains("127.0.0.1:8099") || text.contains("localhost:8099")
}

/// Tries every entry of `example` under `--demo`; the problems found, one line each.
fn run(document: &str, example: &Example) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = match example.syntax {
        Syntax::Toml => "sources.toml",
        _ => "sources.yaml",
    };
    let path = dir.path().join(name);
    std::fs::write(&path, &example.text).expect("write the example");
    let (code, stdout, stderr) = outcome(
        Command::new(env!("CARGO_BIN_EXE_sources"))
            .args(["try", "--all", "--demo", "-c"])
            .arg(&path)
            .env("SOURCES_DEMO_FROZEN", "1")
            .env_remove("SOURCES_DEMO_API")
            .env_remove("SOURCES_CONFIG"),
    );
    let at = format!("{document}:{}", example.line);
    let mut problems: Vec<String> = stdout
        .lines()
        .filter(|line| {
            !line.starts_with("ok    ") || line.contains(" 0 rows") || line.contains(" 0 events")
        })
        .filter(|line| !line.contains(" entries: ") && !line.contains(" entry: "))
        .map(|line| format!("{at}: {line}"))
        .collect();
    if code != 0 && problems.is_empty() {
        problems.push(format!("{at}: exit {code}: {stderr}"));
    }
    problems
}

#[test]
fn every_example_at_the_demo_address_runs_and_returns_data() {
    let mut problems = Vec::new();
    let mut ran = 0;
    for document in DOCUMENTS {
        let text = std::fs::read_to_string(repository().join(document))
            .unwrap_or_else(|error| panic!("{document}: {error}"));
        for example in examples(&text) {
            if !points_at_the_demo(&example.text) {
                continue;
            }
            let analysis = sources_check::analyze(&example.text, example.syntax);
            let clean = analysis.has_sources
                && !analysis
                    .diagnostics
                    .iter()
                    .any(|diagnostic| diagnostic.severity == Severity::Error);
            if !clean {
                // A rule's failing example: `explanations.rs` checks it fails as it says.
                continue;
            }
            ran += 1;
            problems.extend(run(document, &example));
        }
    }
    assert!(ran >= 5, "only {ran} examples point at the demo address");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn an_example_the_demo_does_not_serve_is_found() {
    let example = Example {
        line: 7,
        indent: 0,
        syntax: Syntax::Yaml,
        text: "data:\n  sources:\n    gone:\n      type: http\n      url: http://127.0.0.1:8099/nowhere\n".to_owned(),
    };
    let problems = run("doc.md", &example);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("doc.md:7: FAIL  gone  source `gone`: HTTP 404"),
        "{problems:?}"
    );
}
