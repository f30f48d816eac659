//! Navigation by name: the symbol under the cursor, its definition, its references and its
//! highlights in the document.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    DocumentHighlight, DocumentHighlightKind, DocumentHighlightParams, GotoDefinitionParams,
    GotoDefinitionResponse, Location, Position, ReferenceParams, TextDocumentPositionParams, Uri,
};

use super::Server;
use crate::document::Snapshot;
use crate::guard;
use crate::names::{self, Occurrence, Symbol};
use crate::position::Positions;

impl Server {
    /// The symbol under the cursor, with the snapshot it was found in.
    pub(super) fn symbol_at(
        &self,
        at: &TextDocumentPositionParams,
    ) -> Result<Option<(Snapshot, Symbol, Position)>> {
        let Some(snapshot) = self.snapshot(&at.text_document.uri)? else {
            return Ok(None);
        };
        let analysis = &snapshot.current.analysis;
        if !analysis.has_sources {
            return Ok(None);
        }
        let offset = Positions::new(&analysis.line_index, self.encoding()).offset(at.position);
        let found = names::symbol_at(&analysis.config, snapshot.current.text(), offset);
        Ok(found.map(|(symbol, _)| (snapshot, symbol, at.position)))
    }

    /// Locations of occurrences in the document at `uri`.
    fn locations(
        &self,
        snapshot: &Snapshot,
        uri: &Uri,
        occurrences: &[Occurrence],
    ) -> Vec<Location> {
        let positions = Positions::new(&snapshot.current.analysis.line_index, self.encoding());
        occurrences
            .iter()
            .map(|occurrence| Location {
                uri: uri.clone(),
                range: positions.range(occurrence.span),
            })
            .collect()
    }
}

/// Answers `textDocument/definition`: where the symbol under the cursor is declared.
pub(super) fn goto_definition(
    server: &Server,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let at = params.text_document_position_params;
    guard::request("textDocument/definition", || {
        let Some((snapshot, symbol, _)) = server.symbol_at(&at)? else {
            return Ok(None);
        };
        let declaration = names::declaration(&snapshot.current.analysis.config, &symbol);
        let locations = server.locations(&snapshot, &at.text_document.uri, declaration.as_slice());
        Ok(locations
            .into_iter()
            .next()
            .map(GotoDefinitionResponse::Scalar))
    })
}

/// Answers `textDocument/references`: every occurrence of the symbol under the cursor.
pub(super) fn references(
    server: &Server,
    params: ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    let at = params.text_document_position;
    let include_declaration = params.context.include_declaration;
    guard::request("textDocument/references", || {
        let Some((snapshot, symbol, _)) = server.symbol_at(&at)? else {
            return Ok(None);
        };
        let analyzed = &snapshot.current;
        let occurrences: Vec<Occurrence> = names::occurrences(
            &analyzed.analysis.config,
            analyzed.text(),
            analyzed.syntax,
            &symbol,
        )
        .into_iter()
        .filter(|occurrence| include_declaration || !occurrence.declaration)
        .collect();
        Ok(Some(server.locations(
            &snapshot,
            &at.text_document.uri,
            &occurrences,
        )))
    })
}

/// Answers `textDocument/documentHighlight`: the symbol's occurrences, its declaration written.
pub(super) fn document_highlight(
    server: &Server,
    params: DocumentHighlightParams,
) -> Result<Option<Vec<DocumentHighlight>>> {
    let at = params.text_document_position_params;
    guard::request("textDocument/documentHighlight", || {
        let Some((snapshot, symbol, _)) = server.symbol_at(&at)? else {
            return Ok(None);
        };
        let analyzed = &snapshot.current;
        let positions = Positions::new(&analyzed.analysis.line_index, server.encoding());
        let occurrences = names::occurrences(
            &analyzed.analysis.config,
            analyzed.text(),
            analyzed.syntax,
            &symbol,
        );
        Ok(Some(
            occurrences
                .iter()
                .map(|occurrence| DocumentHighlight {
                    range: positions.range(occurrence.span),
                    kind: Some(if occurrence.declaration {
                        DocumentHighlightKind::WRITE
                    } else {
                        DocumentHighlightKind::READ
                    }),
                })
                .collect(),
        ))
    })
}
