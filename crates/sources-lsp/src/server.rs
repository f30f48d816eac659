//! The `LanguageServer` implementation: protocol plumbing around the document store.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use sources_syntax::{PositionEncoding, Syntax};
use std::collections::HashMap;
use tower_lsp_server::jsonrpc::Result;

use tower_lsp_server::jsonrpc::Error;
use tower_lsp_server::ls_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    CodeActionResponse, CompletionItem, CompletionList, CompletionOptions, CompletionParams,
    CompletionResponse, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams,
    GotoDefinitionResponse, Hover, HoverParams, HoverProviderCapability, InitializeParams,
    InitializeResult, InitializedParams, Location, MessageType, OneOf, Position,
    PrepareRenameResponse, ReferenceParams, RenameOptions, RenameParams, SemanticTokens,
    SemanticTokensDeltaParams, SemanticTokensFullDeltaResult, SemanticTokensFullOptions,
    SemanticTokensOptions, SemanticTokensParams, SemanticTokensRangeParams,
    SemanticTokensRangeResult, SemanticTokensResult, SemanticTokensServerCapabilities,
    ServerCapabilities, ServerInfo, TextDocumentPositionParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextEdit, Uri, WorkspaceEdit,
};
use tower_lsp_server::ls_types::{
    CodeLens, CodeLensOptions, CodeLensParams, DidChangeConfigurationParams,
    DidChangeWatchedFilesParams, ExecuteCommandOptions, ExecuteCommandParams, InlayHint,
    InlayHintParams, InlayHintServerCapabilities, LSPAny, ShowDocumentParams,
};
use tower_lsp_server::ls_types::{
    DiagnosticOptions, DiagnosticServerCapabilities, DocumentDiagnosticParams,
    DocumentDiagnosticReport, DocumentDiagnosticReportResult, DocumentHighlight,
    DocumentHighlightKind, DocumentHighlightParams, FoldingRange, FoldingRangeParams,
    FoldingRangeProviderCapability, FullDocumentDiagnosticReport,
    RelatedFullDocumentDiagnosticReport, SelectionRange, SelectionRangeParams,
    SelectionRangeProviderCapability, WorkspaceDiagnosticParams, WorkspaceDiagnosticReport,
    WorkspaceDiagnosticReportResult, WorkspaceDocumentDiagnosticReport,
    WorkspaceFullDocumentDiagnosticReport, WorkspaceSymbolParams, WorkspaceSymbolResponse,
};
use tower_lsp_server::{Client, LanguageServer};

use crate::analysis_thread;
use crate::document::{DocumentStore, Snapshot};
use crate::guard::{self, Panicked};
use crate::names::{self, Occurrence, Symbol};
use crate::position::{self, Positions};
use crate::project;
use crate::{
    Options, code_actions, completion, diagnostics, hover, inlay, lens, ranges, semantic_tokens,
    settings, symbols, try_command, workspace,
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

    /// The symbol under the cursor, with the snapshot it was found in.
    fn symbol_at(
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

    /// Runs "▶ try": checks the request, fetches off the server's threads, and shows the result
    /// as a document (or a message where the client cannot open one).
    async fn try_entry(&self, arguments: &[LSPAny]) -> Result<Option<LSPAny>> {
        let request = try_command::arguments(arguments).map_err(Error::invalid_params)?;
        let uri: Uri = request
            .uri
            .parse()
            .map_err(|_| Error::invalid_params(format!("`{}` is not a URI", request.uri)))?;
        let Some(snapshot) = self.snapshot(&uri)? else {
            return Err(Error::invalid_params(format!(
                "`{}` is not open",
                request.uri
            )));
        };
        let analyzed = snapshot.current.clone();
        let checked = try_command::check(&analyzed.analysis, &request);
        let outcome = match checked {
            Err(refusal) => try_command::Outcome::Refused(refusal),
            Ok(bound) => {
                let demo = self.settings.values().demo;
                let name = request.name.clone();
                tokio::task::spawn_blocking(move || {
                    try_command::run(&analyzed.analysis.config, &bound, demo)
                })
                .await
                .unwrap_or_else(|_| {
                    try_command::Outcome::Refused(
                        format!("trying `{name}` failed unexpectedly").into(),
                    )
                })
            }
        };
        let (value, summary) = match outcome {
            try_command::Outcome::Refused(refusal) => {
                self.client
                    .show_message(
                        MessageType::ERROR,
                        format!("sources try: {}", refusal.message),
                    )
                    .await;
                return Ok(Some(serde_json::json!({
                    "error": refusal.message,
                    "missing": refusal.missing,
                })));
            }
            try_command::Outcome::Fetched { value, summary } => (value, summary),
        };
        let name = arguments.get(1).and_then(LSPAny::as_str).unwrap_or("entry");
        let mut document = None;
        if self.settings.can_show_document() {
            match try_command::write_result(name, &value) {
                Ok(path) => {
                    let shown: Option<Uri> = format!("file://{}", path.display()).parse().ok();
                    if let Some(shown) = shown {
                        let params = ShowDocumentParams {
                            uri: shown.clone(),
                            external: Some(false),
                            take_focus: Some(false),
                            selection: None,
                        };
                        if self.client.show_document(params).await.unwrap_or(false) {
                            document = Some(shown);
                        }
                    }
                }
                Err(error) => {
                    self.client
                        .log_message(
                            MessageType::WARNING,
                            format!("sources try: cannot write the result file: {error}"),
                        )
                        .await;
                }
            }
        }
        if document.is_none() {
            let mut shown = serde_json::to_string(&value).unwrap_or_default();
            if shown.len() > 2000 {
                let cut = (0..=2000)
                    .rev()
                    .find(|at| shown.is_char_boundary(*at))
                    .unwrap_or(0);
                shown.truncate(cut);
                shown.push('…');
            }
            self.client
                .show_message(MessageType::INFO, format!("{summary}\n{shown}"))
                .await;
        }
        Ok(Some(serde_json::json!({
            "summary": summary,
            "document": document.map(|uri| uri.as_str().to_owned()),
            "value": value,
        })))
    }

    /// The diagnostics of an analysed document as the client sees them (the levels it was
    /// analysed with, capped like the published ones), for pull requests.
    fn lsp_diagnostics(
        &self,
        analyzed: &crate::document::Analyzed,
        uri: &Uri,
    ) -> Vec<tower_lsp_server::ls_types::Diagnostic> {
        let positions = Positions::new(&analyzed.analysis.line_index, self.encoding());
        diagnostics::published(
            analyzed,
            uri,
            positions,
            self.options.max_published_diagnostics,
        )
    }

    /// Analyses the latest version of `uri` now and publishes its diagnostics. One worker runs per
    /// document: a change during an analysis makes it analyse the newest version next, and a
    /// result that is no longer the latest is dropped instead of published.
    fn schedule_diagnostics(&self, uri: Uri) {
        if !self.documents.start_worker(&uri) {
            return;
        }
        let documents = self.documents.clone();
        let client = self.client.clone();
        let publishing = self.publishing.clone();
        let encoding = self.encoding();
        let limit = self.options.max_published_diagnostics;
        tokio::spawn(async move {
            while let Some(version) = documents.latest(&uri) {
                let store = documents.clone();
                let (analysed_uri, analysed) = (uri.clone(), version.clone());
                let outcome = analysis_thread::run(move || {
                    let project = project::for_uri(&analysed_uri);
                    (store.analysed(&analysed_uri, &analysed), project)
                })
                .await;
                match outcome {
                    Some((Ok(snapshot), project)) => {
                        // The analysis counted an unusable settings file as none.
                        if let Err(message) = project {
                            client.show_message(MessageType::ERROR, &message).await;
                            client.log_message(MessageType::ERROR, message).await;
                        }
                        let _in_order = publishing.lock().await;
                        if documents.is_latest(&uri, &version) {
                            let analysis = &snapshot.current.analysis;
                            let positions = Positions::new(&analysis.line_index, encoding);
                            let published =
                                diagnostics::published(&snapshot.current, &uri, positions, limit);
                            client
                                .publish_diagnostics(uri.clone(), published, Some(version.number))
                                .await;
                        }
                    }
                    Some((Err(panicked), _)) => {
                        let error = panicked.into_error();
                        client.log_message(MessageType::ERROR, error.message).await;
                    }
                    None => {
                        client
                            .log_message(MessageType::ERROR, "analysis stopped unexpectedly")
                            .await;
                    }
                }
                if documents.finish_worker(&uri, &version) {
                    return;
                }
            }
        });
    }

    /// Analyses and publishes every open document again, for a change of what decides its
    /// diagnostics besides the text (the settings file, the client's settings): the analysis
    /// drops the rules turned off and keeps the first diagnostics of the others.
    fn publish_all_again(&self) {
        self.documents.renew_all();
        for uri in self.documents.open_documents() {
            self.schedule_diagnostics(uri);
        }
    }
}

fn capabilities(encoding: PositionEncoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(position::encoding_kind(encoding)),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![
                ".".to_owned(),
                "{".to_owned(),
                ":".to_owned(),
                " ".to_owned(),
            ]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: semantic_tokens::legend(),
                range: Some(true),
                full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                ..SemanticTokensOptions::default()
            },
        )),
        inlay_hint_provider: Some(OneOf::Right(InlayHintServerCapabilities::Options(
            Default::default(),
        ))),
        document_highlight_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        diagnostic_provider: Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
            identifier: Some("sources".to_owned()),
            inter_file_dependencies: false,
            workspace_diagnostics: true,
            ..DiagnosticOptions::default()
        })),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![try_command::COMMAND.to_owned()],
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = *self
            .encoding
            .get_or_init(|| position::negotiate(&params.capabilities));
        self.settings.client(&params.capabilities);
        #[allow(deprecated)]
        let roots: Vec<Uri> = match (&params.workspace_folders, &params.root_uri) {
            (Some(folders), _) => folders.iter().map(|folder| folder.uri.clone()).collect(),
            (None, Some(root)) => vec![root.clone()],
            (None, None) => Vec::new(),
        };
        self.settings.workspace(
            roots
                .iter()
                .filter(|uri| uri.scheme().as_str() == "file")
                .map(|uri| std::path::PathBuf::from(uri.path().as_str()))
                .collect(),
        );
        if let Some(options) = &params.initialization_options {
            self.settings.update(options);
        }
        Ok(InitializeResult {
            capabilities: capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "sources".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if self.settings.can_watch_files() {
            let client = self.client.clone();
            tokio::spawn(async move {
                let registered = client
                    .register_capability(vec![project::watcher_registration()])
                    .await;
                if let Err(error) = registered {
                    let message = format!(
                        "sources: changes to sources-lint.toml apply at the next edit, as the \
                         client refused to watch it: {}",
                        error.message
                    );
                    client.log_message(MessageType::WARNING, message).await;
                }
            });
        }
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
        let _in_order = self.publishing.lock().await;
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
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
        let at = params.text_document_position_params;
        guard::request("textDocument/definition", || {
            let Some((snapshot, symbol, _)) = self.symbol_at(&at)? else {
                return Ok(None);
            };
            let declaration = names::declaration(&snapshot.current.analysis.config, &symbol);
            let locations =
                self.locations(&snapshot, &at.text_document.uri, declaration.as_slice());
            Ok(locations
                .into_iter()
                .next()
                .map(GotoDefinitionResponse::Scalar))
        })
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let at = params.text_document_position;
        let include_declaration = params.context.include_declaration;
        guard::request("textDocument/references", || {
            let Some((snapshot, symbol, _)) = self.symbol_at(&at)? else {
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
            Ok(Some(self.locations(
                &snapshot,
                &at.text_document.uri,
                &occurrences,
            )))
        })
    }

    async fn prepare_rename(
        &self,
        at: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        guard::request("textDocument/prepareRename", || {
            let Some(snapshot) = self.snapshot(&at.text_document.uri)? else {
                return Ok(None);
            };
            let analysis = &snapshot.current.analysis;
            let positions = Positions::new(&analysis.line_index, self.encoding());
            let offset = positions.offset(at.position);
            let Some((symbol, span)) =
                names::symbol_at(&analysis.config, snapshot.current.text(), offset)
            else {
                return Ok(None);
            };
            Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
                range: positions.range(span),
                placeholder: symbol.name().to_owned(),
            }))
        })
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let at = params.text_document_position;
        let new_name = params.new_name;
        guard::request("textDocument/rename", || {
            let Some((snapshot, symbol, _)) = self.symbol_at(&at)? else {
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
            let positions = Positions::new(&analyzed.analysis.line_index, self.encoding());
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
        let uri = params.text_document.uri;
        guard::request("textDocument/semanticTokens/full", || {
            let Some(snapshot) = self.snapshot(&uri)? else {
                return Ok(None);
            };
            let data = self.semantic_tokens(&snapshot, None);
            Ok(Some(SemanticTokensResult::Tokens(
                self.semantic.full(&uri, data),
            )))
        })
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = params.text_document.uri;
        guard::request("textDocument/semanticTokens/full/delta", || {
            let Some(snapshot) = self.snapshot(&uri)? else {
                return Ok(None);
            };
            let data = self.semantic_tokens(&snapshot, None);
            Ok(Some(
                match self
                    .semantic
                    .delta(&uri, &params.previous_result_id, data.clone())
                {
                    Some(delta) => SemanticTokensFullDeltaResult::TokensDelta(delta),
                    None => SemanticTokensFullDeltaResult::Tokens(self.semantic.full(&uri, data)),
                },
            ))
        })
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let uri = params.text_document.uri;
        guard::request("textDocument/semanticTokens/range", || {
            let Some(snapshot) = self.snapshot(&uri)? else {
                return Ok(None);
            };
            let positions = Positions::new(&snapshot.current.analysis.line_index, self.encoding());
            let within = positions.span(params.range);
            Ok(Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
                result_id: None,
                data: self.semantic_tokens(&snapshot, Some(within)),
            })))
        })
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
        if params.command != try_command::COMMAND {
            return Err(Error::invalid_params(format!(
                "unknown command `{}`: this server runs `{}`",
                params.command,
                try_command::COMMAND
            )));
        }
        self.try_entry(&params.arguments).await
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
            Ok(Some(inlay::hints(analyzed, positions, within)))
        })
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let at = params.text_document_position_params;
        guard::request("textDocument/documentHighlight", || {
            let Some((snapshot, symbol, _)) = self.symbol_at(&at)? else {
                return Ok(None);
            };
            let analyzed = &snapshot.current;
            let positions = Positions::new(&analyzed.analysis.line_index, self.encoding());
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
        let uri = params.text_document.uri;
        guard::request("textDocument/diagnostic", || {
            let items = match self.snapshot(&uri)? {
                Some(snapshot) => self.lsp_diagnostics(&snapshot.current, &uri),
                None => Vec::new(),
            };
            Ok(DocumentDiagnosticReportResult::Report(
                DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
                    related_documents: None,
                    full_document_diagnostic_report: FullDocumentDiagnosticReport {
                        result_id: None,
                        items,
                    },
                }),
            ))
        })
    }

    async fn workspace_diagnostic(
        &self,
        _: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        guard::request("workspace/diagnostic", || {
            let mut items = Vec::new();
            for uri in self.documents.open_documents() {
                let Some(snapshot) = self.snapshot(&uri)? else {
                    continue;
                };
                let diagnostics = self.lsp_diagnostics(&snapshot.current, &uri);
                let version = self
                    .documents
                    .latest(&uri)
                    .map(|version| i64::from(version.number));
                items.push(WorkspaceDocumentDiagnosticReport::Full(
                    WorkspaceFullDocumentDiagnosticReport {
                        uri,
                        version,
                        full_document_diagnostic_report: FullDocumentDiagnosticReport {
                            result_id: None,
                            items: diagnostics,
                        },
                    },
                ));
            }
            items.sort_by(|a, b| match (a, b) {
                (
                    WorkspaceDocumentDiagnosticReport::Full(a),
                    WorkspaceDocumentDiagnosticReport::Full(b),
                ) => a.uri.as_str().cmp(b.uri.as_str()),
                _ => std::cmp::Ordering::Equal,
            });
            Ok(WorkspaceDiagnosticReportResult::Report(
                WorkspaceDiagnosticReport { items },
            ))
        })
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let query = params.query;
        let open = self.documents.open_documents();
        let mut found = Vec::new();
        for uri in &open {
            if let Some(snapshot) = self.snapshot(uri)? {
                let analyzed = snapshot.symbols();
                let positions = Positions::new(&analyzed.analysis.line_index, self.encoding());
                found.extend(workspace::symbols(analyzed, uri, positions, &query));
            }
        }
        let roots = self.settings.roots();
        let encoding = self.encoding();
        let open_uris = open;
        let documents = self.documents.clone();
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
        Symbol::Source(_) => {
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
