//! The `sources` binary end to end: exit codes, standard input, every output format, directory
//! walks, `explain`, `rules`, and the bad inputs of the foundation issue (each must give a clear
//! diagnostic or message and never crash).

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use sources_testkit::process::{piped_in_dir, run, stderr, stdout};

mod bad_input;
mod commands;
mod exits;
mod fixes;
mod formats;
mod selection;

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
        &mut piped_in_dir(env!("CARGO_BIN_EXE_sources"), dir, args),
        stdin,
    )
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
