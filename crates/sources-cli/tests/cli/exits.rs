//! Exit codes, usage errors, standard input and directory walks.

use super::*;

#[test]
fn a_clean_file_exits_0_and_a_broken_one_1() {
    let dir = tree(&[
        ("ok.yaml", CLEAN.as_bytes()),
        ("bad.yaml", BROKEN.as_bytes()),
    ]);
    let clean = sources(dir.path(), &["lint", "ok.yaml"], b"");
    assert_eq!(code(&clean), 0, "{}", stderr(&clean));
    assert_eq!(stdout(&clean), "no problems found in 1 file\n");
    let broken = sources(dir.path(), &["lint", "--format", "short", "bad.yaml"], b"");
    assert_eq!(code(&broken), 1);
    assert!(
        stdout(&broken).starts_with("bad.yaml:6:1: error[syntax]: "),
        "{}",
        stdout(&broken)
    );
}

#[test]
fn warnings_fail_only_with_deny_warnings() {
    let dir = tree(&[("warn.yaml", WARNS.as_bytes())]);
    let lenient = sources(dir.path(), &["lint", "warn.yaml"], b"");
    assert_eq!(code(&lenient), 0);
    assert!(
        stdout(&lenient).contains("warn.yaml:5:41: warning[undeclared-param-reference]: "),
        "{}",
        stdout(&lenient)
    );
    let strict = sources(dir.path(), &["lint", "--deny-warnings", "warn.yaml"], b"");
    assert_eq!(code(&strict), 1);
}

#[test]
fn an_unreadable_path_is_exit_2_with_one_line_naming_it() {
    let dir = tree(&[("ok.yaml", CLEAN.as_bytes())]);
    let output = sources(dir.path(), &["lint", "ok.yaml", "missing.yaml"], b"");
    assert_eq!(code(&output), 2);
    assert_eq!(stdout(&output), "");
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.starts_with("sources: cannot read `missing.yaml`: "),
        "{message}"
    );
}

#[test]
fn try_names_an_unreadable_config_once_without_doubled_wording() {
    let dir = tree(&[("utf16.yaml", b"\xff\xfed\x00a\x00")]);
    let missing = stderr(&sources(
        dir.path(),
        &["try", "a", "-c", "missing.yaml"],
        b"",
    ));
    assert_eq!(missing.lines().count(), 1, "{missing}");
    assert!(
        missing.starts_with("sources: cannot read `missing.yaml`: "),
        "{missing}"
    );
    let reason = missing.trim_end().rsplit(": ").next().unwrap_or_default();
    assert_eq!(missing.matches(reason).count(), 1, "{missing}");
    let binary = stderr(&sources(dir.path(), &["try", "a", "-c", "utf16.yaml"], b""));
    assert_eq!(
        binary.trim_end(),
        "sources: cannot read `utf16.yaml`: the file is not UTF-8"
    );
}

#[test]
fn explain_accepts_a_code_in_any_case() {
    let dir = tree(&[]);
    let lower = sources(dir.path(), &["explain", "unknown-field"], b"");
    for code in ["UNKNOWN-FIELD", "Unknown-Field"] {
        let output = sources(dir.path(), &["explain", code], b"");
        assert_eq!(self::code(&output), 0, "{}", stderr(&output));
        assert_eq!(stdout(&output), stdout(&lower));
    }
}

#[test]
fn usage_errors_are_exit_2() {
    let dir = tree(&[]);
    assert_eq!(
        code(&sources(dir.path(), &["lint", "--format", "xml"], b"")),
        2
    );
    assert_eq!(code(&sources(dir.path(), &["no-such-command"], b"")), 2);
}

#[test]
fn stdin_is_named_by_stdin_filename_which_picks_the_syntax() {
    let dir = tree(&[]);
    let toml = sources(
        dir.path(),
        &["lint", "--stdin-filename", "conf/piped.toml", "-"],
        BROKEN_TOML.as_bytes(),
    );
    assert_eq!(code(&toml), 1);
    assert!(
        stdout(&toml).starts_with("conf/piped.toml:2:13: error[syntax]: "),
        "{}",
        stdout(&toml)
    );
    let yaml = sources(dir.path(), &["lint", "-"], BROKEN.as_bytes());
    assert!(
        stdout(&yaml).starts_with("<stdin>:6:1: error[syntax]: "),
        "{}",
        stdout(&yaml)
    );
    let clean = sources(dir.path(), &["lint", "-"], CLEAN.as_bytes());
    assert_eq!(
        (code(&clean), stdout(&clean)),
        (0, "no problems found in 1 file\n".to_owned())
    );
}

#[test]
fn unnamed_toml_on_stdin_is_read_as_toml() {
    let dir = tree(&[]);
    let piped =
        "[data.source.inventory]\ntype = \"http\"\nurl = \"https://api.example.com/inventory\"\n";
    let output = sources(dir.path(), &["lint", "-"], piped.as_bytes());
    assert_eq!(
        stdout(&output),
        "<stdin>:1:7: error[unknown-field]: unknown key `source` at `data`\n\
         1 error in 1 of 1 file; 1 fixable with --fix\n"
    );
    let broken = sources(dir.path(), &["lint", "-"], BROKEN_TOML.as_bytes());
    assert!(
        stdout(&broken).starts_with("<stdin>:2:13: error[syntax]: "),
        "{}",
        stdout(&broken)
    );
}

#[test]
fn a_directory_walk_lints_only_sources_configs_sorted_by_path() {
    let dir = tree(&[
        ("b/z.yml", WARNS.as_bytes()),
        (
            "a/app.toml",
            b"[data.sources.apps]\ntype = \"http\"\nurl = \"https://api.example.com/apps\"\n",
        ),
        ("a/workflow.yaml", b"on: push\njobs: {}\n"),
        ("a/template.yaml", b"name: {{ .Values.name }}\nitems: [\n"),
        (".hidden/x.yaml", WARNS.as_bytes()),
        ("target/x.yaml", WARNS.as_bytes()),
        ("node_modules/x.yaml", WARNS.as_bytes()),
    ]);
    let output = sources(dir.path(), &["lint", "--format", "json"], b"");
    let document: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        document["summary"]["files"], 2,
        "a/app.toml and b/z.yml: {document}"
    );
    let paths: Vec<&str> = document["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|d| d["path"].as_str())
        .collect();
    assert_eq!(paths, ["b/z.yml"]);
    assert_eq!(code(&output), 0);

    let named = sources(dir.path(), &["lint", "b/z.yml", "a/template.yaml"], b"");
    let mut files: Vec<String> = stdout(&named)
        .lines()
        .map(|line| line.split(':').next().unwrap_or("").to_owned())
        .collect();
    files.dedup();
    assert_eq!(
        files,
        [
            "a/template.yaml",
            "b/z.yml",
            "2 errors, 1 warning in 2 of 2 files"
        ],
        "sorted by path, then the summary line"
    );
}

#[test]
fn a_walked_config_broken_above_its_sources_block_is_reported() {
    let broken = "app:\n\ttitle: x\ndata:\n  sources:\n    a: {type: static, data: []}\n";
    let dir = tree(&[("conf/app.yaml", broken.as_bytes())]);
    let output = sources(dir.path(), &["lint"], b"");
    assert_eq!(code(&output), 1);
    assert!(
        stdout(&output).starts_with("conf/app.yaml:2:"),
        "{}",
        stdout(&output)
    );
}
