//! Inputs found by fuzzing and hostile testing, through the real binary: each once crashed or hung
//! `sources lint` and must now give located diagnostics and a normal exit status.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `sources lint --format short --stdin-filename NAME -` on `text`.
fn lint_stdin(name: &str, text: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sources"))
        .args(["lint", "--format", "short", "--stdin-filename", name, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(text.as_bytes()).expect("write stdin");
    drop(input);
    child.wait_with_output().expect("the binary finishes")
}

/// Asserts a normal "problems found" run whose output has `expected` lines, and no panic.
fn assert_reports(output: &Output, expected: &[&str]) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    for line in expected {
        assert!(stdout.contains(line), "missing `{line}` in:\n{stdout}");
    }
}

#[test]
fn an_unquoted_toml_value_starting_with_a_multibyte_character_is_a_syntax_error_not_a_panic() {
    let sort = "[data.sources.a]\ntype = \"static\"\ndata = []\n\n[data.sources.s]\ntype = \"sort\"\nfrom = \"a\"\nby = éa\n";
    assert_reports(
        &lint_stdin("sort.toml", sort),
        &["sort.toml:8:6: error[syntax]: string values must be quoted"],
    );
    let filter = "[data.sources.a]\ntype = \"static\"\ndata = []\n\n[data.sources.f]\ntype = \"filter\"\nfrom = \"a\"\nwhere = é +\n";
    assert_reports(
        &lint_stdin("filter.toml", filter),
        &["filter.toml:8:9: error[syntax]: string values must be quoted"],
    );
}

#[test]
fn multibyte_text_in_every_toml_string_style_of_an_expression_is_located_by_character() {
    // The compile error is at the end of each expression, after its `+`: the column counts
    // characters, so each `é` (two bytes) counts once.
    for (value, column) in [
        ("\"'é' == 'é' +\"", 22),
        ("'\"é\" == \"é\" +'", 22),
        ("\"\"\"'é' == 'é' +\"\"\"", 24),
        ("'''\"é\" == \"é\" +'''", 24),
    ] {
        let text = format!(
            "[data.sources.a]\ntype = \"static\"\ndata = []\n\n[data.sources.f]\ntype = \"filter\"\nfrom = \"a\"\nwhere = {value}\n"
        );
        let output = lint_stdin("styles.toml", &text);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{value}: {stdout}");
        assert!(
            stdout.contains(&format!("styles.toml:8:{column}: error[expression]")),
            "{value}: {stdout}"
        );
    }
}

#[test]
fn an_invalid_utf8_byte_is_one_character_wide_in_every_format() {
    // The report's text is the lossy one, where the bad byte is one U+FFFD: the span covers that
    // character whole, so no renderer slices inside it.
    let text = b"data:\n  sources:\n    caf\xE9:\n      type: static\n";
    for format in ["json", "human", "sarif", "github", "short"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sources"))
            .args([
                "lint",
                "--format",
                format,
                "--stdin-filename",
                "latin1.yaml",
                "-",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut input = child.stdin.take().expect("stdin");
        input.write_all(text).expect("write stdin");
        drop(input);
        let output = child.wait_with_output().expect("the binary finishes");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{format}: {stdout}");
        assert!(stdout.contains("0xE9"), "{format}: {stdout}");
        if format == "json" {
            let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
            let diagnostic = &json["diagnostics"][0];
            assert_eq!(
                (&diagnostic["line"], &diagnostic["column"]),
                (&3.into(), &8.into())
            );
            assert_eq!(
                (&diagnostic["end_line"], &diagnostic["end_column"]),
                (&3.into(), &9.into())
            );
        }
    }
}
