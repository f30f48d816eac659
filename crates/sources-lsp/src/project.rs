//! The project settings file (`sources-lint.toml`) for a `file://` document, as
//! `sources_check::settings_file` finds it walking up from the document's directory. It is read
//! again on every analysis, and open documents are analysed and published again when the client
//! reports a change to a settings file. Its rule levels apply first; the client's
//! `sources.severity` overrides them (`levels`).

use sources_check::settings::{FILE_NAME, HIDDEN_FILE_NAME, Settings};
use sources_check::settings_file;
use tower_lsp_server::ls_types::{
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, Registration, Uri,
};

/// The method a client notifies when a watched file changes.
const WATCHED_FILES: &str = "workspace/didChangeWatchedFiles";

/// The settings in force for `uri`: `Ok(None)` when it is not a file or no settings file is
/// above it; `Err` says which settings file is unusable and why.
pub(crate) fn for_uri(uri: &Uri) -> Result<Option<Settings>, String> {
    let Some(path) = uri.to_file_path() else {
        return Ok(None);
    };
    let Some(dir) = path.parent() else {
        return Ok(None);
    };
    settings_file::find(dir)
        .map(|found| found.map(|found| found.settings))
        .map_err(|error| error.describe())
}

/// The registration asking the client to report changes to settings files anywhere in the
/// workspace (`**/sources-lint.toml` and `**/.sources-lint.toml`).
pub(crate) fn watcher_registration() -> Registration {
    let watchers = [FILE_NAME, HIDDEN_FILE_NAME]
        .into_iter()
        .map(|name| FileSystemWatcher {
            glob_pattern: GlobPattern::String(format!("**/{name}")),
            kind: None,
        })
        .collect();
    let options = DidChangeWatchedFilesRegistrationOptions { watchers };
    Registration {
        id: WATCHED_FILES.to_owned(),
        method: WATCHED_FILES.to_owned(),
        register_options: serde_json::to_value(options).ok(),
    }
}

/// Whether a file the client reports changed is a settings file.
pub(crate) fn is_settings_file(uri: &Uri) -> bool {
    uri.to_file_path()
        .is_some_and(|path| settings_file::is_settings_file(&path))
}
