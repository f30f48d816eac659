//! An in-process LSP client for protocol tests: JSON-RPC messages straight into the
//! `LspService`, the server's messages read from its socket, and `$0` cursor fixtures.

#![allow(dead_code)]

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use sources_lsp::{LspService, Options, Server};
use tokio::sync::mpsc;
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::{Error, Request, Response};
use tower_lsp_server::ls_types::{Position, PublishDiagnosticsParams};

/// Splits a fixture at its `$0` cursor marker: the text without it and the cursor's byte offset.
pub fn cursor(fixture: &str) -> (String, usize) {
    let offset = fixture
        .find("$0")
        .expect("the fixture has a $0 cursor marker");
    (fixture.replacen("$0", "", 1), offset)
}

/// The UTF-16 position of a byte offset (what a client without UTF-8 support sends).
pub fn utf16_position(text: &str, offset: usize) -> Position {
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    Position::new(line, before[line_start..].encode_utf16().count() as u32)
}

/// The UTF-8 position of a byte offset.
pub fn utf8_position(text: &str, offset: usize) -> Position {
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    Position::new(line, (offset - line_start) as u32)
}

/// The byte offset of the first occurrence of `needle` in `text`.
pub fn offset_of(text: &str, needle: &str) -> usize {
    text.find(needle)
        .unwrap_or_else(|| panic!("`{needle}` is in the text"))
}

/// A client session with one server.
pub struct TestClient {
    service: LspService<Server>,
    from_server: mpsc::UnboundedReceiver<Request>,
    next_id: i64,
    /// The `initialize` result.
    pub initialized: Value,
}

/// The URI tests use for a file name.
pub fn uri(name: &str) -> String {
    format!("file:///work/{name}")
}

impl TestClient {
    /// Starts a server, initialises it with these client capabilities and sends `initialized`.
    pub async fn start(options: Options, capabilities: Value) -> TestClient {
        TestClient::start_with(options, capabilities, Value::Null).await
    }

    /// Starts a server whose workspace is the folder `root_uri`.
    pub async fn start_in(root_uri: &str) -> TestClient {
        TestClient::start_with(Options::default(), json!({}), json!(root_uri)).await
    }

    /// Starts a server, initialises it with these client capabilities and root URI and sends
    /// `initialized`.
    pub async fn start_with(options: Options, capabilities: Value, root_uri: Value) -> TestClient {
        let (service, socket) = sources_lsp::service(options);
        let (sender, from_server) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut socket = socket;
            while let Some(message) = socket.next().await {
                // The client answers the server's requests: it shows documents, and has nothing
                // to say to anything else.
                if let Some(id) = message.id().cloned() {
                    let result = if message.method() == "window/showDocument" {
                        json!({ "success": true })
                    } else {
                        Value::Null
                    };
                    if socket.send(Response::from_ok(id, result)).await.is_err() {
                        break;
                    }
                }
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = TestClient {
            service,
            from_server,
            next_id: 0,
            initialized: Value::Null,
        };
        client.initialized = client
            .request(
                "initialize",
                json!({ "processId": null, "rootUri": root_uri, "capabilities": capabilities }),
            )
            .await
            .expect("initialize succeeds");
        client.notify("initialized", json!({})).await;
        client
    }

    /// Starts a server with default options and a client that counts columns in UTF-16.
    pub async fn utf16() -> TestClient {
        TestClient::start(Options::default(), json!({})).await
    }

    /// Starts a server with default options and a client that offers UTF-8 columns.
    pub async fn utf8() -> TestClient {
        TestClient::start(
            Options::default(),
            json!({ "general": { "positionEncodings": ["utf-8", "utf-16"] } }),
        )
        .await
    }

    /// Sends a request and returns its result or error.
    pub async fn request(&mut self, method: &'static str, params: Value) -> Result<Value, Error> {
        self.next_id += 1;
        let request = Request::build(method)
            .id(self.next_id)
            .params(params)
            .finish();
        let response = self
            .service
            .ready()
            .await
            .expect("the server is running")
            .call(request)
            .await
            .expect("the server is running")
            .expect("a request gets a response");
        let (_, result) = response.into_parts();
        result
    }

    /// Sends a notification.
    pub async fn notify(&mut self, method: &'static str, params: Value) {
        let notification = Request::build(method).params(params).finish();
        let response = self
            .service
            .ready()
            .await
            .expect("the server is running")
            .call(notification)
            .await
            .expect("the server is running");
        assert!(response.is_none(), "a notification gets no response");
    }

    /// Opens a document.
    pub async fn open(&mut self, name: &str, language: &str, text: &str) {
        self.open_uri(&uri(name), language, text).await;
    }

    /// Opens a document at any URI (such as a file in a project directory).
    pub async fn open_uri(&mut self, uri: &str, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": language, "version": 1, "text": text } }),
        )
        .await;
    }

    /// The code actions offered for the first `needle` in `name`, whose text is `text`.
    pub async fn code_actions(&mut self, name: &str, text: &str, needle: &str) -> Vec<Value> {
        let offset = offset_of(text, needle);
        let range = json!({
            "start": utf16_position(text, offset),
            "end": utf16_position(text, offset + needle.len()),
        });
        let actions = self
            .request(
                "textDocument/codeAction",
                json!({
                    "textDocument": { "uri": uri(name) },
                    "range": range,
                    "context": { "diagnostics": [] },
                }),
            )
            .await
            .expect("code actions");
        actions.as_array().cloned().unwrap_or_default()
    }

    /// Replaces a document's whole text.
    pub async fn replace(&mut self, name: &str, version: i32, text: &str) {
        self.replace_uri(&uri(name), version, text).await;
    }

    /// Replaces the whole text of a document at any URI.
    pub async fn replace_uri(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        )
        .await;
    }

    /// The next diagnostics the server publishes, for any document (waits up to ten seconds).
    pub async fn publication(&mut self) -> PublishDiagnosticsParams {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let message = tokio::time::timeout_at(deadline, self.from_server.recv())
                .await
                .expect("diagnostics are published within ten seconds")
                .expect("the server is running");
            if message.method() == "textDocument/publishDiagnostics" {
                return serde_json::from_value(message.params().cloned().unwrap_or(Value::Null))
                    .expect("well-formed publishDiagnostics params");
            }
        }
    }

    /// The next message the server sends with `method` (waits up to thirty seconds); the client
    /// has already answered it when it is a request.
    pub async fn message(&mut self, method: &str) -> Request {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let message = tokio::time::timeout_at(deadline, self.from_server.recv())
                .await
                .unwrap_or_else(|_| panic!("the server sends `{method}` within thirty seconds"))
                .expect("the server is running");
            if message.method() == method {
                return message;
            }
        }
    }

    /// The next diagnostics the server publishes for `name` (waits up to ten seconds).
    pub async fn diagnostics(&mut self, name: &str) -> PublishDiagnosticsParams {
        let wanted = uri(name);
        loop {
            let params = self.publication().await;
            if params.uri.as_str() == wanted {
                return params;
            }
        }
    }

    /// A `textDocument/*` request at a position of `name`.
    pub async fn at(
        &mut self,
        method: &'static str,
        name: &str,
        position: Position,
        extra: Value,
    ) -> Result<Value, Error> {
        let mut params = json!({ "textDocument": { "uri": uri(name) }, "position": position });
        if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
            params.extend(extra);
        }
        self.request(method, params).await
    }

    /// The text of the hover at `position` of the document at `uri` (empty when it has none).
    pub async fn hover_text(&mut self, uri: &str, position: Position) -> String {
        let hover = self
            .request(
                "textDocument/hover",
                json!({ "textDocument": { "uri": uri }, "position": position }),
            )
            .await
            .expect("a hover");
        hover["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Renames the name at `position` of `name` (whose text is `text`): the text with the edits
    /// applied, or the refusal.
    pub async fn rename(
        &mut self,
        name: &str,
        text: &str,
        position: Position,
        new_name: &str,
    ) -> Result<String, Error> {
        let edit = self
            .at(
                "textDocument/rename",
                name,
                position,
                json!({ "newName": new_name }),
            )
            .await?;
        let edits = edit["changes"][uri(name)]
            .as_array()
            .expect("edits of the document");
        Ok(apply_edits(text, edits))
    }

    /// The inlay hints of the document at `uri` on lines `start` to `end`.
    pub async fn inlay_hints(&mut self, uri: &str, start: u32, end: u32) -> Vec<Value> {
        let hints = self
            .request(
                "textDocument/inlayHint",
                json!({
                    "textDocument": { "uri": uri },
                    "range": {
                        "start": { "line": start, "character": 0 },
                        "end": { "line": end, "character": 0 },
                    },
                }),
            )
            .await
            .expect("inlay hints");
        hints.as_array().expect("a list of hints").clone()
    }

    /// Every location of the name at `position` of `name`, its declaration included.
    pub async fn references(&mut self, name: &str, position: Position) -> Vec<Value> {
        let found = self
            .at(
                "textDocument/references",
                name,
                position,
                json!({ "context": { "includeDeclaration": true } }),
            )
            .await
            .expect("references");
        found.as_array().expect("a list of locations").clone()
    }
}

/// Applies LSP text edits (UTF-16 positions) to `text`, last first.
pub fn apply_edits(text: &str, edits: &[Value]) -> String {
    let index = sources_syntax::LineIndex::new(text);
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|edit| {
            let offset = |position: &Value| {
                index
                    .offset(
                        position["line"].as_u64().expect("a line") as u32,
                        position["character"].as_u64().expect("a character") as u32,
                        sources_syntax::PositionEncoding::Utf16,
                    )
                    .unwrap_or(text.len())
            };
            (
                offset(&edit["range"]["start"]),
                offset(&edit["range"]["end"]),
                edit["newText"].as_str().expect("newText").to_owned(),
            )
        })
        .collect();
    spans.sort_by_key(|span| std::cmp::Reverse(span.0));
    let mut out = text.to_owned();
    for (start, end, replacement) in spans {
        out.replace_range(start..end, &replacement);
    }
    out
}

/// Opens `fixture` (with its `$0` removed) as `name` and asks for completion at the cursor: the
/// items' labels, and the items.
pub async fn complete_at(fixture: &str, name: &str, language: &str) -> (Vec<String>, Value) {
    let (text, offset) = cursor(fixture);
    let mut client = TestClient::utf16().await;
    client.open(name, language, &text).await;
    let items = client
        .at(
            "textDocument/completion",
            name,
            utf16_position(&text, offset),
            json!({}),
        )
        .await
        .expect("a completion response")["items"]
        .clone();
    let labels = items
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item["label"].as_str().map(str::to_owned))
        .collect();
    (labels, items)
}

/// Records `value` as a sample of the entry `entry` of the configuration `text` at `config_path`
/// (at 2026-11-26T07:00:00Z, with no parameters), as `sources try ENTRY --record` would.
pub fn record_sample(config_path: &std::path::Path, text: &str, entry: &str, value: &Value) {
    let analysis = sources_check::analyze(text, sources_syntax::Syntax::Yaml);
    let source = analysis.config.get(entry).expect("the entry");
    sources_eval::samples::write(
        config_path,
        &sources_eval::samples::Recording {
            source,
            fingerprint: sources_check::shapes::fingerprint(text, source),
            params: &Default::default(),
            secret_names: &[],
            recorded: "2026-11-26T07:00:00Z",
            value,
        },
    )
    .expect("recorded");
}
