//! The seed corpus: every YAML and TOML configuration under a directory (the repository's
//! `testdata/`), and the vocabulary harvested from it for structure-aware mutations.

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};

use sources_syntax::Syntax;

/// One configuration file to mutate.
#[derive(Clone, Debug)]
pub struct Seed {
    /// Its path relative to the corpus root.
    pub name: String,
    /// Its text.
    pub text: String,
    /// YAML or TOML, from its extension.
    pub syntax: Syntax,
}

/// The seeds and the names they use.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// Every seed, sorted by name (so a run is the same on every machine).
    pub seeds: Vec<Seed>,
    /// Every key written in any seed (field names, entry names, parameter names).
    pub keys: Vec<String>,
    /// Every `type` value written in any seed (the kinds).
    pub kinds: Vec<String>,
}

impl Corpus {
    /// Loads every `.yaml`, `.yml` and `.toml` file under `root` that is UTF-8 text.
    pub fn load(root: &Path) -> io::Result<Corpus> {
        let mut paths = Vec::new();
        walk(root, &mut paths)?;
        paths.sort();
        let mut seeds = Vec::new();
        for path in paths {
            let Some(syntax) = Syntax::from_path(&path) else {
                continue;
            };
            let Ok(text) = String::from_utf8(std::fs::read(&path)?) else {
                continue;
            };
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            seeds.push(Seed { name, text, syntax });
        }
        if seeds.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("no YAML or TOML file under {}", root.display()),
            ));
        }
        Ok(Corpus::from_seeds(seeds))
    }

    /// A corpus of the given seeds, with their vocabulary.
    pub fn from_seeds(seeds: Vec<Seed>) -> Corpus {
        let mut keys = BTreeSet::new();
        let mut kinds = BTreeSet::new();
        for seed in &seeds {
            for line in seed.text.lines() {
                if let Some((key, value)) = key_value(line) {
                    if key == "type" {
                        let kind = value.trim_matches(['"', '\'', ' ']);
                        if is_name(kind) {
                            kinds.insert(kind.to_owned());
                        }
                    }
                    keys.insert(key.to_owned());
                }
            }
        }
        Corpus {
            seeds,
            keys: keys.into_iter().collect(),
            kinds: kinds.into_iter().collect(),
        }
    }
}

/// The key and value of a `key: value` (YAML) or `key = value` (TOML) line.
pub fn key_value(line: &str) -> Option<(&str, &str)> {
    let trimmed = line.trim_start().trim_start_matches("- ");
    let at = trimmed.find([':', '='])?;
    let key = trimmed[..at].trim_end();
    is_name(key).then(|| (key, trimmed[at + 1..].trim()))
}

/// Whether `text` is a plain identifier-like name.
fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Every file below `dir`.
fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, found)?;
        } else {
            found.push(path);
        }
    }
    Ok(())
}
