//! Workspace symbols: the entries of the open documents and of the configuration files on disk.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{WorkspaceSymbolParams, WorkspaceSymbolResponse};

use super::Server;
use crate::guard;
use crate::position::Positions;
use crate::workspace;

/// Answers `workspace/symbol`: matching entries of the open documents, then of the files on disk
/// under the workspace roots that are not open.
pub(super) async fn symbol(
    server: &Server,
    params: WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>> {
    let query = params.query;
    let open = server.documents.open_documents();
    let mut found = Vec::new();
    for uri in &open {
        if let Some(snapshot) = server.snapshot(uri)? {
            let analyzed = snapshot.symbols();
            let positions = Positions::new(&analyzed.analysis.line_index, server.encoding());
            found.extend(workspace::symbols(analyzed, uri, positions, &query));
        }
    }
    let roots = server.settings.roots();
    let encoding = server.encoding();
    let open_uris = open;
    let documents = server.documents.clone();
    let on_disk = tokio::task::spawn_blocking(move || {
        let mut found = Vec::new();
        for (path, syntax) in workspace::configuration_files(&roots) {
            let Some(uri) = workspace::file_uri(&path) else {
                continue;
            };
            if open_uris.contains(&uri) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path).map(Arc::new) else {
                continue;
            };
            let view = documents.view(&uri);
            let Ok(analyzed) = guard::catch("analysis", || {
                crate::document::Analyzed::of(&text, syntax, view)
            }) else {
                continue;
            };
            let positions = Positions::new(&analyzed.analysis.line_index, encoding);
            found.extend(workspace::symbols(&analyzed, &uri, positions, &query));
        }
        found
    })
    .await
    .unwrap_or_default();
    found.extend(on_disk);
    Ok(Some(WorkspaceSymbolResponse::Flat(found)))
}
