//! The `LanguageServer` implementation: protocol plumbing around the document store. The larger
//! requests are answered in the submodules, one per feature; the implementation delegates to them.

mod capabilities;
mod navigation;
mod publishing;
mod rename;
mod semantic;
mod try_entry;
mod workspace_symbols;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use sources_syntax::{PositionEncoding, Syntax};
use tower_lsp_server::jsonrpc::Result;

use tower_lsp_server::ls_types::{
    CodeActionKind, CodeActionParams, CodeActionResponse, CodeLens, CodeLensParams, CompletionItem,
    CompletionList, CompletionParams, CompletionResponse, DidChangeConfigurationParams,
    DidChangeTextDocumentParams, DidChangeWatchedFilesParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DocumentDiagnosticParams, DocumentDiagnosticReportResult,
    DocumentHighlight, DocumentHighlightParams, DocumentSymbolParams, DocumentSymbolResponse,
    ExecuteCommandParams, FoldingRange, FoldingRangeParams, GotoDefinitionParams,
    GotoDefinitionResponse, Hover, HoverParams, InitializeParams, InitializeResult,
    InitializedParams, InlayHint, InlayHintParams, LSPAny, Location, MessageType,
    PrepareRenameResponse, ReferenceParams, RenameParams, SelectionRange, SelectionRangeParams,
    SemanticTokensDeltaParams, SemanticTokensFullDeltaResult, SemanticTokensParams,
    SemanticTokensRangeParams, SemanticTokensRangeResult, SemanticTokensResult,
    TextDocumentPositionParams, Uri, WorkspaceDiagnosticParams, WorkspaceDiagnosticReportResult,
    WorkspaceEdit, WorkspaceSymbolParams, WorkspaceSymbolResponse,
};
use tower_lsp_server::{Client, LanguageServer};

use crate::document::{DocumentStore, Snapshot};
use crate::guard::{self, Panicked};
use crate::position::Positions;
use crate::project;
use crate::{
    Options, code_actions, column_values, completion, hover, inlay, lens, ranges, semantic_tokens,
    settings, symbols,
};

/// The language server: one per client connection.
#[derive(Debug)]
pub struct Server {
    client: Client,
    options: Options,
    encoding: OnceLock<PositionEncoding>,
    documents: Arc<DocumentStore>,
    publishing: Arc<tokio::sync::Mutex<()>>,
    semantic: semantic_tokens::Sent,
    settings: Arc<settings::Settings>,
    results: crate::try_command::Results,
}

/// The syntax of a document: from the client's language id, else from the file extension.
fn syntax_of(uri: &Uri, language_id: &str) -> Option<Syntax> {
    match language_id {
        "yaml" => Some(Syntax::Yaml),
        "toml" => Some(Syntax::Toml),
        _ => Syntax::from_path(Path::new(uri.path().as_str())),
    }
}

impl Server {
    /// A server talking to `client`.
    pub fn new(client: Client, options: Options) -> Server {
        let settings: Arc<settings::Settings> = Arc::default();
        Server {
            client,
            options,
            encoding: OnceLock::new(),
            documents: Arc::new(DocumentStore::new(
                settings.clone(),
                options.max_published_diagnostics,
            )),
            publishing: Arc::default(),
            semantic: semantic_tokens::Sent::default(),
            settings,
            results: crate::try_command::Results::default(),
        }
    }

    fn encoding(&self) -> PositionEncoding {
        self.encoding.get().copied().unwrap_or_default()
    }

    /// The snapshot a request works from; `None` for a document that is not open.
    fn snapshot(&self, uri: &Uri) -> Result<Option<Snapshot>> {
        self.documents
            .snapshot(uri)
            .transpose()
            .map_err(Panicked::into_error)
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        capabilities::initialize(self, params)
    }

    async fn initialized(&self, params: InitializedParams) {
        capabilities::initialized(self, params);
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        let Some(syntax) = syntax_of(&document.uri, &document.language_id) else {
            return;
        };
        self.documents.open(
            document.uri.clone(),
            document.text,
            document.version,
            syntax,
        );
        self.schedule_diagnostics(document.uri);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let document = params.text_document;
        let changed = self.documents.change(
            &document.uri,
            document.version,
            params.content_changes,
            self.encoding(),
        );
        if changed.is_ok() {
            self.schedule_diagnostics(document.uri);
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.documents.close(&uri);
        self.semantic.forget(&uri);
        if self.settings.delivery() == settings::Delivery::Push {
            let _in_order = self.publishing.lock().await;
            self.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        guard::request("textDocument/hover", || {
            let Some(snapshot) = self.snapshot(&at.text_document.uri)? else {
                return Ok(None);
            };
            let analysis = &snapshot.current.analysis;
            let positions = Positions::new(&analysis.line_index, self.encoding());
            Ok(hover::hover(
                &snapshot,
                &at.text_document.uri,
                positions.offset(at.position),
                positions,
            ))
        })
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let wants_quick_fixes = params.context.only.as_ref().is_none_or(|only| {
            only.iter()
                .any(|kind| CodeActionKind::QUICKFIX.as_str().starts_with(kind.as_str()))
        });
        if !wants_quick_fixes {
            return Ok(None);
        }
        let uri = params.text_document.uri;
        guard::request("textDocument/codeAction", || {
            let Some(snapshot) = self.snapshot(&uri)? else {
                return Ok(None);
            };
            let analysis = &snapshot.current.analysis;
            let positions = Positions::new(&analysis.line_index, self.encoding());
            let requested = positions.span(params.range);
            let mut actions =
                code_actions::quick_fixes(&snapshot.current, &uri, requested, positions);
            actions.extend(crate::suppress::suppress_actions(
                &snapshot.current,
                &uri,
                requested,
                positions,
            ));
            Ok(Some(actions))
        })
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        guard::request("textDocument/completion", || {
            let Some(snapshot) = self.snapshot(&at.text_document.uri)? else {
                return Ok(None);
            };
            let positions = Positions::new(&snapshot.current.analysis.line_index, self.encoding());
            let (items, is_incomplete) = completion::complete(
                &snapshot,
                &at.text_document.uri,
                positions.offset(at.position),
                positions,
            );
            Ok(Some(CompletionResponse::List(CompletionList {
                is_incomplete,
                items,
            })))
        })
    }

    async fn completion_resolve(&self, item: CompletionItem) -> Result<CompletionItem> {
        guard::request("completionItem/resolve", || {
            Ok(completion::resolve(item, |uri| {
                self.snapshot(uri).ok().flatten()
            }))
        })
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        navigation::goto_definition(self, params)
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        navigation::references(self, params)
    }

    async fn prepare_rename(
        &self,
        at: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        rename::prepare_rename(self, at)
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        rename::rename(self, params)
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        guard::request("textDocument/documentSymbol", || {
            let Some(snapshot) = self.snapshot(&params.text_document.uri)? else {
                return Ok(None);
            };
            let analyzed = snapshot.symbols();
            let positions = Positions::new(&analyzed.analysis.line_index, self.encoding());
            Ok(Some(DocumentSymbolResponse::Nested(symbols::outline(
                analyzed, positions,
            ))))
        })
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        semantic::semantic_tokens_full(self, params)
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        semantic::semantic_tokens_full_delta(self, params)
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        semantic::semantic_tokens_range(self, params)
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        guard::request("textDocument/codeLens", || {
            let Some(snapshot) = self.snapshot(&uri)? else {
                return Ok(None);
            };
            let analyzed = &snapshot.current;
            let positions = Positions::new(&analyzed.analysis.line_index, self.encoding());
            Ok(Some(lens::lenses(analyzed, &uri, positions)))
        })
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        for problem in self.settings.update(&params.settings) {
            self.client.log_message(MessageType::WARNING, problem).await;
        }
        // Severity overrides change what is published.
        self.publish_all_again();
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        // A settings file changes what is published for any document below it.
        if params
            .changes
            .iter()
            .any(|change| project::is_settings_file(&change.uri))
        {
            self.publish_all_again();
        }
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        try_entry::execute_command(self, params).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let uri = params.text_document.uri;
        guard::request("textDocument/inlayHint", || {
            let Some(snapshot) = self.snapshot(&uri)? else {
                return Ok(None);
            };
            let analyzed = &snapshot.current;
            let positions = Positions::new(&analyzed.analysis.line_index, self.encoding());
            let within = positions.span(params.range);
            let mut hints = inlay::hints(analyzed, positions, within);
            if self.settings.values().sample_values {
                hints.extend(column_values::hints(analyzed, &uri, positions, within));
                hints.sort_by_key(|hint| (hint.position.line, hint.position.character));
            }
            Ok(Some(hints))
        })
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        navigation::document_highlight(self, params)
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let uri = params.text_document.uri;
        guard::request("textDocument/foldingRange", || {
            let Some(snapshot) = self.snapshot(&uri)? else {
                return Ok(None);
            };
            let analyzed = snapshot.symbols();
            let positions = Positions::new(&analyzed.analysis.line_index, self.encoding());
            Ok(Some(ranges::folding(analyzed, positions)))
        })
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        let uri = params.text_document.uri;
        guard::request("textDocument/selectionRange", || {
            let Some(snapshot) = self.snapshot(&uri)? else {
                return Ok(None);
            };
            let analyzed = &snapshot.current;
            let positions = Positions::new(&analyzed.analysis.line_index, self.encoding());
            Ok(Some(ranges::selection(
                analyzed,
                positions,
                &params.positions,
            )))
        })
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        publishing::diagnostic(self, params)
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        publishing::workspace_diagnostic(self, params)
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        workspace_symbols::symbol(self, params).await
    }
}
