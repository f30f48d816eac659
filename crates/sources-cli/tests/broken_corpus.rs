//! The corpus (`testdata/corpus/`) broken on purpose: each file of
//! `testdata/unknown-data-field/broken-corpus/` is a corpus file with one reference into the data
//! misspelled in each entry that has one the checker can judge, and otherwise the same lines
//! (comments aside). Linted as `sources lint` does (with the demo backend's shapes), every broken
//! line gets exactly one `unknown-data-field` and no other line gets anything, while the corpus
//! itself lints clean (the golden test holds it to that).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use sources_cli::lint::{Linted, lint_bytes};
use sources_syntax::{LineIndex, Syntax};

/// Corpus files with no broken copy, and why.
const UNBROKEN: &[(&str, &str)] = &[(
    "pass-exec-actions.yaml",
    "its one entry runs `git`, whose output nothing records a shape of",
)];

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// The 1-based lines of `text` that hold a diagnostic, each with its rule code.
fn reported(name: &str, text: &str) -> Vec<(usize, &'static str)> {
    let Linted::Report(report) = lint_bytes(name, text.as_bytes(), Syntax::Yaml, true) else {
        panic!("{name}: a named file gives a report");
    };
    let index = LineIndex::new(text);
    report
        .diagnostics
        .iter()
        .map(|diagnostic| {
            let line = index.line_col(diagnostic.span.start()).line as usize;
            (line, diagnostic.rule.code())
        })
        .collect()
}

#[test]
fn every_break_of_the_broken_corpus_is_reported_once_and_nothing_else() {
    let corpus = testdata().join("corpus");
    let broken = testdata().join("unknown-data-field/broken-corpus");
    let mut failures = Vec::new();
    let mut breaks = 0;
    for original in sources_testkit::files_under(&corpus) {
        let name = original
            .file_name()
            .and_then(|name| name.to_str())
            .expect("a file name");
        if !name.ends_with(".yaml") {
            continue;
        }
        let copy = broken.join(name.trim_start_matches("pass-"));
        if !copy.exists() {
            if !UNBROKEN.iter().any(|(unbroken, _)| *unbroken == name) {
                failures.push(format!("{name}: no broken copy at {}", copy.display()));
            }
            continue;
        }
        let before = fs::read_to_string(&original).expect("read the corpus file");
        let after = fs::read_to_string(&copy).expect("read the broken copy");
        let (old, new): (Vec<&str>, Vec<&str>) =
            (before.lines().collect(), after.lines().collect());
        if old.len() != new.len() {
            failures.push(format!(
                "{name}: the broken copy has {} lines, the corpus file {}",
                new.len(),
                old.len()
            ));
            continue;
        }
        let broken_lines: BTreeSet<usize> = old
            .iter()
            .zip(&new)
            .enumerate()
            .filter(|(_, (old, new))| old != new && !new.trim_start().starts_with('#'))
            .map(|(at, _)| at + 1)
            .collect();
        if broken_lines.is_empty() {
            failures.push(format!("{name}: the broken copy breaks nothing"));
        }
        breaks += broken_lines.len();
        let found = reported(name, &after);
        let found_lines: Vec<usize> = found.iter().map(|(line, _)| *line).collect();
        if found_lines.iter().copied().collect::<BTreeSet<_>>() != broken_lines
            || found_lines.len() != broken_lines.len()
            || found.iter().any(|(_, code)| *code != "unknown-data-field")
        {
            failures.push(format!(
                "{name}: broken lines {broken_lines:?}, but reported {found:?}"
            ));
        }
        let clean = reported(name, &before);
        if !clean.is_empty() {
            failures.push(format!("{name}: the corpus file reports {clean:?}"));
        }
    }
    assert!(breaks >= 30, "only {breaks} breaks in the broken corpus");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
