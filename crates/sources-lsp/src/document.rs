//! The open documents: their text and version, and the analysis of their latest version.
//!
//! The server analyses a version once and shares the result between the diagnostics it publishes
//! and the requests it answers: whoever asks first analyses it, everyone else waits for that
//! result. Answers always describe the text the client sees. The last analysis that parsed
//! cleanly is kept, so a half-typed document still has its outline and names. Once a document is
//! edited, so is the tree of its last analysed version with that version's text: the next version
//! reparses only the entry an edit changed where that is sound (`sources_syntax::Tree`), then
//! runs the one analysis on the tree (`sources_check::analyze_edited`), which checks again only
//! the entries the edit touched where a check reads one entry alone. A document only opened never holds a tree (it costs several
//! times the text's size).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use sources_check::shapes::ShapeInputs;
use sources_check::{Analysis, Bounded, Memo, analyze_bounded_with, analyze_edited};
use sources_config::Config;
use sources_diagnostics::Diagnostic;
use sources_syntax::{Change, LineIndex, PositionEncoding, Syntax, Tree};
use tower_lsp_server::ls_types::{Position, TextDocumentContentChangeEvent, Uri};

use crate::guard::{self, Panicked};
use crate::levels::Levels;
use crate::{project, settings};

/// What an analysis for the editor keeps: the diagnostics its levels show, at most `limit` of
/// them plus the first one left out (where the summary of the others goes).
#[derive(Clone, Debug)]
pub(crate) struct View {
    /// The rule levels in force for the document.
    pub(crate) levels: Levels,
    /// The most diagnostics published for one document.
    pub(crate) limit: usize,
    /// What is known of the document's data beyond its text (demo shapes, samples).
    pub(crate) inputs: Arc<ShapeInputs>,
}

impl View {
    /// What the analysis keeps: the first `limit + 1` diagnostics these levels show.
    fn bounded(&self) -> Bounded {
        let levels = self.levels.clone();
        Bounded {
            limit: self.limit.saturating_add(1),
            keep: Box::new(move |diagnostic| levels.shows(diagnostic)),
        }
    }
}

/// One analysed version of a document.
#[derive(Debug)]
pub(crate) struct Analyzed {
    /// The document's syntax.
    pub(crate) syntax: Syntax,
    /// What `sources_check::analyze_bounded` found; its line index holds the analysed text.
    pub(crate) analysis: Analysis,
    /// The rule levels it was analysed with: they dropped the diagnostics of rules turned off, and
    /// give the others their published severity.
    pub(crate) levels: Levels,
    /// Whether the text was refused before analysis (over the size limit, or binary): then the
    /// analysis holds only the diagnostic saying why, over an empty text.
    pub(crate) refused: bool,
}

impl Analyzed {
    /// Analyses `text`, after the checks every front end makes first (size limit, NUL bytes):
    /// text they refuse is not analysed, and the analysis holds only the reason. Its line index
    /// shares `text` rather than copying it. It keeps only what `view` shows.
    pub(crate) fn of(text: &Arc<String>, syntax: Syntax, view: View) -> Analyzed {
        Analyzed::refused(text, syntax, &view).unwrap_or_else(|| Analyzed {
            syntax,
            analysis: analyze_bounded_with(
                text,
                syntax,
                sources_syntax::parse(text, syntax),
                view.bounded(),
                &view.inputs,
            ),
            levels: view.levels,
            refused: false,
        })
    }

    /// Analyses `text` as [`Analyzed::of`] does, parsing it from the tree `kept` holds (the
    /// previous version's) when there is one and reusing what that version's analysis kept, and
    /// leaving this version's tree and memo there.
    fn from_kept(
        text: &Arc<String>,
        syntax: Syntax,
        kept: &Mutex<Option<Kept>>,
        view: View,
    ) -> Analyzed {
        let previous = kept.lock().unwrap_or_else(PoisonError::into_inner).take();
        let previous = previous.filter(|previous| previous.syntax == syntax);
        // Found once, for the checks before analysis, the tree and the line index: the previous
        // text passed those checks, so only the changed bytes are searched.
        let change = previous
            .as_ref()
            .map(|previous| Change::between(&previous.text, text));
        let refusal = match change {
            Some(Some(change)) => sources_check::input::refuse_changed(text, change),
            Some(None) => None,
            None => sources_check::input::refuse_text(text),
        };
        if let Some(refusal) = refusal {
            // The next version is made from the last one analysed.
            if let Some(previous) = previous {
                *kept.lock().unwrap_or_else(PoisonError::into_inner) = Some(previous);
            }
            return Analyzed::refusing(refusal, syntax, &view);
        }
        let (tree, mut memo) = match (previous, change) {
            (Some(mut previous), Some(change)) => {
                previous.tree.update_changed(&previous.text, text, change);
                (previous.tree, previous.memo)
            }
            _ => (Tree::new(text, syntax), Memo::default()),
        };
        let analysis = analyze_edited(text, &tree, &mut memo, Some(view.bounded()), &view.inputs);
        *kept.lock().unwrap_or_else(PoisonError::into_inner) = Some(Kept {
            text: text.clone(),
            syntax,
            tree,
            memo,
        });
        Analyzed {
            syntax,
            analysis,
            levels: view.levels,
            refused: false,
        }
    }

    /// The analysis of a text the checks made before analysis refuse, if they do.
    fn refused(text: &str, syntax: Syntax, view: &View) -> Option<Analyzed> {
        let refusal = sources_check::input::refuse_text(text)?;
        Some(Analyzed::refusing(refusal, syntax, view))
    }

    /// The analysis of a refused text: only the diagnostic saying why.
    fn refusing(refusal: Diagnostic, syntax: Syntax, view: &View) -> Analyzed {
        Analyzed {
            syntax,
            analysis: Analysis {
                diagnostics: vec![refusal],
                omitted: 0,
                omitted_errors: 0,
                parsed: false,
                config: Config::default(),
                line_index: LineIndex::new(""),
                has_sources: false,
                shapes: Default::default(),
                silenced: Vec::new(),
                language: view.inputs.language,
            },
            levels: view.levels.clone(),
            refused: true,
        }
    }

    /// The analysed text.
    pub(crate) fn text(&self) -> &str {
        self.analysis.line_index.text()
    }

    /// Whether the text parsed without syntax errors.
    fn parsed_cleanly(&self) -> bool {
        self.analysis.parsed
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

/// The tree of a document's last analysed version, with the text and syntax it was parsed from,
/// and what its analysis kept for the next version's.
#[derive(Debug)]
struct Kept {
    text: Arc<String>,
    syntax: Syntax,
    tree: Tree,
    memo: Memo,
}

/// One version of a document's text, and its analysis once someone has asked for it.
#[derive(Debug)]
pub(crate) struct Version {
    /// The client's version number.
    pub(crate) number: i32,
    /// The text, shared with the line index of its analysis.
    text: Arc<String>,
    syntax: Syntax,
    analysis: OnceLock<Result<Arc<Analyzed>, Panicked>>,
    /// The document's kept tree, shared by all its versions: whichever is analysed takes it.
    kept: Arc<Mutex<Option<Kept>>>,
    /// Whether this version came from an edit (only then is a tree kept for the next one).
    edited: bool,
}

impl Version {
    /// The analysis of this version: computed by the first caller, with the `view` it makes then,
    /// and shared with every other (a concurrent caller waits for it rather than analysing the
    /// same text again).
    fn analysis(&self, view: impl FnOnce() -> View) -> Result<Arc<Analyzed>, Panicked> {
        self.analysis
            .get_or_init(|| {
                guard::catch("analysis", || {
                    if self.edited {
                        Analyzed::from_kept(&self.text, self.syntax, &self.kept, view())
                    } else {
                        Analyzed::of(&self.text, self.syntax, view())
                    }
                })
                .map(Arc::new)
            })
            .clone()
    }

    /// The same text as a version not analysed yet, for a change of what decides the analysis
    /// besides the text (the settings file, the client's settings).
    fn renewed(&self) -> Version {
        Version {
            number: self.number,
            text: self.text.clone(),
            syntax: self.syntax,
            analysis: OnceLock::new(),
            kept: self.kept.clone(),
            edited: self.edited,
        }
    }
}

/// An open document.
#[derive(Debug)]
struct Document {
    latest: Arc<Version>,
    last_good: Option<Arc<Analyzed>>,
    /// Whether a diagnostics worker is running for this document.
    analysing: bool,
}

/// Why a change could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ChangeError {
    /// The document is not open (or not one of ours).
    NotOpen,
}

/// The open documents, keyed by URI, and what their analyses keep.
#[derive(Debug)]
pub(crate) struct DocumentStore {
    documents: Mutex<HashMap<Uri, Document>>,
    /// The client's settings.
    settings: Arc<settings::Settings>,
    /// The most diagnostics published for one document.
    limit: usize,
}

impl DocumentStore {
    /// A store whose analyses keep what `settings` and the settings file show, up to `limit`
    /// diagnostics per document.
    pub(crate) fn new(settings: Arc<settings::Settings>, limit: usize) -> DocumentStore {
        DocumentStore {
            documents: Mutex::default(),
            settings,
            limit,
        }
    }

    /// What an analysis of the document at `uri` keeps now. (An unusable settings file is
    /// reported when the document's diagnostics are published, and counts as none.)
    pub(crate) fn view(&self, uri: &Uri) -> View {
        let project = project::for_uri(uri).ok().flatten();
        let language = project
            .as_ref()
            .map_or_else(Default::default, |project| project.language);
        View {
            levels: Levels::new(project, self.settings.values().severity),
            limit: self.limit,
            inputs: crate::samples::for_uri(uri, language),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Uri, Document>> {
        self.documents
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Opens (or reopens) a document.
    pub(crate) fn open(&self, uri: Uri, text: String, version: i32, syntax: Syntax) {
        let latest = Arc::new(Version {
            number: version,
            text: Arc::new(text),
            syntax,
            analysis: OnceLock::new(),
            kept: Arc::default(),
            edited: false,
        });
        let mut documents = self.lock();
        let analysing = documents.get(&uri).is_some_and(|open| open.analysing);
        let document = Document {
            latest,
            last_good: None,
            analysing,
        };
        documents.insert(uri, document);
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
        let mut text = match changes.first() {
            Some(change) if change.range.is_none() => String::new(),
            _ => document.latest.text.as_ref().clone(),
        };
        apply_changes(&mut text, changes, encoding);
        document.latest = Arc::new(Version {
            number: version,
            text: Arc::new(text),
            syntax: document.latest.syntax,
            analysis: OnceLock::new(),
            kept: document.latest.kept.clone(),
            edited: true,
        });
        Ok(())
    }

    /// Forgets a closed document.
    pub(crate) fn close(&self, uri: &Uri) {
        let closed = self.lock().remove(uri);
        crate::analysis_thread::free(closed);
    }

    /// Every open document.
    pub(crate) fn open_documents(&self) -> Vec<Uri> {
        self.lock().keys().cloned().collect()
    }

    /// The latest version of a document, if it is open.
    pub(crate) fn latest(&self, uri: &Uri) -> Option<Arc<Version>> {
        self.lock().get(uri).map(|document| document.latest.clone())
    }

    /// Whether `version` is still the latest version of the open document at `uri`.
    pub(crate) fn is_latest(&self, uri: &Uri, version: &Arc<Version>) -> bool {
        self.lock()
            .get(uri)
            .is_some_and(|document| Arc::ptr_eq(&document.latest, version))
    }

    /// Marks a diagnostics worker as running for `uri`; `false` when one already is (it will
    /// pick up the latest version) or the document is not open.
    pub(crate) fn start_worker(&self, uri: &Uri) -> bool {
        match self.lock().get_mut(uri) {
            Some(document) if !document.analysing => {
                document.analysing = true;
                true
            }
            _ => false,
        }
    }

    /// Makes every open document's latest version a new one with the same text, to be analysed
    /// again: what decides an analysis besides the text changed (a settings file, the client's
    /// settings). An analysis of the replaced version is never published (it is not the latest).
    pub(crate) fn renew_all(&self) {
        for document in self.lock().values_mut() {
            document.latest = Arc::new(document.latest.renewed());
        }
    }

    /// Ends the worker for `uri` if `done` is still the latest version (or the document closed);
    /// `false` when the worker must go on.
    pub(crate) fn finish_worker(&self, uri: &Uri, done: &Arc<Version>) -> bool {
        match self.lock().get_mut(uri) {
            Some(document) if !Arc::ptr_eq(&document.latest, done) => false,
            Some(document) => {
                document.analysing = false;
                true
            }
            None => true,
        }
    }

    /// The analysis of the document's current version, analysing it now if nobody has yet.
    /// `None` when the document is not open; an error when the analysis panicked.
    pub(crate) fn snapshot(&self, uri: &Uri) -> Option<Result<Snapshot, Panicked>> {
        let version = self.latest(uri)?;
        Some(self.analysed(uri, &version))
    }

    /// The analysis of `version` of the document at `uri`, remembered as the last clean one
    /// when it parsed cleanly and is still the latest.
    pub(crate) fn analysed(&self, uri: &Uri, version: &Arc<Version>) -> Result<Snapshot, Panicked> {
        let current = version.analysis(|| self.view(uri))?;
        let mut documents = self.lock();
        let document = documents.get_mut(uri);
        let mut replaced = None;
        let last_good = match document {
            Some(document) => {
                if Arc::ptr_eq(&document.latest, version) && current.parsed_cleanly() {
                    replaced = document.last_good.replace(current.clone());
                }
                document.last_good.clone()
            }
            None => None,
        };
        // Freed on the analysis thread, which most likely built it (another thread would leave its
        // memory with that idle owner), once this job is done: freeing a large analysis takes
        // milliseconds, which are not spent before its replacement is published.
        drop(documents);
        if let Some(replaced) = replaced {
            crate::analysis_thread::free(replaced);
        }
        Ok(Snapshot { current, last_good })
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
                // One lookup each: cheaper than indexing a large text's lines for it.
                let offset = |at: Position| {
                    sources_syntax::offset_in(text, at.line, at.character, encoding)
                        .unwrap_or(text.len())
                };
                let (start, end) = (offset(range.start), offset(range.end));
                text.replace_range(start.min(end)..start.max(end), &change.text);
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
        let store = DocumentStore::new(Arc::default(), 1000);
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
        assert_eq!(store.latest(&uri).map(|latest| latest.number), Some(2));
        store.close(&uri);
        assert!(store.latest(&uri).is_none());
    }
}
