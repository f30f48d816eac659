//! Finding the files to lint and reading them: named files, directory walks and standard input.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use sources_check::walk::{self, Found, WalkOptions};
use sources_syntax::Syntax;

pub use sources_check::input::MAX_FILE_BYTES;

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
    /// The directory a write back to this file (`--fix`, `--add-suppressions`) must stay in once
    /// symbolic links are followed: the walked directory, or a named file's own directory.
    pub root: PathBuf,
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

/// The inputs named by `paths` (`-` is standard input, a directory is walked, honouring ignore
/// files when `respect_ignore`), in command-line order, each file once. `stdin_filename` names
/// standard input and picks its syntax.
pub fn discover(
    paths: &[PathBuf],
    stdin_filename: Option<&str>,
    respect_ignore: bool,
) -> Result<Vec<Input>, ReadError> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            let name = stdin_filename.unwrap_or(STDIN_NAME);
            inputs.push(Input {
                path: name.to_owned(),
                origin: Origin::Stdin,
                syntax: syntax_of(Path::new(name)),
                named: true,
                root: PathBuf::from("."),
            });
            continue;
        }
        let display = display_path(path);
        let metadata = fs::metadata(path).map_err(|source| ReadError {
            path: display.clone(),
            source,
        })?;
        if metadata.is_dir() {
            walk(path, &display, respect_ignore, &mut inputs)?;
        } else {
            inputs.push(Input {
                path: display,
                origin: Origin::File(path.clone()),
                syntax: syntax_of(path),
                named: true,
                root: match path.parent() {
                    Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
                    _ => PathBuf::from("."),
                },
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

/// `input` as its content shows it: standard input named by no `--stdin-filename` (so taken for
/// YAML) is TOML when its first line that is not blank or a comment is a TOML table header or
/// `key = value`, and the text does not read as a YAML mapping (a TOML document read as YAML is a
/// syntax error or one long string).
pub fn recognise(input: &Input, content: &Content) -> Option<Input> {
    let (Origin::Stdin, Syntax::Yaml, true, Content::Bytes(bytes)) = (
        &input.origin,
        input.syntax,
        input.path == STDIN_NAME,
        content,
    ) else {
        return None;
    };
    let text = std::str::from_utf8(bytes).ok()?;
    if !starts_like_toml(text) {
        return None;
    }
    let yaml = sources_syntax::parse(text, Syntax::Yaml);
    let a_yaml_map = yaml.errors.is_empty()
        && matches!(
            yaml.root.as_ref().map(|root| &root.value),
            Some(sources_syntax::Value::Map(_))
        );
    (!a_yaml_map).then(|| Input {
        syntax: Syntax::Toml,
        ..input.clone()
    })
}

/// Whether the first line of `text` that is not blank or a comment is a TOML table header
/// (`[data.sources.apps]`, `[[x]]`) or a `key = value` line with a bare or quoted dotted key.
fn starts_like_toml(text: &str) -> bool {
    let Some(line) = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))
    else {
        return false;
    };
    if let Some(inner) = line.strip_prefix('[') {
        let inner = inner.strip_prefix('[').unwrap_or(inner);
        let Some(end) = inner.find(']') else {
            return false;
        };
        let key = &inner[..end];
        return !key.is_empty() && !key.contains(',') && is_toml_key(key);
    }
    match line.split_once('=') {
        Some((key, _)) => !key.trim().is_empty() && is_toml_key(key.trim()),
        None => false,
    }
}

/// Whether `key` is a dotted TOML key of bare (`A-Za-z0-9_-`) or quoted parts.
fn is_toml_key(key: &str) -> bool {
    key.split('.').map(str::trim).all(|part| {
        let quoted = part.len() >= 2
            && ((part.starts_with('"') && part.ends_with('"'))
                || (part.starts_with('\'') && part.ends_with('\'')));
        quoted
            || (!part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    })
}

/// TOML for `.toml`, YAML for everything else.
fn syntax_of(path: &Path) -> Syntax {
    Syntax::from_path(path).unwrap_or(Syntax::Yaml)
}

/// A path as shown to the user: lossless where possible, with `/` separators.
fn display_path(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// Adds every configuration file under `dir` as `sources_check::walk` finds them (in name order,
/// without hidden files, `target`, `node_modules` and, with `respect_ignore`, what ignore files
/// ignore), saying on standard error which ignore files could not be used.
fn walk(
    dir: &Path,
    display: &str,
    respect_ignore: bool,
    inputs: &mut Vec<Input>,
) -> Result<(), ReadError> {
    let options = WalkOptions {
        respect_ignore,
        max_depth: None,
    };
    for found in walk::configuration_files(dir, options) {
        match found.map_err(|error| walk_error(error, dir, display))? {
            Found::IgnoreFileProblem(error) => eprintln!("sources: warning: {error}"),
            Found::File { path, syntax } => inputs.push(Input {
                path: shown_under(display, dir, &path),
                origin: Origin::File(path),
                syntax,
                named: false,
                root: dir.to_path_buf(),
            }),
        }
    }
    Ok(())
}

/// How a path found under the walked `dir` (shown as `display`) is shown: `display`, then the
/// path below it (no `./` in front when `display` is `.`).
fn shown_under(display: &str, dir: &Path, path: &Path) -> String {
    let below = display_path(path.strip_prefix(dir).unwrap_or(path));
    match display.trim_end_matches('/') {
        "." => below,
        parent => format!("{parent}/{below}"),
    }
}

/// A directory the walk could not read, named as the walk shows it.
fn walk_error(error: ignore::Error, dir: &Path, display: &str) -> ReadError {
    let path = error_path(&error).map_or_else(
        || display.to_owned(),
        |path| match path.strip_prefix(dir) {
            Ok(below) if below.as_os_str().is_empty() => display.to_owned(),
            _ => shown_under(display, dir, path),
        },
    );
    let message = error.to_string();
    let source = error
        .into_io_error()
        .unwrap_or_else(|| io::Error::other(message));
    ReadError { path, source }
}

/// The path an error of the walk is about, when it names one.
fn error_path(error: &ignore::Error) -> Option<&Path> {
    match error {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unnamed_standard_input_is_recognised_as_toml_by_its_text() {
        let stdin = |name: &str| Input {
            path: name.to_owned(),
            origin: Origin::Stdin,
            syntax: syntax_of(Path::new(name)),
            named: true,
            root: PathBuf::from("."),
        };
        let syntax = |name: &str, text: &str| {
            let input = stdin(name);
            let content = Content::Bytes(text.as_bytes().to_vec());
            recognise(&input, &content).map_or(input.syntax, |input| input.syntax)
        };
        let table = "# inventory\n[data.sources.inventory]\ntype = \"http\"\n";
        assert_eq!(syntax(STDIN_NAME, table), Syntax::Toml);
        assert_eq!(
            syntax(STDIN_NAME, "data.sources.a.type = \"http\"\n"),
            Syntax::Toml
        );
        assert_eq!(
            syntax(STDIN_NAME, "[data.sources.a]\ntype = \n"),
            Syntax::Toml
        );
        assert_eq!(syntax(STDIN_NAME, "data:\n  sources: {}\n"), Syntax::Yaml);
        assert_eq!(syntax(STDIN_NAME, "[a, b]\n"), Syntax::Yaml);
        assert_eq!(syntax(STDIN_NAME, "a = b: c\n"), Syntax::Yaml);
        // A name given with `--stdin-filename` decides.
        assert_eq!(syntax("config.yaml", table), Syntax::Yaml);
    }

    /// The paths `discover` finds under `root`, shown relative to it.
    fn walked(root: &Path, respect_ignore: bool) -> Vec<String> {
        let inputs = discover(&[root.to_path_buf()], None, respect_ignore).expect("discover");
        assert!(inputs.iter().all(|input| !input.named));
        let prefix = display_path(root);
        inputs
            .iter()
            .map(|input| {
                input
                    .path
                    .strip_prefix(&prefix)
                    .unwrap_or(&input.path)
                    .to_owned()
            })
            .collect()
    }

    #[test]
    fn walks_config_files_in_name_order_and_skips_hidden_target_node_modules_and_ignored() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for dir in [
            "b",
            ".git",
            "target",
            "node_modules",
            "a",
            "built",
            "a/deep",
        ] {
            fs::create_dir(root.join(dir)).expect("mkdir");
        }
        for (file, text) in [
            ("b/z.yaml", ""),
            ("b/a.toml", ""),
            ("a/c.yml", ""),
            ("a/notes.txt", ""),
            ("a/deep/kept.yaml", ""),
            ("a/deep/scratch.yaml", ""),
            (".git/x.yaml", ""),
            (".hidden.yaml", ""),
            ("target/x.yaml", ""),
            ("node_modules/x.yaml", ""),
            ("built/x.yaml", ""),
            ("top.yaml", ""),
            (".gitignore", "built/\n"),
            ("a/.ignore", "scratch.yaml\n"),
        ] {
            fs::write(root.join(file), text).expect("write");
        }
        assert_eq!(
            walked(root, true),
            [
                "/a/c.yml",
                "/a/deep/kept.yaml",
                "/b/a.toml",
                "/b/z.yaml",
                "/top.yaml"
            ]
        );
        assert_eq!(
            walked(root, false),
            [
                "/a/c.yml",
                "/a/deep/kept.yaml",
                "/a/deep/scratch.yaml",
                "/b/a.toml",
                "/b/z.yaml",
                "/built/x.yaml",
                "/top.yaml"
            ]
        );
        let inputs = discover(&[root.join("b")], None, true).expect("discover");
        assert_eq!(inputs[0].syntax, Syntax::Toml);
    }

    #[test]
    fn a_walk_from_the_current_directory_shows_paths_without_a_leading_dot() {
        let dir = tempfile::tempdir().expect("tempdir");
        fs::create_dir(dir.path().join("a")).expect("mkdir");
        let file = dir.path().join("a/c.yaml");
        fs::write(&file, "").expect("write");
        assert_eq!(
            shown_under(".", Path::new("."), Path::new("./a/c.yaml")),
            "a/c.yaml"
        );
        assert_eq!(
            shown_under("dir/", Path::new("dir/"), Path::new("dir/a/c.yaml")),
            "dir/a/c.yaml"
        );
        let root = display_path(dir.path());
        assert_eq!(
            shown_under(&root, dir.path(), &file),
            format!("{root}/a/c.yaml")
        );
    }

    #[test]
    fn named_files_are_kept_once_and_stdin_takes_its_syntax_from_the_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("config.txt");
        fs::write(&file, "").expect("write");
        let inputs = discover(
            &[file.clone(), PathBuf::from("-"), file.clone()],
            Some("piped.toml"),
            true,
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
        let error =
            discover(&[PathBuf::from("no/such/file.yaml")], None, true).expect_err("missing");
        assert_eq!(error.path, "no/such/file.yaml");
        assert_eq!(error.to_string(), "cannot read `no/such/file.yaml`");
    }
}
