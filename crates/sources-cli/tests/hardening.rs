//! Inputs found by fuzzing and hostile testing, through the real binary: each once crashed or hung
//! `sources lint` and must now give located diagnostics and a normal exit status.

use std::process::{Command, Output};

use sources_config::cadence::MAX_CHAIN_DEPTH;
use sources_testkit::chain::{CHAIN_KINDS, chain};
use sources_testkit::process::run;

/// Runs `sources lint --format short --stdin-filename NAME -` on `text`.
fn lint_stdin(name: &str, text: &str) -> Output {
    lint_stdin_as("short", name, text.as_bytes())
}

/// Runs `sources lint --format FORMAT --stdin-filename NAME -` on `bytes`.
fn lint_stdin_as(format: &str, name: &str, bytes: &[u8]) -> Output {
    run(
        Command::new(env!("CARGO_BIN_EXE_sources")).args([
            "lint",
            "--format",
            format,
            "--stdin-filename",
            name,
            "-",
        ]),
        bytes,
    )
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
        let output = lint_stdin_as(format, "latin1.yaml", text);
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

/// Runs `sources try TOP` on `config` (written to a temporary directory with `files`).
fn try_top(config: &str, top: &str, files: &[(&str, &str)]) -> Output {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(dir.path().join("deep.yaml"), config).expect("write the config");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write a data file");
    }
    Command::new(env!("CARGO_BIN_EXE_sources"))
        .current_dir(dir.path())
        .args(["try", top, "-c", "deep.yaml", "--output", "json"])
        .output()
        .expect("the binary runs")
}

/// `try` follows the longest chain lint allows (one more entry is `reference-depth`) in a debug
/// build, whose frames are the largest: of passthroughs, of every operator kind in turn, and over a
/// file.
#[test]
fn the_deepest_allowed_chain_of_operators_evaluates_in_a_debug_build() {
    let rows = "{type: static, data: [{n: 1}, {n: 2}]}";
    let passthroughs = chain(rows, &["passthrough"], MAX_CHAIN_DEPTH);
    let mixed = chain(rows, &CHAIN_KINDS, MAX_CHAIN_DEPTH);
    let over_a_file = chain(
        "{type: file, path: rows.json}",
        &["merge", "sort", "union", "pipe", "filter"],
        MAX_CHAIN_DEPTH,
    );
    let plain = serde_json::json!([{"n": 1}, {"n": 2}]);
    let derived = serde_json::json!([{"n": 1, "m": 2}, {"n": 2, "m": 3}]);
    for (what, config, files, expected) in [
        ("passthroughs", &passthroughs, &[][..], &plain),
        ("every operator kind", &mixed, &[][..], &derived),
        (
            "operators over a file",
            &over_a_file,
            &[("rows.json", r#"[{"n": 2}, {"n": 1}]"#)][..],
            &plain,
        ),
    ] {
        let lint = sources_check::analyze(config, sources_syntax::Syntax::Yaml);
        assert!(
            lint.diagnostics.is_empty(),
            "{what}: {:?}",
            lint.diagnostics
        );
        let output = try_top(config, &format!("s{}", MAX_CHAIN_DEPTH - 1), files);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{what}: {stderr}");
        let value: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|error| panic!("{what}: {error}: {stdout}"));
        assert_eq!(&value, expected, "{what}");
    }
    let deeper = chain(rows, &CHAIN_KINDS, MAX_CHAIN_DEPTH + 1);
    let output = try_top(&deeper, &format!("s{MAX_CHAIN_DEPTH}"), &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error[reference-depth]")
            && stderr.contains("`s64` starts a chain of 65 entries"),
        "{stderr}"
    );
}

/// Found by fuzzing: `--fix` renames `apps` to `app` in both of the merge's lists, so `app` reads
/// itself three times; working out its cadence path by path then took 3^64 steps. It finishes now
/// (within a bounded wait) and reports the cycle.
#[test]
fn fixing_into_a_merge_that_reads_itself_three_times_finishes() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("self.yaml");
    std::fs::write(
        &path,
        "data:\n  sources:\n    app:\n      type: merge\n      sources: [apps, app]\n      children:\n        - source: apps\n",
    )
    .expect("write the config");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sources"))
        .args(["lint", "--fix", "--format", "short", "self.yaml"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let status = sources_testkit::process::wait_for_exit(&mut child);
    let output = child.wait_with_output().expect("the output");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("self.yaml:5:17: error[reference-cycle]: reference cycle: app → app"),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).expect("read back"),
        "data:\n  sources:\n    app:\n      type: merge\n      sources: [app, app]\n      children:\n        - source: app\n"
    );
}

/// Copies multiply along a chain: each `merge` reads the entry below three times, so 21 entries
/// (lint-clean) would hold 3^20 copies of the bottom rows. The entry is fetched once per run, and
/// the run stops at the copy budget with a message saying why.
#[test]
fn copies_that_multiply_along_a_chain_stop_at_the_budget() {
    let mut config = String::from("data:\n  sources:\n    s0: {type: static, data: [{n: 1}]}\n");
    for level in 1..=20 {
        let below = format!("s{}", level - 1);
        config.push_str(&format!(
            "    s{level}: {{type: merge, children: [{{source: {below}}}, {{source: {below}}}, {{source: {below}}}]}}\n"
        ));
    }
    let lint = sources_check::analyze(&config, sources_syntax::Syntax::Yaml);
    assert!(lint.diagnostics.is_empty(), "{:?}", lint.diagnostics);
    let output = try_top(&config, "s20", &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "one run may copy at most 1000000 JSON values of entries it already read, and this one \
             needs more: each path that reads an entry holds its own copy of its rows"
        ),
        "{stderr}"
    );
}
