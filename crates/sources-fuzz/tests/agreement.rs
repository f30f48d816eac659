//! Lint and `try` agree over the repository's own configurations: every file under `testdata/`,
//! each lint-clean one mutated field by field (each key under `data` removed, or its value replaced
//! by one of a few values of every JSON type, as the schema-agreement check does; variants are
//! written as JSON, which is YAML), and the cases the issues named, written out below. Each goes
//! through `sources_fuzz::agreement::check`, the property the grammar-based run (`sources-fuzz
//! --grammar`) checks on generated configurations.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sources_config::AnyValue;
use sources_diagnostics::Severity;
use sources_syntax::Syntax;

/// Configurations written for the cases: each either lints with an error or runs.
const CASES: &[&str] = &[
    "data:\n  sources:\n    e: {type: exec, command: []}\n",
    "data:\n  sources:\n    e: {type: exec, command: [\"\"]}\n",
    "data:\n  sources:\n    h: {type: http, url: \"\"}\n",
    "data:\n  sources:\n    h: {type: http, url: /relative}\n",
    "data:\n  sources:\n    h: {type: http, url: \"ftp://x/y\"}\n",
    "data:\n  sources:\n    h: {type: http, url: \"https://x/y\", timeout: 0s}\n",
    "data:\n  sources:\n    h: {type: http, url: \"https://x/y\", headers: {\"a b\": c}}\n",
    "data:\n  sources:\n    f: {type: file, path: /x, format: text, root: a}\n",
    "data:\n  sources:\n    s: {type: static, data: {rows: []}, root: items}\n",
    "data:\n  sources:\n    h: {type: http, url: \"https://x/${parms.id}\"}\n",
    "data:\n  sources:\n    h: {type: http, url: \"https://x/${selection.id}\", headers: {X-Row: \"${selection}\"}}\n",
    "data:\n  sources:\n    h:\n      type: http\n      url: https://x/y\n      window:\n        offset_param: o\n        limit_param: l\n        filters: {Author: ''}\n",
    "data:\n  sources:\n    h:\n      type: http\n      url: https://x/y\n      format: text\n      window:\n        cursor: id\n        older: {before: '${window.cursor}'}\n        newer: {after: '${window.cursor}'}\n",
    "data:\n  sources:\n    a:\n      type: static\n      data: [{size: 3}]\n      parameters:\n        min: {type: int, default: \"2\"}\n    f: {type: filter, from: a, where: \"size > 1\"}\n",
    "data:\n  sources:\n    a:\n      type: http\n      url: https://x/${params.id}\n      parameters:\n        id: {required: true}\n    f: {type: filter, from: a, where: \"true\"}\n",
    "data:\n  sources:\n    w: {type: websocket, url: \"wss://x/y\"}\n    s: {type: static, data: [{id: 2}]}\n    m: {type: merge, sources: [w, s], tag_field: from}\n    u: {type: union, sources: [s, w]}\n",
    "data:\n  sources:\n    t: {type: http, url: \"https://x/y\", follow: true}\n    s: {type: static, data: [{id: 2}]}\n    m:\n      type: merge\n      children: [{source: t}, {source: s, tags: {k: v}}]\n      pipe: [{type: filter, where: \"id > 0\"}]\n",
    "data:\n  sources:\n    w: {type: websocket, url: \"wss://x/y\"}\n    s: {type: static, data: [{id: 2}]}\n    c: {type: compose, parts: {live: w, fixed: s}}\n", // Issue 22: values the libraries refuse, and near misses that run.
    "data:\n  sources:\n    h: {type: http, url: \"http://\"}\n",
    "data:\n  sources:\n    h: {type: http, url: \"https://x:65536/\"}\n",
    "data:\n  sources:\n    h: {type: http, url: \"HTTP://x/\"}\n",
    "data:\n  sources:\n    h: {type: http, url: \"http://[::1]:8080/a b\"}\n",
    "data:\n  sources:\n    w: {type: websocket, url: \"WS://x/\"}\n",
    "data:\n  sources:\n    w: {type: websocket, url: \"ws://x/a b\"}\n",
    "data:\n  sources:\n    w: {type: websocket, url: \"wss://\"}\n",
    "data:\n  sources:\n    w: {type: websocket, url: \"wss://x/\", follow: true, timeout: 0s}\n",
    "data:\n  sources:\n    h: {type: http, url: \"https://x/\", headers: {X-A: \"a\\r\\nb\"}}\n",
    "data:\n  sources:\n    h: {type: http, url: \"https://x/\", headers: {X-A: \"a\\tb\"}}\n",
    "data:\n  sources:\n    w: {type: websocket, url: \"wss://x/\", headers: {X-A: \"${params.v}\"}, parameters: {v: {default: \"a\\nb\"}}}\n",
    "data:\n  sources:\n    h: {type: http, url: \"https://x/\", method: \"${params.m}\", parameters: {m: {default: \"P T\"}}}\n",
    "data:\n  sources:\n    e: {type: exec, command: [echo, \"a\\0b\"]}\n",
    "data:\n  sources:\n    e: {type: exec, command: [env], env: {K: \"\\0\"}}\n",
    "data:\n  sources:\n    e: {type: exec, command: [\"${params.p}\"], parameters: {p: {default: \"\"}}}\n",
    "data:\n  sources:\n    f: {type: file, path: \"\"}\n",
    "data:\n  sources:\n    f: {type: file, path: \"${params.p}\", parameters: {p: {default: \"\"}}}\n",
    "data:\n  sources:\n    f: {type: file, path: \"a\\0\"}\n",
    "data:\n  sources:\n    h:\n      type: http\n      url: https://x/y\n      method: POST\n      body: '{\"q\": ${window.search}}'\n      window:\n        cursor: id\n        older: {before: '${window.cursor}'}\n        newer: {after: '${window.cursor}'}\n",
    "data:\n  sources:\n    h:\n      type: http\n      url: https://x/y\n      method: POST\n      body: '{\"q\": \"${window.search}\", \"n\": ${params.n}}'\n      parameters: {n: {type: int}}\n      window:\n        cursor: id\n        older: {before: '${window.cursor}'}\n        newer: {after: '${window.cursor}'}\n",
];

/// One of a few values of every JSON type, and the shapes the issue names (`""`, `[]`, `"0s"`).
fn replacements() -> Vec<Option<Value>> {
    let mut out = vec![None];
    out.extend(
        [
            json!(0),
            json!(-1),
            json!("x"),
            json!("30s"),
            json!(true),
            Value::Null,
            json!({}),
            json!(""),
            json!([]),
            json!("0s"),
        ]
        .map(Some),
    );
    out
}

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// Every key path under `data` (map keys; list items are walked, not replaced).
fn key_paths(value: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                at.push(Step::Key(key.clone()));
                out.push(at.clone());
                key_paths(child, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                at.push(Step::Index(index));
                key_paths(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn mutate(document: &Value, path: &[Step], replacement: Option<&Value>) -> Option<Value> {
    let mut variant = document.clone();
    let (last, parents) = path.split_last()?;
    let mut node = &mut variant;
    for step in parents {
        node = match step {
            Step::Key(key) => node.get_mut(key)?,
            Step::Index(index) => node.get_mut(*index)?,
        };
    }
    let (Step::Key(key), Value::Object(map)) = (last, node) else {
        return None;
    };
    match replacement {
        Some(value) => {
            map.insert(key.clone(), value.clone());
        }
        None => {
            map.remove(key);
        }
    }
    Some(variant)
}

/// The corpus: (name, text, syntax).
fn corpus() -> Vec<(String, String, Syntax)> {
    let mut out: Vec<(String, String, Syntax)> = CASES
        .iter()
        .enumerate()
        .map(|(index, text)| (format!("case {index}"), (*text).to_owned(), Syntax::Yaml))
        .collect();
    let paths = sources_testkit::files_under(&testdata())
        .into_iter()
        .filter(|path| {
            matches!(
                path.extension().and_then(|ext| ext.to_str()),
                Some("yaml" | "yml" | "toml")
            )
        });
    let replacements = replacements();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let syntax = Syntax::from_path(&path).unwrap_or(Syntax::Yaml);
        let name = path.display().to_string();
        let clean = !has_errors(&text, syntax);
        out.push((name.clone(), text.clone(), syntax));
        if !clean {
            continue;
        }
        let Some(root) = sources_syntax::parse(&text, syntax).root else {
            continue;
        };
        let document = AnyValue(root).to_json();
        let Some(data) = document.get("data") else {
            continue;
        };
        let mut keys = Vec::new();
        key_paths(data, &mut vec![Step::Key("data".to_owned())], &mut keys);
        for key in keys {
            for replacement in &replacements {
                if let Some(variant) = mutate(&document, &key, replacement.as_ref()) {
                    out.push((
                        format!("{name} (mutated)"),
                        variant.to_string(),
                        Syntax::Yaml,
                    ));
                }
            }
        }
    }
    out
}

fn has_errors(text: &str, syntax: Syntax) -> bool {
    sources_check::analyze(text, syntax)
        .diagnostics
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Error)
}

#[test]
fn every_configuration_that_lints_clean_runs_past_its_checks() {
    // A 64-entry chain nests 64 evaluations; unoptimised futures need more than a test thread's
    // default stack for that (`sources try` runs them on the main thread).
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(agreement)
        .expect("thread")
        .join()
        .expect("agreement");
}

fn agreement() {
    let corpus = corpus();
    let runtime = sources_fuzz::agreement::runtime().expect("runtime");
    let mut clean = 0;
    let mut failures = Vec::new();
    for (name, text, syntax) in &corpus {
        match sources_fuzz::agreement::check(&runtime, text, *syntax) {
            Ok(agreed) => clean += usize::from(agreed.clean),
            Err(failure) => failures.push(format!("{name}: {}\n{text}", failure.detail)),
        }
    }
    eprintln!(
        "lint/try agreement: {} configurations, {clean} lint clean, {} disagreements",
        corpus.len(),
        failures.len()
    );
    assert!(
        clean > 1000,
        "the corpus has only {clean} clean configurations"
    );
    assert!(
        failures.is_empty(),
        "{} configurations lint clean but `try` refuses them before any I/O:\n\n{}",
        failures.len(),
        failures
            .iter()
            .take(200)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}
