//! Every documented example is a test, as rustdoc runs doc examples. Each fenced ```yaml or
//! ```toml block of README.md, docs/reference.md and docs/rules.md (which carries the `sources
//! explain` texts) says in its info string how it lints, and is linted by the real binary:
//!
//! - ```` ```yaml lint=clean ````: a configuration with no diagnostic at all;
//! - ```` ```yaml lint=unknown-field,unknown-source ````: a configuration whose diagnostics are of
//!   exactly these rules (each named rule reports, no other does);
//! - ```` ```yaml lint=no-sources ````: a file without a `data.sources` block (a CI workflow, a
//!   pre-commit configuration), which `sources lint` passes over;
//! - ```` ```toml lint=settings ````: a `sources-lint.toml` that `sources lint --settings` accepts;
//!   ```` ```toml lint=invalid-settings ```` one it reports mistakes in.
//!
//! A block without an annotation, or one that stops linting as it says, fails here with its file
//! and line. Every example without errors that points at the demo address (`127.0.0.1:8099` or
//! `localhost:8099`) is also tried whole with `sources try --all --demo` (the in-process demo
//! world), and every entry must answer with data: no failure, no warning, no empty list.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use sources_diagnostics::Severity;
use sources_syntax::Syntax;
use sources_testkit::process::{command, outcome};

/// The documents whose examples must lint as they say, and run.
const DOCUMENTS: &[&str] = &["README.md", "docs/reference.md", "docs/rules.md"];

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// How an example says it lints (its info string's `lint=` word).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expect {
    /// `lint=clean`: a configuration without diagnostics.
    Clean,
    /// `lint=CODE,…`: a configuration whose diagnostics are of exactly these rules.
    Rules(BTreeSet<String>),
    /// `lint=no-sources`: not a configuration; lint passes over it.
    NoSources,
    /// `lint=settings`: a settings file `sources lint --settings` accepts.
    Settings,
}

/// The annotation of a settings file with mistakes.
const INVALID_SETTINGS: &str = "invalid-settings";

impl Expect {
    /// Reads the value of a `lint=` word, or says what is wrong with it.
    fn parse(value: &str) -> Result<Expect, String> {
        match value {
            "clean" => return Ok(Expect::Clean),
            "no-sources" => return Ok(Expect::NoSources),
            "settings" => return Ok(Expect::Settings),
            _ => {}
        }
        let mut codes = BTreeSet::new();
        for code in value.split(',') {
            if sources_diagnostics::Rule::from_code(code).is_none() {
                return Err(format!(
                    "`lint={value}`: `{code}` is no rule code (nor `clean`, `no-sources`, `settings`)"
                ));
            }
            codes.insert(code.to_owned());
        }
        Ok(Expect::Rules(codes))
    }

    /// Whether the example is a settings file (`lint=settings` or `lint=invalid-settings`).
    fn is_settings(&self) -> bool {
        match self {
            Expect::Settings => true,
            Expect::Rules(codes) => codes.contains(INVALID_SETTINGS),
            _ => false,
        }
    }

    /// The annotation as written.
    fn describe(&self) -> String {
        match self {
            Expect::Clean => "clean".to_owned(),
            Expect::NoSources => "no-sources".to_owned(),
            Expect::Settings => "settings".to_owned(),
            Expect::Rules(codes) => codes.iter().cloned().collect::<Vec<_>>().join(","),
        }
    }
}

/// A fenced example: the line its text starts on, its syntax, its annotation and its text.
struct Example {
    line: usize,
    /// How far its fence is indented (a block under a list item); its lines lose that much.
    indent: usize,
    syntax: Syntax,
    /// What its info string says, or why it says nothing usable.
    expect: Result<Expect, String>,
    text: String,
}

/// The annotation of an info string's words after the language.
fn annotation<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<Expect, String> {
    match words.find_map(|word| word.strip_prefix("lint=")) {
        Some(value) => Expect::parse(value),
        None => Err(
            "no `lint=` annotation: write ```yaml lint=clean, lint=CODE,…, lint=no-sources or \
             lint=settings"
                .to_owned(),
        ),
    }
}

/// The fenced ```yaml and ```toml blocks of `text`.
fn examples(text: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut current: Option<Example> = None;
    for (index, line) in text.lines().enumerate() {
        let fence = line.trim();
        match &mut current {
            None => {
                let Some(info) = fence.strip_prefix("```") else {
                    continue;
                };
                let mut words = info.split_whitespace();
                let syntax = match words.next() {
                    Some("yaml") => Syntax::Yaml,
                    Some("toml") => Syntax::Toml,
                    _ => continue,
                };
                current = Some(Example {
                    line: index + 2,
                    indent: line.len() - line.trim_start().len(),
                    syntax,
                    expect: annotation(words),
                    text: String::new(),
                });
            }
            Some(_) if fence == "```" => examples.extend(current.take()),
            Some(example) => {
                let indent = line.len() - line.trim_start().len();
                example.text.push_str(&line[indent.min(example.indent)..]);
                example.text.push('\n');
            }
        }
    }
    examples
}

/// Every example of the documents, with the document it is in.
fn documented() -> Vec<(&'static str, Example)> {
    let mut all = Vec::new();
    for document in DOCUMENTS {
        let text = std::fs::read_to_string(repository().join(document))
            .unwrap_or_else(|error| panic!("{document}: {error}"));
        all.extend(
            examples(&text)
                .into_iter()
                .map(|example| (*document, example)),
        );
    }
    all
}

fn sources() -> Command {
    command(env!("CARGO_BIN_EXE_sources"), &[])
}

/// The file name an example is written to.
fn file_name(number: usize, example: &Example) -> String {
    match (&example.expect, example.syntax) {
        (Ok(expect), _) if expect.is_settings() => format!("settings-{number}.toml"),
        (_, Syntax::Toml) => format!("example-{number}.toml"),
        _ => format!("example-{number}.yaml"),
    }
}

/// Lints `examples` with the real binary; one line per example that does not lint as it says.
fn lint_mismatches(examples: &[(&str, Example)]) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut problems = Vec::new();
    let mut linted = Vec::new();
    for (number, (document, example)) in examples.iter().enumerate() {
        let at = format!("{document}:{}", example.line);
        let expect = match &example.expect {
            Ok(expect) => expect,
            Err(why) => {
                problems.push(format!("{at}: {why}"));
                continue;
            }
        };
        let name = file_name(number, example);
        std::fs::write(dir.path().join(&name), &example.text).expect("write the example");
        if expect.is_settings() {
            problems.extend(
                settings_mismatch(dir.path(), &name, expect).map(|why| format!("{at}: {why}")),
            );
        } else {
            linted.push((name, at, expect));
        }
    }
    if linted.is_empty() {
        return problems;
    }
    let (code, stdout, stderr) = outcome(
        sources()
            .current_dir(dir.path())
            .args(["lint", "--isolated", "--format", "json"])
            .args(linted.iter().map(|(name, _, _)| name)),
    );
    assert!(
        code == 0 || code == 1,
        "sources lint exited {code}: {stderr}"
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("the JSON report");
    let mut reported: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for diagnostic in report["diagnostics"].as_array().expect("diagnostics") {
        let path = diagnostic["path"].as_str().expect("a path");
        let code = diagnostic["code"].as_str().expect("a code");
        reported.entry(path).or_default().insert(code.to_owned());
    }
    for (name, at, expect) in &linted {
        let codes = reported.remove(name.as_str()).unwrap_or_default();
        let passed_over = stderr.contains(&format!("`{name}` has no `data.sources` block"));
        let matches = match expect {
            Expect::Clean => codes.is_empty() && !passed_over,
            Expect::NoSources => codes.is_empty() && passed_over,
            Expect::Rules(expected) => codes == *expected,
            Expect::Settings => codes.is_empty(),
        };
        if !matches {
            let found = if passed_over {
                "no-sources".to_owned()
            } else if codes.is_empty() {
                "clean".to_owned()
            } else {
                codes.into_iter().collect::<Vec<_>>().join(",")
            };
            problems.push(format!(
                "{at}: says lint={}, but lints as lint={found}",
                expect.describe()
            ));
        }
    }
    problems
}

/// How the settings example `name` differs from what `sources lint --settings NAME` reports of
/// it, if it does.
fn settings_mismatch(dir: &Path, name: &str, expect: &Expect) -> Option<String> {
    let config = dir.join(format!("{name}.yaml"));
    std::fs::write(
        &config,
        "data:\n  sources:\n    a: {type: static, data: []}\n",
    )
    .expect("write a clean configuration");
    let (code, stdout, stderr) = outcome(
        sources()
            .current_dir(dir)
            .args(["lint", "--format", "json", "--settings", name])
            .arg(&config),
    );
    let Ok(report) = serde_json::from_str::<serde_json::Value>(&stdout) else {
        return Some(format!(
            "says lint={}, but `sources lint --settings` exits {code}: {stderr}",
            expect.describe()
        ));
    };
    let codes: BTreeSet<String> = report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|diagnostic| diagnostic["path"] == name)
        .filter_map(|diagnostic| diagnostic["code"].as_str().map(str::to_owned))
        .collect();
    let found = match codes.is_empty() {
        true => Expect::Settings,
        false => Expect::Rules(codes),
    };
    (found != *expect).then(|| {
        format!(
            "says lint={}, but `sources lint --settings` reports lint={}",
            expect.describe(),
            found.describe()
        )
    })
}

#[test]
fn every_example_is_annotated_and_lints_as_its_annotation_says() {
    let examples = documented();
    assert!(examples.len() >= 60, "only {} examples", examples.len());
    for expect in [Expect::Clean, Expect::NoSources, Expect::Settings] {
        assert!(
            examples
                .iter()
                .any(|(_, example)| example.expect.as_ref() == Ok(&expect)),
            "no example is annotated lint={}",
            expect.describe()
        );
    }
    let problems = lint_mismatches(&examples);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn an_example_that_stops_matching_its_annotation_is_found() {
    let text = "```yaml lint=clean\ndata:\n  sources:\n    a: {type: http, urll: x}\n```\n\
                ```yaml\nrepos: []\n```\n\
                ```toml lint=settings\n[rules]\nunknown-feild = \"off\"\n```\n\
                ```yaml lint=unknown-field,unknown-source\ndata:\n  sources:\n    a: {type: http, url: \"http://x/\", refersh: 1s}\n```\n\
                ```yaml lint=clean\nrepos: []\n```\n\
                ```yaml lint=unknown-feild\nrepos: []\n```\n";
    let examples: Vec<(&str, Example)> = examples(text)
        .into_iter()
        .map(|example| ("doc.md", example))
        .collect();
    let problems = lint_mismatches(&examples);
    assert_eq!(problems.len(), 6, "{problems:#?}");
    assert_eq!(
        problems[0],
        "doc.md:7: no `lint=` annotation: write ```yaml lint=clean, lint=CODE,…, lint=no-sources or lint=settings"
    );
    assert_eq!(
        problems[1],
        "doc.md:10: says lint=settings, but `sources lint --settings` reports lint=invalid-settings"
    );
    assert_eq!(
        problems[2],
        "doc.md:22: `lint=unknown-feild`: `unknown-feild` is no rule code (nor `clean`, `no-sources`, `settings`)"
    );
    assert_eq!(
        problems[3..],
        [
            "doc.md:2: says lint=clean, but lints as lint=unknown-field",
            "doc.md:14: says lint=unknown-field,unknown-source, but lints as lint=unknown-field",
            "doc.md:19: says lint=clean, but lints as lint=no-sources",
        ]
    );
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
        sources()
            .args(["try", "--all", "--demo", "-c"])
            .arg(&path)
            .env("SOURCES_DEMO_FROZEN", "1"),
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
fn every_clean_example_at_the_demo_address_runs_and_returns_data() {
    let mut problems = Vec::new();
    let mut ran = 0;
    for (document, example) in documented() {
        // An example with errors is a rule's failing example, checked by the annotation test.
        let runs = match &example.expect {
            Ok(Expect::Clean) => true,
            Ok(Expect::Rules(codes)) => codes.iter().all(|code| {
                sources_diagnostics::Rule::from_code(code)
                    .is_some_and(|rule| rule.default_severity() == Severity::Warning)
            }),
            _ => false,
        };
        if !runs || !points_at_the_demo(&example.text) {
            continue;
        }
        ran += 1;
        problems.extend(run(document, &example));
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
        expect: Ok(Expect::Clean),
        text: "data:\n  sources:\n    gone:\n      type: http\n      url: http://127.0.0.1:8099/nowhere\n".to_owned(),
    };
    let problems = run("doc.md", &example);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("doc.md:7: FAIL  gone  source `gone`: HTTP 404"),
        "{problems:?}"
    );
}
