//! The bad inputs of the foundation issue: each gives a clear diagnostic or message and never a
//! crash.

use super::*;

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
