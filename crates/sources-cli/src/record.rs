//! `sources try NAME --record`: what the entry gave, written as a sample beside the configuration
//! (`sources_eval::samples`), for lint and the editor to check references into its data.

#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;
use sources_config::{Config, Source};

use crate::Outcome;
use crate::outputs::Stderr;

/// What a recording needs besides the value.
#[derive(Debug)]
pub struct Recorder {
    /// The configuration file.
    pub config_path: PathBuf,
    /// Its text as analysed.
    pub text: String,
    /// The parameter values supplied.
    pub params: BTreeMap<String, String>,
}

impl Recorder {
    /// Writes the sample when the run gave a value, and says where on standard error (`err`); a
    /// run that failed records nothing.
    pub fn save<E>(
        &self,
        config: &Config,
        source: &Source,
        outcome: &Result<(Outcome, Option<Value>), E>,
        err: &Stderr,
    ) {
        let Ok((Outcome::Success, Some(value))) = outcome else {
            return;
        };
        let recorded = sources_eval::samples::record(
            &self.config_path,
            &self.text,
            config,
            source,
            &self.params,
            value,
        );
        match recorded {
            Ok(path) => err.line(&format!(
                "sources: recorded a sample of `{}` in {}",
                source.name.value,
                path.display()
            )),
            Err(error) => err.line(&format!(
                "sources: could not record a sample of `{}`: {error}",
                source.name.value
            )),
        }
    }
}
