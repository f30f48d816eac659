//! `sources-lint.toml`: discovery, `--settings`, level overrides, `off`, and a bad settings file,
//! through the binary.

use std::path::Path;
use std::process::Output;

use sources_testkit::process::{in_dir, text};

const CONFIG: &str = "data:\n  sources:\n    a: {type: static, data: [], bogus: 1}\n";

fn lint(dir: &Path, args: &[&str]) -> Output {
    let format: &[&str] = if args.contains(&"--format") {
        &[]
    } else {
        &["--format", "short"]
    };
    in_dir(env!("CARGO_BIN_EXE_sources"), dir, &["lint"])
        .args(format)
        .args(args)
        .output()
        .expect("run sources")
}

/// Writes `text` to `name` under `dir`.
fn put(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write settings");
}

/// Writes a settings file `name` under `dir` that sets `unknown-field` to `level`.
fn unknown_field_level(dir: &Path, name: &str, level: &str) {
    put(
        dir,
        name,
        &format!("[rules]\nunknown-field = \"{level}\"\n"),
    );
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    std::fs::write(dir.path().join("sub/s.yaml"), CONFIG).expect("write config");
    dir
}

#[test]
fn a_settings_file_above_the_linted_file_changes_the_level() {
    let dir = project();
    let output = lint(dir.path(), &["sub/s.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    unknown_field_level(dir.path(), "sources-lint.toml", "warning");
    let output = lint(dir.path(), &["sub/s.yaml"]);
    assert_eq!(
        text(&output.stdout),
        "sub/s.yaml:3:33: warning[unknown-field]: unknown field `bogus` in `static` source `a`\n\
         1 warning in 1 of 1 file\n"
    );
    assert_eq!(output.status.code(), Some(0));
    let output = lint(dir.path(), &["--deny-warnings", "sub/s.yaml"]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn the_nearest_file_wins_and_off_drops_the_diagnostic_in_every_format() {
    let dir = project();
    unknown_field_level(dir.path(), "sources-lint.toml", "warning");
    unknown_field_level(dir.path(), "sub/.sources-lint.toml", "off");
    for format in ["short", "json", "sarif", "github"] {
        let output = lint(dir.path(), &["--format", format, "sub/s.yaml"]);
        assert_eq!(output.status.code(), Some(0), "{format}");
        assert!(
            !text(&output.stdout).contains("bogus"),
            "{format}: {}",
            text(&output.stdout)
        );
    }
    // In one directory, `sources-lint.toml` wins over `.sources-lint.toml`.
    unknown_field_level(dir.path(), "sub/sources-lint.toml", "error");
    assert_eq!(lint(dir.path(), &["sub/s.yaml"]).status.code(), Some(1));
}

#[test]
fn settings_named_on_the_command_line_replace_the_discovered_ones() {
    let dir = project();
    unknown_field_level(dir.path(), "sources-lint.toml", "warning");
    unknown_field_level(dir.path(), "strict.toml", "error");
    let output = lint(dir.path(), &["--settings", "strict.toml", "sub/s.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stdout).contains("error[unknown-field]"));
}

/// Three mistakes, each at its own place.
const THREE_MISTAKES: &str =
    "[rules]\nunknown-fild = \"off\"\nunknown-field = 3\n\n[filez]\ninclude = [\"*.yaml\"]\n";

#[test]
fn every_mistake_of_a_settings_file_is_a_diagnostic_and_other_folders_are_still_linted() {
    let dir = project();
    std::fs::create_dir(dir.path().join("other")).expect("mkdir");
    put(dir.path(), "other/o.yaml", CONFIG);
    put(dir.path(), "sub/sources-lint.toml", THREE_MISTAKES);
    let output = lint(dir.path(), &["."]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        "other/o.yaml:3:33: error[unknown-field]: unknown field `bogus` in `static` source `a`\n\
         sub/sources-lint.toml:2:1: error[invalid-settings]: unknown rule `unknown-fild`: did you \
         mean `unknown-field`?\n\
         sub/sources-lint.toml:3:17: error[invalid-settings]: `unknown-field` must be one of \
         `error`, `warning` or `off`, not `3`\n\
         sub/sources-lint.toml:5:2: error[invalid-settings]: unknown table `filez`: did you mean \
         `files`?\n\
         4 errors in 2 of 2 files\n"
    );
    assert_eq!(
        text(&output.stderr),
        "sources: the files `sub/sources-lint.toml` governs are not linted until its mistakes \
         are fixed\n"
    );
    // Every output format carries them, at their lines and columns.
    let json = lint(dir.path(), &["--format", "json", "."]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let places: Vec<(String, u64, u64)> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|diagnostic| diagnostic["code"] == "invalid-settings")
        .map(|diagnostic| {
            (
                diagnostic["path"].as_str().unwrap_or_default().to_owned(),
                diagnostic["line"].as_u64().unwrap_or_default(),
                diagnostic["column"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    let path = "sub/sources-lint.toml".to_owned();
    assert_eq!(
        places,
        [(path.clone(), 2, 1), (path.clone(), 3, 17), (path, 5, 2)]
    );
    for (format, expected) in [
        ("github", "::error file=sub/sources-lint.toml,line=5,col=2,"),
        ("sarif", "\"ruleId\": \"invalid-settings\""),
        ("gitlab", "\"check_name\": \"invalid-settings\""),
        ("junit", "name=\"invalid-settings\""),
        ("human", "[sub/sources-lint.toml:3:17]"),
    ] {
        let output = lint(dir.path(), &["--format", format, "."]);
        assert_eq!(output.status.code(), Some(1), "{format}");
        let stdout = text(&output.stdout);
        assert!(stdout.contains(expected), "{format}: {stdout}");
        assert!(stdout.contains("other/o.yaml"), "{format}: {stdout}");
    }
    // A file named on the command line under it is said to be left out.
    let named = lint(dir.path(), &["sub/s.yaml"]);
    assert_eq!(named.status.code(), Some(1));
    assert!(
        text(&named.stderr).contains(
            "sources: `sub/s.yaml` is not linted: its settings file `sub/sources-lint.toml` has \
             mistakes\n"
        ),
        "{}",
        text(&named.stderr)
    );
    // With `--settings`, it governs every file.
    let named = lint(
        dir.path(),
        &["--settings", "sub/sources-lint.toml", "other/o.yaml"],
    );
    assert_eq!(named.status.code(), Some(1));
    assert!(!text(&named.stdout).contains("other/o.yaml"));
    assert_eq!(text(&named.stdout).matches("invalid-settings").count(), 3);
    // One that cannot be read still stops the run.
    let output = lint(dir.path(), &["--settings", "missing.toml", "sub/s.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cannot read the settings file `missing.toml`"));
}

#[test]
fn show_settings_says_where_each_level_came_from() {
    let dir = project();
    put(
        dir.path(),
        "sources-lint.toml",
        "# team settings\n[rules]\nunknown-field = \"warning\"\n",
    );
    let output = lint(dir.path(), &["--show-settings", "sub/s.yaml"]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with("settings file: sources-lint.toml\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nunknown-field                    warning  sources-lint.toml:3\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nmissing-field                    error    default\n"),
        "{stdout}"
    );
}

#[test]
fn the_checked_in_settings_schema_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/sources-lint.schema.json");
    sources_testkit::assert_file(
        &path,
        &sources_cli::settings_file::schema_text(),
        "UPDATE_EXPECT=1 cargo test -p sources-cli --test settings",
    );
}

#[test]
fn include_and_exclude_choose_what_a_directory_walk_lints() {
    let dir = project();
    std::fs::create_dir(dir.path().join("old")).expect("mkdir");
    std::fs::write(dir.path().join("old/o.yaml"), CONFIG).expect("write config");
    std::fs::write(dir.path().join("top.yaml"), CONFIG).expect("write config");
    put(
        dir.path(),
        "sources-lint.toml",
        "[files]\ninclude = [\"sub/**\", \"old/**\"]\nexclude = [\"old/*\"]\n",
    );
    let stdout = text(&lint(dir.path(), &["."]).stdout);
    assert!(stdout.contains("sub/s.yaml"), "{stdout}");
    assert!(!stdout.contains("old/o.yaml"), "{stdout}");
    assert!(!stdout.contains("top.yaml"), "{stdout}");
    // A file named on the command line is always linted.
    let stdout = text(&lint(dir.path(), &["old/o.yaml"]).stdout);
    assert!(stdout.contains("old/o.yaml"), "{stdout}");
}

#[test]
fn an_invalid_glob_is_named_at_its_line() {
    let dir = project();
    put(
        dir.path(),
        "sources-lint.toml",
        "[files]\nexclude = [\n  \"old/[\",\n]\n",
    );
    let output = lint(dir.path(), &["sub/s.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with("sources-lint.toml:3:3: error[invalid-settings]: invalid glob `old/[`"),
        "{stdout}"
    );
}

#[test]
fn isolated_ignores_every_settings_file_even_an_invalid_one() {
    let dir = project();
    unknown_field_level(dir.path(), "sources-lint.toml", "off");
    assert_eq!(
        text(&lint(dir.path(), &["sub/s.yaml"]).stdout),
        "no problems found in 1 file\n"
    );
    let output = lint(dir.path(), &["--isolated", "sub/s.yaml"]);
    assert_eq!(
        text(&output.stdout),
        "sub/s.yaml:3:33: error[unknown-field]: unknown field `bogus` in `static` source `a`\n\
         1 error in 1 of 1 file\n"
    );
    assert_eq!(output.status.code(), Some(1));
    put(dir.path(), "sources-lint.toml", "[rules]\nbogus = 1\n");
    let broken = lint(dir.path(), &["sub/s.yaml"]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(
        text(&broken.stdout).starts_with("sources-lint.toml:2:1: error[invalid-settings]: "),
        "{}",
        text(&broken.stdout)
    );
    let isolated = lint(dir.path(), &["--isolated", "sub/s.yaml"]);
    assert_eq!(isolated.status.code(), Some(1));
    assert!(text(&isolated.stdout).contains("error[unknown-field]"));
}

/// Runs `sources try ENTRY -c FILE` in `dir`.
fn try_entry(dir: &Path, file: &str, entry: &str) -> Output {
    in_dir(
        env!("CARGO_BIN_EXE_sources"),
        dir,
        &["try", entry, "-c", file, "-o", "json"],
    )
    .output()
    .expect("run sources")
}

#[test]
fn a_rule_turned_off_for_lint_is_off_for_try_too() {
    let dir = project();
    // Refused while `unknown-field` is an error, as `sources lint` reports it.
    let output = try_entry(dir.path(), "sub/s.yaml", "a");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("error[unknown-field]"),
        "{}",
        text(&output.stderr)
    );
    // Off in the settings file: lint is clean, and `try` runs the entry, as the editor's does.
    unknown_field_level(dir.path(), "sources-lint.toml", "off");
    assert_eq!(lint(dir.path(), &["sub/s.yaml"]).status.code(), Some(0));
    let output = try_entry(dir.path(), "sub/s.yaml", "a");
    assert_eq!(
        (output.status.code(), text(&output.stdout).trim()),
        (Some(0), "[]"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn try_names_the_hidden_finding_that_makes_an_entry_unrunnable() {
    let dir = project();
    let config = "data:\n  sources:\n    h: {type: http, url: \"http://\"}\n";
    put(dir.path(), "sub/h.yaml", config);
    put(
        dir.path(),
        "sources-lint.toml",
        "[rules]\ninvalid-value = \"off\"\n",
    );
    assert_eq!(lint(dir.path(), &["sub/h.yaml"]).status.code(), Some(0));
    let output = try_entry(dir.path(), "sub/h.yaml", "h");
    assert_eq!(output.status.code(), Some(1));
    let settings = dir.path().join("sources-lint.toml");
    assert_eq!(
        text(&output.stderr),
        format!(
            "sources: source `h`: cannot send GET http://: it is not a URL: empty host (lint's \
             `invalid-value` error at sub/h.yaml:3:26 says so: `url` cannot be sent: it is not a \
             URL: empty host; `invalid-value = \"off\"` in {}:2 hides it)\n",
            settings.display()
        )
    );
}

#[test]
fn try_names_the_suppression_comment_that_hides_an_unrunnable_entry() {
    let dir = project();
    let config = "data:\n  sources:\n    h:\n      type: http\n      url: \"http://\"  # sources: ignore[invalid-value]\n";
    put(dir.path(), "sub/h.yaml", config);
    assert_eq!(lint(dir.path(), &["sub/h.yaml"]).status.code(), Some(0));
    let output = try_entry(dir.path(), "sub/h.yaml", "h");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stderr),
        "sources: source `h`: cannot send GET http://: it is not a URL: empty host (lint's \
         `invalid-value` error at sub/h.yaml:5:12 says so: `url` cannot be sent: it is not a URL: \
         empty host; the suppression comment at sub/h.yaml:5:41 hides it)\n"
    );
}

#[test]
fn the_expression_language_is_shown_with_its_line_and_isolated_ignores_it() {
    let dir = project();
    put(
        dir.path(),
        "sources-lint.toml",
        "[expressions]\nlanguage = \"expr\"\n",
    );
    let shown = text(&lint(dir.path(), &["--show-settings", "sub/s.yaml"]).stdout);
    assert!(
        shown.contains("\nexpressions.language             expr     sources-lint.toml:2\n"),
        "{shown}"
    );
    let isolated = lint(dir.path(), &["--isolated", "--show-settings", "sub/s.yaml"]);
    let shown = text(&isolated.stdout);
    assert!(
        shown.contains("\nexpressions.language             cel      default\n"),
        "{shown}"
    );
}

#[test]
fn an_unknown_expression_language_stops_lint_list_graph_and_try_with_a_did_you_mean() {
    let dir = project();
    put(
        dir.path(),
        "sources-lint.toml",
        "[expressions]\nlanguage = \"exp\"\n",
    );
    let said = "sources-lint.toml:2:12: error[invalid-settings]: unknown expression language \
                `exp`: did you mean `\"expr\"`?";
    let output = lint(dir.path(), &["sub/s.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stdout).starts_with(said),
        "{}",
        text(&output.stdout)
    );
    for args in [
        &["list", "-c", "sub/s.yaml"][..],
        &["graph", "-c", "sub/s.yaml"],
        &["try", "a", "-c", "sub/s.yaml"],
    ] {
        let output = in_dir(env!("CARGO_BIN_EXE_sources"), dir.path(), args)
            .output()
            .expect("run sources");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(stderr.trim_end().ends_with(said), "{args:?}: {stderr}");
        assert_eq!(text(&output.stdout), "", "{args:?}");
    }
}
