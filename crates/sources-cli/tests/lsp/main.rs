//! `sources lsp` as a process, through the workspace's one stdio client
//! (`sources_testkit::lsp_client`). The server answers every request, with the right content, and
//! stays up until `exit` or the end of its input. One module per part of the protocol:
//!
//! - `robustness`: malformed frames, invalid messages, unknown methods, requests after
//!   `shutdown`; the process's input pipe and allocator options.
//! - `sync`: out-of-order versions, a flood of edits, edits inside one entry (which the server
//!   reparses alone) and full-text changes publish what a fresh open of the same text publishes.
//! - `publication`: what is published: the first thousand problems after the settings drop a
//!   rule, multibyte TOML values, and a client that pulls instead of being pushed to.
//! - `capabilities`: every capability beyond diagnostics (semantic tokens, inlay hints, "▶ try",
//!   highlight, folding, selection, workspace symbols, pulled diagnostics, template completion)
//!   answers with its content through the process, not only through the in-process service.

mod capabilities;
mod publication;
mod robustness;
mod sync;

use std::process::{Command, ExitStatus};

use serde_json::{Value, json};
use sources_testkit::lsp_client::{LspClient, Stderr};

const MISTAKES: &str = "data:\n  sources:\n    apps:\n      type: http\n      url: https://e.invalid\n    view:\n      type: filter\n      from: appz\n      where: \"true\"\n";

/// A running `sources lsp` whose every failure to talk fails the test.
struct Lsp {
    client: LspClient,
}

impl Lsp {
    fn start() -> Lsp {
        Lsp::start_with(&[])
    }

    /// Starts the server with these variables added to its environment.
    fn start_with(environment: &[(&str, &str)]) -> Lsp {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sources"));
        command.arg("lsp").envs(environment.iter().copied());
        Lsp {
            client: LspClient::start(command, Stderr::Kept).expect("the binary starts"),
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.client
            .send_raw(bytes)
            .expect("the server reads its input");
    }

    fn send(&mut self, message: Value) {
        self.client
            .send(&message)
            .expect("the server reads its input");
    }

    fn request(&mut self, id: i64, method: &str, params: Value) {
        self.client
            .request(id, method, params)
            .expect("the server reads its input");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.client
            .notify(method, params)
            .expect("the server reads its input");
    }

    /// The first message that satisfies `wanted` ([`LspClient::wait_for`]).
    fn expect(&self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        self.client
            .wait_for(wanted)
            .unwrap_or_else(|error| panic!("waiting for {what}: {error}"))
    }

    /// The response to request `id`.
    fn response(&self, id: Value) -> Value {
        self.expect(&format!("the response to {id}"), |message| {
            message.get("id") == Some(&id) && message.get("method").is_none()
        })
    }

    /// Waits for the `window/logMessage` that says `text`.
    fn log(&self, text: &str) {
        self.expect(&format!("the log message {text:?}"), |message| {
            message["method"] == "window/logMessage" && message["params"]["message"] == text
        });
    }

    /// The next publication for `uri`.
    fn published(&self, uri: &str) -> Value {
        self.expect("diagnostics", |message| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
        })["params"]
            .clone()
    }

    /// The publication of version `version` of the document at `uri`.
    fn published_version(&self, uri: &str, version: i64) -> Value {
        self.expect(
            &format!("the publication of version {version} of {uri}"),
            |message| {
                message["method"] == "textDocument/publishDiagnostics"
                    && message["params"]["uri"] == uri
                    && message["params"]["version"] == version
            },
        )["params"]
            .clone()
    }

    /// The publication of `text` opened afresh (as `fresh-NAME.yaml`).
    fn fresh_publication(&mut self, name: i64, text: &str) -> Value {
        let uri = format!("file:///work/fresh-{name}.yaml");
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
        );
        self.published(&uri)
    }

    /// Closes the input and waits (bounded) for the process to end.
    fn finish(self) -> (ExitStatus, String) {
        self.client.finish().expect("the server exits")
    }
}

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .expect("a diagnostics array")
        .iter()
        .filter_map(|diagnostic| diagnostic["code"].as_str().map(str::to_owned))
        .collect()
}

fn initialize(lsp: &mut Lsp) {
    lsp.request(
        1,
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {} }),
    );
    let initialized = lsp.response(json!(1));
    assert_eq!(initialized["result"]["serverInfo"]["name"], "sources");
    lsp.notify("initialized", json!({}));
}
