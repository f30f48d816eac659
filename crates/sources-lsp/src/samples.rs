//! What the server hands the analysis about a document's data: the demo backend's published
//! shapes, and the samples recorded beside the document (`sources try NAME --record`), read
//! through `sources_eval::samples` and kept until the samples directory changes (a recording
//! moves its file into place, which changes the directory's modification time).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::SystemTime;

use sources_check::shapes::ShapeInputs;
use tower_lsp_server::ls_types::Uri;

/// Samples read per samples directory, with the directory's modification time then.
type Cache = HashMap<PathBuf, (Option<SystemTime>, Arc<ShapeInputs>)>;

/// The inputs for the document at `uri`: the demo routes, and the samples beside it when it is a
/// file.
pub(crate) fn for_uri(uri: &Uri) -> Arc<ShapeInputs> {
    static NONE: OnceLock<Arc<ShapeInputs>> = OnceLock::new();
    let base = || Arc::clone(NONE.get_or_init(|| Arc::new(sources_eval::demo_shapes::inputs())));
    let Some(path) = uri.to_file_path() else {
        return base();
    };
    let dir = sources_eval::samples::dir(&path);
    let modified = std::fs::metadata(&dir)
        .and_then(|meta| meta.modified())
        .ok();
    if modified.is_none() {
        return base();
    }
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some((when, inputs)) = cache
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&dir)
        && *when == modified
    {
        return Arc::clone(inputs);
    }
    let mut inputs = sources_eval::demo_shapes::inputs();
    inputs.samples = sources_eval::samples::read(&path).samples;
    let inputs = Arc::new(inputs);
    let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
    if cache.len() >= 64 {
        cache.clear();
    }
    cache.insert(dir, (modified, Arc::clone(&inputs)));
    inputs
}
