//! `sources-lint.toml`: discovery, `--settings`, level overrides, `off`, and a bad settings file,
//! through the binary.

use std::path::Path;
use std::process::{Command, Output};

const CONFIG: &str = "data:\n  sources:\n    a: {type: static, data: [], bogus: 1}\n";

fn lint(dir: &Path, args: &[&str]) -> Output {
    let format: &[&str] = if args.contains(&"--format") {
        &[]
    } else {
        &["--format", "short"]
    };
    Command::new(env!("CARGO_BIN_EXE_sources"))
        .current_dir(dir)
        .arg("lint")
        .args(format)
        .args(args)
        .output()
        .expect("run sources")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8")
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

#[test]
fn a_bad_settings_file_is_an_error_at_its_line_and_column() {
    let dir = project();
    put(
        dir.path(),
        "sources-lint.toml",
        "[rules]\nunknown-fild = \"off\"\n",
    );
    let output = lint(dir.path(), &["sub/s.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(
            "sources-lint.toml:2:1`: unknown rule `unknown-fild`: did you mean `unknown-field`?"
        ),
        "{stderr}"
    );
    put(
        dir.path(),
        "sources-lint.toml",
        "[rules]\nunknown-field = 3\n",
    );
    let stderr = text(&lint(dir.path(), &["sub/s.yaml"]).stderr);
    assert!(
        stderr
            .contains("2:17`: `unknown-field` must be one of `error`, `warning` or `off`, not `3`"),
        "{stderr}"
    );
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
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("sources-lint.toml:3:1`: invalid glob `old/[`"),
        "{stderr}"
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
    assert_eq!(lint(dir.path(), &["sub/s.yaml"]).status.code(), Some(2));
    assert_eq!(
        lint(dir.path(), &["--isolated", "sub/s.yaml"])
            .status
            .code(),
        Some(1)
    );
}
