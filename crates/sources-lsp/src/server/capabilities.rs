//! The initialize handshake: what the server takes from the client's `initialize` and what it
//! advertises back.

use sources_syntax::PositionEncoding;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CodeLensOptions,
    CompletionOptions, DiagnosticOptions, DiagnosticServerCapabilities, ExecuteCommandOptions,
    FoldingRangeProviderCapability, HoverProviderCapability, InitializeParams, InitializeResult,
    InitializedParams, InlayHintServerCapabilities, MessageType, OneOf, RenameOptions,
    SelectionRangeProviderCapability, SemanticTokensFullOptions, SemanticTokensOptions,
    SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};

use super::Server;
use crate::settings::Delivery;
use crate::{position, project, semantic_tokens, try_command};

/// What the server advertises, with the position encoding negotiated. The diagnostic provider is
/// advertised only to a client that pulls: one that is also pushed to would show each twice.
fn capabilities(encoding: PositionEncoding, delivery: Delivery) -> ServerCapabilities {
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
        diagnostic_provider: match delivery {
            Delivery::Push => None,
            Delivery::Pull { .. } => {
                Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
                    identifier: Some("sources".to_owned()),
                    inter_file_dependencies: false,
                    workspace_diagnostics: true,
                    ..DiagnosticOptions::default()
                }))
            }
        },
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

/// Answers `initialize`: negotiates the position encoding, takes the client's capabilities,
/// workspace roots and initialization options, and advertises the capabilities.
pub(super) fn initialize(server: &Server, params: InitializeParams) -> Result<InitializeResult> {
    let encoding = *server
        .encoding
        .get_or_init(|| position::negotiate(&params.capabilities));
    server.settings.client(&params.capabilities);
    #[allow(deprecated)]
    let roots: Vec<Uri> = match (&params.workspace_folders, &params.root_uri) {
        (Some(folders), _) => folders.iter().map(|folder| folder.uri.clone()).collect(),
        (None, Some(root)) => vec![root.clone()],
        (None, None) => Vec::new(),
    };
    server.settings.workspace(
        roots
            .iter()
            .filter(|uri| uri.scheme().as_str() == "file")
            .map(|uri| std::path::PathBuf::from(uri.path().as_str()))
            .collect(),
    );
    if let Some(options) = &params.initialization_options {
        server.settings.update(options);
    }
    Ok(InitializeResult {
        capabilities: capabilities(encoding, server.settings.delivery()),
        server_info: Some(ServerInfo {
            name: "sources".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
        offset_encoding: None,
    })
}

/// Answers `initialized`: asks the client to watch the settings file where it can.
pub(super) fn initialized(server: &Server, _: InitializedParams) {
    if server.settings.can_watch_files() {
        let client = server.client.clone();
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
