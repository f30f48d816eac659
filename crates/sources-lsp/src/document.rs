//! The open documents: their text and version, and the analysis of their latest version.
//!
//! The server analyses a version once and shares the result between the diagnostics it publishes
//! and the requests it answers. A request about a version not analysed yet analyses it on the
//! spot, so answers always describe the text the client sees. The last analysis that parsed
//! cleanly is kept, so a half-typed document still has its outline and names.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use sources_check::{Analysis, analyze};
use sources_diagnostics::Rule;
use sources_syntax::{LineIndex, PositionEncoding, Syntax};
use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use crate::guard::{self, Panicked};
use crate::position::Positions;

/// One analysed version of a document.
#[derive(Debug)]
pub(crate) struct Analyzed {
    /// The document version the analysis is of.
    pub(crate) version: i32,
    /// The document's syntax.
    pub(crate) syntax: Syntax,
    /// What `sources_check::analyze` found; its line index holds the analysed text.
    pub(crate) analysis: Analysis,
}

impl Analyzed {
    /// The analysed text.
    pub(crate) fn text(&self) -> &str {
        self.analysis.line_index.text()
    }

    /// Whether the text parsed without syntax errors.
    fn parsed_cleanly(&self) -> bool {
        !self
            .analysis
            .diagnostics
            .iter()
            .any(|diagnostic| diagnostic.rule == Rule::Syntax)
    }
}

/// What a request works from: the analysis of the current version, and the last clean one.
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    /// The analysis of the document's current text.
    pub(crate) current: Arc<Analyzed>,
    /// The last analysis without syntax errors (possibly `current` itself).
    pub(crate) last_good: Option<Arc<Analyzed>>,
}

impl Snapshot {
    /// The analysis to take names and the outline from: the current one unless it has syntax
    /// errors and an earlier version parsed cleanly.
    pub(crate) fn symbols(&self) -> &Arc<Analyzed> {
        match &self.last_good {
            Some(good) if !self.current.parsed_cleanly() => good,
            _ => &self.current,
        }
    }
}

/// An open document.
#[derive(Debug)]
struct Document {
    text: String,
    version: i32,
    syntax: Syntax,
    current: Option<Result<Arc<Analyzed>, Panicked>>,
    last_good: Option<Arc<Analyzed>>,
}

/// Why a change could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ChangeError {
    /// The document is not open (or not one of ours).
    NotOpen,
}

/// The open documents, keyed by URI.
#[derive(Debug, Default)]
pub(crate) struct DocumentStore {
    documents: Mutex<HashMap<Uri, Document>>,
}

impl DocumentStore {
    fn lock(&self) -> MutexGuard<'_, HashMap<Uri, Document>> {
        self.documents
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Opens (or reopens) a document.
    pub(crate) fn open(&self, uri: Uri, text: String, version: i32, syntax: Syntax) {
        let document = Document {
            text,
            version,
            syntax,
            current: None,
            last_good: None,
        };
        self.lock().insert(uri, document);
    }

    /// Applies a client's changes, in order, and moves the document to `version`.
    pub(crate) fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        encoding: PositionEncoding,
    ) -> Result<(), ChangeError> {
        let mut documents = self.lock();
        let document = documents.get_mut(uri).ok_or(ChangeError::NotOpen)?;
        apply_changes(&mut document.text, changes, encoding);
        document.version = version;
        document.current = None;
        Ok(())
    }

    /// Forgets a closed document.
    pub(crate) fn close(&self, uri: &Uri) {
        self.lock().remove(uri);
    }

    /// Every open document and its version.
    pub(crate) fn open_documents(&self) -> Vec<(Uri, i32)> {
        self.lock()
            .iter()
            .map(|(uri, document)| (uri.clone(), document.version))
            .collect()
    }

    /// The current version of a document, if it is open.
    pub(crate) fn version(&self, uri: &Uri) -> Option<i32> {
        self.lock().get(uri).map(|document| document.version)
    }

    /// The analysis of the document's current version, analysing it now if nobody has yet.
    /// `None` when the document is not open; an error when the analysis panicked.
    pub(crate) fn snapshot(&self, uri: &Uri) -> Option<Result<Snapshot, Panicked>> {
        let (text, syntax, version) = {
            let documents = self.lock();
            let document = documents.get(uri)?;
            if let Some(current) = &document.current {
                return Some(current.clone().map(|current| Snapshot {
                    current,
                    last_good: document.last_good.clone(),
                }));
            }
            (document.text.clone(), document.syntax, document.version)
        };
        let outcome = guard::catch("analysis", || analyze(&text, syntax)).map(|analysis| {
            Arc::new(Analyzed {
                version,
                syntax,
                analysis,
            })
        });
        let mut documents = self.lock();
        let mut last_good = None;
        if let Some(document) = documents.get_mut(uri) {
            if document.version == version {
                if let Ok(analyzed) = &outcome {
                    if analyzed.parsed_cleanly() {
                        document.last_good = Some(analyzed.clone());
                    }
                }
                document.current = Some(outcome.clone());
            }
            last_good = document.last_good.clone();
        }
        Some(outcome.map(|current| Snapshot { current, last_good }))
    }
}

/// Applies content changes to `text`: a change without a range replaces the whole text, one with
/// a range replaces that range (positions counted in `encoding`, clamped to the text).
pub(crate) fn apply_changes(
    text: &mut String,
    changes: Vec<TextDocumentContentChangeEvent>,
    encoding: PositionEncoding,
) {
    for change in changes {
        match change.range {
            None => *text = change.text,
            Some(range) => {
                let index = LineIndex::new(text);
                let span = Positions::new(&index, encoding).span(range);
                text.replace_range(span.start..span.end, &change.text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::ls_types::{Position, Range};

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|(start, end)| {
                Range::new(Position::new(start.0, start.1), Position::new(end.0, end.1))
            }),
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn incremental_changes_apply_in_order_in_the_negotiated_encoding() {
        let mut text = "name: \"😀\" x\nnext: 1\n".to_owned();
        // After the emoji: UTF-16 counts it as two units, UTF-8 as four bytes.
        apply_changes(
            &mut text,
            vec![change(Some(((0, 11), (0, 12))), "y")],
            PositionEncoding::Utf16,
        );
        assert_eq!(text, "name: \"😀\" y\nnext: 1\n");
        apply_changes(
            &mut text,
            vec![change(Some(((0, 13), (0, 14))), "z")],
            PositionEncoding::Utf8,
        );
        assert_eq!(text, "name: \"😀\" z\nnext: 1\n");
        apply_changes(
            &mut text,
            vec![
                change(Some(((1, 6), (1, 7))), "22"),
                change(Some(((2, 0), (2, 0))), "end: 3\n"),
            ],
            PositionEncoding::Utf16,
        );
        assert_eq!(text, "name: \"😀\" z\nnext: 22\nend: 3\n");
        apply_changes(
            &mut text,
            vec![change(None, "whole")],
            PositionEncoding::Utf16,
        );
        assert_eq!(text, "whole");
    }

    #[test]
    fn changes_to_a_closed_document_are_refused() {
        let store = DocumentStore::default();
        let uri: Uri = "file:///tmp/a.yaml".parse().expect("a valid URI");
        assert_eq!(
            store.change(&uri, 2, vec![change(None, "x")], PositionEncoding::Utf16),
            Err(ChangeError::NotOpen)
        );
        store.open(uri.clone(), "a: 1\n".to_owned(), 1, Syntax::Yaml);
        assert_eq!(
            store.change(&uri, 2, vec![change(None, "x")], PositionEncoding::Utf16),
            Ok(())
        );
        assert_eq!(store.version(&uri), Some(2));
        store.close(&uri);
        assert_eq!(store.version(&uri), None);
    }
}
