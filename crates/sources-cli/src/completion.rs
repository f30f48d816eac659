//! What the shell completes from what `sources` knows, through clap_complete's dynamic completion
//! (the shell asks the binary, `COMPLETE=SHELL sources -- WORDS…`, which `sources completions
//! SHELL` registers): rule codes after `--select`, `--extend-select`, `--ignore` and `explain`,
//! and the entry names of the configuration `try` reads after `try`.

use std::ffi::OsStr;

use clap_complete::CompletionCandidate;
use sources_diagnostics::Rule;
use sources_syntax::Syntax;

use crate::config_file;
use crate::inputs::MAX_FILE_BYTES;

/// Every rule code, with its summary as the description shells show beside it.
pub fn rule_codes() -> Vec<CompletionCandidate> {
    Rule::ALL
        .iter()
        .map(|rule| CompletionCandidate::new(rule.code()).help(Some(rule.summary().into())))
        .collect()
}

/// The entries of `data.sources` whose names start with `current`, from the configuration `try`
/// reads without `-c` (`SOURCES_CONFIG`, or the nearest `sources.yaml`, `.yml`, `.toml`); none
/// when there is none or it cannot be read.
pub fn entry_names(current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(prefix) = current.to_str() else {
        return Vec::new();
    };
    let Ok(config_file::Located { path, .. }) = config_file::locate_from_process(None) else {
        return Vec::new();
    };
    let fits = std::fs::metadata(&path).is_ok_and(|meta| meta.len() <= MAX_FILE_BYTES);
    let Some(text) = fits.then(|| std::fs::read_to_string(&path).ok()).flatten() else {
        return Vec::new();
    };
    let syntax = Syntax::from_path(&path).unwrap_or(Syntax::Yaml);
    let Some(root) = sources_syntax::parse(&text, syntax).root else {
        return Vec::new();
    };
    let (config, _) = sources_config::decode(root);
    config
        .names()
        .filter(|name| name.starts_with(prefix))
        .map(CompletionCandidate::new)
        .collect()
}
