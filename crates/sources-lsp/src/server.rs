//! The `LanguageServer` implementation: protocol plumbing around the document store.

use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use sources_syntax::{PositionEncoding, Syntax};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    CodeActionResponse, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, Hover, HoverParams, HoverProviderCapability, InitializeParams,
    InitializeResult, InitializedParams, MessageType, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use tower_lsp_server::{Client, LanguageServer};

use crate::document::{DocumentStore, Snapshot};
use crate::guard::{self, Panicked};
use crate::position::{self, Positions};
use crate::{Options, code_actions, diagnostics, hover};

/// The language server: one per client connection.
#[derive(Debug)]
pub struct Server {
    client: Client,
    options: Options,
    encoding: OnceLock<PositionEncoding>,
    documents: Arc<DocumentStore>,
    publishing: Arc<tokio::sync::Mutex<()>>,
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
        Server {
            client,
            options,
            encoding: OnceLock::new(),
            documents: Arc::default(),
            publishing: Arc::default(),
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

    /// Analyses `version` of `uri` after `delay` and publishes its diagnostics, unless the
    /// document has changed (or closed) by then: stale results are dropped.
    fn schedule_diagnostics(&self, uri: Uri, version: i32, delay: Duration) {
        let documents = self.documents.clone();
        let client = self.client.clone();
        let publishing = self.publishing.clone();
        let encoding = self.encoding();
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            if documents.version(&uri) != Some(version) {
                return;
            }
            let store = documents.clone();
            let analysed_uri = uri.clone();
            let Ok(Some(snapshot)) =
                tokio::task::spawn_blocking(move || store.snapshot(&analysed_uri)).await
            else {
                return;
            };
            let current = match snapshot {
                Ok(snapshot) => snapshot.current,
                Err(panicked) => {
                    let error = panicked.into_error();
                    client.log_message(MessageType::ERROR, error.message).await;
                    return;
                }
            };
            let _in_order = publishing.lock().await;
            if documents.version(&uri) != Some(current.version) {
                return;
            }
            let analysis = &current.analysis;
            let published = if analysis.has_sources {
                let positions = Positions::new(&analysis.line_index, encoding);
                analysis
                    .diagnostics
                    .iter()
                    .map(|diagnostic| diagnostics::to_lsp(diagnostic, &uri, positions))
                    .collect()
            } else {
                Vec::new()
            };
            client
                .publish_diagnostics(uri, published, Some(current.version))
                .await;
        });
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
        ..ServerCapabilities::default()
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = *self
            .encoding
            .get_or_init(|| position::negotiate(&params.capabilities));
        Ok(InitializeResult {
            capabilities: capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "sources".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {}

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
        self.schedule_diagnostics(document.uri, document.version, Duration::ZERO);
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
            self.schedule_diagnostics(document.uri, document.version, self.options.debounce);
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.documents.close(&uri);
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
            Ok(Some(code_actions::quick_fixes(
                &snapshot.current,
                &uri,
                requested,
                positions,
            )))
        })
    }
}
