//! What `sources try` and `sources list` print is safe to print: the run's secret values (from
//! `${env.…}`, masked and credential-named parameters, headers written in the file) are redacted
//! wherever they appear, and control characters a program or a server sent are shown escaped.

use sources_testkit::process::{command, outcome};

/// The value of `KEY` in the environment of the runs.
const SECRET: &str = "sekrit-4711";

fn sources(config: &str, args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sources.yaml");
    std::fs::write(&path, config).expect("write");
    outcome(
        command(env!("CARGO_BIN_EXE_sources"), args)
            .arg("-c")
            .arg(&path)
            .env("KEY", SECRET),
    )
}

#[test]
fn env_values_in_argv_and_stderr_are_redacted_on_the_error_line() {
    let config = "data:\n  sources:\n    leaky:\n      type: exec\n      command: [sh, -c, 'echo \"token ${env.KEY}; FAIL\" >&2; exit 3', '${env.KEY}']\n";
    let (code, stdout, stderr) = sources(config, &["try", "leaky", "--verbose"]);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert!(!stderr.contains(SECRET), "{stderr}");
    assert!(stderr.contains("token [redacted]; FAIL"), "{stderr}");
}

#[test]
fn header_values_and_masked_defaults_are_redacted() {
    let config = "data:\n  sources:\n    api:\n      type: exec\n      command: [sh, -c, 'echo \"$0 says no\" >&2; exit 1', 'tok-literal-99']\n      parameters:\n        pin: {type: string, default: '9876', mask: true}\n    web:\n      type: http\n      url: http://127.0.0.1:9/x\n      headers:\n        PRIVATE-TOKEN: tok-literal-99\n";
    let (code, _, stderr) = sources(config, &["try", "api"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("[redacted] says no"), "{stderr}");
    assert!(!stderr.contains("tok-literal-99"), "{stderr}");
    let (code, stdout, stderr) = sources(config, &["list"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("pin=[redacted]"), "{stdout}");
    assert!(!stdout.contains("9876"), "{stdout}");
}

#[test]
fn control_characters_from_programs_are_escaped_in_error_lines_and_table_cells() {
    let config = "data:\n  sources:\n    loud:\n      type: exec\n      command: [sh, -c, 'printf \"\\033]0;pwned\\007\\033[2Kbad\\n\" >&2; exit 1']\n    cells:\n      type: exec\n      command: [printf, '%s', '[{\"name\": \"\\u001b]52;c;aGk=\\u0007x\", \"n\": 1}]']\n";
    let (code, _, stderr) = sources(config, &["try", "loud"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
    assert!(stderr.contains("\\x1b]0;pwned\\x07\\x1b[2Kbad"), "{stderr}");
    let (code, stdout, stderr) = sources(config, &["try", "cells", "-o", "table"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");
    assert!(stdout.contains("\\x1b]52;c;aGk=\\x07x"), "{stdout}");
}

/// Every line `try` prints passes through one redacting writer, so a kind of line no print site
/// redacted before is covered too: the value itself, a program's echo of the secret, on standard
/// output as text and as JSON.
#[test]
fn a_secret_in_the_value_printed_on_standard_output_is_redacted() {
    let config = "data:\n  sources:\n    echo:\n      type: exec\n      command: [printf, '%s', 'the key is ${env.KEY}']\n      format: text\n";
    let (code, stdout, stderr) = sources(config, &["try", "echo", "--raw"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "the key is [redacted]\n"),
        "{stderr}"
    );
    let (code, stdout, stderr) = sources(config, &["try", "echo", "-o", "json"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "\"the key is [redacted]\"\n"),
        "{stderr}"
    );
}
