//! Finding and reading `sources-lint.toml` on disk, for every front end: walking up from a
//! linted file's directory (`sources-lint.toml` before `.sources-lint.toml` in each), or the file
//! named with `--settings`; then parsing and validating it (`settings`) and compiling its
//! `[files]` globs. The only module of this crate that touches the file system, and it reads
//! settings files only.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::{GlobSet, GlobSetBuilder};

use crate::settings::{FILE_NAME, Glob, HIDDEN_FILE_NAME, Settings, SettingsError};

/// A settings file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// It could not be read.
    #[error("cannot read the settings file `{path}`")]
    Read {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// It is not valid: every mistake, each an `invalid-settings` diagnostic of the file.
    #[error("{}", invalid_lines(.path, .errors))]
    Invalid {
        /// The file.
        path: String,
        /// Its text, for the diagnostics' positions.
        text: String,
        /// What is wrong, and where in it, in the order written.
        errors: Vec<SettingsError>,
    },
}

/// One line per mistake, as the short format writes a diagnostic.
fn invalid_lines(path: &str, errors: &[SettingsError]) -> String {
    let lines: Vec<String> = errors
        .iter()
        .map(|error| {
            format!(
                "{path}:{}:{}: error[invalid-settings]: {}",
                error.line, error.column, error.message
            )
        })
        .collect();
    lines.join("\n")
}

impl Error {
    /// The whole message, with the cause of a read error: what `sources lint` prints.
    pub fn describe(&self) -> String {
        match self {
            Error::Read { source, .. } => format!("{self}: {source}"),
            Error::Invalid { .. } => self.to_string(),
        }
    }
}

/// A settings file read from disk.
#[derive(Clone, Debug)]
pub struct Found {
    /// Where it is.
    pub path: PathBuf,
    /// What it says.
    pub settings: Settings,
    /// `[files] include`, compiled (`None`: no include globs, every walked file).
    include: Option<GlobSet>,
    /// `[files] exclude`, compiled.
    exclude: GlobSet,
}

impl Found {
    /// Whether a directory walk lints `path`: it matches an include glob (when there are any) and
    /// no exclude glob, relative to the settings file's directory.
    pub fn walks(&self, path: &Path) -> bool {
        let base = self.path.parent().unwrap_or(Path::new(""));
        let path = absolute(path);
        let relative = path.strip_prefix(absolute(base)).unwrap_or(&path);
        self.include
            .as_ref()
            .is_none_or(|set| set.is_match(relative))
            && !self.exclude.is_match(relative)
    }
}

/// Compiles globs; each one that does not compile is a mistake at its string.
fn compile(globs: &[Glob], errors: &mut Vec<SettingsError>) -> GlobSet {
    let mut set = GlobSetBuilder::new();
    for glob in globs {
        match globset::Glob::new(&glob.pattern) {
            Ok(compiled) => {
                set.add(compiled);
            }
            Err(error) => errors.push(SettingsError {
                line: glob.line,
                column: glob.column,
                span: glob.span,
                message: format!("invalid glob `{}`: {}", glob.pattern, error.kind()),
            }),
        }
    }
    // Every glob added compiled alone, so the set builds; an empty set matches nothing.
    set.build().unwrap_or_else(|_| GlobSet::empty())
}

/// Finds the settings in force for files, caching what each directory resolves to. What it finds
/// is shared (`Arc`), so files linted on several threads hold their settings without a copy.
#[derive(Debug, Default)]
pub struct Finder {
    /// The file named with `--settings`, which applies to every file.
    named: Option<Arc<Found>>,
    /// What each directory resolves to.
    cache: HashMap<PathBuf, Option<Arc<Found>>>,
    /// Whether settings files are ignored (every rule at its default level).
    isolated: bool,
}

impl Finder {
    /// A finder that uses `named` (from `--settings`) for every file, or walks up when `None`.
    pub fn new(named: Option<&Path>) -> Result<Finder, Error> {
        let named = named.map(read).transpose()?.map(Arc::new);
        Ok(Finder {
            named,
            cache: HashMap::new(),
            isolated: false,
        })
    }

    /// A finder that finds no settings: every file gets every rule at its default level.
    pub fn isolated() -> Finder {
        Finder {
            isolated: true,
            ..Finder::default()
        }
    }

    /// The settings in force for a file at `path` (standard input: the current directory's).
    pub fn for_file(&mut self, path: Option<&Path>) -> Result<Option<Arc<Found>>, Error> {
        if self.named.is_some() || self.isolated {
            return Ok(self.named.clone());
        }
        let start = match path {
            Some(path) => absolute(path).parent().map(Path::to_path_buf),
            None => std::env::current_dir().ok(),
        };
        let Some(start) = start else {
            return Ok(None);
        };
        if let Some(found) = self.cache.get(&start) {
            return Ok(found.clone());
        }
        let found = find(&start)?.map(Arc::new);
        self.cache.insert(start, found.clone());
        Ok(found)
    }
}

/// The settings file nearest to `dir`, walking up: `sources-lint.toml` first, then
/// `.sources-lint.toml`, in each directory.
pub fn find(dir: &Path) -> Result<Option<Found>, Error> {
    for dir in dir.ancestors() {
        for name in [FILE_NAME, HIDDEN_FILE_NAME] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return read(&candidate).map(Some);
            }
        }
    }
    Ok(None)
}

/// Whether `path` names a settings file (by its file name), such as a changed file a client
/// reports.
pub fn is_settings_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name == FILE_NAME || name == HIDDEN_FILE_NAME)
}

/// Reads and validates one settings file.
pub fn read(path: &Path) -> Result<Found, Error> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| Error::Read {
        path: shown.clone(),
        source,
    })?;
    let (settings, mut errors) =
        Settings::parse_all(&text).unwrap_or_else(|errors| (Settings::default(), errors));
    let include = if settings.include.is_empty() {
        None
    } else {
        Some(compile(&settings.include, &mut errors))
    };
    let exclude = compile(&settings.exclude, &mut errors);
    if !errors.is_empty() {
        errors.sort_by_key(|error| error.span.start());
        return Err(Error::Invalid {
            path: shown,
            text,
            errors,
        });
    }
    Ok(Found {
        path: path.to_path_buf(),
        settings,
        include,
        exclude,
    })
}

/// `path` made absolute against the current directory (unchanged when that is unknown).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_file_wins_and_the_plain_name_before_the_hidden_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sub = dir.path().join("a/b");
        std::fs::create_dir_all(&sub).expect("mkdir");
        assert!(
            find(&sub)
                .expect("no settings is fine")
                .is_none_or(|found| {
                    // A settings file above the temporary directory is not ours to judge.
                    !found.path.starts_with(dir.path())
                })
        );
        std::fs::write(dir.path().join(FILE_NAME), "[rules]\nsyntax = \"error\"\n").expect("write");
        std::fs::write(dir.path().join("a").join(HIDDEN_FILE_NAME), "").expect("write");
        let found = find(&sub).expect("valid").expect("found");
        assert_eq!(found.path, dir.path().join("a").join(HIDDEN_FILE_NAME));
        std::fs::write(dir.path().join("a").join(FILE_NAME), "").expect("write");
        let found = find(&sub).expect("valid").expect("found");
        assert_eq!(found.path, dir.path().join("a").join(FILE_NAME));
    }

    #[test]
    fn an_invalid_file_names_itself_the_line_and_a_suggestion() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, "[rules]\nunknown-fild = \"off\"\n").expect("write");
        let error = find(dir.path()).expect_err("invalid");
        assert_eq!(
            error.describe(),
            format!(
                "{}:2:1: error[invalid-settings]: unknown rule `unknown-fild`: did you mean \
                 `unknown-field`?",
                path.display()
            )
        );
        std::fs::write(
            &path,
            "[files]\nexclude = [\"a[\"]\ninclude = [\"b{\"]\n[rules]\nsyntax = \"loud\"\n",
        )
        .expect("write");
        let error = find(dir.path()).expect_err("invalid globs and level");
        let lines: Vec<String> = error
            .describe()
            .lines()
            .map(|line| line.replace(&path.display().to_string(), "S"))
            .collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(
            lines[0].starts_with("S:2:12: error[invalid-settings]: invalid glob `a[`: "),
            "{lines:?}"
        );
        assert!(
            lines[1].starts_with("S:3:12: error[invalid-settings]: invalid glob `b{`: "),
            "{lines:?}"
        );
        assert_eq!(
            lines[2],
            "S:5:10: error[invalid-settings]: `syntax` must be one of `error`, `warning` or `off`, \
             not `\"loud\"`"
        );
    }

    #[test]
    fn an_unreadable_file_says_why() {
        let dir = tempfile::tempdir().expect("tempdir");
        // A directory by the settings file's name cannot be read as one.
        let error = read(dir.path()).expect_err("a directory is not a file");
        let message = error.describe();
        assert!(
            message.starts_with(&format!(
                "cannot read the settings file `{}`: ",
                dir.path().display()
            )),
            "{message}"
        );
    }

    #[test]
    fn settings_file_names_are_recognised_by_file_name() {
        assert!(is_settings_file(Path::new("/p/sources-lint.toml")));
        assert!(is_settings_file(Path::new("/p/.sources-lint.toml")));
        assert!(!is_settings_file(Path::new("/p/sources-lint.toml.bak")));
    }
}
