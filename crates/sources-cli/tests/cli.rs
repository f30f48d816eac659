//! The `sources` binary end to end: exit codes, standard input, every output format, directory
//! walks, `explain`, `rules`, and the bad inputs of the foundation issue (each must give a clear
//! diagnostic or message and never crash).

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use sources_testkit::process::run;

const CLEAN: &str =
    "data:\n  sources:\n    apps:\n      type: http\n      url: https://api.example.com/apps\n";
/// A YAML syntax error at line 6, column 1 (a closing bracket that closes nothing).
const BROKEN: &str =
    "data:\n  sources:\n    apps:\n      type: http\n      url: https://api.example.com/apps\n]\n";
/// A TOML syntax error.
const BROKEN_TOML: &str = "[data.sources.apps]\ntype = \"http\nurl = 1\n";
/// Lints with exactly one warning: `${params.id}` is not declared.
const WARNS: &str = "data:\n  sources:\n    app:\n      type: http\n      url: https://api.example.com/apps/${params.id}\n";

/// Runs `sources ARGS` in `dir` with `stdin`, without colour or terminal.
fn sources(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    run(
        Command::new(env!("CARGO_BIN_EXE_sources"))
            .args(args)
            .current_dir(dir)
            .env_remove("NO_COLOR")
            .env_remove("COLUMNS"),
        stdin,
    )
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

/// A temporary directory holding `files` (name, contents).
fn tree(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    sources_testkit::write_tree(dir.path(), files.iter().copied());
    dir
}

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

#[test]
fn json_output_parses_back_with_every_field() {
    let dir = tree(&[
        ("bad.yaml", BROKEN.as_bytes()),
        ("warn.yaml", WARNS.as_bytes()),
    ]);
    let output = sources(
        dir.path(),
        &["lint", "--format", "json", "bad.yaml", "warn.yaml"],
        b"",
    );
    assert_eq!(code(&output), 1);
    let document: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(document["version"], 1);
    assert_eq!(
        document["summary"],
        serde_json::json!({"files": 2, "errors": 1, "warnings": 1})
    );
    let first = &document["diagnostics"][0];
    for field in [
        "path",
        "code",
        "severity",
        "message",
        "line",
        "column",
        "end_line",
        "end_column",
        "start",
        "end",
        "labels",
        "help",
        "fixes",
    ] {
        assert!(first.get(field).is_some(), "missing {field}: {first}");
    }
    assert_eq!(
        (first["path"].as_str(), first["code"].as_str()),
        (Some("bad.yaml"), Some("syntax"))
    );
    let warning = &document["diagnostics"][1];
    assert_eq!(
        (warning["line"].as_u64(), warning["column"].as_u64()),
        (Some(5), Some(41))
    );
    assert_eq!(
        warning["start"].as_u64(),
        WARNS.find("${params.id}").map(|offset| offset as u64)
    );
}

#[test]
fn sarif_output_is_one_run_with_rules_and_relative_uris() {
    let dir = tree(&[("conf dir/bad.yaml", BROKEN.as_bytes())]);
    let output = sources(
        dir.path(),
        &["lint", "--format", "sarif", "conf dir/bad.yaml"],
        b"",
    );
    assert_eq!(code(&output), 1);
    let log: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "utf16CodeUnits");
    assert!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            .as_str()
            .is_some_and(|uri| uri.starts_with("file:///") && uri.ends_with('/'))
    );
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "syntax");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "conf%20dir/bad.yaml");
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(location["region"]["startLine"], 6);
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
    assert_eq!(rules[index]["id"], "syntax");
    assert!(rules.iter().all(|rule| {
        rule["help"]["markdown"]
            .as_str()
            .is_some_and(|help| help.contains("```"))
    }));
}

#[test]
fn github_output_is_workflow_commands() {
    let dir = tree(&[
        ("a,b.yaml", BROKEN.as_bytes()),
        ("warn.yaml", WARNS.as_bytes()),
    ]);
    let output = sources(
        dir.path(),
        &["lint", "--format", "github", "a,b.yaml", "warn.yaml"],
        b"",
    );
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("::error file=a%2Cb.yaml,line=6,col=1,endLine=6,endColumn="),
        "{text}"
    );
    assert!(lines[0].contains(",title=sources syntax::"), "{text}");
    assert!(lines[1].starts_with("::warning file=warn.yaml,line=5,col=41,endLine=5,endColumn=53,title=sources undeclared-param-reference::"), "{text}");
}

#[test]
fn gitlab_and_junit_outputs_name_each_finding() {
    let dir = tree(&[
        ("bad.yaml", BROKEN.as_bytes()),
        ("ok.yaml", CLEAN.as_bytes()),
    ]);
    let output = sources(dir.path(), &["lint", "--format", "gitlab", "."], b"");
    assert_eq!(code(&output), 1);
    let issues: Value = serde_json::from_str(&stdout(&output)).expect("gitlab JSON");
    assert_eq!(issues[0]["check_name"], "syntax");
    assert_eq!(issues[0]["location"]["path"], "bad.yaml");
    assert_eq!(issues[0]["location"]["lines"]["begin"], 6);
    assert_eq!(issues[0]["severity"], "major");
    let again = sources(dir.path(), &["lint", "--format", "gitlab", "."], b"");
    let again: Value = serde_json::from_str(&stdout(&again)).expect("gitlab JSON");
    assert_eq!(issues[0]["fingerprint"], again[0]["fingerprint"]);

    let output = sources(dir.path(), &["lint", "--format", "junit", "."], b"");
    assert_eq!(code(&output), 1);
    let xml = stdout(&output);
    assert!(
        xml.contains("<testcase name=\"syntax\" classname=\"bad.yaml\">"),
        "{xml}"
    );
    assert!(
        xml.contains("<testcase name=\"sources lint\" classname=\"ok.yaml\"/>"),
        "{xml}"
    );
}

#[test]
fn human_output_off_a_terminal_has_no_colour() {
    let dir = tree(&[("bad.yaml", BROKEN.as_bytes())]);
    let output = sources(dir.path(), &["lint", "--format", "human", "bad.yaml"], b"");
    let text = stdout(&output);
    assert!(text.starts_with("error[syntax]\n"), "{text}");
    assert!(text.contains("╭─[bad.yaml:6:1]"), "{text}");
    assert!(text.ends_with("1 error in 1 of 1 file\n"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no escape codes off a terminal: {text:?}"
    );
}

#[test]
fn explain_prints_a_rule_and_suggests_on_a_typo() {
    let dir = tree(&[]);
    let known = sources(dir.path(), &["explain", "unknown-field"], b"");
    assert_eq!(code(&known), 0);
    let text = stdout(&known);
    assert!(text.starts_with("unknown-field (error)\n"), "{text}");
    assert!(text.contains("\n```yaml lint=unknown-field\n"), "{text}");
    let typo = sources(dir.path(), &["explain", "unknown-feild"], b"");
    assert_eq!(code(&typo), 2);
    assert_eq!(stdout(&typo), "");
    assert!(
        stderr(&typo).contains("did you mean `unknown-field`?"),
        "{}",
        stderr(&typo)
    );
}

#[test]
fn rules_lists_every_rule() {
    let dir = tree(&[]);
    let output = sources(dir.path(), &["rules"], b"");
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    assert_eq!(text.lines().count(), sources_diagnostics::Rule::ALL.len());
    assert!(
        text.lines()
            .any(|line| line.starts_with("reference-cycle ")),
        "{text}"
    );
}

/// Lints `bytes` as a named `name`, checks it neither crashed nor hung, and returns the output.
fn bad_input(name: &str, bytes: &[u8]) -> Output {
    let dir = tree(&[(name, bytes)]);
    let output = sources(dir.path(), &["lint", "--format", "short", name], b"");
    let code = code(&output);
    assert!(
        code == 0 || code == 1,
        "{name}: exit {code}: {}",
        stderr(&output)
    );
    assert!(
        !stderr(&output).contains("panicked"),
        "{name}: {}",
        stderr(&output)
    );
    output
}

#[test]
fn empty_files_and_files_without_sources_get_a_note() {
    for (name, text, note) in [
        ("empty.yaml", "", "is empty"),
        ("empty.toml", "\n\n", "is empty"),
        (
            "no-data.yaml",
            "app:\n  title: x\n",
            "has no `data.sources` block",
        ),
        ("list.yaml", "- a\n- b\n", "has no `data.sources` block"),
        ("scalar.yaml", "just text\n", "has no `data.sources` block"),
    ] {
        let output = bad_input(name, text.as_bytes());
        let message = stderr(&output);
        if code(&output) == 0 {
            assert!(
                message.contains(&format!("`{name}` {note}: nothing to check")),
                "{name}: {message}"
            );
        } else {
            assert!(
                !stdout(&output).is_empty(),
                "{name}: exit 1 must come with a diagnostic"
            );
        }
    }
}

#[test]
fn sources_that_is_not_a_map_is_a_diagnostic() {
    let output = bad_input("list.yaml", b"data:\n  sources: [a, b]\n");
    assert_eq!(code(&output), 1);
    assert!(
        stdout(&output).starts_with("list.yaml:2:12: error["),
        "{}",
        stdout(&output)
    );
}

#[test]
fn invalid_utf8_and_binary_files_are_syntax_diagnostics() {
    let output = bad_input(
        "latin1.yaml",
        b"data:\n  sources:\n    caf\xE9:\n      type: static\n",
    );
    assert_eq!(code(&output), 1);
    assert_eq!(
        stdout(&output),
        "latin1.yaml:3:8: error[syntax]: the file is not valid UTF-8: byte 0xE9 is not part of a character\n\
         1 error in 1 of 1 file\n"
    );
    let binary = bad_input("image.yaml", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR");
    assert_eq!(code(&binary), 1);
    assert!(
        stdout(&binary).starts_with("image.yaml:"),
        "{}",
        stdout(&binary)
    );
    assert!(
        stdout(&binary).contains("error[syntax]: "),
        "{}",
        stdout(&binary)
    );
}

#[test]
fn a_50_mb_file_is_refused_with_its_size() {
    let dir = tree(&[]);
    let path = dir.path().join("huge.yaml");
    let file = fs::File::create(&path).expect("create");
    file.set_len(50 * 1024 * 1024).expect("sparse 50 MiB file");
    let output = sources(dir.path(), &["lint", "huge.yaml"], b"");
    assert_eq!(code(&output), 1);
    assert_eq!(
        stdout(&output),
        "huge.yaml:1:1: error[syntax]: the file is 50 MiB, over the 16 MiB limit for configuration files\n\
         1 error in 1 of 1 file\n"
    );
    let walked = sources(dir.path(), &["lint", "."], b"");
    assert_eq!(code(&walked), 0);
    assert!(
        stderr(&walked).contains("skipping `huge.yaml`: 50 MiB"),
        "{}",
        stderr(&walked)
    );
}

#[test]
fn ten_thousand_nested_flow_collections_are_a_syntax_error_not_a_stack_overflow() {
    let depth = 10_000;
    let yaml = format!(
        "data: {{sources: {{a: {}{}}}}}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let output = bad_input("deep.yaml", yaml.as_bytes());
    assert_eq!(code(&output), 1);
    assert!(
        stdout(&output).contains("error[syntax]: "),
        "{}",
        stdout(&output)
    );
    let toml = format!(
        "[data.sources.a]\ntype = \"static\"\ndata = {}{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let output = bad_input("deep.toml", toml.as_bytes());
    assert_eq!(code(&output), 1);
    assert!(
        stdout(&output).contains("error[syntax]: "),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_reader_that_goes_away_does_not_change_the_exit_status() {
    let mut yaml = String::from("data:\n  sources:\n");
    for index in 0..3000 {
        yaml.push_str(&format!("    s{index}: [not, a, map]\n"));
    }
    let dir = tree(&[("many.yaml", yaml.as_bytes())]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_sources"))
        .args(["lint", "--format", "short", "many.yaml"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("the binary finishes");
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
}

#[test]
fn oversized_standard_input_is_refused_without_reading_it_all() {
    let dir = tree(&[]);
    let input = vec![b'#'; 17 * 1024 * 1024];
    let output = sources(dir.path(), &["lint", "-"], &input);
    assert_eq!(code(&output), 1);
    assert_eq!(
        stdout(&output),
        "<stdin>:1:1: error[syntax]: the input is over the 16 MiB limit for configuration files\n\
         1 error in 1 of 1 file\n"
    );
}

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

/// Two errors of different rules and one warning, for the rule-selection flags.
const MIXED: &str = "data:\n  sources:\n    apps:\n      type: http\n      urll: https://api.example.com/apps\n    lost:\n      type: passthrough\n      from: aps\n    app:\n      type: http\n      url: https://api.example.com/apps/${params.id}\n";

fn codes(output: &Output) -> Vec<String> {
    stdout(output)
        .lines()
        .filter_map(|line| {
            let start = line.find('[')? + 1;
            let end = line.find(']')?;
            Some(line[start..end].to_owned())
        })
        .collect()
}

#[test]
fn select_extend_select_and_ignore_choose_rules_by_code_or_prefix() {
    let dir = tree(&[("conf.yaml", MIXED.as_bytes())]);
    let all = sources(dir.path(), &["lint", "conf.yaml"], b"");
    assert_eq!(
        codes(&all),
        [
            "unknown-field",
            "unknown-source",
            "undeclared-param-reference"
        ]
    );
    let unknown = sources(
        dir.path(),
        &["lint", "--select", "unknown", "conf.yaml"],
        b"",
    );
    assert_eq!(codes(&unknown), ["unknown-field", "unknown-source"]);
    let narrowed = sources(
        dir.path(),
        &[
            "lint",
            "--select",
            "unknown-field",
            "--extend-select",
            "undeclared",
            "conf.yaml",
        ],
        b"",
    );
    assert_eq!(
        codes(&narrowed),
        ["unknown-field", "undeclared-param-reference"]
    );
    let ignored = sources(
        dir.path(),
        &[
            "lint",
            "--ignore",
            "unknown-field,unknown-source",
            "conf.yaml",
        ],
        b"",
    );
    // Hiding the misspelled `urll` leaves the entry without its required `url`, which stays.
    assert_eq!(
        codes(&ignored),
        ["missing-field", "undeclared-param-reference"]
    );
    assert_eq!(code(&ignored), 1, "the missing url is an error");
    let typo = sources(
        dir.path(),
        &["lint", "--ignore", "unknown-feild", "conf.yaml"],
        b"",
    );
    assert_eq!(code(&typo), 2);
    assert_eq!(
        stderr(&typo),
        "sources: `--ignore unknown-feild` names no rule (did you mean `unknown-field`?): `sources rules` lists the codes\n"
    );
    // On top of the settings file: `--extend-select` turns on a rule it turns off.
    fs::write(
        dir.path().join("sources-lint.toml"),
        "[rules]\nunknown-source = \"off\"\n",
    )
    .expect("settings");
    let settled = sources(dir.path(), &["lint", "conf.yaml"], b"");
    assert_eq!(
        codes(&settled),
        ["unknown-field", "undeclared-param-reference"]
    );
    let extended = sources(
        dir.path(),
        &["lint", "--extend-select", "unknown-source", "conf.yaml"],
        b"",
    );
    assert_eq!(
        codes(&extended),
        [
            "unknown-field",
            "unknown-source",
            "undeclared-param-reference"
        ]
    );
}

#[test]
fn exit_zero_output_file_statistics_and_quiet() {
    let dir = tree(&[("conf.yaml", MIXED.as_bytes()), ("empty.yaml", b"")]);
    let zero = sources(dir.path(), &["lint", "--exit-zero", "conf.yaml"], b"");
    assert_eq!(code(&zero), 0);
    assert_eq!(codes(&zero).len(), 3);
    let written = sources(
        dir.path(),
        &["lint", "--output-file", "report.txt", "conf.yaml"],
        b"",
    );
    assert_eq!((code(&written), stdout(&written)), (1, String::new()));
    let report = fs::read_to_string(dir.path().join("report.txt")).expect("the report file");
    assert_eq!(report.lines().count(), 4, "{report}");
    assert!(
        report.ends_with("\n2 errors, 1 warning in 1 of 1 file; 2 fixable with --fix\n"),
        "{report}"
    );
    assert!(
        report.starts_with("conf.yaml:5:7: error[unknown-field]: "),
        "{report}"
    );
    let statistics = sources(dir.path(), &["lint", "--statistics", "conf.yaml"], b"");
    assert_eq!(code(&statistics), 1);
    assert_eq!(
        stdout(&statistics),
        "    1  undeclared-param-reference  `${params.X}` where `X` is not declared: it stays literal.\n    1  unknown-field               A field this kind of entry does not have.\n    1  unknown-source              A reference to an entry that does not exist.\n"
    );
    let loud = sources(
        dir.path(),
        &["lint", "--format", "human", "conf.yaml", "empty.yaml"],
        b"",
    );
    assert!(
        stdout(&loud).contains("\n2 errors, 1 warning in 1 of 2 files"),
        "{}",
        stdout(&loud)
    );
    assert!(
        stderr(&loud).contains("`empty.yaml` is empty"),
        "{}",
        stderr(&loud)
    );
    let quiet = sources(
        dir.path(),
        &[
            "lint",
            "--quiet",
            "--format",
            "human",
            "conf.yaml",
            "empty.yaml",
        ],
        b"",
    );
    assert_eq!(code(&quiet), 1);
    assert!(
        !stdout(&quiet).contains(" in 1 of 2 files"),
        "{}",
        stdout(&quiet)
    );
    assert!(
        stdout(&quiet).contains("unknown-field"),
        "{}",
        stdout(&quiet)
    );
    assert_eq!(stderr(&quiet), "");
}

#[test]
fn colour_follows_no_color_force_color_and_clicolor_force() {
    let dir = tree(&[("conf.yaml", MIXED.as_bytes())]);
    let lint = |flags: &[&str], env: &[(&str, &str)]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sources"));
        command
            .args(["lint", "--format", "human"])
            .args(flags)
            .arg("conf.yaml")
            .current_dir(dir.path())
            .env_remove("NO_COLOR")
            .env_remove("FORCE_COLOR")
            .env_remove("CLICOLOR_FORCE");
        for (name, value) in env {
            command.env(name, value);
        }
        stdout(&run(&mut command, b"")).contains('\u{1b}')
    };
    assert!(!lint(&[], &[]), "no colour off a terminal");
    assert!(lint(&[], &[("FORCE_COLOR", "1")]));
    assert!(lint(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(!lint(&[], &[("CLICOLOR_FORCE", "0")]));
    assert!(!lint(&["--no-color"], &[("FORCE_COLOR", "1")]));
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

#[test]
fn demo_says_a_port_in_use_once_and_its_help_has_no_backslashes() {
    let dir = tree(&[]);
    let held = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = held.local_addr().expect("address").to_string();
    let output = sources(dir.path(), &["demo", "--addr", &address], b"");
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert_eq!(
        stderr(&output).matches("in use").count(),
        1,
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).starts_with(&format!("sources: cannot listen on {address}: ")),
        "{}",
        stderr(&output)
    );
    let help = stdout(&sources(dir.path(), &["demo", "--help"], b""));
    assert!(help.contains("IP:PORT, [IPv6]:PORT or HOST:PORT"), "{help}");
    assert!(!help.contains('\\'), "{help}");
}

#[test]
fn list_takes_the_configuration_file_as_a_positional_as_lint_does() {
    let dir = tree(&[("dash.yaml", CLEAN.as_bytes())]);
    let positional = sources(dir.path(), &["list", "dash.yaml"], b"");
    assert_eq!(code(&positional), 0, "{}", stderr(&positional));
    assert!(
        stdout(&positional).contains("apps"),
        "{}",
        stdout(&positional)
    );
    let flag = sources(dir.path(), &["list", "-c", "dash.yaml"], b"");
    assert_eq!(stdout(&positional), stdout(&flag));
    let both = sources(dir.path(), &["list", "dash.yaml", "-c", "dash.yaml"], b"");
    assert_eq!(code(&both), 2);
    assert!(
        stderr(&both).contains("cannot be used with"),
        "{}",
        stderr(&both)
    );
}

#[test]
fn a_file_given_where_an_entry_name_goes_is_pointed_at_dash_c() {
    let dir = tree(&[("dash.yaml", CLEAN.as_bytes())]);
    for command in ["try", "graph"] {
        let output = sources(dir.path(), &[command, "dash.yaml"], b"");
        assert_eq!(code(&output), 2, "{command}: {}", stderr(&output));
        assert_eq!(
            stderr(&output).trim_end(),
            format!(
                "sources: `dash.yaml` is a file, not an entry name: name the configuration file \
                 with `-c` (`sources {command} -c dash.yaml NAME`)"
            ),
            "{command}"
        );
    }
    // A name that is no file keeps the plain "no configuration file" error.
    let output = sources(dir.path(), &["try", "apps"], b"");
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("no configuration file"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_bash_completion_script_completes_a_subcommand_in_a_real_bash() {
    let dir = tree(&[(
        "sources.yaml",
        "data:\n  sources:\n    inventory:\n      type: http\n      url: https://api.example.com/inventory\n    invoices:\n      type: http\n      url: https://api.example.com/invoices\n    users:\n      type: http\n      url: https://api.example.com/users\n"
            .as_bytes(),
    )]);
    let script = sources(dir.path(), &["completions", "bash"], b"");
    assert_eq!(code(&script), 0, "{}", stderr(&script));
    fs::write(dir.path().join("sources.bash"), &script.stdout).expect("write the script");
    // What bash does on `sources li<TAB>`: the completion function with the words so far; the
    // script asks the binary (by its path) for the candidates.
    let complete = |words: &str| {
        let program = format!(
            "source ./sources.bash && COMP_WORDS=({words}) && COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)) \
             && _clap_complete_sources sources \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\" \
             && printf '%s\\n' \"${{COMPREPLY[@]}}\""
        );
        let output = run(
            Command::new("bash")
                .args(["--norc", "--noprofile", "-c", &program])
                .current_dir(dir.path()),
            b"",
        );
        assert_eq!(code(&output), 0, "{words}: {}", stderr(&output));
        stdout(&output)
    };
    assert_eq!(
        complete("sources li")
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["lint", "list"]
    );
    assert!(
        complete("sources lint --sel").contains("--select"),
        "lint's flags complete"
    );
    // Rule codes after the rule-choosing flags and `explain`, entry names after `try`.
    for words in [
        "sources lint --select unknown-fie",
        "sources lint --ignore unknown-fie",
        "sources lint --extend-select unknown-fie",
        "sources explain unknown-fie",
    ] {
        assert_eq!(
            complete(words).split_whitespace().collect::<Vec<_>>(),
            ["unknown-field"],
            "{words}"
        );
    }
    assert_eq!(
        complete("sources try inv")
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["inventory", "invoices"]
    );
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let script = sources(dir.path(), &["completions", shell], b"");
        assert_eq!(code(&script), 0, "{shell}: {}", stderr(&script));
        // Each asks the binary that wrote it, by its path, with the shell's name.
        let text = stdout(&script);
        assert!(
            text.contains(env!("CARGO_BIN_EXE_sources"))
                && text.contains("COMPLETE")
                && text.contains(shell),
            "{shell}: {text}"
        );
    }
    let unknown = sources(dir.path(), &["completions", "tcsh"], b"");
    assert_eq!(code(&unknown), 2);
    assert!(
        stderr(&unknown).contains("[possible values: bash, elvish, fish, powershell, zsh]"),
        "{}",
        stderr(&unknown)
    );
}

#[test]
fn the_manual_pages_render_with_man() {
    let dir = tempfile::tempdir().expect("tempdir");
    let render = |args: &[&str]| {
        let page = sources(dir.path(), args, b"");
        assert_eq!(code(&page), 0, "{args:?}: {}", stderr(&page));
        fs::write(dir.path().join("page.1"), &page.stdout).expect("write the page");
        let shown = run(
            Command::new("man")
                .args(["-l", "page.1"])
                .env("MANPAGER", "cat")
                .env("MANWIDTH", "100")
                .current_dir(dir.path()),
            b"",
        );
        assert_eq!(code(&shown), 0, "man -l: {}", stderr(&shown));
        stdout(&shown)
    };
    let top = render(&["man"]);
    assert!(top.starts_with("sources(1)"), "{top}");
    assert!(
        top.contains("sources-lint(1)") && top.contains("sources-completions(1)"),
        "{top}"
    );
    let lint = render(&["man", "lint"]);
    assert!(lint.starts_with("sources-lint(1)"), "{lint}");
    assert!(lint.contains("--deny-warnings"), "{lint}");
    let version = format!("sources {}", env!("CARGO_PKG_VERSION"));
    for (name, page) in [
        ("sources", &top),
        ("lint", &lint),
        ("try", &render(&["man", "try"])),
    ] {
        for section in [
            "EXIT STATUS",
            "ENVIRONMENT",
            "FILES",
            "SOURCES_CONFIG",
            "sources-lint.toml",
        ] {
            assert!(page.contains(section), "{name}: no {section}: {page}");
        }
        let footer = page.lines().rev().find(|line| !line.trim().is_empty());
        assert!(
            footer.is_some_and(|footer| footer.contains(&version)),
            "{name}: the footer names no version: {page}"
        );
    }
    let unknown = sources(dir.path(), &["man", "lnt"], b"");
    assert_eq!(code(&unknown), 2);
    assert_eq!(
        stderr(&unknown).trim_end(),
        "sources: `lnt` is not a subcommand of `sources` (did you mean `lint`?); `sources man` lists them"
    );
}
