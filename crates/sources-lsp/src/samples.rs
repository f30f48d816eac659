//! What the server knows of a document's data: the demo backend's published shapes and the samples
//! recorded beside the document (`sources try NAME --record`), handed to the analysis, and each
//! entry's first recorded row, for the column values hover and inlay hints show. Both are read
//! through `sources_inputs` and kept until the samples directory changes (a recording moves
//! its file into place, which changes the directory's modification time).

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::SystemTime;

use sources_check::settings::Language;
use sources_check::shapes::ShapeInputs;
use tower_lsp_server::ls_types::Uri;

/// What was read per samples directory (and what else `K` tells apart), with the directory's
/// modification time then.
type Cache<K, T> = HashMap<K, (Option<SystemTime>, Arc<T>)>;

/// The recorded rows by entry, as `sources_inputs::samples::examples` reads them.
pub(crate) type Examples = BTreeMap<String, sources_inputs::samples::Example>;

/// What `load` reads for the document file at `path` from its samples directory, kept under
/// `key` of the directory and read again only when that directory changed; `None` when there is
/// no samples directory.
fn cached<K: Eq + Hash, T>(
    cache: &'static OnceLock<Mutex<Cache<K, T>>>,
    path: &Path,
    key: impl FnOnce(PathBuf) -> K,
    load: impl FnOnce(&Path) -> T,
) -> Option<Arc<T>> {
    let dir = sources_inputs::samples::dir(path);
    let modified = std::fs::metadata(&dir)
        .and_then(|meta| meta.modified())
        .ok();
    modified?;
    let dir = key(dir);
    let cache = cache.get_or_init(Mutex::default);
    if let Some((when, found)) = cache
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&dir)
        && *when == modified
    {
        return Some(Arc::clone(found));
    }
    let found = Arc::new(load(path));
    let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
    if cache.len() >= 64 {
        cache.clear();
    }
    cache.insert(dir, (modified, Arc::clone(&found)));
    Some(found)
}

/// The path of a `file:` URI (an `untitled:` one has none, though its path reads like one).
pub(crate) fn file_path(uri: &Uri) -> Option<PathBuf> {
    (uri.scheme().as_str() == "file")
        .then(|| uri.to_file_path())
        .flatten()
        .map(|path| path.into_owned())
}

/// The first recorded row of each entry with a sample beside the document at `uri`.
pub(crate) fn examples_for_uri(uri: &Uri) -> Arc<Examples> {
    static CACHE: OnceLock<Mutex<Cache<PathBuf, Examples>>> = OnceLock::new();
    file_path(uri)
        .and_then(|path| cached(&CACHE, &path, |dir| dir, sources_inputs::samples::examples))
        .unwrap_or_default()
}

/// The inputs for the document at `uri`, whose expressions are in `language`: the demo routes,
/// and the samples beside it when it is a file.
pub(crate) fn for_uri(uri: &Uri, language: Language) -> Arc<ShapeInputs> {
    static NONE: OnceLock<[Arc<ShapeInputs>; 2]> = OnceLock::new();
    let base = || {
        let bases = NONE.get_or_init(|| {
            [Language::Cel, Language::Expr]
                .map(|language| Arc::new(sources_inputs::for_config(None, language)))
        });
        Arc::clone(&bases[language as usize])
    };
    let Some(path) = file_path(uri) else {
        return base();
    };
    static CACHE: OnceLock<Mutex<Cache<(PathBuf, Language), ShapeInputs>>> = OnceLock::new();
    cached(
        &CACHE,
        &path,
        |dir| (dir, language),
        |path| sources_inputs::for_config(Some(path), language),
    )
    .unwrap_or_else(base)
}
