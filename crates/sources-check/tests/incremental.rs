//! The editor's incremental reparse is the whole parse: over every file of `testdata/`, edited at
//! many positions (a character replaced, deleted or inserted, a line indented, duplicated, deleted,
//! or followed by a new key), `Tree::update` from the file to the edit and back gives the tree and
//! errors `parse` gives (spans included), and `analyze_parsed` on that tree gives the diagnostics
//! `analyze` gives.

use std::fs;
use std::path::Path;

use sources_check::{analyze, analyze_parsed};
use sources_syntax::{Change, Reparse, Syntax, Tree, parse};

/// Positions edited per file: spread over the whole text.
const POSITIONS_PER_FILE: usize = 8;

/// Every edit of `text` the test makes at byte `at` (a character boundary).
fn edits(text: &str, at: usize) -> Vec<String> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    let line = &text[line_start..line_end];
    let indent: String = line.chars().take_while(|&c| c == ' ').collect();
    let next = text[at..].chars().next();
    let mut found = vec![
        format!("{}x{}", &text[..at], &text[at..]),
        format!("{}  {}", &text[..line_start], &text[line_start..]),
        format!("{}{line}{}", &text[..line_end], &text[line_end..]),
        format!("{}{}", &text[..line_start], &text[line_end..]),
        format!(
            "{}{indent}added_key: 1\n{}",
            &text[..line_end],
            &text[line_end..]
        ),
        format!(
            "{}{indent}  deeper: [1, 2]\n{}",
            &text[..line_end],
            &text[line_end..]
        ),
    ];
    if let Some(next) = next {
        let after = at + next.len_utf8();
        found.push(format!("{}{}", &text[..at], &text[after..]));
        found.push(format!("{}z{}", &text[..at], &text[after..]));
        found.push(format!("{}: {}", &text[..at], &text[after..]));
    }
    found
}

/// Updates `tree` (built from `old`) to `new`: how it did, or what differs from parsing `new`.
fn compare(
    tree: &mut Tree,
    old: &str,
    new: &str,
    syntax: Syntax,
    diagnostics: bool,
) -> Result<Reparse, String> {
    let how = tree.update(old, new);
    let whole = parse(new, syntax);
    let (got, want) = (format!("{:?}", tree.parse()), format!("{whole:?}"));
    if got != want {
        return Err(format!("{how:?} tree differs:\n got {got}\nwant {want}"));
    }
    if diagnostics && matches!(how, Reparse::Spliced { .. }) {
        let got = format!(
            "{:?}",
            analyze_parsed(new, syntax, tree.parse().clone()).diagnostics
        );
        let want = format!("{:?}", analyze(new, syntax).diagnostics);
        if got != want {
            return Err(format!("diagnostics differ:\n got {got}\nwant {want}"));
        }
    }
    Ok(how)
}

#[test]
fn reparsing_an_edit_gives_the_whole_parse_and_its_diagnostics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let (mut cases, mut spliced) = (0, 0);
    for path in sources_testkit::files_under(&root) {
        let Some(syntax) = Syntax::from_path(&path) else {
            continue;
        };
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let base = Tree::new(&text, syntax);
        let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        let stride = (boundaries.len() / POSITIONS_PER_FILE).max(1);
        for (n, &at) in boundaries.iter().step_by(stride).enumerate() {
            for edited in edits(&text, at) {
                let mut tree = base.clone();
                match compare(&mut tree, &text, &edited, syntax, n % 8 == 0) {
                    Ok(how) => spliced += usize::from(matches!(how, Reparse::Spliced { .. })),
                    Err(problem) => panic!(
                        "{}: editing at byte {at} to\n{edited}\n{problem}",
                        path.display()
                    ),
                }
                if let Err(problem) = compare(&mut tree, &edited, &text, syntax, false) {
                    panic!(
                        "{}: undoing the edit at byte {at} of\n{edited}\n{problem}",
                        path.display()
                    );
                }
                cases += 1;
            }
        }
    }
    assert!(cases > 2_000, "only {cases} edits were tried");
    assert!(
        spliced > cases / 4,
        "only {spliced} of {cases} edits were spliced"
    );
}

#[test]
fn a_change_that_does_not_fit_the_texts_parses_the_new_text_whole() {
    let old = "data:\n  sources:\n    a:\n      type: http\n";
    let new = "data:\n  sources:\n    ab:\n      type: http\n";
    let wrong = Change {
        start: 30,
        old_end: 40,
        new_end: 30,
    };
    for change in [Some(wrong), None] {
        let mut tree = Tree::new(old, Syntax::Yaml);
        assert_eq!(tree.update_changed(old, new, change), Reparse::Full);
        assert_eq!(
            format!("{:?}", tree.parse()),
            format!("{:?}", parse(new, Syntax::Yaml))
        );
    }
    let mut tree = Tree::new(old, Syntax::Yaml);
    let right = Change::between(old, new);
    assert!(matches!(
        tree.update_changed(old, new, right),
        Reparse::Spliced { .. }
    ));
    assert_eq!(
        format!("{:?}", tree.parse()),
        format!("{:?}", parse(new, Syntax::Yaml))
    );
}
