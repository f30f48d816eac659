//! The editor's analysis of an edited version reuses the previous version's decoded entries,
//! per-entry diagnostics, and the results of the checks that read other entries and the shapes for
//! the entries the edit cannot change (`analyze_edited`), and gives exactly what a fresh analysis
//! gives (the diagnostics, the model with its spans, the shapes, the line index): over every file
//! of `testdata/` and a generated configuration, a seeded sequence of random edits (characters
//! inserted, replaced and deleted, lines indented, duplicated and deleted, keys added, a `from`
//! pointed at another entry), each undone by the next version, every version analysed both ways,
//! unbounded and bounded, with the same diagnostics in the same order. The front end hands in a
//! recorded sample for every other entry of the unedited file, so an edited entry's sample goes
//! stale and its shape, and its readers', change.

use std::fs;
use std::path::Path;
use std::sync::Arc;

use sources_check::shape::{Field, Fields, Shape};
use sources_check::shapes::{Sample, ShapeInputs, fingerprint};
use sources_check::{Bounded, Memo, analyze_bounded_with, analyze_edited, analyze_with};
use sources_config::Config;
use sources_diagnostics::Rule;
use sources_syntax::{Span, Syntax, Tree};
use sources_testkit::random::Random;

/// Edits made to each file, one after the other.
const EDITS_PER_FILE: usize = 12;

/// One random edit of `text` at a random character boundary.
fn edit(text: &str, random: &mut Random) -> String {
    let boundaries: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let at = boundaries[random.below(boundaries.len())];
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    let line = &text[line_start..line_end];
    let indent: String = line.chars().take_while(|&c| c == ' ').collect();
    let after = at + text[at..].chars().next().map_or(0, char::len_utf8);
    match random.below(11) {
        0 => format!("{}x{}", &text[..at], &text[at..]),
        1 => format!("{}z{}", &text[..at], &text[after..]),
        2 => format!("{}{}", &text[..at], &text[after..]),
        3 => format!("{}  {}", &text[..line_start], &text[line_start..]),
        4 => format!("{}{line}{}", &text[..line_end], &text[line_end..]),
        5 => format!("{}{}", &text[..line_start], &text[line_end..]),
        6 => format!(
            "{}{indent}timeout: 0s\n{}",
            &text[..line_end],
            &text[line_end..]
        ),
        7 => format!(
            "{}{indent}url: \"${{params.nope}}\"\n{}",
            &text[..line_end],
            &text[line_end..]
        ),
        9 | 10 => repointed(text, random).unwrap_or_else(|| text.to_owned()),
        _ => format!("{}: {}", &text[..at], &text[after..]),
    }
}

/// `text` with one `from: NAME` reading another name some `from:` of the text reads (`None`
/// when it has fewer than two): the reference graph changes, a cycle may close.
fn repointed(text: &str, random: &mut Random) -> Option<String> {
    let reads: Vec<(usize, usize)> = text
        .match_indices("from: ")
        .map(|(at, found)| {
            let start = at + found.len();
            let end = text[start..]
                .find(|c: char| c.is_whitespace() || c == ',' || c == '}')
                .map_or(text.len(), |length| start + length);
            (start, end)
        })
        .filter(|(start, end)| start < end)
        .collect();
    if reads.len() < 2 {
        return None;
    }
    let (start, end) = reads[random.below(reads.len())];
    let (other_start, other_end) = reads[random.below(reads.len())];
    let name = &text[other_start..other_end];
    Some(format!("{}{name}{}", &text[..start], &text[end..]))
}

/// A recorded sample, as the front end hands it in, for every other entry of `text` as it is.
fn samples(text: &str, syntax: Syntax) -> ShapeInputs {
    let analysis = analyze_with(text, syntax, &ShapeInputs::default());
    let mut row = Fields::new();
    for (key, shape) in [("id", Shape::Number), ("name", Shape::String)] {
        row.insert(key.to_owned(), Field::required(shape));
    }
    let samples = analysis
        .config
        .entries
        .iter()
        .step_by(2)
        .map(|source| {
            let sample = Sample {
                shape: Shape::Array(Box::new(Shape::Object(row.clone()))),
                recorded: "2026-11-26T12:00:00Z".to_owned(),
                fingerprint: fingerprint(text, source),
            };
            (source.name.value.to_string(), sample)
        })
        .collect();
    ShapeInputs {
        samples,
        ..ShapeInputs::default()
    }
}

/// The editor's kind of bound: the first `limit`, without one rule.
fn bounded(limit: usize) -> Bounded {
    Bounded {
        limit,
        keep: Box::new(|diagnostic| diagnostic.rule != Rule::UnknownField),
    }
}

/// How many entries the reusing analyses took from the previous version.
#[derive(Default)]
struct Reused {
    /// Not checked again.
    checked: usize,
    /// Not decoded again.
    decoded: usize,
    /// None of the checks that read other entries run again, nor the shapes computed.
    cross: usize,
}

/// Edits `text` `EDITS_PER_FILE` times, comparing each version's reusing analysis with a fresh
/// one; how many entries were reused.
fn check_file(name: &str, text: String, syntax: Syntax, seed: u64) -> Reused {
    let inputs = samples(&text, syntax);
    let mut random = Random::new(seed);
    let base = Arc::new(text);
    let mut text = Arc::clone(&base);
    let mut tree = Tree::new(&text, syntax);
    let (mut memo, mut bounded_memo) = (Memo::default(), Memo::default());
    let mut reused = Reused::default();
    for step in 0..=EDITS_PER_FILE {
        // Every other version is an edit of the file, and the next one undoes it: an edit that
        // breaks the syntax (after which the tree is parsed whole) does not end the reuse.
        if step > 0 {
            let next = match step % 2 {
                1 => Arc::new(edit(&base, &mut random)),
                _ => Arc::clone(&base),
            };
            tree.update(&text, &next);
            text = next;
        }
        let got = analyze_edited(&text, &tree, &mut memo, None, &inputs);
        let want = analyze_with(&text, syntax, &inputs);
        assert_eq!(
            got.diagnostics, want.diagnostics,
            "{name}, edit {step}: the reusing analysis differs from a fresh one on\n{text}"
        );
        // A moved entry's model is moved when first read, so the model is compared (read) only
        // on every third version: between reads, entries move by two or three edits. The other
        // versions compare what is read without moving the model.
        if step % 3 == 0 {
            assert_eq!(got.config, want.config, "{name}, edit {step}");
        } else {
            let unmoved = |config: &Config| -> Vec<(String, Span, Span)> {
                let entries = config.entries.iter();
                entries
                    .map(|entry| (entry.name().to_string(), entry.name_span(), entry.span()))
                    .collect()
            };
            assert_eq!(
                unmoved(&got.config),
                unmoved(&want.config),
                "{name}, edit {step}"
            );
        }
        assert_eq!(got.shapes, want.shapes, "{name}, edit {step}");
        assert_eq!(
            got.line_index, want.line_index,
            "{name}, edit {step}: the line index made from the previous one differs"
        );
        let got = analyze_edited(&text, &tree, &mut bounded_memo, Some(bounded(3)), &inputs);
        let want = analyze_bounded_with(&text, syntax, tree.parse().clone(), bounded(3), &inputs);
        assert_eq!(
            (got.diagnostics, got.omitted, got.omitted_errors),
            (want.diagnostics, want.omitted, want.omitted_errors),
            "{name}, edit {step}: the bounded reusing analysis differs on\n{text}"
        );
        reused.checked += memo.reused();
        reused.decoded += memo.decoded_reused();
        reused.cross += memo.cross_reused();
    }
    reused
}

#[test]
fn reusing_per_entry_results_gives_the_fresh_analysis_over_testdata_and_a_generated_config() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let (mut files, mut reused) = (0, Reused::default());
    for (index, path) in sources_testkit::files_under(&root).iter().enumerate() {
        let Some(syntax) = Syntax::from_path(path) else {
            continue;
        };
        let Ok(text) = fs::read_to_string(path) else {
            continue;
        };
        let file = check_file(&path.display().to_string(), text, syntax, index as u64 + 1);
        reused.checked += file.checked;
        reused.decoded += file.decoded;
        reused.cross += file.cross;
        files += 1;
    }
    let generated = sources_syntax::bench_support::generate_config(60);
    let generated_reused = check_file("generated", generated, Syntax::Yaml, 7);
    assert!(files > 200, "only {files} files were read");
    // An edit keeps all entries but the one it is in, unless it breaks the syntax (then the tree
    // is parsed whole, for that version and the one undoing it): many are reused.
    for (what, generated, testdata) in [
        ("checked", generated_reused.checked, reused.checked),
        ("decoded", generated_reused.decoded, reused.decoded),
        (
            "checked against other entries",
            generated_reused.cross,
            reused.cross,
        ),
    ] {
        assert!(
            generated > 60 * EDITS_PER_FILE / 3,
            "only {generated} entries of the generated configuration were reused, not {what} again"
        );
        assert!(
            testdata > 1_000,
            "only {testdata} entries of testdata were reused, not {what} again"
        );
    }
}
