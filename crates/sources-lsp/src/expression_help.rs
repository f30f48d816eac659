//! In an expression (`where`, `keep`, `compute`, `by`, a join's `on`): completion of the
//! project's expression language's functions and operators (beside the keys of the data, which
//! `data_completion` offers), and hover on a called function with its signature, what it gives and
//! one example. The language is the one `[expressions] language` selects for the document; what
//! each function is comes from `sources_expr`.

use sources_expr::Language;
use sources_syntax::Span;
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, MarkupContent,
    MarkupKind, TextEdit, Uri,
};

use crate::document::Snapshot;
use crate::position::Positions;

/// The expression language of the document at `uri`, as its settings file selects it.
pub(crate) fn language(uri: &Uri) -> Language {
    crate::project::for_uri(uri)
        .ok()
        .flatten()
        .map(|settings| settings.language)
        .unwrap_or_default()
}

/// The span of the expression that holds `offset`, if one does.
pub(crate) fn expression_at(snapshot: &Snapshot, offset: usize) -> Option<Span> {
    let config = &snapshot.current.analysis.config;
    let entry = config
        .entries
        .iter()
        .find(|entry| entry.span.contains(offset))?;
    let stages = entry.body.common().and_then(|common| common.pipe.as_ref());
    let bodies = stages.iter().flat_map(|pipe| pipe.value.iter());
    std::iter::once(&entry.body)
        .chain(bodies.map(|stage| &stage.value.body))
        .flat_map(sources_check::expression_sites)
        .map(|site| site.span)
        .find(|span| span.start() <= offset && offset <= span.end())
}

/// The name written before `offset` (letters, digits, `_`), and where it starts.
fn typed(text: &str, offset: usize) -> (usize, &str) {
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '_')
        .last()
        .map_or(offset, |(at, _)| at);
    (start, &text[start..offset])
}

/// The functions and operators of `language` to offer at `offset` of `text`: the functions whose
/// name starts with the name being typed (after a `.`, only those called as methods; elsewhere only
/// those that are not), and the operators where no name is being typed.
pub(crate) fn completions(
    language: Language,
    text: &str,
    offset: usize,
    positions: Positions<'_>,
) -> Vec<CompletionItem> {
    let (start, typed) = typed(text, offset);
    let after_dot = text[..start].ends_with('.');
    let range = positions.range(Span::new(start, offset));
    let functions = language
        .function_docs()
        .iter()
        .filter(|function| function.name.starts_with(typed) && is_method(function) == after_dot)
        .map(|function| CompletionItem {
            label: function.name.to_owned(),
            kind: Some(CompletionItemKind::FUNCTION),
            detail: Some(function.signature.to_owned()),
            documentation: Some(documentation(function)),
            sort_text: Some(format!("~1{}", function.name)),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range,
                new_text: function.name.to_owned(),
            })),
            ..CompletionItem::default()
        });
    let at = positions.range(Span::new(offset, offset));
    let operators = language
        .operators()
        .iter()
        .filter(|_| typed.is_empty() && !after_dot)
        .map(|operator| CompletionItem {
            label: operator.symbol.to_owned(),
            kind: Some(CompletionItemKind::OPERATOR),
            detail: Some(operator.summary.to_owned()),
            sort_text: Some(format!("~2{}", operator.symbol)),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range: at,
                new_text: operator.symbol.to_owned(),
            })),
            ..CompletionItem::default()
        });
    functions.chain(operators).collect()
}

/// Whether a function is called as a method (`name.startsWith('x')`): its signature names a
/// receiver before the name.
fn is_method(function: &sources_expr::Function) -> bool {
    function
        .signature
        .split('(')
        .next()
        .is_some_and(|called| called.contains('.'))
}

/// A function's documentation: what it gives and one example.
fn documentation(function: &sources_expr::Function) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value: format!("{}\n\nExample: `{}`", function.summary, function.example),
    })
}

/// Hover on the name of a called function in an expression: its signature, what it gives and one
/// example, with the name's span.
pub(crate) fn hover(snapshot: &Snapshot, uri: &Uri, offset: usize) -> Option<(String, Span)> {
    expression_at(snapshot, offset)?;
    let text = snapshot.current.text();
    let end = offset
        + text[offset..]
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map_or(text.len() - offset, |(at, _)| at);
    let (start, name) = typed(text, end);
    let called = text[end..].trim_start().starts_with('(');
    if name.is_empty() || !called {
        return None;
    }
    let function = language(uri).function_doc(name)?;
    let doc = format!(
        "**`{}`** — `{}`\n\n{}\n\nExample: `{}`",
        function.name, function.signature, function.summary, function.example
    );
    Some((doc, Span::new(start, end)))
}
