//! From a change notification to published diagnostics on a 10,000-line configuration, and hover
//! and completion on it, through the in-process service (the pipeline's own cost, without the stdio transport).

use std::fmt::Write as _;

use criterion::{Criterion, criterion_group, criterion_main};
use futures::StreamExt;
use serde_json::{Value, json};
use sources_lsp::{ClientSocket, LspService, Options, Server};
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::Request;

/// A realistic configuration of about `lines` lines: http, exec and static leaves with parameters
/// and windows, and operators reading them.
fn config(lines: usize) -> String {
    let mut text = String::from("app:\n  title: bench\ndata:\n  sources:\n");
    let mut index = 0;
    while text.lines().count() < lines {
        let _ = write!(
            text,
            "    \
    apps_{index}:
      type: http
      url: https://example.invalid/apps/${{params.region}}?page=${{params.page}}
      refresh: 30s
      parameters:
        region:
          type: string
          default: eu
        page:
          type: int
          default: \"1\"
    run_{index}:
      type: exec
      command: [\"list-jobs\", \"--app\", \"${{params.app}}\"]
      timeout: 5s
      parameters:
        app:
          required: true
    healthy_{index}:
      type: filter
      from: apps_{index}
      where: health == \"Healthy\"
    sorted_{index}:
      type: sort
      from: healthy_{index}
      by: name
      order: desc
    fixed_{index}:
      type: static
      data: [{{name: a}}, {{name: b}}]
"
        );
        index += 1;
    }
    text
}

struct Session {
    service: LspService<Server>,
    socket: ClientSocket,
    next_id: i64,
}

impl Session {
    async fn start() -> Session {
        let (service, socket) = sources_lsp::service(Options::default());
        let mut session = Session {
            service,
            socket,
            next_id: 0,
        };
        session
            .request("initialize", json!({ "capabilities": {} }))
            .await;
        session.notify("initialized", json!({})).await;
        session
    }

    async fn send(&mut self, request: Request) -> Option<Value> {
        let response = self
            .service
            .ready()
            .await
            .expect("the server is running")
            .call(request)
            .await
            .expect("the server is running");
        response.map(|response| response.into_parts().1.expect("a successful response"))
    }

    async fn request(&mut self, method: &'static str, params: Value) -> Value {
        self.next_id += 1;
        let request = Request::build(method)
            .id(self.next_id)
            .params(params)
            .finish();
        self.send(request).await.expect("a response")
    }

    async fn notify(&mut self, method: &'static str, params: Value) {
        self.send(Request::build(method).params(params).finish())
            .await;
    }

    /// Waits for the diagnostics of `version`.
    async fn published(&mut self, version: i32) {
        while let Some(message) = self.socket.next().await {
            let params = message.params().cloned().unwrap_or(Value::Null);
            if message.method() == "textDocument/publishDiagnostics" && params["version"] == version
            {
                return;
            }
        }
    }
}

const URI: &str = "file:///bench/config.yaml";

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let text = config(10_000);
    let refresh = text.find("refresh: 30s").expect("a refresh field");
    let line = text[..refresh].matches('\n').count() as u32;
    let mut session = runtime.block_on(async {
        let mut session = Session::start().await;
        session
            .notify(
                "textDocument/didOpen",
                json!({ "textDocument": { "uri": URI, "languageId": "yaml", "version": 1, "text": text } }),
            )
            .await;
        session.published(1).await;
        session
    });
    let mut version = 1;
    let mut group = c.benchmark_group("lsp-10k-lines");
    group.sample_size(30);
    // The analysis alone, for reference: the rest of the change-to-diagnostics time is the
    // server's (text update, scheduling, conversion, publication).
    group.bench_function("analyze-only", |b| {
        b.iter(|| sources_check::analyze(&text, sources_syntax::Syntax::Yaml));
    });
    group.bench_function("change-to-published-diagnostics", |b| {
        b.iter(|| {
            version += 1;
            // Alternates `refresh: 30s` and `refresh: 31s` on the first entry.
            let digit = if version % 2 == 0 { "1" } else { "0" };
            runtime.block_on(async {
                session
                    .notify(
                        "textDocument/didChange",
                        json!({
                            "textDocument": { "uri": URI, "version": version },
                            "contentChanges": [{
                                "range": { "start": { "line": line, "character": 16 }, "end": { "line": line, "character": 17 } },
                                "text": digit,
                            }],
                        }),
                    )
                    .await;
                session.published(version).await;
            });
        });
    });
    let at = |needle: &str, shift: usize| {
        let offset = text.find(needle).expect("the needle is in the text") + shift;
        let line = text[..offset].matches('\n').count();
        let column = offset - text[..offset].rfind('\n').map_or(0, |newline| newline + 1);
        json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": column } })
    };
    let hover = at("from: apps_0", 8);
    group.bench_function("hover-source-reference", |b| {
        b.iter(|| runtime.block_on(session.request("textDocument/hover", hover.clone())));
    });
    let field = at("      timeout: 5s", 8);
    group.bench_function("hover-field", |b| {
        b.iter(|| runtime.block_on(session.request("textDocument/hover", field.clone())));
    });
    let completion = at("from: apps_0", 6);
    group.bench_function("completion-source-names", |b| {
        b.iter(|| runtime.block_on(session.request("textDocument/completion", completion.clone())));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
