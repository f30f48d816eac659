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
        .map(after_progress)
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

/// What a line shows once the progress line written before it on the same terminal line is
/// cleared (the capture drops the carriage returns that put them on one line).
fn after_progress(line: &str) -> &str {
    line.rsplit("\u{1b}[2K").next().unwrap_or(line)
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

/// A table over Kubernetes-style rows (from a command, so lint knows nothing of their shape), one
/// column reading `status.PHASE_PATH`.
const PODS: &str = "\
tui:
  components:
    pods_table:
      type: table
      source: pods
      columns:
        - {title: Name, value: metadata.name}
        - {title: Phase, value: status.PHASE_PATH}
data:
  sources:
    pods:
      type: exec
      command:
        - printf
        - '[{\"metadata\": {\"name\": \"web\"}, \"status\": {\"phase\": \"Running\"}},
          {\"metadata\": {\"name\": \"db\"}, \"status\": {\"phase\": \"Pending\"}}]'
";

/// Runs `sources try pods --strict` over [`PODS`] with `phase` as the path's last step, on a
/// pseudo-terminal and piped: the exit codes and what each showed (the terminal's whole screen;
/// piped, standard error).
fn strict_both_ways(phase: &str) -> ((Option<i32>, String), (i32, String)) {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("pods.yaml");
    std::fs::write(&config, PODS.replace("PHASE_PATH", phase)).expect("write config");
    let config = config.to_str().expect("utf-8 path");
    let args = ["try", "pods", "-c", config, "--strict"];
    let terminal = on_a_terminal_with(&args, &[("COLUMNS", "60")]);
    let (code, _, stderr) = sources_testkit::process::outcome(
        Command::new(env!("CARGO_BIN_EXE_sources"))
            .args(args)
            .env_remove("SOURCES_CONFIG"),
    );
    (terminal, (code, stderr))
}

#[test]
fn strict_reads_the_value_path_and_gives_one_verdict_on_a_terminal_and_piped() {
    let ((code, shown), (piped_code, piped)) = strict_both_ways("phase");
    assert_eq!(code, Some(0), "{shown}");
    assert_eq!(piped_code, 0, "{piped}");
    assert!(!shown.contains("warning"), "{shown}");
    let table: Vec<&str> = shown
        .lines()
        .map(after_progress)
        .filter(|line| line.contains('│') || line.starts_with('─'))
        .collect();
    assert_eq!(
        table,
        [
            "Name │ Phase",
            "──────────────",
            "web  │ Running",
            "db   │ Pending"
        ],
        "{shown}"
    );

    let ((code, shown), (piped_code, piped)) = strict_both_ways("phse");
    let warning = "sources: warning: table `pods_table` column `Phase` is empty in every row: \
                   its `value` reads `status.phse`; in the first row: no key `phse` under \
                   `status` (did you mean `phase`?)";
    assert_eq!(code, Some(1), "{shown}");
    assert!(shown.contains(warning), "{shown}");
    assert_eq!(piped_code, 1, "{piped}");
    assert!(piped.contains(warning), "{piped}");
    assert!(
        piped.contains("sources: --strict: 1 warning(s), so this run fails"),
        "{piped}"
    );
}
