//! Reading sample files: what `sources try NAME --record` (and the editor's "▶ try" lens, on
//! request) recorded of an entry, beside the configuration in `.sources/samples/`, read back as
//! [`ShapeInputs`] for the analysis and as each entry's first row for the editor. Writing them is
//! the evaluator's (`sources_eval::samples`), which uses [`dir`] and [`VERSION`] from here.
//!
//! Reading is bounded: a file over [`MAX_FILE_BYTES`] or that does not parse is skipped, at most
//! [`MAX_FILES`] are read, and a sample of an entry written differently since (its fingerprint) is
//! stale: the analysis ignores it. A missing or stale sample means "unknown", never an error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sources_check::shape::Shape;
use sources_check::shapes::{Sample, ShapeInputs};

/// Where samples live, relative to the configuration file's directory.
pub const SAMPLES_DIR: &str = ".sources/samples";

/// Sample files larger than this are not read.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The most sample files read from one directory.
pub const MAX_FILES: usize = 1_000;

/// The format version written in every sample; a sample of another version is skipped.
pub const VERSION: u64 = 1;

/// The sample directory of the configuration at `config_path`.
pub fn dir(config_path: &Path) -> PathBuf {
    config_path
        .parent()
        .unwrap_or_else(|| Path::new(""))
        .join(SAMPLES_DIR)
}

/// The texts of the sample files beside the configuration at `config_path`: at most
/// [`MAX_FILES`], none over [`MAX_FILE_BYTES`]; unreadable files are skipped.
fn sample_texts(config_path: &Path) -> impl Iterator<Item = String> {
    std::fs::read_dir(dir(config_path))
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_FILES)
        .filter_map(|item| {
            let path = item.path();
            if path.extension().and_then(|ext| ext.to_str()) != Some("json") {
                return None;
            }
            let meta = item.metadata().ok()?;
            if meta.len() > MAX_FILE_BYTES {
                return None;
            }
            std::fs::read_to_string(&path).ok()
        })
}

/// Reads every sample beside the configuration at `config_path`: one [`Sample`] per entry, the
/// shapes of its parameter sets joined, the latest time kept. Unreadable files are skipped.
pub fn read(config_path: &Path) -> ShapeInputs {
    let mut inputs = ShapeInputs::default();
    for text in sample_texts(config_path) {
        let Some((entry, sample)) = parse(&text) else {
            continue;
        };
        match inputs.samples.remove(&entry) {
            Some(known) if known.fingerprint == sample.fingerprint => {
                let recorded = known.recorded.max(sample.recorded);
                inputs.samples.insert(
                    entry,
                    Sample {
                        shape: known.shape.join(sample.shape),
                        recorded,
                        fingerprint: known.fingerprint,
                    },
                );
            }
            // Of two fingerprints, the later recording describes the entry as it is more likely.
            Some(known) if known.recorded > sample.recorded => {
                inputs.samples.insert(entry, known);
            }
            _ => {
                inputs.samples.insert(entry, sample);
            }
        }
    }
    inputs
}

/// One recorded row of an entry: what the editor shows as a column's sample value.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// The entry's fingerprint when it was recorded (a different one now means it is stale).
    pub fingerprint: u64,
    /// When it was recorded (RFC 3339).
    pub recorded: String,
    /// The first row of the recorded value (the value itself when it is not a list).
    pub row: Value,
}

/// The latest recorded row of every entry with a sample beside the configuration at
/// `config_path` (bounded as [`read`] is).
pub fn examples(config_path: &Path) -> BTreeMap<String, Example> {
    let mut found: BTreeMap<String, Example> = BTreeMap::new();
    for text in sample_texts(config_path) {
        let Ok(document) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let (Some(entry), Some(recorded), Some(fingerprint), Some(value)) = (
            document.get("entry").and_then(Value::as_str),
            document.get("recorded").and_then(Value::as_str),
            document
                .get("fingerprint")
                .and_then(Value::as_str)
                .and_then(|hex| u64::from_str_radix(hex, 16).ok()),
            document.get("value"),
        ) else {
            continue;
        };
        if document.get("version").and_then(Value::as_u64) != Some(VERSION)
            || found
                .get(entry)
                .is_some_and(|known| known.recorded.as_str() >= recorded)
        {
            continue;
        }
        let row = match value {
            Value::Array(rows) => match rows.first() {
                Some(row) => row.clone(),
                None => continue,
            },
            other => other.clone(),
        };
        found.insert(
            entry.to_owned(),
            Example {
                fingerprint,
                recorded: recorded.to_owned(),
                row,
            },
        );
    }
    found
}

/// One sample file's entry and sample, if it is one.
pub fn parse(text: &str) -> Option<(String, Sample)> {
    let document: Value = serde_json::from_str(text).ok()?;
    if document.get("version")?.as_u64()? != VERSION {
        return None;
    }
    let entry = document.get("entry")?.as_str()?.to_owned();
    let recorded = document.get("recorded")?.as_str()?.to_owned();
    let fingerprint = u64::from_str_radix(document.get("fingerprint")?.as_str()?, 16).ok()?;
    let shape = Shape::of_json(document.get("value")?);
    Some((
        entry,
        Sample {
            shape,
            recorded,
            fingerprint,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_foreign_and_missing_samples_are_skipped() {
        let dir = tempfile::tempdir().expect("temp dir");
        let config_path = dir.path().join("sources.yaml");
        assert!(read(&config_path).samples.is_empty(), "no directory");
        let samples = super::dir(&config_path);
        std::fs::create_dir_all(&samples).expect("dir");
        std::fs::write(samples.join("a.json"), "{not json").expect("write");
        std::fs::write(samples.join("b.json"), r#"{"version": 9, "entry": "b"}"#).expect("write");
        std::fs::write(samples.join("c.txt"), "x").expect("write");
        assert!(read(&config_path).samples.is_empty());
    }
}
