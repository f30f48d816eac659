//! The colour policy of every command, through the built binary: `--color`, `--no-color`,
//! `NO_COLOR`, `FORCE_COLOR` and `CLICOLOR_FORCE`, decided per stream (standard output and
//! standard error each by whether they are a terminal). Terminals are pseudo-terminals made by
//! util-linux `script`.

use std::path::Path;
use std::process::Command;

use sources_testkit::process::run;

/// One `unknown-field` error.
const BAD: &str =
    "data:\n  sources:\n    apps:\n      type: http\n      urll: https://api.example.com/apps\n";

const ESCAPE: char = '\u{1b}';

/// `text` without its ANSI escape sequences (`ESC [` … a letter).
fn without_escapes(text: &str) -> String {
    let mut plain = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(ESCAPE) {
        plain.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let end = after
            .find(|c: char| c.is_ascii_alphabetic())
            .map_or(after.len(), |index| index + 1);
        rest = &after[end..];
    }
    plain.push_str(rest);
    plain
}

/// A directory holding `conf.yaml` with [`BAD`].
fn config() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    sources_testkit::write_tree(dir.path(), [("conf.yaml", BAD.as_bytes())]);
    dir
}

/// `sources ARGS` in `dir`, piped, with `env` set and no inherited colour variable.
fn piped(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (String, String) {
    let output = run(
        Command::new(env!("CARGO_BIN_EXE_sources"))
            .args(args)
            .current_dir(dir)
            .env_remove("NO_COLOR")
            .env_remove("FORCE_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("COLUMNS")
            .envs(env.iter().copied()),
        b"",
    );
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `sources ARGS` in `dir` on a pseudo-terminal (standard error to `stderr_file`, standard output
/// to `stdout_file`, when given); returns what the terminal showed.
fn on_a_terminal(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    stderr_file: Option<&Path>,
    stdout_file: Option<&Path>,
) -> String {
    let mut line: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_sources"))
        .chain(args.iter().copied())
        .map(|arg| format!("'{}'", arg.replace('\'', r"'\''")))
        .collect();
    if let Some(file) = stderr_file {
        line.push(format!("2>'{}'", file.display()));
    }
    if let Some(file) = stdout_file {
        line.push(format!(">'{}'", file.display()));
    }
    let output = Command::new("script")
        .args(["-qec", &line.join(" "), "/dev/null"])
        .current_dir(dir)
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .envs(env.iter().copied())
        .output()
        .expect("util-linux `script` runs (apt-get install util-linux)");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn piped_output_is_plain_unless_forced_and_the_flag_wins_over_the_environment() {
    let dir = config();
    let lint = |flags: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["lint", "--format", "human"];
        args.extend_from_slice(flags);
        args.push("conf.yaml");
        let (stdout, _) = piped(dir.path(), &args, env);
        assert!(stdout.contains("unknown-field"), "{stdout}");
        stdout.contains(ESCAPE)
    };
    assert!(!lint(&[], &[]), "no colour off a terminal");
    assert!(lint(&[], &[("FORCE_COLOR", "1")]), "FORCE_COLOR");
    assert!(lint(&[], &[("CLICOLOR_FORCE", "1")]), "CLICOLOR_FORCE");
    assert!(!lint(&[], &[("FORCE_COLOR", "0")]), "FORCE_COLOR=0");
    assert!(!lint(&[], &[("FORCE_COLOR", "")]), "FORCE_COLOR empty");
    assert!(lint(&["--color", "always"], &[]), "--color always");
    assert!(
        lint(&["--color", "always"], &[("NO_COLOR", "1")]),
        "--color always over NO_COLOR"
    );
    assert!(
        !lint(&["--color", "never"], &[("FORCE_COLOR", "1")]),
        "--color never over FORCE_COLOR"
    );
    assert!(
        !lint(
            &["--color", "auto", "--no-color"],
            &[("CLICOLOR_FORCE", "1")]
        ),
        "--no-color over CLICOLOR_FORCE"
    );
}

#[test]
fn a_terminal_is_coloured_unless_no_color_or_never() {
    let dir = config();
    let lint = |flags: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["lint"];
        args.extend_from_slice(flags);
        args.push("conf.yaml");
        let shown = on_a_terminal(dir.path(), &args, env, None, None);
        assert!(shown.contains("unknown-field"), "{shown}");
        shown.contains(ESCAPE)
    };
    assert!(lint(&[], &[]), "a terminal is coloured");
    assert!(!lint(&[], &[("NO_COLOR", "1")]), "NO_COLOR");
    assert!(lint(&[], &[("NO_COLOR", "")]), "NO_COLOR empty");
    assert!(!lint(&[], &[("TERM", "dumb")]), "TERM=dumb");
    assert!(!lint(&["--color", "never"], &[]), "--color never");
    assert!(
        lint(&[], &[("NO_COLOR", "1"), ("FORCE_COLOR", "1")]),
        "FORCE_COLOR over NO_COLOR"
    );
}

#[test]
fn try_reports_a_broken_file_on_standard_error_as_standard_error_is() {
    let dir = config();
    let args = ["try", "apps", "-c", "conf.yaml"];
    let (_, plain) = piped(dir.path(), &args, &[]);
    assert!(
        plain.contains("conf.yaml:5:7: error[unknown-field]"),
        "short format when standard error is piped: {plain}"
    );
    assert!(!plain.contains(ESCAPE), "{plain}");
    // Standard error on a terminal, standard output to a file: the report is laid out and
    // coloured for the terminal (it took its colour from standard output before).
    let out = dir.path().join("stdout.txt");
    let shown = on_a_terminal(dir.path(), &args, &[], None, Some(&out));
    let text = without_escapes(&shown);
    assert!(text.contains("unknown-field"), "{shown}");
    assert!(
        !text.contains("conf.yaml:5:7: error"),
        "human format: {shown}"
    );
    assert!(shown.contains(ESCAPE), "coloured: {shown}");
    let shown = on_a_terminal(dir.path(), &args, &[("NO_COLOR", "1")], None, Some(&out));
    assert!(shown.contains("unknown-field"), "{shown}");
    assert!(!shown.contains(ESCAPE), "NO_COLOR: {shown}");
    let never = ["--color", "never", "try", "apps", "-c", "conf.yaml"];
    let shown = on_a_terminal(dir.path(), &never, &[], None, Some(&out));
    assert!(!shown.contains(ESCAPE), "--color never: {shown}");
    // Standard output on a terminal, standard error to a file: the report follows the file.
    let file = dir.path().join("stderr.txt");
    on_a_terminal(dir.path(), &args, &[], Some(&file), None);
    let written = std::fs::read_to_string(&file).expect("standard error was written");
    assert!(
        written.contains("conf.yaml:5:7: error[unknown-field]"),
        "{written}"
    );
    assert!(!written.contains(ESCAPE), "{written}");
}
