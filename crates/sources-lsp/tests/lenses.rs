//! Protocol tests for code lenses and the `sources.try` command they run, and for settings.

mod support;

use serde_json::{Value, json};
use support::{TestClient, uri};

const CONFIG: &str = "\
data:
  sources:
    listing:
      type: static
      data: [{name: a, up: true}, {name: b, up: false}]
    up:
      type: filter
      from: listing
      where: up
    detail:
      type: http
      url: http://127.0.0.1:8099/apps/${params.id}
      parameters:
        id:
          type: int
          required: true
    apps:
      type: http
      url: http://127.0.0.1:8099/apps?limit=2
tui:
  components:
    - kind: table
      source: up
      columns: [{title: Name, value: name}]
";

async fn client(capabilities: Value) -> TestClient {
    let mut client = TestClient::start(sources_lsp::Options::default(), capabilities).await;
    client.open("f.yaml", "yaml", CONFIG).await;
    client.diagnostics("f.yaml").await;
    client
}

async fn try_entry(client: &mut TestClient, arguments: Value) -> Value {
    client
        .request(
            "workspace/executeCommand",
            json!({ "command": "sources.try", "arguments": arguments }),
        )
        .await
        .expect("the command answers")
}

#[tokio::test]
async fn every_entry_has_a_try_a_record_and_a_references_lens() {
    let mut client = client(json!({})).await;
    assert_eq!(
        client.initialized["capabilities"]["executeCommandProvider"]["commands"],
        json!(["sources.try"])
    );
    let lenses = client
        .request(
            "textDocument/codeLens",
            json!({ "textDocument": { "uri": uri("f.yaml") } }),
        )
        .await
        .expect("lenses");
    let titles: Vec<(u64, &str)> = lenses
        .as_array()
        .expect("a list")
        .iter()
        .map(|lens| {
            (
                lens["range"]["start"]["line"].as_u64().expect("a line"),
                lens["command"]["title"].as_str().expect("a title"),
            )
        })
        .collect();
    assert_eq!(
        titles,
        [
            (2, "▶ try"),
            (2, "⏺ try and record"),
            (2, "1 reference"),
            (5, "▶ try"),
            (5, "⏺ try and record"),
            (5, "1 reference"),
            (9, "▶ try"),
            (9, "⏺ try and record"),
            (9, "0 references"),
            (16, "▶ try"),
            (16, "⏺ try and record"),
            (16, "0 references"),
        ]
    );
    let try_lens = &lenses[0]["command"];
    assert_eq!(try_lens["command"], "sources.try");
    assert_eq!(try_lens["arguments"], json!([uri("f.yaml"), "listing"]));
    let record_lens = &lenses[1]["command"];
    assert_eq!(record_lens["command"], "sources.try");
    assert_eq!(
        record_lens["arguments"],
        json!([uri("f.yaml"), "listing", null, { "record": true }])
    );
    // The reference to `up` is the component's `source: up` on line 22.
    assert_eq!(
        lenses[5]["command"]["arguments"][2][0]["range"]["start"]["line"],
        22
    );
}

#[tokio::test]
async fn try_runs_the_engine_and_opens_the_result_as_a_document() {
    let mut client = client(json!({ "window": { "showDocument": { "support": true } } })).await;
    let result = try_entry(&mut client, json!([uri("f.yaml"), "up"])).await;
    assert_eq!(result["value"], json!([{ "name": "a", "up": true }]));
    assert_eq!(result["summary"], "`up`: 1 rows");
    let shown = client.message("window/showDocument").await;
    let document = shown.params().expect("params")["uri"]
        .as_str()
        .expect("a URI")
        .to_owned();
    assert_eq!(result["document"], json!(document));
    let path = document.strip_prefix("file://").expect("a file URI");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the result file exists"))
            .expect("the result file is JSON");
    assert_eq!(written, result["value"]);
    // A private directory of its own with a name nobody can guess, not /tmp/sources-try-<pid>.
    let directory = std::path::Path::new(path).parent().expect("a directory");
    let name = directory.file_name().expect("a name").to_string_lossy();
    assert_ne!(name, format!("sources-try-{}", std::process::id()));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(directory)
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700, "{}", directory.display());
    }
}

#[tokio::test]
async fn without_show_document_the_result_is_a_message() {
    let mut client = client(json!({})).await;
    let result = try_entry(&mut client, json!([uri("f.yaml"), "listing"])).await;
    assert_eq!(result["document"], Value::Null);
    let message = client.message("window/showMessage").await;
    let text = message.params().expect("params")["message"]
        .as_str()
        .expect("text")
        .to_owned();
    assert!(
        text.starts_with("`listing`: 2 rows\n[{\"name\":\"a\""),
        "{text}"
    );
}

#[tokio::test]
async fn missing_parameters_are_named_and_supplied_ones_are_used() {
    let mut client = client(json!({})).await;
    let result = try_entry(&mut client, json!([uri("f.yaml"), "detail"])).await;
    let expected = "`detail` needs a parameter without a default: `id` (int); give it as the command's third argument, e.g. {\"id\": \"…\"}";
    assert_eq!(result["error"], expected);
    assert_eq!(result["missing"], json!(["id"]));
    let message = client.message("window/showMessage").await;
    assert_eq!(
        message.params().expect("params")["message"],
        format!("sources try: {expected}")
    );
    let result = try_entry(&mut client, json!([uri("f.yaml"), "detail", { "id": "x" }])).await;
    assert_eq!(
        result["error"],
        "`detail`: parameter `id` is declared `int` but got `x`: expected an integer such as `42`"
    );
}

#[tokio::test]
async fn masked_missing_parameters_are_named_for_a_password_prompt() {
    let mut client = client(json!({})).await;
    let config = "data:\n  sources:\n    login:\n      type: http\n      url: http://127.0.0.1:8099/apps?user=${params.user}&pin=${params.pin}\n      parameters:\n        user: {type: string, required: true}\n        pin: {type: string, required: true, mask: true}\n";
    client.open("g.yaml", "yaml", config).await;
    client.diagnostics("g.yaml").await;
    let result = try_entry(&mut client, json!([uri("g.yaml"), "login"])).await;
    assert_eq!(result["missing"], json!(["user", "pin"]));
    assert_eq!(result["masked"], json!(["pin"]));
}

#[tokio::test]
async fn the_demo_setting_sends_the_demo_address_to_the_in_process_backend() {
    let mut client = client(json!({})).await;
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": { "sources": { "demo": true } } }),
        )
        .await;
    let result = try_entry(&mut client, json!([uri("f.yaml"), "apps"])).await;
    let rows = result["value"]["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("rows: {result}"));
    assert_eq!(rows.len(), 2, "{result}");
    assert_eq!(result["value"]["total"], 5000);
}

#[tokio::test]
async fn the_demo_setting_turned_off_again_sends_the_demo_address_over_the_network() {
    let mut client = client(json!({})).await;
    let demo = |on: bool| json!({ "settings": { "sources": { "demo": on } } });
    client
        .notify("workspace/didChangeConfiguration", demo(true))
        .await;
    let result = try_entry(&mut client, json!([uri("f.yaml"), "apps"])).await;
    assert_eq!(result["value"]["total"], 5000, "the demo answers: {result}");
    client
        .notify("workspace/didChangeConfiguration", demo(false))
        .await;
    let result = try_entry(&mut client, json!([uri("f.yaml"), "apps"])).await;
    // Nothing listens at the demo address in the tests: the request goes out and fails there.
    let error = result["error"].as_str().unwrap_or_else(|| {
        panic!("an error, not the demo's rows (is a demo backend running on port 8099?): {result}")
    });
    assert!(error.starts_with("`apps`: "), "{error}");
    assert!(
        error.contains("cannot connect to 127.0.0.1:8099"),
        "{error}"
    );
}

#[tokio::test]
async fn bad_requests_are_refused_with_what_to_do() {
    let mut client = client(json!({})).await;
    let unknown = try_entry(&mut client, json!([uri("f.yaml"), "nope"])).await;
    assert_eq!(unknown["error"], "`nope` is not an entry of `data.sources`");
    let error = client
        .request(
            "workspace/executeCommand",
            json!({ "command": "sources.try", "arguments": [uri("f.yaml")] }),
        )
        .await
        .expect_err("refused");
    assert_eq!(
        error.message,
        "`sources.try` takes [document URI, entry name, {parameter: value}, {\"record\": true}]"
    );
    client
        .replace("f.yaml", 2, &CONFIG.replace("type: filter", "type: filtr"))
        .await;
    client.diagnostics("f.yaml").await;
    let broken = try_entry(&mut client, json!([uri("f.yaml"), "listing"])).await;
    assert_eq!(
        broken["error"],
        "the document has 1 error (the first: unknown source kind `filtr`): fix it before trying `listing`"
    );
}

#[tokio::test]
async fn severity_settings_change_and_hide_published_diagnostics() {
    let mut client = client(json!({})).await;
    let text = CONFIG.replace("      where: up\n", "      where: up\n      colour: red\n");
    client.replace("f.yaml", 2, &text).await;
    let published = client.diagnostics("f.yaml").await;
    assert_eq!(published.diagnostics.len(), 1, "{published:?}");
    assert_eq!(
        published.diagnostics[0].severity,
        Some(tower_lsp_server::ls_types::DiagnosticSeverity::ERROR)
    );
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": { "sources": { "severity": { "unknown-field": "hint" } } } }),
        )
        .await;
    let published = client.diagnostics("f.yaml").await;
    assert_eq!(
        published.diagnostics[0].severity,
        Some(tower_lsp_server::ls_types::DiagnosticSeverity::HINT)
    );
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": { "sources": { "severity": { "unknown-field": "off", "nope": "hint" } } } }),
        )
        .await;
    let logged = client.message("window/logMessage").await;
    assert_eq!(
        logged.params().expect("params")["message"],
        "setting `sources.severity`: `nope` is not a rule (`sources rules` lists them)"
    );
    assert!(client.diagnostics("f.yaml").await.diagnostics.is_empty());
}

/// The "▶ try" command follows the longest chain lint allows, with every operator kind in turn,
/// in a debug build: the evaluation runs on a thread with its own stack, not on the runtime's
/// blocking pool (2 MiB stacks, which such a chain overflowed).
#[tokio::test]
async fn try_follows_the_deepest_allowed_chain_of_every_operator_kind() {
    use sources_config::cadence::MAX_CHAIN_DEPTH;
    use sources_testkit::chain::{CHAIN_KINDS, chain};
    let config = chain(
        "{type: static, data: [{n: 1}, {n: 2}]}",
        &CHAIN_KINDS,
        MAX_CHAIN_DEPTH,
    );
    let mut client = TestClient::start(sources_lsp::Options::default(), json!({})).await;
    client.open("deep.yaml", "yaml", &config).await;
    assert_eq!(client.diagnostics("deep.yaml").await.diagnostics, []);
    let top = format!("s{}", MAX_CHAIN_DEPTH - 1);
    let result = try_entry(&mut client, json!([uri("deep.yaml"), top])).await;
    assert_eq!(
        result["value"],
        json!([{ "n": 1, "m": 2 }, { "n": 2, "m": 3 }])
    );
}

#[tokio::test]
async fn try_asked_to_record_writes_the_sample_try_record_writes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("sources.yaml");
    std::fs::write(&path, CONFIG).expect("write");
    let document = format!("file://{}", path.display());
    let mut client = TestClient::start(sources_lsp::Options::default(), json!({})).await;
    client.open_uri(&document, "yaml", CONFIG).await;
    let result = try_entry(
        &mut client,
        json!([document, "up", null, { "record": true }]),
    )
    .await;
    let written = result["recorded"]["path"].as_str().expect("a sample path");
    assert_eq!(
        written,
        dir.path()
            .join(".sources/samples/up.json")
            .display()
            .to_string()
    );
    let sample: Value =
        serde_json::from_str(&std::fs::read_to_string(written).expect("the sample exists"))
            .expect("JSON");
    assert_eq!(sample["entry"], "up");
    assert_eq!(sample["value"], json!([{ "name": "a", "up": true }]));
    let inputs = sources_inputs::samples::read(&path);
    assert_eq!(
        inputs.samples["up"].shape.render(2),
        "[{name: string, up: bool}]",
        "read back as lint reads it"
    );

    let unasked = try_entry(&mut client, json!([document, "listing"])).await;
    assert_eq!(unasked["recorded"], Value::Null);
    assert!(
        !dir.path().join(".sources/samples/listing.json").exists(),
        "no sample unless asked"
    );
    let untitled = client_without_file().await;
    assert_eq!(
        untitled["recorded"]["error"],
        "could not record a sample of `up`: the document is not a file"
    );
}

/// "▶ try" asked to record in a document that is not a file.
async fn client_without_file() -> Value {
    let mut client = TestClient::start(sources_lsp::Options::default(), json!({})).await;
    client.open_uri("untitled:Untitled-1", "yaml", CONFIG).await;
    let lenses = client
        .request(
            "textDocument/codeLens",
            json!({ "textDocument": { "uri": "untitled:Untitled-1" } }),
        )
        .await
        .expect("lenses");
    assert!(
        lenses
            .as_array()
            .expect("a list")
            .iter()
            .all(|lens| lens["command"]["title"] != "⏺ try and record"),
        "no record lens where no sample can be written: {lenses}"
    );
    try_entry(
        &mut client,
        json!(["untitled:Untitled-1", "up", {}, { "record": true }]),
    )
    .await
}
