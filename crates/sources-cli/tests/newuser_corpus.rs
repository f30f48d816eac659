//! The new user's dashboards broken as new users break them: each file of `testdata/newuser-broken/`
//! is a dashboard of `testdata/corpus/` (`pass-newuser-NAME.yaml`, which lints clean: the golden
//! test holds it to that) with mistakes in it, each marked by a comment `break: CODE`. Linted as
//! `sources lint` does, each mistake is reported exactly once, by its rule, and nothing else is:
//! the diagnostics' codes are the marked codes, as many of each.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use sources_cli::lint::{Linted, lint_bytes};
use sources_syntax::Syntax;

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// How many breaks of each rule `text` marks.
fn marked(text: &str) -> BTreeMap<String, usize> {
    let mut codes = BTreeMap::new();
    for (_, after) in text.lines().filter_map(|line| line.split_once("# break: ")) {
        let code = after.split_whitespace().next().unwrap_or_default();
        *codes.entry(code.to_owned()).or_insert(0) += 1;
    }
    codes
}

#[test]
fn every_break_of_a_new_users_dashboard_is_reported_once() {
    let broken = testdata().join("newuser-broken");
    let mut checked = 0;
    for copy in sources_testkit::files_under(&broken) {
        let name = copy
            .file_name()
            .and_then(|name| name.to_str())
            .expect("a file name")
            .to_owned();
        if !name.ends_with(".yaml") {
            continue;
        }
        let original = testdata()
            .join("corpus")
            .join(format!("pass-newuser-{name}"));
        assert!(
            original.exists(),
            "{name}: no corpus file at {}",
            original.display()
        );
        let text = fs::read_to_string(&copy).expect("read the broken copy");
        let expected = marked(&text);
        assert!(!expected.is_empty(), "{name}: marks no break");
        let Linted::Report(report) = lint_bytes(&name, text.as_bytes(), Syntax::Yaml, true) else {
            panic!("{name}: a named file gives a report");
        };
        let mut reported: BTreeMap<String, usize> = BTreeMap::new();
        for diagnostic in &report.diagnostics {
            *reported
                .entry(diagnostic.rule.code().to_owned())
                .or_insert(0) += 1;
        }
        assert_eq!(
            reported, expected,
            "{name}: the diagnostics are not the marked breaks:\n{:#?}",
            report.diagnostics
        );
        checked += 1;
    }
    assert!(
        checked > 0,
        "no broken dashboard under {}",
        broken.display()
    );
}
