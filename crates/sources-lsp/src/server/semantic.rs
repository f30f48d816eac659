//! Semantic tokens: the whole document, its change since the last result sent, or a range.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    SemanticTokens, SemanticTokensDeltaParams, SemanticTokensFullDeltaResult, SemanticTokensParams,
    SemanticTokensRangeParams, SemanticTokensRangeResult, SemanticTokensResult,
};

use super::Server;
use crate::document::Snapshot;
use crate::guard;
use crate::position::Positions;
use crate::semantic_tokens;

impl Server {
    /// The semantic tokens of a snapshot's current text, optionally only those in `within`.
    fn semantic_tokens(
        &self,
        snapshot: &Snapshot,
        within: Option<sources_syntax::Span>,
    ) -> Vec<tower_lsp_server::ls_types::SemanticToken> {
        let analyzed = &snapshot.current;
        let positions = Positions::new(&analyzed.analysis.line_index, self.encoding());
        semantic_tokens::tokens(analyzed, positions, within)
    }
}

/// Answers `textDocument/semanticTokens/full`.
pub(super) fn semantic_tokens_full(
    server: &Server,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let uri = params.text_document.uri;
    guard::request("textDocument/semanticTokens/full", || {
        let Some(snapshot) = server.snapshot(&uri)? else {
            return Ok(None);
        };
        let data = server.semantic_tokens(&snapshot, None);
        Ok(Some(SemanticTokensResult::Tokens(
            server.semantic.full(&uri, data),
        )))
    })
}

/// Answers `textDocument/semanticTokens/full/delta`: the edits since `previous_result_id`, or
/// every token where that result is not the last one sent.
pub(super) fn semantic_tokens_full_delta(
    server: &Server,
    params: SemanticTokensDeltaParams,
) -> Result<Option<SemanticTokensFullDeltaResult>> {
    let uri = params.text_document.uri;
    guard::request("textDocument/semanticTokens/full/delta", || {
        let Some(snapshot) = server.snapshot(&uri)? else {
            return Ok(None);
        };
        let data = server.semantic_tokens(&snapshot, None);
        Ok(Some(
            match server
                .semantic
                .delta(&uri, &params.previous_result_id, data.clone())
            {
                Some(delta) => SemanticTokensFullDeltaResult::TokensDelta(delta),
                None => SemanticTokensFullDeltaResult::Tokens(server.semantic.full(&uri, data)),
            },
        ))
    })
}

/// Answers `textDocument/semanticTokens/range`.
pub(super) fn semantic_tokens_range(
    server: &Server,
    params: SemanticTokensRangeParams,
) -> Result<Option<SemanticTokensRangeResult>> {
    let uri = params.text_document.uri;
    guard::request("textDocument/semanticTokens/range", || {
        let Some(snapshot) = server.snapshot(&uri)? else {
            return Ok(None);
        };
        let positions = Positions::new(&snapshot.current.analysis.line_index, server.encoding());
        let within = positions.span(params.range);
        Ok(Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
            result_id: None,
            data: server.semantic_tokens(&snapshot, Some(within)),
        })))
    })
}
