//! Finding the files to lint and reading them: named files, directory walks and standard input.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use sources_syntax::Syntax;

pub use sources_check::input::MAX_FILE_BYTES;

/// Directory names a walk never enters (besides hidden ones).
const SKIPPED_DIRECTORIES: &[&str] = &["target", "node_modules"];

/// The display name of standard input when `--stdin-filename` is not given.
pub const STDIN_NAME: &str = "<stdin>";

/// Where an input's bytes come from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A file on disk.
    File(PathBuf),
    /// Standard input.
    Stdin,
}

/// One document to lint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The path as shown in every output (`/`-separated).
    pub path: String,
    /// Where to read it from.
    pub origin: Origin,
    /// YAML or TOML, from the extension (YAML when there is none).
    pub syntax: Syntax,
    /// Named on the command line (always linted) rather than found by a walk (linted only when it
    /// has a `data.sources` block).
    pub named: bool,
}

/// A path that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read `{path}`")]
pub struct ReadError {
    /// The path as the user wrote it or as the walk found it.
    pub path: String,
    /// Why.
    #[source]
    pub source: io::Error,
}

/// What reading an input gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// The raw bytes (not yet known to be UTF-8).
    Bytes(Vec<u8>),
    /// Larger than [`MAX_FILE_BYTES`]; the size when known (standard input is not read to its end).
    TooLarge(Option<u64>),
}

/// The inputs named by `paths` (`-` is standard input, a directory is walked), in command-line order,
/// each file once. `stdin_filename` names standard input and picks its syntax.
pub fn discover(paths: &[PathBuf], stdin_filename: Option<&str>) -> Result<Vec<Input>, ReadError> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            let name = stdin_filename.unwrap_or(STDIN_NAME);
            inputs.push(Input {
                path: name.to_owned(),
                origin: Origin::Stdin,
                syntax: syntax_of(Path::new(name)),
                named: true,
            });
            continue;
        }
        let display = display_path(path);
        let metadata = fs::metadata(path).map_err(|source| ReadError {
            path: display.clone(),
            source,
        })?;
        if metadata.is_dir() {
            walk(path, &display, &mut inputs)?;
        } else {
            inputs.push(Input {
                path: display,
                origin: Origin::File(path.clone()),
                syntax: syntax_of(path),
                named: true,
            });
        }
    }
    let mut seen = HashSet::new();
    inputs.retain(|input| seen.insert((input.origin.clone(), input.path.clone())));
    Ok(inputs)
}

/// Reads one input, refusing more than [`MAX_FILE_BYTES`].
pub fn read(input: &Input) -> Result<Content, ReadError> {
    let error = |source| ReadError {
        path: input.path.clone(),
        source,
    };
    match &input.origin {
        Origin::File(path) => {
            let size = fs::metadata(path).map_err(error)?.len();
            if size > MAX_FILE_BYTES {
                return Ok(Content::TooLarge(Some(size)));
            }
            fs::read(path).map(Content::Bytes).map_err(error)
        }
        Origin::Stdin => {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .take(MAX_FILE_BYTES + 1)
                .read_to_end(&mut bytes)
                .map_err(error)?;
            if bytes.len() as u64 > MAX_FILE_BYTES {
                return Ok(Content::TooLarge(None));
            }
            Ok(Content::Bytes(bytes))
        }
    }
}

/// TOML for `.toml`, YAML for everything else.
fn syntax_of(path: &Path) -> Syntax {
    Syntax::from_path(path).unwrap_or(Syntax::Yaml)
}

/// A path as shown to the user: lossless where possible, with `/` separators.
fn display_path(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// Adds every `.yaml`, `.yml` and `.toml` file under `dir`, in name order, skipping hidden
/// directories, `target` and `node_modules`. Symbolic links to directories are not followed.
fn walk(dir: &Path, display: &str, inputs: &mut Vec<Input>) -> Result<(), ReadError> {
    let error = |source| ReadError {
        path: display.to_owned(),
        source,
    };
    let mut entries = fs::read_dir(dir)
        .map_err(error)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(error)?;
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let child_display = match display.trim_end_matches('/') {
            "." => name.clone(),
            parent => format!("{parent}/{name}"),
        };
        let path = entry.path();
        let file_type = entry.file_type().map_err(|source| ReadError {
            path: child_display.clone(),
            source,
        })?;
        if file_type.is_dir() {
            if !name.starts_with('.') && !SKIPPED_DIRECTORIES.contains(&name.as_str()) {
                walk(&path, &child_display, inputs)?;
            }
            continue;
        }
        let Some(syntax) = Syntax::from_path(&path) else {
            continue;
        };
        if file_type.is_symlink() && !fs::metadata(&path).is_ok_and(|target| target.is_file()) {
            continue;
        }
        inputs.push(Input {
            path: child_display,
            origin: Origin::File(path),
            syntax,
            named: false,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_config_files_in_name_order_and_skips_hidden_target_and_node_modules() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for dir in ["b", ".git", "target", "node_modules", "a"] {
            fs::create_dir(root.join(dir)).expect("mkdir");
        }
        for file in [
            "b/z.yaml",
            "b/a.toml",
            "a/c.yml",
            "a/notes.txt",
            ".git/x.yaml",
            "target/x.yaml",
            "node_modules/x.yaml",
            "top.yaml",
        ] {
            fs::write(root.join(file), "").expect("write");
        }
        let inputs = discover(&[root.to_path_buf()], None).expect("discover");
        let prefix = display_path(root);
        let shown: Vec<String> = inputs
            .iter()
            .map(|input| {
                input
                    .path
                    .strip_prefix(&prefix)
                    .unwrap_or(&input.path)
                    .to_owned()
            })
            .collect();
        assert_eq!(shown, ["/a/c.yml", "/b/a.toml", "/b/z.yaml", "/top.yaml"]);
        assert!(inputs.iter().all(|input| !input.named));
        assert_eq!(inputs[1].syntax, Syntax::Toml);
    }

    #[test]
    fn named_files_are_kept_once_and_stdin_takes_its_syntax_from_the_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("config.txt");
        fs::write(&file, "").expect("write");
        let inputs = discover(
            &[file.clone(), PathBuf::from("-"), file.clone()],
            Some("piped.toml"),
        )
        .expect("discover");
        assert_eq!(inputs.len(), 2);
        assert!(inputs[0].named);
        assert_eq!(inputs[0].syntax, Syntax::Yaml);
        assert_eq!(inputs[1].path, "piped.toml");
        assert_eq!(inputs[1].origin, Origin::Stdin);
        assert_eq!(inputs[1].syntax, Syntax::Toml);
    }

    #[test]
    fn a_missing_path_is_an_error_naming_it() {
        let error = discover(&[PathBuf::from("no/such/file.yaml")], None).expect_err("missing");
        assert_eq!(error.path, "no/such/file.yaml");
        assert_eq!(error.to_string(), "cannot read `no/such/file.yaml`");
    }
}
