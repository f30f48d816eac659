//! The "Suppress `RULE` on this line" code action: a `# sources: ignore[RULE]` comment for each
//! diagnostic under the cursor (the edit itself comes from `sources_check::suppression_edit`).

use std::collections::HashMap;

use sources_diagnostics::{Rule, Span};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, TextEdit, Uri, WorkspaceEdit,
};

use crate::diagnostics;
use crate::document::Analyzed;
use crate::position::Positions;

/// One suppress action per rule of the diagnostics touching `requested` (not for `syntax`, which a
/// comment cannot fix, nor for `unused-suppression`, which its own fix removes).
pub(crate) fn suppress_actions(
    analyzed: &Analyzed,
    uri: &Uri,
    requested: Span,
    positions: Positions<'_>,
) -> Vec<CodeActionOrCommand> {
    let analysis = &analyzed.analysis;
    let mut actions = Vec::new();
    let mut offered: Vec<(Rule, usize)> = Vec::new();
    for diagnostic in &analysis.diagnostics {
        let touches = diagnostic.span.touches(requested);
        if !touches || matches!(diagnostic.rule, Rule::Syntax | Rule::UnusedSuppression) {
            continue;
        }
        let line = analysis.line_index.line_col(diagnostic.span.start()).line as usize;
        if offered.contains(&(diagnostic.rule, line)) {
            continue;
        }
        let Some(edit) = sources_check::suppression_edit(
            analyzed.text(),
            analyzed.syntax,
            diagnostic.span.start(),
            diagnostic.rule,
        ) else {
            continue;
        };
        offered.push((diagnostic.rule, line));
        let text_edit = TextEdit {
            range: positions.range(edit.span),
            new_text: edit.replacement,
        };
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Suppress `{}` on this line", diagnostic.rule),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![diagnostics::to_lsp(diagnostic, uri, positions)]),
            edit: Some(WorkspaceEdit {
                changes: Some(HashMap::from([(uri.clone(), vec![text_edit])])),
                ..WorkspaceEdit::default()
            }),
            is_preferred: Some(false),
            ..CodeAction::default()
        }));
    }
    actions
}
