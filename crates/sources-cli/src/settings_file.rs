//! Finding and reading `sources-lint.toml`: walking up from a linted file's directory, or the file
//! named with `--settings`. Parsing, validation and applying the levels live in
//! `sources_check::settings`.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use globset::{GlobSet, GlobSetBuilder};
use sources_check::settings::{FILE_NAME, Glob, HIDDEN_FILE_NAME, Settings, SettingsError};

/// A settings file that could not be used (exit code 2).
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
    /// It is not valid.
    #[error("invalid settings file `{path}:{}:{}`: {}", .error.line, .error.column, .error.message)]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong, and where in it.
        error: SettingsError,
    },
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

/// Compiles globs, naming the first invalid one at its line.
fn compile(globs: &[Glob], path: &str) -> Result<GlobSet, Error> {
    let mut set = GlobSetBuilder::new();
    for glob in globs {
        let compiled = globset::Glob::new(&glob.pattern).map_err(|error| Error::Invalid {
            path: path.to_owned(),
            error: SettingsError {
                line: glob.line,
                column: 1,
                message: format!("invalid glob `{}`: {}", glob.pattern, error.kind()),
            },
        })?;
        set.add(compiled);
    }
    set.build().map_err(|error| Error::Invalid {
        path: path.to_owned(),
        error: SettingsError {
            line: 1,
            column: 1,
            message: error.to_string(),
        },
    })
}

/// Finds the settings in force for files, caching what each directory resolves to.
#[derive(Debug, Default)]
pub struct Finder {
    /// The file named with `--settings`, which applies to every file.
    named: Option<Found>,
    /// What each directory resolves to.
    cache: HashMap<PathBuf, Option<Found>>,
}

impl Finder {
    /// A finder that uses `named` (from `--settings`) for every file, or walks up when `None`.
    pub fn new(named: Option<&Path>) -> Result<Finder, Error> {
        let named = named.map(read).transpose()?;
        Ok(Finder {
            named,
            cache: HashMap::new(),
        })
    }

    /// The settings in force for a file at `path` (standard input: the current directory's).
    pub fn for_file(&mut self, path: Option<&Path>) -> Result<Option<&Found>, Error> {
        if self.named.is_some() {
            return Ok(self.named.as_ref());
        }
        let start = match path {
            Some(path) => absolute(path).parent().map(Path::to_path_buf),
            None => std::env::current_dir().ok(),
        };
        let Some(start) = start else {
            return Ok(None);
        };
        if !self.cache.contains_key(&start) {
            let found = find(&start)?;
            self.cache.insert(start.clone(), found);
        }
        Ok(self.cache.get(&start).and_then(Option::as_ref))
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

/// Reads and validates one settings file.
pub fn read(path: &Path) -> Result<Found, Error> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| Error::Read {
        path: shown.clone(),
        source,
    })?;
    let settings = Settings::parse(&text).map_err(|error| Error::Invalid {
        path: shown.clone(),
        error,
    })?;
    let include = if settings.include.is_empty() {
        None
    } else {
        Some(compile(&settings.include, &shown)?)
    };
    let exclude = compile(&settings.exclude, &shown)?;
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

/// Writes the settings in force (`found`, or none) for a file: every rule's level and where it
/// came from (`default`, or the settings file and line), then the `[files]` globs.
pub fn show(found: Option<&Found>, out: &mut dyn io::Write) -> io::Result<()> {
    match found {
        Some(found) => writeln!(out, "settings file: {}", shown(&found.path))?,
        None => writeln!(out, "settings file: none (every rule at its default level)")?,
    }
    let shown = found.map(|found| shown(&found.path));
    let default = Settings::default();
    let settings = found.map_or(&default, |found| &found.settings);
    for rule in sources_diagnostics::Rule::ALL {
        let (level, line) = settings.level(*rule);
        let from = match (&shown, line) {
            (Some(shown), Some(line)) => format!("{shown}:{line}"),
            _ => "default".to_owned(),
        };
        writeln!(out, "{:<32} {:<8} {from}", rule.code(), level.as_str())?;
    }
    for (name, globs) in [
        ("include", &settings.include),
        ("exclude", &settings.exclude),
    ] {
        for glob in globs {
            let from = shown.as_deref().unwrap_or_default();
            writeln!(
                out,
                "files.{name:<26} {:<8} {from}:{}",
                glob.pattern, glob.line
            )?;
        }
    }
    Ok(())
}

/// `path` relative to the current directory when it is under it, `/`-separated.
fn shown(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf));
    relative
        .as_deref()
        .unwrap_or(path)
        .display()
        .to_string()
        .replace('\\', "/")
}

/// The JSON Schema of `sources-lint.toml` (published as `schema/sources-lint.schema.json`), built
/// from the same rule registry, tables and levels the validation uses.
pub fn schema_text() -> String {
    use sources_check::settings::{FILE_KEYS, LEVELS};
    let level = serde_json::json!({ "enum": LEVELS });
    let rules: serde_json::Map<String, serde_json::Value> = sources_diagnostics::Rule::ALL
        .iter()
        .map(|rule| {
            let mut schema = level.clone();
            schema["description"] = rule.summary().into();
            (rule.code().to_owned(), schema)
        })
        .collect();
    let globs = serde_json::json!({ "type": "array", "items": { "type": "string" } });
    let files: serde_json::Map<String, serde_json::Value> = FILE_KEYS
        .iter()
        .map(|key| ((*key).to_owned(), globs.clone()))
        .collect();
    let tables = serde_json::json!({
        "rules": {
            "description": "Each rule's level: error, warning or off.",
            "type": "object",
            "properties": rules,
            "additionalProperties": false,
        },
        "files": {
            "description": "Globs choosing the files a directory walk lints.",
            "type": "object",
            "properties": files,
            "additionalProperties": false,
        },
    });
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "sources-lint.toml",
        "description": "Project settings for `sources lint` and the language server.",
        "type": "object",
        "properties": tables,
        "additionalProperties": false,
    });
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
