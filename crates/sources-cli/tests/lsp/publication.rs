//! What is published: the first thousand problems left after the settings drop a rule, the
//! multibyte TOML values that crashed lint, and a client that pulls instead of being pushed to.

use serde_json::{Value, json};

use super::*;

/// A document with `fields` unknown-field problems, then `sources` unknown-source problems (one
/// per entry, each on its own line: 0-based lines `4i + 5`, then `4 * fields + 4j + 4`).
fn many_problems(fields: usize, sources: usize) -> String {
    let mut text = "data:\n  sources:\n".to_owned();
    for i in 0..fields {
        text.push_str(&format!(
            "    s{i}:\n      type: http\n      url: https://e.invalid\n      urll: x\n"
        ));
    }
    for j in 0..sources {
        text.push_str(&format!(
            "    f{j}:\n      type: filter\n      from: nope{j}\n      where: \"true\"\n"
        ));
    }
    text
}

/// The codes, severities and start lines of a publication's first 1,000 diagnostics, and its
/// summary's message and line.
fn capped(published: &Value) -> (Vec<(String, u64, u64)>, String, u64) {
    let diagnostics = published["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diagnostics.len(), 1001, "1,000 and the summary");
    let shown = diagnostics[..1000]
        .iter()
        .map(|diagnostic| {
            (
                diagnostic["code"].as_str().expect("a code").to_owned(),
                diagnostic["severity"].as_u64().expect("a severity"),
                diagnostic["range"]["start"]["line"]
                    .as_u64()
                    .expect("a line"),
            )
        })
        .collect();
    let summary = &diagnostics[1000];
    assert_eq!(summary["severity"], 3, "the summary is information");
    (
        shown,
        summary["message"].as_str().expect("a message").to_owned(),
        summary["range"]["start"]["line"].as_u64().expect("a line"),
    )
}

/// Fails at the first diagnostic shown that is not the one expected (rather than printing 1,000).
fn assert_shown(shown: &[(String, u64, u64)], expected: &[(String, u64, u64)]) {
    assert_eq!(shown.len(), expected.len());
    if let Some(at) = (0..shown.len()).find(|&at| shown[at] != expected[at]) {
        panic!(
            "diagnostic {at} is {:?}, expected {:?}",
            shown[at], expected[at]
        );
    }
}

#[test]
fn the_first_thousand_published_are_those_left_after_the_settings_drop_a_rule_and_follow_changes() {
    let (fields, sources) = (1100_u64, 1050_u64);
    let text = many_problems(fields as usize, sources as usize);
    let uri = "file:///tmp/sources-lsp-many-problems.yaml";
    let mut lsp = Lsp::start();
    initialize(&mut lsp);
    lsp.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
    );
    let field_line = |i: u64| 4 * i + 5;
    let source_line = |j: u64| 4 * fields + 4 * j + 4;
    let (shown, summary, line) = capped(&lsp.published(uri));
    let expected: Vec<(String, u64, u64)> = (0..1000)
        .map(|i| ("unknown-field".to_owned(), 1, field_line(i)))
        .collect();
    assert_shown(&shown, &expected);
    let left_out = fields + sources - 1000;
    assert_eq!(
        summary,
        format!(
            "{left_out} more problems from here on are not shown: the editor shows the first \
             1000; run `sources lint` on this file to see them all"
        )
    );
    assert_eq!(line, field_line(1000), "at the first one left out");

    // Turning `unknown-field` off analyses again: the first 1,000 are the unknown sources, at the
    // client's severity for them, and the next publication already says so.
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "sources": { "severity": {
            "unknown-field": "off", "unknown-source": "hint"
        } } } }),
    );
    let after = lsp.published(uri);
    assert_eq!(after["version"], 1);
    let (shown, summary, line) = capped(&after);
    let expected: Vec<(String, u64, u64)> = (0..1000)
        .map(|j| ("unknown-source".to_owned(), 4, source_line(j)))
        .collect();
    assert_shown(&shown, &expected);
    assert!(
        summary.starts_with(&format!("{} more problems from here on", sources - 1000)),
        "{summary}"
    );
    assert_eq!(line, source_line(1000));

    // Pulled diagnostics are the same.
    lsp.request(
        2,
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri } }),
    );
    let pulled = lsp.response(json!(2));
    assert_eq!(pulled["result"]["items"], after["diagnostics"]);

    // Back to the defaults: what opening published.
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "sources": {} } }),
    );
    let (shown, _, line) = capped(&lsp.published(uri));
    assert!(
        shown.iter().all(|(code, _, _)| code == "unknown-field"),
        "the unknown fields are shown again"
    );
    assert_eq!(line, field_line(1000));
    lsp.request(3, "shutdown", Value::Null);
    lsp.response(json!(3));
    lsp.notify("exit", Value::Null);
    let (status, _) = lsp.finish();
    assert!(status.success(), "{status:?}");
}

/// The TOML values that made `sources lint` panic (a bare value starting with a multibyte
/// character, in a `sort`'s `by` and a `filter`'s `where`).
const MULTIBYTE_TOML: &str = "[data.sources.a]\ntype = \"static\"\ndata = []\n\n[data.sources.s]\ntype = \"sort\"\nfrom = \"a\"\nby = éa\n\n[data.sources.f]\ntype = \"filter\"\nfrom = \"a\"\nwhere = é +\n";

/// Each diagnostic of a publication as (code, [start line, start character, end line, end
/// character], message).
fn located(published: &Value) -> Vec<(String, [u64; 4], String)> {
    published["diagnostics"]
        .as_array()
        .expect("a diagnostics array")
        .iter()
        .map(|diagnostic| {
            let at = |end: &str, field: &str| {
                diagnostic["range"][end][field]
                    .as_u64()
                    .expect("a position")
            };
            (
                diagnostic["code"].as_str().expect("a code").to_owned(),
                [
                    at("start", "line"),
                    at("start", "character"),
                    at("end", "line"),
                    at("end", "character"),
                ],
                diagnostic["message"]
                    .as_str()
                    .expect("a message")
                    .to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_multibyte_toml_values_that_crashed_lint_are_published_and_the_server_goes_on() {
    let mut lsp = Lsp::start();
    initialize(&mut lsp);
    let uri = "file:///work/multibyte.toml";
    lsp.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "toml", "version": 1, "text": MULTIBYTE_TOML } }),
    );
    // What `sources lint` reports (8:6-8:8 and 13:9-13:12), in 0-based UTF-16 positions: `é` is
    // one unit.
    let unquoted = "string values must be quoted, expected literal string".to_owned();
    let opened = lsp.published(uri);
    assert_eq!(opened["version"], 1);
    assert_eq!(
        located(&opened),
        [
            ("syntax".to_owned(), [7, 5, 7, 7], unquoted.clone()),
            ("syntax".to_owned(), [12, 8, 12, 11], unquoted),
        ]
    );
    // Quoted, the values are expressions that do not compile, located inside the strings.
    let quoted = MULTIBYTE_TOML
        .replace("by = éa", "by = \"éa\"")
        .replace("where = é +", "where = \"é +\"");
    lsp.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": quoted }] }),
    );
    let published = lsp.published(uri);
    assert_eq!(published["version"], 2);
    let help = "\nhelp: expressions are CEL: the item's fields are top-level names, parameters are \
                `params.NAME`";
    assert_eq!(
        located(&published),
        [
            (
                "expression".to_owned(),
                [7, 6, 7, 7],
                format!("`by` does not compile: unexpected character `é`{help}")
            ),
            (
                "expression".to_owned(),
                [12, 9, 12, 10],
                format!("`where` does not compile: unexpected character `é`{help}")
            ),
        ]
    );
    // Mended, nothing is left: the server follows every version.
    let mended = MULTIBYTE_TOML
        .replace("by = éa", "by = \"name\"")
        .replace("where = é +", "where = \"size > 1\"");
    lsp.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 3 }, "contentChanges": [{ "text": mended }] }),
    );
    let published = lsp.published(uri);
    assert_eq!(published["version"], 3);
    assert_eq!(located(&published), []);
    let (status, stderr) = lsp.finish();
    assert!(status.success(), "{status}: {stderr}");
}

/// A client that pulls diagnostics gets each one once: by its pulls, never also pushed (VS Code
/// would list both); a change of settings asks it to pull again. "Never pushed" is read off every
/// message the process wrote, up to its exit.
#[test]
fn a_client_that_pulls_is_never_pushed_to_and_is_asked_to_pull_again() {
    let mut lsp = Lsp::start();
    let capabilities = json!({
        "textDocument": { "diagnostic": { "dynamicRegistration": false } },
        "workspace": { "diagnostics": { "refreshSupport": true } },
    });
    lsp.request(
        1,
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": capabilities }),
    );
    let advertised = lsp.response(json!(1))["result"]["capabilities"].clone();
    assert_eq!(
        advertised["diagnosticProvider"]["workspaceDiagnostics"],
        true
    );
    lsp.notify("initialized", json!({}));
    let uri = "file:///work/pulled.yaml";
    lsp.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": MISTAKES } }),
    );
    lsp.request(
        2,
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri } }),
    );
    let pulled = lsp.response(json!(2))["result"]["items"].clone();
    assert_eq!(
        codes(&json!({ "diagnostics": pulled })),
        ["unknown-source"],
        "{pulled}"
    );

    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "sources": { "severity": { "unknown-source": "off" } } } }),
    );
    let refresh = lsp.expect("workspace/diagnostic/refresh", |message| {
        message["method"] == "workspace/diagnostic/refresh"
    });
    lsp.send(json!({ "jsonrpc": "2.0", "id": refresh["id"], "result": null }));
    lsp.request(
        3,
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(lsp.response(json!(3))["result"]["items"], json!([]));

    lsp.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri } }),
    );
    lsp.request(4, "shutdown", json!(null));
    lsp.response(json!(4));
    lsp.notify("exit", json!(null));
    let written = lsp.client.rest().expect("the server's output ends");
    let pushed: Vec<&Value> = written
        .iter()
        .filter(|message| message["method"] == "textDocument/publishDiagnostics")
        .collect();
    assert!(
        pushed.is_empty(),
        "pushed to a client that pulls: {pushed:?}"
    );
}
