//! `--fix` never makes things worse, over every case in `testdata/` and a corpus generated from
//! them (each key misspelled in turn, and a key written again misspelled): after `fix_all` the
//! document parses when it parsed before, its error count never rises, a document with syntax
//! errors is left as it is, and a second `fix_all` changes nothing.

use std::fs;
use std::path::{Path, PathBuf};

use sources_check::{analyze, fix_all};
use sources_diagnostics::{Diagnostic, Rule, Severity};
use sources_syntax::Syntax;

/// Generated variants per case, so the run stays short.
const VARIANTS_PER_CASE: usize = 6;

fn errors(diagnostics: &[Diagnostic]) -> usize {
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}

fn parses(diagnostics: &[Diagnostic]) -> bool {
    !diagnostics.iter().any(|d| d.rule == Rule::Syntax)
}

/// What is wrong with fixing `text`, if anything.
fn check(text: &str, syntax: Syntax) -> Option<String> {
    let before = analyze(text, syntax).diagnostics;
    let fixed = fix_all(text, syntax);
    if !parses(&before) {
        return (fixed.text != text).then(|| "a file with syntax errors was edited".to_owned());
    }
    let after = analyze(&fixed.text, syntax).diagnostics;
    if !parses(&after) {
        return Some(format!("the fixed file does not parse:\n{}", fixed.text));
    }
    if errors(&after) > errors(&before) {
        return Some(format!(
            "errors rose from {} to {}:\n{}",
            errors(&before),
            errors(&after),
            fixed.text
        ));
    }
    let again = fix_all(&fixed.text, syntax);
    (again.text != fixed.text).then(|| format!("a second fix changed the text:\n{}", again.text))
}

/// Variants of `text`: a key misspelled (a letter doubled, or the last two swapped), and a key line
/// written again below itself with a misspelled key (two misspellings of one field).
fn variants(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut found = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(end) = trimmed.find([':', '=']) else {
            continue;
        };
        let key = trimmed[..end].trim_end();
        if key.len() < 3 || !key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
            continue;
        }
        let indent = &line[..line.len() - trimmed.len()];
        let rest = &trimmed[key.len()..];
        let mut swapped: Vec<char> = key.chars().collect();
        let last = swapped.len() - 1;
        swapped.swap(last - 1, last);
        let swapped: String = swapped.into_iter().collect();
        let doubled = format!("{}{key}", &key[..1]);
        for misspelled in [swapped, doubled.clone()] {
            let mut variant = lines.clone();
            let replaced = format!("{indent}{misspelled}{rest}");
            variant[index] = &replaced;
            found.push(variant.concat());
        }
        let mut twice = lines.clone();
        let first = format!("{indent}{doubled}{rest}");
        let second = format!("{indent}{}{rest}", &key[1..]);
        twice[index] = &first;
        let mut text: String = twice[..=index].concat();
        if line.ends_with('\n') {
            text.push_str(&second);
        }
        text.push_str(&twice[index + 1..].concat());
        found.push(text);
        if found.len() >= VARIANTS_PER_CASE {
            break;
        }
    }
    found
}

#[test]
fn fixing_never_makes_a_document_worse_and_settles() {
    let cases: Vec<PathBuf> =
        sources_testkit::files_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata"))
            .into_iter()
            .filter(|path| Syntax::from_path(path).is_some())
            .collect();
    assert!(cases.len() > 100, "expected the testdata cases");
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let Ok(text) = fs::read_to_string(case) else {
            continue;
        };
        let syntax = Syntax::from_path(case).expect("filtered by extension");
        for (label, text) in std::iter::once(("as written".to_owned(), text.clone())).chain(
            variants(&text)
                .into_iter()
                .enumerate()
                .map(|(n, v)| (format!("variant {n}"), v)),
        ) {
            checked += 1;
            if let Some(problem) = check(&text, syntax) {
                failures.push(format!("{} ({label}): {problem}", case.display()));
            }
        }
    }
    assert!(checked > 500, "only {checked} documents checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} documents:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
