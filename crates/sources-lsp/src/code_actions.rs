//! Quick fixes: the fixes attached to diagnostics, offered as workspace edits.

use std::collections::HashMap;

use sources_diagnostics::{Applicability, Span};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, TextEdit, Uri, WorkspaceEdit,
};

use crate::diagnostics;
use crate::document::Analyzed;
use crate::position::Positions;

/// The quick fixes of every diagnostic whose span touches `requested`. Safe fixes are preferred.
pub(crate) fn quick_fixes(
    analyzed: &Analyzed,
    uri: &Uri,
    requested: Span,
    positions: Positions<'_>,
) -> Vec<CodeActionOrCommand> {
    let analysis = &analyzed.analysis;
    if !analysis.has_sources {
        return Vec::new();
    }
    let mut actions = Vec::new();
    for diagnostic in analysis
        .diagnostics
        .iter()
        .filter(|d| d.span.touches(requested))
    {
        for fix in &diagnostic.fixes {
            let edits = fix
                .edits
                .iter()
                .map(|edit| TextEdit {
                    range: positions.range(edit.span),
                    new_text: edit.replacement.clone(),
                })
                .collect();
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostics::to_lsp(diagnostic, uri, positions)]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(fix.applicability == Applicability::Safe),
                ..CodeAction::default()
            }));
        }
    }
    actions
}
