//! Choosing rules (`--select`, `--extend-select`, `--ignore`), `--exit-zero`, `--output-file`,
//! `--statistics`, `--quiet` and colour.

use super::*;

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
