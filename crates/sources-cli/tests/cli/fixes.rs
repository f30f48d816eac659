//! `--fix`, `--diff` and `--add-suppressions`.

use super::*;

/// Two misspellings with safe fixes, a comment and a trailing comment that must survive.
const MISSPELLED: &str = "data:\n  sources:\n    # the list\n    apps:\n      type: htp\n      urll: https://api.example.com/apps  # keep me\n      refresh: 5m\n";

#[test]
fn fix_rewrites_only_the_misspelled_names_and_reports_what_changed() {
    let dir = tree(&[("conf.yaml", MISSPELLED.as_bytes())]);
    let output = sources(dir.path(), &["lint", "--fix", "conf.yaml"], b"");
    assert_eq!(code(&output), 0, "{}{}", stdout(&output), stderr(&output));
    assert_eq!(stdout(&output), "no problems found in 1 file\n");
    let fixed = fs::read_to_string(dir.path().join("conf.yaml")).expect("read back");
    assert_eq!(
        fixed,
        MISSPELLED.replace("htp", "http").replace("urll", "url")
    );
    let log = stderr(&output);
    assert!(log.contains("sources: fixed conf.yaml:5:13: "), "{log}");
    assert!(log.contains("sources: fixed conf.yaml:6:7: "), "{log}");
    assert_eq!(
        code(&sources(dir.path(), &["lint", "conf.yaml"], b"")),
        0,
        "lints clean after"
    );
}

#[test]
fn a_key_written_without_a_value_gets_a_help_line() {
    let dir = tree(&[(
        "conf.yaml",
        b"data:\n  sources:\n    a:\n      type: http\n      url: http://x/${params.id}\n      parameters:\n        id:\n          default:\n".as_slice(),
    )]);
    let output = sources(dir.path(), &["lint", "--format", "human", "conf.yaml"], b"");
    assert_eq!(code(&output), 1);
    assert!(
        stdout(&output)
            .contains("help: `parameters.id.default` is written with no value after its colon")
            && stdout(&output).contains("remove the key to leave it unset"),
        "{}",
        stdout(&output)
    );
}

/// A suppression whose code is misspelt, with a reason, over a finding that has no fix.
const MISSPELT_SUPPRESSION: &str = "data:\n  sources:\n    apps:\n      type: http\n      url: https://api.example.com/apps\n      legacy_owner: team-a  # sources: ignore[unknown-feild] (the old dashboard reads it)\n";

#[test]
fn fix_renames_a_misspelt_suppression_code_and_keeps_its_reason() {
    let dir = tree(&[("conf.yaml", MISSPELT_SUPPRESSION.as_bytes())]);
    let before = sources(dir.path(), &["lint", "conf.yaml"], b"");
    assert_eq!(code(&before), 1);
    assert!(
        stdout(&before).contains(
            "conf.yaml:6:47: warning[unused-suppression]: `unknown-feild` is not a rule code"
        ),
        "{}",
        stdout(&before)
    );
    let output = sources(dir.path(), &["lint", "--fix", "conf.yaml"], b"");
    assert_eq!(code(&output), 0, "{}{}", stdout(&output), stderr(&output));
    assert_eq!(stdout(&output), "no problems found in 1 file\n");
    assert!(
        stderr(&output).contains("Rename `unknown-feild` to `unknown-field`"),
        "{}",
        stderr(&output)
    );
    let fixed = fs::read_to_string(dir.path().join("conf.yaml")).expect("read back");
    assert_eq!(
        fixed,
        MISSPELT_SUPPRESSION.replace("ignore[unknown-feild]", "ignore[unknown-field]")
    );
}

#[test]
fn diff_shows_the_fixes_without_writing() {
    let dir = tree(&[
        ("conf.yaml", MISSPELLED.as_bytes()),
        ("ok.yaml", CLEAN.as_bytes()),
    ]);
    let output = sources(dir.path(), &["lint", "--diff", "ok.yaml", "conf.yaml"], b"");
    assert_eq!(code(&output), 1);
    let diff = stdout(&output);
    assert!(
        diff.starts_with("--- a/conf.yaml\n+++ b/conf.yaml\n"),
        "{diff}"
    );
    for line in [
        "\n-      urll: https://api.example.com/apps  # keep me\n",
        "\n+      url: https://api.example.com/apps  # keep me\n",
        "\n-      type: htp\n",
        "\n+      type: http\n",
    ] {
        assert!(diff.contains(line), "{line:?} in {diff}");
    }
    let unchanged = fs::read_to_string(dir.path().join("conf.yaml")).expect("read back");
    assert_eq!(unchanged, MISSPELLED);
    let clean = sources(dir.path(), &["lint", "--diff", "ok.yaml"], b"");
    assert_eq!((code(&clean), stdout(&clean)), (0, String::new()));
}

#[test]
fn fix_refuses_standard_input_and_diff() {
    let dir = tree(&[]);
    let stdin = sources(dir.path(), &["lint", "--fix", "-"], MISSPELLED.as_bytes());
    assert_eq!(code(&stdin), 2);
    assert!(
        stderr(&stdin).contains("cannot change standard input"),
        "{}",
        stderr(&stdin)
    );
    let piped = sources(
        dir.path(),
        &["lint", "--diff", "--stdin-filename", "p.yaml", "-"],
        MISSPELLED.as_bytes(),
    );
    assert_eq!(code(&piped), 1);
    assert!(
        stdout(&piped).starts_with("--- a/p.yaml\n"),
        "{}",
        stdout(&piped)
    );
}

#[test]
fn add_suppressions_baselines_a_directory_and_then_it_lints_clean() {
    let dir = tree(&[
        ("warn.yaml", WARNS.as_bytes()),
        ("ok.yaml", CLEAN.as_bytes()),
    ]);
    let output = sources(
        dir.path(),
        &["lint", "--add-suppressions", "--deny-warnings", "."],
        b"",
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("sources: suppressed 1 finding in warn.yaml"),
        "{}",
        stderr(&output)
    );
    let written = fs::read_to_string(dir.path().join("warn.yaml")).expect("read back");
    assert!(
        written.ends_with("${params.id}  # sources: ignore[undeclared-param-reference]\n"),
        "{written}"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("ok.yaml")).expect("read back"),
        CLEAN
    );
    let again = sources(dir.path(), &["lint", "--deny-warnings", "."], b"");
    assert_eq!(code(&again), 0, "{}", stdout(&again));
    let stdin = sources(
        dir.path(),
        &["lint", "--add-suppressions", "-"],
        WARNS.as_bytes(),
    );
    assert_eq!(code(&stdin), 2);
    assert!(
        stderr(&stdin).contains("cannot change standard input"),
        "{}",
        stderr(&stdin)
    );
}

#[test]
fn fix_with_diff_shows_what_fix_would_change_without_writing() {
    let dir = tree(&[("conf.yaml", MISSPELLED.as_bytes())]);
    let output = sources(dir.path(), &["lint", "--fix", "--diff", "conf.yaml"], b"");
    assert_eq!(code(&output), 1);
    assert!(
        stdout(&output).starts_with("--- a/conf.yaml\n+++ b/conf.yaml\n"),
        "{}",
        stdout(&output)
    );
    let unchanged = fs::read_to_string(dir.path().join("conf.yaml")).expect("read back");
    assert_eq!(unchanged, MISSPELLED);
}
