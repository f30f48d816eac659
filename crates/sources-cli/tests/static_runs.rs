//! Lint runs the pipelines over static data (`failing-row`), through the binary: what it did not
//! run is said under `--verbose`, with the reason, and nowhere else.

use std::process::Output;

use sources_testkit::process::{in_dir, text};

fn lint(dir: &std::path::Path, args: &[&str]) -> Output {
    in_dir(
        env!("CARGO_BIN_EXE_sources"),
        dir,
        &["lint", "--format", "short"],
    )
    .args(args)
    .output()
    .expect("run sources")
}

/// A configuration with an entry of each kind lint does not run, and one it runs.
fn config() -> String {
    let rows: Vec<String> = (0..1_001).map(|n| format!("{{n: {n}}}")).collect();
    format!(
        "data:\n  sources:\n    big:\n      type: static\n      data: [{}]\n    \
         small:\n      type: filter\n      from: big\n      where: n > 999\n    \
         apps:\n      type: static\n      data: [{{rev: 1}}]\n    \
         newer:\n      type: filter\n      from: apps\n      parameters:\n        \
         floor: {{type: int, default: 0}}\n      where: rev > params.floor\n    \
         both:\n      type: union\n      sources: [apps, big]\n    \
         ranked:\n      type: sort\n      from: apps\n      by: rev\n",
        rows.join(", ")
    )
}

#[test]
fn verbose_lists_what_lint_did_not_run_and_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("s.yaml"), config()).expect("write");
    let quiet = lint(dir.path(), &["s.yaml"]);
    assert_eq!(quiet.status.code(), Some(0), "{}", text(&quiet.stdout));
    assert_eq!(text(&quiet.stderr), "");
    let verbose = lint(dir.path(), &["--verbose", "s.yaml"]);
    assert_eq!(verbose.status.code(), Some(0));
    assert_eq!(
        text(&verbose.stderr),
        "sources: s.yaml:6:5: lint did not run `small`: its input has 1001 rows; lint runs \
         operators over at most 1000\n\
         sources: s.yaml:13:5: lint did not run `newer`: `where` reads parameters, whose values \
         lint does not know\n\
         sources: s.yaml:19:5: lint did not run `both`: lint runs `filter`, `project`, `derive`, \
         `sort`, `passthrough` and `cache` over static data, not `union`\n"
    );
}

#[test]
fn under_expr_lint_runs_the_expressions_by_expr_langs_rules() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A list is false as a CEL predicate, and an error as an expr-lang one.
    let config = "data:\n  sources:\n    apps:\n      type: static\n      data: [{tags: [a]}]\n    \
                  tagged:\n      type: filter\n      from: apps\n      where: tags\n";
    std::fs::write(dir.path().join("s.yaml"), config).expect("write");
    std::fs::write(
        dir.path().join("sources-lint.toml"),
        "[expressions]\nlanguage = \"expr\"\n",
    )
    .expect("write settings");
    let expr = lint(dir.path(), &["--verbose", "s.yaml"]);
    assert_eq!(text(&expr.stderr), "");
    assert!(
        text(&expr.stdout).contains("error[failing-row]: `where` of `tagged` fails on row 0"),
        "{}",
        text(&expr.stdout)
    );
    // `--isolated` ignores the settings file: CEL, under which the filter keeps nothing.
    let cel = lint(dir.path(), &["--isolated", "s.yaml"]);
    assert_eq!(cel.status.code(), Some(0), "{}", text(&cel.stdout));
}
