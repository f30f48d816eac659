//! `sources try` on a terminal, through a pseudo-terminal made by util-linux `script`: the default
//! output is a table, and standard error shows progress (events received, elapsed time) that is
//! cleared before the output ends. Piped output is covered in `try.rs`.

use std::path::Path;
use std::process::Command;

/// Runs `sources ARGS` on a pseudo-terminal; returns its exit code (through `script -e`) and
/// everything the terminal showed.
fn on_a_terminal(args: &[&str]) -> (Option<i32>, String) {
    let binary = env!("CARGO_BIN_EXE_sources");
    let quoted: Vec<String> = std::iter::once(binary)
        .chain(args.iter().copied())
        .map(|arg| format!("'{}'", arg.replace('\'', r"'\''")))
        .collect();
    let output = Command::new("script")
        .args(["-qec", &quoted.join(" "), "/dev/null"])
        .env_remove("SOURCES_DEMO_API")
        .env_remove("SOURCES_CONFIG")
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
