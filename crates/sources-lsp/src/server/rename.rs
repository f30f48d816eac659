//! Renaming a source, a parameter, a component or a screen: where a rename may start, and the
//! edits of one that is valid.

use std::collections::HashMap;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    PrepareRenameResponse, RenameParams, TextDocumentPositionParams, TextEdit, WorkspaceEdit,
};

use super::Server;
use crate::guard;
use crate::names::{self, Symbol};
use crate::position::Positions;

/// Answers `textDocument/prepareRename`: the name under the cursor and its range, or why there is
/// nothing to rename there.
pub(super) fn prepare_rename(
    server: &Server,
    at: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    guard::request("textDocument/prepareRename", || {
        let Some(snapshot) = server.snapshot(&at.text_document.uri)? else {
            return Ok(None);
        };
        let analysis = &snapshot.current.analysis;
        let positions = Positions::new(&analysis.line_index, server.encoding());
        let offset = positions.offset(at.position);
        let found = analysis
            .has_sources
            .then(|| names::symbol_at(&analysis.config, snapshot.current.text(), offset))
            .flatten();
        let Some((symbol, span)) = found else {
            return Err(Error::invalid_params(NOTHING_TO_RENAME));
        };
        Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
            range: positions.range(span),
            placeholder: symbol.name().to_owned(),
        }))
    })
}

/// Why a position cannot start a rename.
const NOTHING_TO_RENAME: &str = "nothing to rename here: place the cursor on the name of a source, \
a parameter, a component or a screen (where it is declared or used)";

/// Answers `textDocument/rename`: the edits of every occurrence, or why the rename is refused.
pub(super) fn rename(server: &Server, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let at = params.text_document_position;
    let new_name = params.new_name;
    guard::request("textDocument/rename", || {
        let Some((snapshot, symbol, _)) = server.symbol_at(&at)? else {
            return Ok(None);
        };
        let analyzed = &snapshot.current;
        let config = &analyzed.analysis.config;
        check_new_name(&symbol, &new_name)?;
        if names::declaration(config, &symbol).is_none() {
            return Err(Error::invalid_params(format!(
                "`{}` is not declared: there is nothing to rename",
                symbol.name()
            )));
        }
        if names::is_taken(config, &symbol, &new_name) {
            let what = match &symbol {
                Symbol::Source(_) => "a source".to_owned(),
                Symbol::Param { source, .. } => format!("a parameter of `{source}`"),
                Symbol::Component(_) => "a component".to_owned(),
                Symbol::Screen(_) => "a screen".to_owned(),
                Symbol::Action(_) => "an action".to_owned(),
            };
            return Err(Error::invalid_params(format!(
                "{what} named `{new_name}` already exists"
            )));
        }
        let occurrences = names::occurrences(config, analyzed.text(), analyzed.syntax, &symbol);
        if occurrences.iter().any(|occurrence| !occurrence.editable) {
            return Err(Error::invalid_params(format!(
                "`{}` is written with escapes somewhere: rename it by hand",
                symbol.name()
            )));
        }
        let positions = Positions::new(&analyzed.analysis.line_index, server.encoding());
        let edits = occurrences
            .iter()
            .map(|occurrence| TextEdit {
                range: positions.range(occurrence.span),
                new_text: new_name.clone(),
            })
            .collect();
        Ok(Some(WorkspaceEdit {
            changes: Some(HashMap::from([(at.text_document.uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }))
    })
}

/// Refuses a new name that could not be written bare where the old one stands.
fn check_new_name(symbol: &Symbol, new_name: &str) -> Result<()> {
    let valid = match symbol {
        Symbol::Param { .. } => {
            !new_name.is_empty()
                && new_name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        }
        Symbol::Source(_) | Symbol::Component(_) | Symbol::Screen(_) | Symbol::Action(_) => {
            !new_name.is_empty()
                && !new_name.starts_with(['-', '?', '&', '*', '!', '|', '>', '%', '@', '`'])
                && !new_name
                    .chars()
                    .any(|c| c.is_whitespace() || ",:#{}[]\"'=.\\$".contains(c))
        }
    };
    if valid {
        Ok(())
    } else {
        Err(Error::invalid_params(format!(
            "`{new_name}` is not a valid name here"
        )))
    }
}
