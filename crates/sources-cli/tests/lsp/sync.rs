//! Document synchronisation: out-of-order versions, a flood of edits, edits inside one entry and
//! full-text changes end on the text sent last and publish what a fresh open of it publishes.

use serde_json::{Value, json};
use sources_testkit::lsp_frame::frame;

use super::*;

#[test]
fn out_of_order_versions_and_ten_thousand_edits_end_on_the_last_text_sent() {
    let mut lsp = Lsp::start();
    initialize(&mut lsp);
    let uri = "file:///work/busy.yaml";
    lsp.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": MISTAKES } }),
    );
    assert_eq!(codes(&lsp.published(uri)), vec!["unknown-source"]);

    // Versions out of order: the text sent last is the document.
    let change = |version: i64, text: &str| {
        json!({
            "textDocument": { "uri": uri, "version": version },
            "contentChanges": [{ "text": text }],
        })
    };
    lsp.notify(
        "textDocument/didChange",
        change(5, &MISTAKES.replace("appz", "apps")),
    );
    lsp.notify("textDocument/didChange", change(3, MISTAKES));
    lsp.request(
        2,
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 7, "character": 13 } }),
    );
    let hover = lsp.response(json!(2));
    assert!(
        hover["result"]["contents"]["value"]
            .as_str()
            .is_some_and(|text| text.starts_with("**`appz`** — no entry of `data.sources`")),
        "the hover describes version 3's text: {hover}"
    );
    let settled = lsp.expect("the publication of version 3", |message| {
        message["method"] == "textDocument/publishDiagnostics" && message["params"]["version"] == 3
    });
    assert_eq!(codes(&settled["params"]), vec!["unknown-source"]);

    // 10,000 incremental edits as fast as the pipe takes them: each retypes the last letter of
    // `appz`, ending on `apps`.
    let mut burst = Vec::new();
    for version in 0..10_000i64 {
        let letter = if version == 9_999 {
            "s"
        } else {
            ["x", "y", "z"][version as usize % 3]
        };
        let edit = json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didChange",
            "params": {
                "textDocument": { "uri": uri, "version": 10 + version },
                "contentChanges": [{
                    "range": { "start": { "line": 7, "character": 15 }, "end": { "line": 7, "character": 16 } },
                    "text": letter,
                }],
            },
        });
        burst.extend_from_slice(&frame(&edit.to_string()));
    }
    lsp.send_raw(&burst);
    lsp.request(
        3,
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let symbols = lsp.response(json!(3));
    let names: Vec<&str> = symbols["result"]
        .as_array()
        .expect("symbols")
        .iter()
        .filter_map(|symbol| symbol["name"].as_str())
        .collect();
    assert_eq!(names, vec!["apps", "view"]);
    let last = lsp.expect("the publication of the last edit", |message| {
        message["method"] == "textDocument/publishDiagnostics"
            && message["params"]["version"] == 10_009
    });
    assert_eq!(
        codes(&last["params"]),
        Vec::<String>::new(),
        "`apps` exists"
    );
    // Nothing stale follows: the next publication is the next version's.
    lsp.notify("textDocument/didChange", change(20_000, MISTAKES));
    let next = lsp.published(uri);
    assert_eq!(next["version"], 20_000);
    assert_eq!(codes(&next), vec!["unknown-source"]);

    let (status, stderr) = lsp.finish();
    assert!(
        status.success(),
        "the end of input ends the server: {status}: {stderr}"
    );
}

/// A configuration with several entries, for edits inside one of them.
const ENTRIES: &str = "app:\n  title: edits\ndata:\n  sources:\n    apps:\n      type: http\n      url: https://e.invalid/apps?page=${params.page}\n      refresh: 30s\n      parameters:\n        page:\n          type: int\n          default: 1\n    jobs:\n      type: exec\n      command: [\"list-jobs\"]\n      timeout: 5s\n    healthy:\n      type: filter\n      from: apps\n      where: health == \"Healthy\"\n    sorted:\n      type: sort\n      from: healthy\n      by: name\n";

/// The LSP position (line, UTF-16 character) of byte `offset` of an ASCII `text`.
fn position(text: &str, offset: usize) -> Value {
    let line = text[..offset].matches('\n').count();
    let character = offset - text[..offset].rfind('\n').map_or(0, |newline| newline + 1);
    json!({ "line": line, "character": character })
}

#[test]
fn edits_inside_an_entry_publish_what_opening_the_same_text_publishes() {
    let mut lsp = Lsp::start();
    initialize(&mut lsp);
    let uri = "file:///work/edited.yaml";
    lsp.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": ENTRIES } }),
    );
    assert_eq!(codes(&lsp.published(uri)), Vec::<String>::new());
    // Each edit replaces the first `from` text after `after` with `to`: a reference broken and
    // mended, a duration and a CEL expression broken, a field and an entry added, an entry renamed
    // (its references then dangle), a syntax error and its repair.
    let edits: [(&str, &str, &str); 9] = [
        ("healthy:", "from: apps", "from: appz"),
        ("jobs:", "timeout: 5s", "timeout: 5 seconds"),
        ("healthy:", "health == \"Healthy\"", "health == "),
        ("sorted:", "by: name", "by: name\n      order: sideways"),
        ("healthy:", "from: appz", "from: apps"),
        ("sources:", "    apps:", "    applications:"),
        (
            "jobs:",
            "command: [\"list-jobs\"]",
            "command: [\"list-jobs\"",
        ),
        (
            "jobs:",
            "command: [\"list-jobs\"",
            "command: [\"list-jobs\"]",
        ),
        (
            "sorted:",
            "by: name\n",
            "by: name\n    extra:\n      type: static\n      data: []\n",
        ),
    ];
    let mut text = ENTRIES.to_owned();
    let mut expected_codes = Vec::new();
    for (index, (after, from, to)) in edits.into_iter().enumerate() {
        let version = 2 + index as i64;
        let entry = text.find(after).expect("the entry is in the text");
        let start = entry
            + text[entry..]
                .find(from)
                .expect("the edited text is in the entry");
        let end = start + from.len();
        lsp.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [{
                    "range": { "start": position(&text, start), "end": position(&text, end) },
                    "text": to,
                }],
            }),
        );
        text.replace_range(start..end, to);
        let edited = lsp.published_version(uri, version);
        let fresh = lsp.fresh_publication(version, &text);
        assert_eq!(
            edited["diagnostics"], fresh["diagnostics"],
            "after edit {index} the text is\n{text}"
        );
        expected_codes.push(codes(&fresh));
    }
    // The edits were seen: each publication names what that edit broke.
    assert_eq!(expected_codes[0], vec!["unknown-source"]);
    assert!(
        expected_codes[1]
            .iter()
            .any(|code| code == "invalid-duration"),
        "{expected_codes:?}"
    );
    assert!(
        expected_codes[3].iter().any(|code| code == "invalid-value"),
        "{expected_codes:?}"
    );
    assert!(
        expected_codes[5]
            .iter()
            .any(|code| code == "unknown-source"),
        "{expected_codes:?}"
    );
    assert_eq!(expected_codes[6], vec!["syntax"]);
    let (status, stderr) = lsp.finish();
    assert!(
        status.success(),
        "the end of input ends the server: {status}: {stderr}"
    );
}

/// A document for the edits below: multi-byte characters, CRLF line ends, quotes, backslashes and
/// a tab (each escaped in JSON), over entries whose references the edits break and mend.
const SYNCED: &str = "app:\r\n  title: \"sync ✓\"\r\ndata:\n  sources:\n    apps:\n      type: http\n      url: https://e.invalid/a?q=\"😀\"&p=\\\\x\n      refresh: 30s\n    healthy:\n      type: filter\n      from: apps\n      where: health == \"Héalthy\"\t\n    sorted:\n      type: sort\n      from: healthy\n      by: name\n";

/// The LSP position (line, UTF-16 character) of byte `offset` of `text`, whose lines end in `\n`
/// or `\r\n`.
fn utf16_position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    json!({
        "line": before.matches('\n').count(),
        "character": before[line_start..].encode_utf16().count(),
    })
}

/// `text` as a JSON string with every character outside ASCII written as `\uXXXX` (a surrogate
/// pair above U+FFFF) and every `/` as `\/`, as some clients encode it.
fn ascii_json_string(text: &str) -> String {
    let mut encoded = String::from("\"");
    for character in text.chars() {
        match character {
            '"' => encoded.push_str("\\\""),
            '\\' => encoded.push_str("\\\\"),
            '/' => encoded.push_str("\\/"),
            '\n' => encoded.push_str("\\n"),
            '\r' => encoded.push_str("\\r"),
            ' '..='~' => encoded.push(character),
            _ => {
                for unit in character.encode_utf16(&mut [0; 2]) {
                    encoded.push_str(&format!("\\u{unit:04X}"));
                }
            }
        }
    }
    encoded.push('"');
    encoded
}

#[test]
fn full_text_changes_publish_what_ranged_changes_and_a_fresh_open_publish() {
    let mut lsp = Lsp::start();
    initialize(&mut lsp);
    let (ranged, whole) = ("file:///work/ranged.yaml", "file:///work/whole.yaml");
    for uri in [ranged, whole] {
        lsp.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": SYNCED } }),
        );
        assert_eq!(codes(&lsp.published(uri)), Vec::<String>::new());
    }
    const PIECES: [&str; 12] = [
        "",
        "z",
        "é",
        "😀",
        "\r\n",
        "\"",
        "\\",
        "\t",
        "appz",
        "apps",
        "    extra:\n      type: static\n      data: []\n",
        "      from: nowhere\n",
    ];
    let mut random = sources_testkit::random::Random::new(24);
    let mut next = |bound: usize| random.below(bound);
    let mut text = SYNCED.to_owned();
    let mut seen = std::collections::BTreeSet::new();
    for version in 2..42 {
        // Where an edit may start or end: a character boundary not inside a `\r\n`.
        let boundaries: Vec<usize> = (0..=text.len())
            .filter(|&at| text.is_char_boundary(at) && !text[..at].ends_with('\r'))
            .collect();
        let (start, end, with) = match version % 10 {
            // The whole text emptied, then given back; edits at both ends.
            5 => (0, text.len(), String::new()),
            6 => (0, text.len(), SYNCED.to_owned()),
            7 => (0, 0, PIECES[next(PIECES.len())].to_owned()),
            8 => (
                text.len(),
                text.len(),
                PIECES[next(PIECES.len())].to_owned(),
            ),
            _ => {
                let start = boundaries[next(boundaries.len())];
                let end = *boundaries[boundaries.partition_point(|&at| at < start)..]
                    .get(next(4))
                    .unwrap_or(&start);
                (start, end, PIECES[next(PIECES.len())].to_owned())
            }
        };
        lsp.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": ranged, "version": version },
                "contentChanges": [{
                    "range": { "start": utf16_position(&text, start), "end": utf16_position(&text, end) },
                    "text": with,
                }],
            }),
        );
        text.replace_range(start..end, &with);
        let by_range = lsp.published_version(ranged, version);
        // Every other full text is sent with its characters outside ASCII as `\u` escapes.
        let encoded = if version % 2 == 0 {
            serde_json::to_string(&text).expect("a string serialises")
        } else {
            ascii_json_string(&text)
        };
        lsp.send_raw(&frame(&format!(
            r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"{whole}","version":{version}}},"contentChanges":[{{"text":{encoded}}}]}}}}"#
        )));
        let by_text = lsp.published_version(whole, version);
        let fresh = lsp.fresh_publication(version, &text);
        assert_eq!(
            by_range["diagnostics"], fresh["diagnostics"],
            "ranged, version {version}:\n{text}"
        );
        assert_eq!(
            by_text["diagnostics"], fresh["diagnostics"],
            "full text, version {version}:\n{text}"
        );
        lsp.notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": format!("file:///work/fresh-{version}.yaml") } }),
        );
        seen.insert(fresh["diagnostics"].to_string());
    }
    assert!(
        seen.len() > 5,
        "the edits changed what is published: {seen:?}"
    );

    // A text that is not a JSON string is refused with why; the document keeps its last text.
    for (body, why) in [
        (r#""\ud800 lone""#, "a leading surrogate"),
        (r#""\udc00""#, "a lone trailing surrogate"),
        (r#""\q""#, "an invalid escape"),
        ("\"raw\u{1}control\"", "a control character"),
    ] {
        lsp.send_raw(&frame(&format!(
            r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"{whole}","version":99}},"contentChanges":[{{"text":{body}}}]}}}}"#
        )));
        let refused = lsp.response(Value::Null);
        assert_eq!(refused["error"]["code"], -32700, "{refused}");
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with("a message body is not JSON (") && message.contains(why),
            "{message}"
        );
    }
    // The refused changes left the document as it was: its outline is the one of the document
    // that went through the same versions by ranged changes (not a fresh open's: while a text has
    // syntax errors, the outline is the last clean version's).
    let mut symbols = |id: i64, uri: &str| {
        lsp.request(
            id,
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri } }),
        );
        lsp.response(json!(id))["result"].clone()
    };
    let kept = symbols(2, whole);
    let by_range = symbols(3, ranged);
    assert!(kept.is_array(), "{kept}");
    assert_eq!(
        kept, by_range,
        "the document after refused changes:\n{text}"
    );
    let (status, stderr) = lsp.finish();
    assert!(status.success(), "{status}: {stderr}");
}
