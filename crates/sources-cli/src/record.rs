//! `sources try NAME --record`: what the entry gave, written as a sample beside the configuration
//! (`sources_eval::samples`), for lint and the editor to check references into its data.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;
use sources_config::{Config, Source};

use crate::Outcome;

/// What a recording needs besides the value.
#[derive(Debug)]
pub struct Recorder {
    /// The configuration file.
    pub config_path: PathBuf,
    /// The entry's fingerprint as written now.
    pub fingerprint: u64,
    /// The parameter values supplied.
    pub params: BTreeMap<String, String>,
    /// Parameters whose values are secret (`secret_params`): redacted in the sample.
    pub secret_names: Vec<String>,
}

impl Recorder {
    /// Writes the sample when the run gave a value, and says where on standard error; a run that
    /// failed records nothing.
    pub fn save<E>(&self, source: &Source, outcome: &Result<(Outcome, Option<Value>), E>) {
        let Ok((Outcome::Success, Some(value))) = outcome else {
            return;
        };
        let recorded = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        let recording = sources_eval::samples::Recording {
            source,
            fingerprint: self.fingerprint,
            params: &self.params,
            secret_names: &self.secret_names,
            recorded: &recorded,
            value,
        };
        match sources_eval::samples::write(&self.config_path, &recording) {
            Ok(path) => eprintln!(
                "sources: recorded a sample of `{}` in {}",
                source.name.value,
                path.display()
            ),
            Err(error) => eprintln!(
                "sources: could not record a sample of `{}`: {error}",
                source.name.value
            ),
        }
    }
}

/// The parameters whose values are secret, with their defaults: declared `mask: true` or named
/// like a credential (token, password, secret, key, auth…) in any entry.
pub fn secret_params(config: &Config) -> Vec<(String, Option<String>)> {
    let mut found = Vec::new();
    for source in &config.entries {
        let Some(parameters) = source
            .body
            .common()
            .and_then(|common| common.parameters.as_ref())
        else {
            continue;
        };
        for param in parameters.value.iter() {
            let declaration = &param.value.value;
            let masked = declaration.mask.as_ref().is_some_and(|mask| mask.value);
            if masked || sources_eval::trace::is_credential(&param.name.value) {
                let default = declaration
                    .default
                    .as_ref()
                    .map(|default| default.value.clone());
                found.push((param.name.value.clone(), default));
            }
        }
    }
    found
}
