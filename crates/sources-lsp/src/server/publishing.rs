//! Diagnostics, delivered once to each client: pushed per document by one worker each (and again
//! when the settings change) to a client that does not pull, or pulled per document or for the
//! workspace by one that does (asked to pull again when the settings change).

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    DocumentDiagnosticParams, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, MessageType, RelatedFullDocumentDiagnosticReport, Uri,
    WorkspaceDiagnosticParams, WorkspaceDiagnosticReport, WorkspaceDiagnosticReportResult,
    WorkspaceDocumentDiagnosticReport, WorkspaceFullDocumentDiagnosticReport,
};

use super::Server;
use crate::analysis_thread;
use crate::diagnostics;
use crate::guard;
use crate::position::Positions;
use crate::project;
use crate::settings::Delivery;

impl Server {
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
    pub(super) fn schedule_diagnostics(&self, uri: Uri) {
        // A client that pulls asks for each version's diagnostics itself.
        if self.settings.delivery() != Delivery::Push || !self.documents.start_worker(&uri) {
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
    pub(super) fn publish_all_again(&self) {
        self.documents.renew_all();
        match self.settings.delivery() {
            Delivery::Push => {
                for uri in self.documents.open_documents() {
                    self.schedule_diagnostics(uri);
                }
            }
            Delivery::Pull { refresh: true } => {
                let client = self.client.clone();
                tokio::spawn(async move {
                    if let Err(error) = client.workspace_diagnostic_refresh().await {
                        let message = format!("workspace/diagnostic/refresh failed: {error}");
                        client.log_message(MessageType::WARNING, message).await;
                    }
                });
            }
            // The client pulls again when it decides to; it has no way to be told.
            Delivery::Pull { refresh: false } => {}
        }
    }
}

/// Answers `textDocument/diagnostic` with the document's diagnostics (none for a document
/// that is not open).
pub(super) fn diagnostic(
    server: &Server,
    params: DocumentDiagnosticParams,
) -> Result<DocumentDiagnosticReportResult> {
    let uri = params.text_document.uri;
    guard::request("textDocument/diagnostic", || {
        let items = match server.snapshot(&uri)? {
            Some(snapshot) => server.lsp_diagnostics(&snapshot.current, &uri),
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

/// Answers `workspace/diagnostic` with the diagnostics of every open document, by URI.
pub(super) fn workspace_diagnostic(
    server: &Server,
    _: WorkspaceDiagnosticParams,
) -> Result<WorkspaceDiagnosticReportResult> {
    guard::request("workspace/diagnostic", || {
        let mut items = Vec::new();
        for uri in server.documents.open_documents() {
            let Some(snapshot) = server.snapshot(&uri)? else {
                continue;
            };
            let diagnostics = server.lsp_diagnostics(&snapshot.current, &uri);
            let version = server
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
