//! Test support shared by the workspace's test suites: the one convention for re-blessing expected
//! files (golden outputs, generated documents, the JSON Schema).
//!
//! `UPDATE_EXPECT=1` rewrites expected files; unset, tests compare. Any other value (`0`, `yes`,
//! empty) is refused with a panic rather than guessed at, and so is blessing under CI (`CI` set to
//! anything but `false` or `0`): a CI run must compare, never rewrite and pass.
//!
//! Also the helpers more than one suite needs: [`chain`] (the deepest chain of entries),
//! [`process`] (running programs, waiting for servers), [`lsp_frame`] (the language server's
//! message framing), [`lsp_client`] (the one client of the real `sources lsp` process, for the
//! command line's protocol tests and the fuzzer) and [`random`] (a seeded generator for random
//! edits).

pub mod chain;
pub mod lsp_client;
pub mod lsp_frame;
pub mod process;
pub mod random;

use std::path::Path;

/// Every file below `dir`, recursively, in path order (directories walked in name order).
///
/// # Panics
/// When a directory cannot be read: a test corpus that is not there must not pass as empty.
pub fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|error| panic!("cannot read `{}`: {error}", dir.display()));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|error| panic!("cannot read `{}`: {error}", dir.display()))
                .path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Writes each (relative path, contents) below `dir`, making the directories a path needs.
///
/// # Panics
/// When a directory or file cannot be written: a test tree that is not there must not pass.
pub fn write_tree<P: AsRef<Path>, C: AsRef<[u8]>>(
    dir: &Path,
    files: impl IntoIterator<Item = (P, C)>,
) {
    for (name, contents) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .unwrap_or_else(|error| panic!("cannot create `{}`: {error}", parent.display()));
        }
        std::fs::write(&path, contents)
            .unwrap_or_else(|error| panic!("cannot write `{}`: {error}", path.display()));
    }
}

/// The environment variable that re-blesses expected files when set to `1`.
pub const BLESS_VAR: &str = "UPDATE_EXPECT";

/// Whether this test run rewrites expected files instead of comparing them.
///
/// # Panics
/// When `UPDATE_EXPECT` is set to anything but `1`, or is set while `CI` is.
pub fn blessing() -> bool {
    decide(
        std::env::var_os(BLESS_VAR).as_deref(),
        std::env::var_os("CI").as_deref(),
    )
    .unwrap_or_else(|refusal| panic!("{refusal}"))
}

/// The decision of [`blessing`] from the two variables' values, or why it is refused.
fn decide(update: Option<&std::ffi::OsStr>, ci: Option<&std::ffi::OsStr>) -> Result<bool, String> {
    let Some(update) = update else {
        return Ok(false);
    };
    if update != "1" {
        return Err(format!(
            "{BLESS_VAR}={} is not understood: set {BLESS_VAR}=1 to re-bless expected files, or unset it to compare",
            update.to_string_lossy()
        ));
    }
    let in_ci = ci.is_some_and(|ci| !ci.is_empty() && ci != "false" && ci != "0");
    if in_ci {
        return Err(format!(
            "{BLESS_VAR}=1 is refused under CI: CI must compare expected files, never rewrite them"
        ));
    }
    Ok(true)
}

/// Compares `path`'s contents with `expected`, or writes `expected` there when blessing.
///
/// # Panics
/// When the file differs (or is missing) and this run is not blessing; the message names the file
/// and `regenerate`, the command that rewrites it.
pub fn assert_file(path: &Path, expected: &str, regenerate: &str) {
    if blessing() {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .unwrap_or_else(|error| panic!("cannot create {}: {error}", parent.display()));
        }
        std::fs::write(path, expected)
            .unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
        return;
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    if actual != expected {
        let first = actual
            .lines()
            .zip(expected.lines())
            .position(|(a, e)| a != e)
            .unwrap_or_else(|| actual.lines().count().min(expected.lines().count()));
        panic!(
            "{} is stale (first difference at line {}): regenerate it with\n    {regenerate}\nand commit it",
            path.display(),
            first + 1
        );
    }
}

#[cfg(test)]
mod tests {
    use super::decide;
    use std::ffi::OsStr;

    #[test]
    fn only_one_blesses_and_only_outside_ci() {
        assert_eq!(decide(None, None), Ok(false));
        assert_eq!(decide(None, Some(OsStr::new("true"))), Ok(false));
        assert_eq!(decide(Some(OsStr::new("1")), None), Ok(true));
        assert_eq!(
            decide(Some(OsStr::new("1")), Some(OsStr::new("false"))),
            Ok(true)
        );
        assert_eq!(
            decide(Some(OsStr::new("1")), Some(OsStr::new(""))),
            Ok(true)
        );
    }

    #[test]
    fn other_values_and_ci_are_refused_with_the_reason() {
        for value in ["0", "", "yes", "true"] {
            let refusal = decide(Some(OsStr::new(value)), None).expect_err(value);
            assert!(refusal.contains("is not understood"), "{refusal}");
            assert!(refusal.contains("UPDATE_EXPECT=1"), "{refusal}");
        }
        let refusal = decide(Some(OsStr::new("1")), Some(OsStr::new("true"))).expect_err("CI");
        assert!(refusal.contains("refused under CI"), "{refusal}");
    }
}
