//! Golden tests over `testdata/`: every `.yaml`, `.yml` and `.toml` case is linted through the
//! library (as `sources lint` does for a named file) and its `short` rendering, with paths relative
//! to `testdata/`, is compared with `<case file name>.out` beside it (`typo.yaml` → `typo.yaml.out`).
//!
//! Cases whose file name starts with `pass`, and every file under `testdata/valid/` and
//! `testdata/examples/`, must give no diagnostic at all and have no `.out`. Every other case must
//! give at least one. `UPDATE_EXPECT=1 cargo test -p sources-cli --test golden` re-blesses: it
//! writes every `.out` and removes stale ones. `GOLDEN_FILTER=window-kind/` limits a run (and a
//! re-bless) to the cases whose path relative to `testdata/` contains that text.
//!
//! As `sources lint` does, a case is linted with the settings file found walking up from its
//! directory (only those inside `testdata/`: its rule levels and its expression language); a
//! settings file with mistakes makes the case's expectation its `invalid-settings` diagnostics, as
//! `sources lint` reports them instead of linting the case.

use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use sources_check::settings_file;
use sources_cli::lint::{Linted, lint_bytes_in};
use sources_cli::render::{RenderOptions, short};
use sources_syntax::Syntax;

const BLESS: &str = "UPDATE_EXPECT=1 cargo test -p sources-cli --test golden";

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// The `GOLDEN_FILTER` substring, if any.
fn filter() -> Option<String> {
    std::env::var("GOLDEN_FILTER")
        .ok()
        .filter(|filter| !filter.is_empty())
}

/// The path relative to `testdata/`, `/`-separated.
fn relative(path: &Path) -> String {
    let root = testdata();
    path.strip_prefix(&root)
        .expect("under testdata")
        .to_string_lossy()
        .replace('\\', "/")
}

/// Whether a case must lint clean.
fn must_pass(relative: &str) -> bool {
    let name = relative.rsplit('/').next().unwrap_or(relative);
    name.starts_with("pass") || relative.starts_with("valid/") || relative.starts_with("examples/")
}

fn expectation_path(case: &Path) -> PathBuf {
    let name = case.file_name().expect("file name").to_string_lossy();
    case.with_file_name(format!("{name}.out"))
}

/// The `short` rendering of one case, or why it could not be produced.
fn lint_case(case: &Path, relative: &str) -> Result<String, String> {
    let root = format!("{}/", testdata().display());
    let settings = match settings_file::find(case.parent().unwrap_or(&testdata())) {
        Ok(found) => found.filter(|found| found.path.starts_with(testdata())),
        Err(error) => return Ok(format!("{}\n", error.describe().replace(&root, ""))),
    };
    let bytes = fs::read(case).map_err(|error| format!("cannot read: {error}"))?;
    let syntax = Syntax::from_path(case).ok_or("not a YAML or TOML file name")?;
    let language = settings
        .as_ref()
        .map_or_else(Default::default, |found| found.settings.language);
    let linted = catch_unwind(AssertUnwindSafe(|| {
        lint_bytes_in(relative, &bytes, syntax, true, language)
    }))
    .map_err(|_| "the analysis panicked".to_owned())?;
    let Linted::Report(mut report) = linted else {
        return Err(format!("a named file must give a report, got {linted:?}"));
    };
    if let Some(found) = settings {
        found.settings.apply(&mut report.diagnostics);
    }
    let mut out = Vec::new();
    let options = RenderOptions {
        color: false,
        width: 100,
        quiet: true,
    };
    short::render(&[report], &options, &mut out).map_err(|error| error.to_string())?;
    String::from_utf8(out).map_err(|error| error.to_string())
}

/// A line diff of `expected` against `actual` (longest common subsequence), `-`/`+`/` ` prefixed.
fn diff(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    let mut common = vec![vec![0usize; new.len() + 1]; old.len() + 1];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            common[i][j] = if old[i] == new[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut lines) = (0, 0, Vec::new());
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            lines.push(format!("   {}", old[i]));
            i += 1;
            j += 1;
        } else if i < old.len() && (j == new.len() || common[i + 1][j] >= common[i][j + 1]) {
            lines.push(format!("  -{}", old[i]));
            i += 1;
        } else {
            lines.push(format!("  +{}", new[j]));
            j += 1;
        }
    }
    lines.join("\n")
}

#[test]
fn testdata_cases_match_their_expectations() {
    let root = testdata();
    let all = sources_testkit::files_under(&root);
    let update = sources_testkit::blessing();
    let filter = filter();
    let selected = |relative: &str| {
        filter
            .as_deref()
            .is_none_or(|filter| relative.contains(filter))
    };
    let mut failures = Vec::new();
    let mut cases = 0;
    // `testdata/expressions/` is the expression corpus (sources-eval's `expressions_corpus`
    // test reads it), not configurations.
    let corpus = root.join("expressions");
    let is_case = |path: &&PathBuf| {
        Syntax::from_path(path).is_some()
            && !settings_file::is_settings_file(path)
            && !path.starts_with(&corpus)
    };
    for path in all.iter().filter(is_case) {
        let relative = relative(path);
        if !selected(&relative) {
            continue;
        }
        cases += 1;
        let expectation = expectation_path(path);
        let actual = match lint_case(path, &relative) {
            Ok(actual) => actual,
            Err(why) => {
                failures.push(format!("{relative}: {why}"));
                continue;
            }
        };
        if must_pass(&relative) {
            if !actual.is_empty() {
                failures.push(format!(
                    "{relative}: must lint clean, but reports:\n{actual}"
                ));
            }
            if expectation.exists() {
                if update {
                    fs::remove_file(&expectation).expect("remove stale expectation");
                } else {
                    failures.push(format!("{relative}: must lint clean, so it has no .out"));
                }
            }
            continue;
        }
        if actual.is_empty() {
            failures.push(format!(
                "{relative}: reports nothing; a failing case must report a diagnostic \
                 (name a near-miss that must lint clean `pass-*`)"
            ));
            continue;
        }
        let expected = fs::read_to_string(&expectation).ok();
        if expected.as_deref() == Some(actual.as_str()) {
            continue;
        }
        if update {
            fs::write(&expectation, &actual).expect("write expectation");
        } else {
            match expected {
                Some(expected) => failures.push(format!(
                    "{relative}: output differs from {relative}.out (- expected, + actual):\n{}",
                    diff(&expected, &actual)
                )),
                None => failures.push(format!("{relative}: no {relative}.out; actual:\n{actual}")),
            }
        }
    }
    for path in all
        .iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "out"))
    {
        let case = path.with_extension("");
        if !selected(&relative(path)) || (case.exists() && is_case(&&case)) {
            continue;
        }
        if update {
            fs::remove_file(path).expect("remove stale expectation");
        } else {
            failures.push(format!("{}: no case file beside it", relative(path)));
        }
    }
    assert!(
        cases > 0,
        "no case found under {} (GOLDEN_FILTER: {filter:?})",
        root.display()
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} golden cases failed:\n\n{}\n\nIf the new output is right, re-bless with:\n    {BLESS}\n",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every rule has its folder `testdata/<code>/` with at least one case that must fail and one
/// that must pass; the folder's expectations are held by [`testdata_cases_match_their_expectations`].
#[test]
fn every_rule_has_a_folder_with_a_failing_and_a_passing_case() {
    let mut lacking = Vec::new();
    for rule in sources_diagnostics::Rule::ALL {
        let code = rule.code();
        let dir = testdata().join(code);
        if !dir.is_dir() {
            lacking.push(format!("{code}: no folder `testdata/{code}/`"));
            continue;
        }
        let cases: Vec<String> = sources_testkit::files_under(&dir)
            .iter()
            .filter(|path| {
                Syntax::from_path(path).is_some() && !settings_file::is_settings_file(path)
            })
            .map(|path| relative(path))
            .collect();
        if !cases.iter().any(|case| !must_pass(case)) {
            lacking.push(format!("{code}: no failing case in `testdata/{code}/`"));
        }
        if !cases.iter().any(|case| must_pass(case)) {
            lacking.push(format!(
                "{code}: no passing case (a file named `pass…`) in `testdata/{code}/`"
            ));
        }
    }
    assert!(lacking.is_empty(), "{}", lacking.join("\n"));
}

#[test]
fn the_diff_marks_removed_and_added_lines() {
    assert_eq!(diff("a\nb\nc\n", "a\nx\nc\n"), "   a\n  -b\n  +x\n   c");
    assert_eq!(diff("", "new\n"), "  +new");
}
