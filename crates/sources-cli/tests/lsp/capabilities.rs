//! Every capability beyond diagnostics answers with its content through the process, and "▶ try"
//! names a finding the settings hide as `sources try` does.

use serde_json::{Value, json};

use super::*;

/// A configuration with a template, a CEL expression, a parameter block, an operator and a
/// component, for the editor's capabilities.
const FEATURES: &str = "data:\n  sources:\n    apps:\n      type: http\n      url: https://e.invalid/apps/${params.region}\n      refresh: 30s\n      parameters:\n        region:\n          default: eu\n    up:\n      type: filter\n      from: apps\n      where: health == 'ok'\n    rows:\n      type: static\n      data: [{n: 1}]\ntui:\n  components:\n    - kind: table\n      source: up\n      columns: [{title: Name, value: name}]\n";

/// Semantic tokens decoded against `legend` as (line, text, token type); `text` is ASCII.
fn tokens(text: &str, legend: &Value, data: &Value) -> Vec<(u64, String, String)> {
    let lines: Vec<&str> = text.split('\n').collect();
    let numbers: Vec<u64> = data
        .as_array()
        .expect("token data")
        .iter()
        .map(|number| number.as_u64().expect("an integer"))
        .collect();
    let (mut line, mut column) = (0, 0);
    numbers
        .chunks(5)
        .map(|token| {
            if token[0] > 0 {
                column = 0;
            }
            line += token[0];
            column += token[1];
            let start = column as usize;
            (
                line,
                lines[line as usize][start..start + token[2] as usize].to_owned(),
                legend["tokenTypes"][token[3] as usize]
                    .as_str()
                    .expect("a token type")
                    .to_owned(),
            )
        })
        .collect()
}

/// Each capability the editor offers beyond diagnostics, asked once of the `sources lsp` process
/// with the content checked: semantic tokens (full, range, delta), inlay hints, the `sources.try`
/// command, document highlight, folding and selection ranges, workspace symbols, pull diagnostics
/// and completion inside a template. (The code lenses that run `sources.try` are checked once, in
/// sources-lsp's tests/lenses.rs.)
#[test]
fn every_capability_answers_with_its_content_through_the_real_process() {
    let mut lsp = Lsp::start();
    lsp.request(
        1,
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {} }),
    );
    let capabilities = lsp.response(json!(1))["result"]["capabilities"].clone();
    assert_eq!(
        capabilities["semanticTokensProvider"]["full"],
        json!({ "delta": true })
    );
    assert_eq!(capabilities["semanticTokensProvider"]["range"], true);
    // A client that does not pull is pushed to, and is not offered pulls as well.
    assert_eq!(capabilities.get("diagnosticProvider"), None);
    assert_eq!(
        capabilities["executeCommandProvider"]["commands"],
        json!(["sources.try"])
    );
    let legend = capabilities["semanticTokensProvider"]["legend"].clone();
    lsp.notify("initialized", json!({}));
    let uri = "file:///work/features.yaml";
    lsp.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": FEATURES } }),
    );
    assert_eq!(codes(&lsp.published(uri)), Vec::<String>::new());
    let document = json!({ "uri": uri });
    let mut id = 1;
    let mut ask = |lsp: &mut Lsp, method: &str, params: Value| {
        id += 1;
        lsp.request(id, method, params);
        let response = lsp.response(json!(id));
        assert_eq!(response.get("error"), None, "{method}: {response}");
        response["result"].clone()
    };
    let range = |start: u64, end: u64| json!({ "start": { "line": start, "character": 0 }, "end": { "line": end, "character": 0 } });
    let at = |line: u64, character: u64| json!({ "line": line, "character": character });

    // Semantic tokens: the template's parameter, the reference and the CEL inside `where`.
    let full = ask(
        &mut lsp,
        "textDocument/semanticTokens/full",
        json!({ "textDocument": document }),
    );
    let found = tokens(FEATURES, &legend, &full["data"]);
    for wanted in [
        (2, "apps", "variable"),
        (4, "params", "namespace"),
        (4, "region", "parameter"),
        (5, "30s", "number"),
        (11, "apps", "variable"),
        (12, "health", "variable"),
        (12, "==", "operator"),
        (12, "'ok'", "string"),
    ] {
        let wanted = (wanted.0, wanted.1.to_owned(), wanted.2.to_owned());
        assert!(found.contains(&wanted), "{wanted:?} in {found:?}");
    }
    let in_range = ask(
        &mut lsp,
        "textDocument/semanticTokens/range",
        json!({ "textDocument": document, "range": range(11, 13) }),
    );
    let lines: Vec<u64> = tokens(FEATURES, &legend, &in_range["data"])
        .into_iter()
        .map(|(line, _, _)| line)
        .collect();
    assert!(
        !lines.is_empty() && lines.iter().all(|line| (11..13).contains(line)),
        "{lines:?}"
    );

    // Inlay hints: cadence, an unwritten default and a parameter's type.
    let hints = ask(
        &mut lsp,
        "textDocument/inlayHint",
        json!({ "textDocument": document, "range": range(0, 20) }),
    );
    let labels: Vec<(u64, u64, &str)> = hints
        .as_array()
        .expect("hints")
        .iter()
        .map(|hint| {
            (
                hint["position"]["line"].as_u64().expect("a line"),
                hint["position"]["character"].as_u64().expect("a character"),
                hint["label"].as_str().expect("a label"),
            )
        })
        .collect();
    assert_eq!(
        labels,
        [
            (2, 9, "polled every 30s · timeout: 10s"),
            (4, 50, ": string"),
            (9, 7, "polled every 30s"),
            (13, 9, "one-shot"),
        ]
    );

    // "▶ try" runs the engine; without `window/showDocument` the result is a message.
    let tried = ask(
        &mut lsp,
        "workspace/executeCommand",
        json!({ "command": "sources.try", "arguments": [uri, "rows"] }),
    );
    assert_eq!(tried["value"], json!([{ "n": 1 }]));
    assert_eq!(tried["summary"], "`rows`: 1 rows");
    let shown = lsp.expect("the result as a message", |message| {
        message["method"] == "window/showMessage"
    });
    assert_eq!(shown["params"]["message"], "`rows`: 1 rows\n[{\"n\":1}]");

    // Highlight, folding and selection ranges.
    let highlights = ask(
        &mut lsp,
        "textDocument/documentHighlight",
        json!({ "textDocument": document, "position": at(11, 13) }),
    );
    let marked: Vec<(u64, u64, u64)> = highlights
        .as_array()
        .expect("highlights")
        .iter()
        .map(|highlight| {
            (
                highlight["range"]["start"]["line"]
                    .as_u64()
                    .expect("a line"),
                highlight["range"]["start"]["character"]
                    .as_u64()
                    .expect("a character"),
                highlight["kind"].as_u64().expect("a kind"),
            )
        })
        .collect();
    assert_eq!(marked, [(2, 4, 3), (11, 12, 2)], "write, then read");
    let folds = ask(
        &mut lsp,
        "textDocument/foldingRange",
        json!({ "textDocument": document }),
    );
    let folds: Vec<(u64, u64)> = folds
        .as_array()
        .expect("folding ranges")
        .iter()
        .map(|fold| {
            (
                fold["startLine"].as_u64().expect("a start"),
                fold["endLine"].as_u64().expect("an end"),
            )
        })
        .collect();
    assert_eq!(folds, [(2, 8), (6, 8), (7, 8), (9, 12), (13, 15)]);
    let selection = ask(
        &mut lsp,
        "textDocument/selectionRange",
        json!({ "textDocument": document, "positions": [at(8, 12)] }),
    );
    let mut chain = Vec::new();
    let mut link = &selection[0];
    while !link.is_null() {
        chain.push((
            link["range"]["start"]["line"].as_u64().expect("a line"),
            link["range"]["end"]["line"].as_u64().expect("a line"),
        ));
        link = &link["parent"];
    }
    assert_eq!(chain, [(7, 8), (6, 8), (2, 8)], "{selection}");

    // Workspace symbols and pulled diagnostics.
    let symbols = ask(&mut lsp, "workspace/symbol", json!({ "query": "ap" }));
    assert_eq!(symbols.as_array().map(Vec::len), Some(1), "{symbols}");
    assert_eq!(
        (&symbols[0]["name"], &symbols[0]["location"]["uri"]),
        (&json!("apps"), &json!(uri))
    );
    let pulled = ask(
        &mut lsp,
        "textDocument/diagnostic",
        json!({ "textDocument": document }),
    );
    assert_eq!(pulled, json!({ "kind": "full", "items": [] }));
    let workspace = ask(
        &mut lsp,
        "workspace/diagnostic",
        json!({ "previousResultIds": [] }),
    );
    assert_eq!(
        workspace["items"],
        json!([{ "kind": "full", "uri": uri, "version": 1, "items": [] }])
    );

    // An edit in the expression: the delta turns the first tokens into the new ones.
    let edited = FEATURES.replace("health == 'ok'", "health == 'ok' || n > 1");
    lsp.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": edited }] }),
    );
    assert_eq!(lsp.published(uri)["version"], 2);
    let delta = ask(
        &mut lsp,
        "textDocument/semanticTokens/full/delta",
        json!({ "textDocument": document, "previousResultId": full["resultId"] }),
    );
    let mut patched = full["data"].as_array().expect("token data").clone();
    for edit in delta["edits"].as_array().expect("edits, not full tokens") {
        let start = edit["start"].as_u64().expect("a start") as usize;
        let deleted = edit["deleteCount"].as_u64().expect("a count") as usize;
        let inserted = edit["data"].as_array().cloned().unwrap_or_default();
        patched.splice(start..start + deleted, inserted);
    }
    let now = ask(
        &mut lsp,
        "textDocument/semanticTokens/full",
        json!({ "textDocument": document }),
    );
    assert_eq!(Value::Array(patched), now["data"]);
    assert!(
        tokens(&edited, &legend, &now["data"]).contains(&(
            12,
            "||".to_owned(),
            "operator".to_owned()
        )),
        "the new operator is a token"
    );

    // Completion inside a half-typed template offers the declared parameter.
    let typing = FEATURES.replace("${params.region}", "${params.");
    lsp.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 3 }, "contentChanges": [{ "text": typing }] }),
    );
    let line = typing.lines().nth(4).expect("the url line");
    let completion = ask(
        &mut lsp,
        "textDocument/completion",
        json!({ "textDocument": document, "position": at(4, line.len() as u64) }),
    );
    let offered: Vec<&str> = completion["items"]
        .as_array()
        .expect("completion items")
        .iter()
        .map(|item| item["label"].as_str().expect("a label"))
        .collect();
    assert_eq!(offered, ["region"], "{completion}");

    lsp.request(99, "shutdown", Value::Null);
    lsp.response(json!(99));
    lsp.notify("exit", Value::Null);
    let (status, stderr) = lsp.finish();
    assert!(status.success(), "{status}: {stderr}");
}

/// "▶ try" applies the settings file as `sources try` does: a rule it turns down to a warning does
/// not refuse the document; and an entry the engine refuses before any I/O for what a hidden error
/// says names that error and what hides it (the setting, or the suppression comment), in the words
/// `sources try` uses (tests/settings.rs).
#[test]
fn try_in_the_editor_names_the_hidden_finding_as_the_command_line_does() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let settings = dir.path().join("sources-lint.toml");
    std::fs::write(
        &settings,
        "[rules]\ninvalid-value = \"off\"\nunknown-field = \"warning\"\n",
    )
    .expect("write the settings");
    let path = dir.path().join("h.yaml");
    let text = "data:\n  sources:\n    h: {type: http, url: \"http://\"}\n    s:\n      type: http\n      url: \"http://\"  # sources: ignore[invalid-value]\n    w: {type: static, data: [{n: 1}], colour: red}\n";
    std::fs::write(&path, text).expect("write the configuration");
    let uri = format!("file://{}", path.display());
    let mut lsp = Lsp::start();
    initialize(&mut lsp);
    lsp.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
    );
    assert_eq!(codes(&lsp.published(&uri)), ["unknown-field"]);
    let mut id = 1;
    let mut try_entry = |lsp: &mut Lsp, entry: &str| {
        id += 1;
        lsp.request(
            id,
            "workspace/executeCommand",
            json!({ "command": "sources.try", "arguments": [uri, entry] }),
        );
        lsp.response(json!(id))["result"].clone()
    };
    assert_eq!(try_entry(&mut lsp, "w")["value"], json!([{ "n": 1 }]));
    let shown = path.display();
    assert_eq!(
        try_entry(&mut lsp, "h")["error"],
        format!(
            "`h`: source `h`: cannot send GET http://: it is not a URL: empty host (lint's \
             `invalid-value` error at {shown}:3:26 says so: `url` cannot be sent: it is not a \
             URL: empty host; `invalid-value = \"off\"` in {}:2 hides it)",
            settings.display()
        )
    );
    assert_eq!(
        try_entry(&mut lsp, "s")["error"],
        format!(
            "`s`: source `s`: cannot send GET http://: it is not a URL: empty host (lint's \
             `invalid-value` error at {shown}:6:12 says so: `url` cannot be sent: it is not a \
             URL: empty host; the suppression comment at {shown}:6:41 hides it)"
        )
    );
}
