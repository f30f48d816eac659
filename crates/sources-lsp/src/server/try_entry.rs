//! The `sources.try` command behind "▶ try": running an entry and showing what it fetched.

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    ExecuteCommandParams, LSPAny, MessageType, ShowDocumentParams, Uri,
};

use super::Server;
use crate::try_command;

impl Server {
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
        let recording = analyzed.clone();
        let checked = try_command::check(&analyzed, &request);
        let outcome = match checked {
            Err(refusal) => try_command::Outcome::Refused(refusal),
            Ok(bound) => {
                let demo = self.settings.values().demo;
                let name = request.name.clone();
                let tried = uri.clone();
                tokio::task::spawn_blocking(move || {
                    try_command::run(&analyzed, &tried, &bound, demo)
                })
                .await
                .unwrap_or_else(|_| {
                    try_command::Outcome::Refused(
                        format!("trying `{name}` failed unexpectedly").into(),
                    )
                })
            }
        };
        // Every message shown passes through the run's redactor, as `sources try`'s lines do.
        let secrets = sources_eval::trace::Redactor::for_run(
            &recording.analysis.config,
            recording.text(),
            &request.params,
            |name| std::env::var(name).ok(),
        );
        let (value, summary) = match outcome {
            try_command::Outcome::Refused(refusal) => {
                let message = secrets.shown(&refusal.message);
                self.client
                    .show_message(MessageType::ERROR, format!("sources try: {message}"))
                    .await;
                return Ok(Some(serde_json::json!({
                    "error": message,
                    "missing": refusal.missing,
                    "masked": refusal.masked,
                })));
            }
            try_command::Outcome::Fetched { value, summary } => (value, summary),
        };
        let recorded = if request.record {
            Some(
                match self.record(&recording, &uri, &request, &value).await {
                    Ok(path) => serde_json::json!({ "path": path }),
                    Err(error) => serde_json::json!({ "error": error }),
                },
            )
        } else {
            None
        };
        let name = arguments.get(1).and_then(LSPAny::as_str).unwrap_or("entry");
        let mut document = None;
        if self.settings.can_show_document() {
            match self.results.write(name, &value) {
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
                .show_message(
                    MessageType::INFO,
                    secrets.shown(&format!("{summary}\n{shown}")),
                )
                .await;
        }
        Ok(Some(serde_json::json!({
            "summary": summary,
            "document": document.map(|uri| uri.as_str().to_owned()),
            "value": value,
            "recorded": recorded,
        })))
    }

    /// Records what "▶ try" fetched as a sample beside the document (the file `sources try
    /// --record` writes) and says so; the sample's path, or why none was written.
    async fn record(
        &self,
        analyzed: &crate::document::Analyzed,
        uri: &Uri,
        request: &try_command::Arguments,
        value: &LSPAny,
    ) -> std::result::Result<String, String> {
        let config = &analyzed.analysis.config;
        let written = match (crate::samples::file_path(uri), config.get(&request.name)) {
            (Some(path), Some(source)) => sources_eval::samples::record(
                &path,
                analyzed.text(),
                config,
                source,
                &request.params,
                value,
            )
            .map(|written| written.display().to_string())
            .map_err(|error| format!("could not record a sample of `{}`: {error}", request.name)),
            _ => Err(format!(
                "could not record a sample of `{}`: the document is not a file",
                request.name
            )),
        };
        let (kind, message) = match &written {
            Ok(path) => (
                MessageType::INFO,
                format!(
                    "sources try: recorded a sample of `{}` in {path}",
                    request.name
                ),
            ),
            Err(why) => (MessageType::WARNING, format!("sources try: {why}")),
        };
        self.client.log_message(kind, message).await;
        written
    }
}

/// Answers `workspace/executeCommand`: runs `sources.try`, refuses any other command.
pub(super) async fn execute_command(
    server: &Server,
    params: ExecuteCommandParams,
) -> Result<Option<LSPAny>> {
    if params.command != try_command::COMMAND {
        return Err(Error::invalid_params(format!(
            "unknown command `{}`: this server runs `{}`",
            params.command,
            try_command::COMMAND
        )));
    }
    server.try_entry(&params.arguments).await
}
