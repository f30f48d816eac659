//! `sources` on a terminal, through a pseudo-terminal made by util-linux `script`: `try`'s default
//! output is a table, and standard error shows progress (events received, elapsed time) that is
//! cleared before the output ends (piped output is covered in `try.rs`); `explain` lays its
//! Markdown out (wrapped, tables drawn, code highlighted), coloured unless `NO_COLOR` is set, and
//! prints it as written when piped.

use std::path::Path;
use std::process::Command;

/// Runs `sources ARGS` on a pseudo-terminal; returns its exit code (through `script -e`) and
/// everything the terminal showed.
fn on_a_terminal(args: &[&str]) -> (Option<i32>, String) {
    on_a_terminal_with(args, &[])
}

/// [`on_a_terminal`] with these environment variables set.
fn on_a_terminal_with(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let binary = env!("CARGO_BIN_EXE_sources");
    let quoted: Vec<String> = std::iter::once(binary)
        .chain(args.iter().copied())
        .map(|arg| format!("'{}'", arg.replace('\'', r"'\''")))
        .collect();
    let output = Command::new("script")
        .args(["-qec", &quoted.join(" "), "/dev/null"])
        .env_remove("SOURCES_DEMO_API")
        .env_remove("SOURCES_CONFIG")
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied())
        .output()
        .expect("util-linux `script` runs (apt-get install util-linux)");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).replace('\r', ""),
    )
}

fn example() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/examples/demo.yaml")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_terminal_gets_a_table_by_default() {
    let (code, shown) = on_a_terminal(&["try", "apps", "-c", &example(), "--demo", "--limit", "3"]);
    assert_eq!(code, Some(0), "{shown}");
    let header = shown
        .lines()
        .find(|line| line.contains("Name"))
        .unwrap_or_else(|| panic!("no header: {shown}"));
    let titles: Vec<&str> = header
        .split(['│', '┆'])
        .map(str::trim)
        .filter(|title| !title.is_empty())
        .collect();
    assert_eq!(
        titles,
        ["Name", "Region", "Health", "Sync", "Rev"],
        "{shown}"
    );
    assert!(
        shown.trim_end().ends_with(
            "3 of 50 rows shown; 47 more not shown (`--limit N` shows more, `--output json` prints all)"
        ),
        "{shown}"
    );
}

#[test]
fn following_on_a_terminal_shows_events_received_and_the_elapsed_time() {
    let config = example();
    let (code, shown) = on_a_terminal(&["try", "job_log", "-c", &config, "--demo"]);
    assert_eq!(code, Some(2), "{shown}");
    let job = shown
        .split("for example --param job=")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("no example job: {shown}"))
        .to_owned();
    let assignment = format!("job={job}");
    let (code, shown) = on_a_terminal(&[
        "try",
        "job_log",
        "-c",
        &config,
        "--demo",
        "--param",
        &assignment,
        "--for",
        "2s",
    ]);
    assert_eq!(code, Some(0), "{shown}");
    assert!(shown.contains(" events received ("), "{shown}");
    assert!(shown.contains("s)"), "{shown}");
}

/// `text` without its ANSI escape sequences.
fn without_escapes(text: &str) -> String {
    let mut plain = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(|c| c.is_ascii_alphabetic());
        } else {
            plain.push(c);
        }
    }
    plain
}

/// Checks that `shown` is `sources explain http` laid out at 60 columns: the field table drawn,
/// every line within the width, no Markdown left.
fn assert_laid_out(shown: &str) {
    let plain = without_escapes(shown);
    assert!(plain.starts_with("http (entry kind)\n"), "{plain}");
    assert!(plain.contains("┆ required ┆"), "{plain}");
    assert!(
        plain
            .lines()
            .any(|line| line.starts_with("│ url ") || line.starts_with("│ `url` ")),
        "{plain}"
    );
    let widest = plain.lines().map(|line| line.chars().count()).max();
    assert!(
        widest.is_some_and(|widest| widest <= 60),
        "{widest:?}\n{plain}"
    );
    assert!(!plain.contains("|---|"), "{plain}");
}

#[test]
fn explain_on_a_terminal_lays_out_and_colours_the_markdown() {
    let (code, shown) = on_a_terminal_with(&["explain", "http"], &[("COLUMNS", "60")]);
    assert_eq!(code, Some(0), "{shown}");
    assert_laid_out(&shown);
    // Inline code is coloured instead of quoted.
    assert!(shown.contains("\u{1b}[36mfollow\u{1b}[0m"), "{shown:?}");

    let (code, shown) = on_a_terminal_with(&["explain", "unknown-field"], &[("COLUMNS", "60")]);
    assert_eq!(code, Some(0), "{shown}");
    // The example is indented, its keys coloured, its fence and annotation gone.
    assert!(
        shown.contains("    \u{1b}[34mdata\u{1b}[0m:\n"),
        "{shown:?}"
    );
    assert!(!shown.contains("```"), "{shown}");
    assert!(!shown.contains("lint="), "{shown}");
}

#[test]
fn explain_on_a_terminal_without_colour_keeps_the_layout() {
    for (args, env) in [
        (
            &["explain", "http"][..],
            &[("COLUMNS", "60"), ("NO_COLOR", "1")][..],
        ),
        (&["explain", "http", "--no-color"], &[("COLUMNS", "60")]),
    ] {
        let (code, shown) = on_a_terminal_with(args, env);
        assert_eq!(code, Some(0), "{shown}");
        assert!(!shown.contains('\u{1b}'), "{args:?} {env:?}: {shown:?}");
        assert_laid_out(&shown);
        assert!(shown.contains("`follow`"), "{shown}");
    }
}

#[test]
fn explain_piped_prints_the_markdown_as_written_unless_colour_is_forced() {
    let explain = |extra: &[&str], env: &[(&str, &str)]| {
        let output = Command::new(env!("CARGO_BIN_EXE_sources"))
            .args(["explain", "unknown-field"])
            .args(extra)
            .env_remove("NO_COLOR")
            .env_remove("FORCE_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .envs(env.iter().copied())
            .output()
            .expect("sources runs");
        assert_eq!(output.status.code(), Some(0));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let markdown = format!(
        "unknown-field (error)\n\nA field this kind of entry does not have.\n\n{}\n",
        sources_diagnostics::Rule::UnknownField.explanation_markdown()
    );
    assert_eq!(explain(&[], &[]), markdown);
    assert!(
        markdown.contains("\n```yaml lint=unknown-field\n"),
        "{markdown}"
    );
    assert_eq!(explain(&["--no-color"], &[("FORCE_COLOR", "1")]), markdown);
    let forced = explain(&[], &[("FORCE_COLOR", "1"), ("COLUMNS", "50")]);
    assert!(forced.contains("\u{1b}[1mWhy:\u{1b}[0m"), "{forced:?}");
    let widest = without_escapes(&forced)
        .lines()
        .map(|line| line.chars().count())
        .max();
    assert!(widest.is_some_and(|widest| widest <= 50), "{forced}");
}
