//! The loop the README shows, through the real binary: `sources try NAME --record` writes a
//! sample beside the configuration, `sources lint` then warns about a reference into the data the
//! sample does not have (with the real keys), the fix lints clean, and a sample of an entry
//! written differently since is ignored.

use std::path::Path;

use sources_testkit::process::{in_dir, outcome as run};

const CONFIG: &str = r#"tui:
  components:
    issues_table:
      type: table
      source: open_issues
      columns:
        - {title: Title, value: titel}
data:
  sources:
    issues:
      type: exec
      command: [printf, "%s", '[{"title":"a","state":"open","token":"x"},{"title":"b","state":"closed"}]']
    open_issues:
      type: filter
      from: issues
      where: state == "open"
"#;

fn sources(dir: &Path, args: &[&str]) -> (i32, String, String) {
    run(&mut in_dir(env!("CARGO_BIN_EXE_sources"), dir, args))
}

#[test]
fn record_then_lint_then_fix() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("sources.yaml");
    std::fs::write(&config, CONFIG).expect("write");
    let (code, stdout, stderr) =
        sources(dir.path(), &["lint", "--format", "short", "sources.yaml"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "no problems found in 1 file\n"),
        "nothing is known without a sample: {stderr}"
    );

    let (code, _, stderr) = sources(dir.path(), &["try", "issues", "--record"]);
    assert_eq!(code, 0, "{stderr}");
    let sample = dir.path().join(".sources/samples/issues.json");
    assert!(stderr.contains("recorded a sample of `issues`"), "{stderr}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sample).expect("a sample")).expect("json");
    assert_eq!(saved["entry"], "issues");
    assert_eq!(saved["rows"], 2);
    assert_eq!(saved["request"]["kind"], "exec");

    let (code, stdout, _) = sources(dir.path(), &["lint", "--format", "short", "sources.yaml"]);
    assert_eq!(code, 0, "a sample's findings are warnings");
    assert_eq!(
        stdout,
        "sources.yaml:7:33: warning[unknown-data-field]: the `value` of column `Title` reads \
         `titel`, but the rows of `open_issues` have no such key (keys: `state`, `title`, `token`)\n\
         1 warning in 1 of 1 file\n"
    );

    std::fs::write(&config, CONFIG.replace("value: titel", "value: title")).expect("write");
    let (code, stdout, stderr) =
        sources(dir.path(), &["lint", "--format", "short", "sources.yaml"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "no problems found in 1 file\n"),
        "{stderr}"
    );

    // The entry written differently: its sample no longer describes it, and is ignored.
    let changed = CONFIG
        .replace(r#""%s", "#, "")
        .replace("where: state", "where: stat");
    std::fs::write(&config, changed).expect("write");
    let (code, stdout, stderr) =
        sources(dir.path(), &["lint", "--format", "short", "sources.yaml"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "no problems found in 1 file\n"),
        "a stale sample is unknown: {stderr}"
    );
}
