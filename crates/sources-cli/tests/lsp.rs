//! `sources lsp` as a process: malformed frames, invalid messages, unknown methods, out-of-order
//! versions, a flood of edits and requests after `shutdown`. The server answers every request,
//! with the right content, and stays up until `exit` or the end of its input. Edits inside one
//! entry, which the server reparses alone, publish what a fresh open of the same text publishes.
//! Every capability beyond diagnostics (semantic tokens, inlay hints, lenses and "▶ try",
//! highlight, folding, selection, workspace symbols, pulled diagnostics, template completion)
//! answers with its content through the process, not only through the in-process service.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sources_testkit::lsp_frame::{frame, read_message};

/// How long any one expected message may take.
const PATIENCE: Duration = Duration::from_secs(20);

const MISTAKES: &str = "data:\n  sources:\n    apps:\n      type: http\n      url: https://e.invalid\n    view:\n      type: filter\n      from: appz\n      where: \"true\"\n";

/// A running `sources lsp` and the messages it wrote, parsed.
struct Lsp {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    /// Messages received while waiting for another one, in arrival order: a later wait may want
    /// them (a publication can overtake the response the test waited for first).
    backlog: RefCell<VecDeque<Value>>,
    stderr: Receiver<String>,
}

impl Lsp {
    fn start() -> Lsp {
        Lsp::start_with(&[])
    }

    /// Starts the server with these variables added to its environment.
    fn start_with(environment: &[(&str, &str)]) -> Lsp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sources"))
            .arg("lsp")
            .envs(environment.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, messages) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let message = match read_message(&mut reader) {
                    Ok(Some(message)) => message,
                    Ok(None) => return,
                    Err(error) => panic!("the server wrote a broken frame: {error}"),
                };
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        let stderr = child.stderr.take().expect("piped stderr");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Lsp {
            child,
            stdin,
            messages,
            backlog: RefCell::default(),
            stderr: lines,
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input is open");
        stdin.write_all(bytes).expect("the server reads its input");
        stdin.flush().expect("the server reads its input");
    }

    fn send(&mut self, message: Value) {
        self.send_raw(&frame(&message.to_string()));
    }

    fn request(&mut self, id: i64, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The first message that satisfies `wanted`; fails after [`PATIENCE`]. Messages skipped on
    /// the way are kept for later waits (a publication can overtake the response waited for
    /// first), except that a notification drops the earlier ones of its method: what follows a
    /// publication stays what followed it.
    fn expect(&self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let mut backlog = self.backlog.borrow_mut();
        let found = match backlog.iter().position(&wanted) {
            Some(at) => {
                let found = backlog.remove(at).expect("the position is in the backlog");
                (found, at)
            }
            None => {
                let deadline = Instant::now() + PATIENCE;
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    match self.messages.recv_timeout(left) {
                        Ok(message) if wanted(&message) => break (message, backlog.len()),
                        Ok(message) => backlog.push_back(message),
                        Err(error) => panic!("waiting for {what}: {error}"),
                    }
                }
            }
        };
        let (message, at) = found;
        if let Some(method) = message.get("method") {
            let mut index = 0;
            backlog.retain(|earlier| {
                index += 1;
                index > at || earlier.get("method") != Some(method)
            });
        }
        message
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
    fn finish(mut self) -> (std::process::ExitStatus, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the process can be polled") {
                break status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            thread::sleep(Duration::from_millis(20));
        };
        let stderr: Vec<String> = self.stderr.try_iter().collect();
        (status, stderr.join("\n"))
    }
}

impl Drop for Lsp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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

#[test]
fn malformed_frames_are_answered_or_skipped_and_the_server_stays_up() {
    let mut lsp = Lsp::start();
    initialize(&mut lsp);

    lsp.send_raw(&frame("{not json"));
    let parse_error = lsp.response(Value::Null);
    assert_eq!(parse_error["error"]["code"], -32700);
    assert!(
        parse_error["error"]["message"]
            .as_str()
            .is_some_and(|message| message.starts_with("a message body is not JSON")),
        "{parse_error}"
    );

    lsp.send_raw(&frame("[1, 2]"));
    let batch = lsp.response(Value::Null);
    assert_eq!(batch["error"]["code"], -32600);
    assert!(
        batch["error"]["message"]
            .as_str()
            .is_some_and(|message| message.contains("a batch")),
        "{batch}"
    );

    lsp.send_raw(&frame(r#"{"jsonrpc":"2.0","id":7}"#));
    let no_method = lsp.response(json!(7));
    assert_eq!(no_method["error"]["code"], -32600);

    lsp.send_raw(b"Content-Type: application/json\r\n\r\n{\"junk\": true}");
    lsp.log(
        "sources language server: a header block has no `Content-Length`; skipped to the next \
         header block",
    );
    lsp.send_raw(b"Content-Length: many\r\n\r\n{}");
    lsp.log(
        "sources language server: `Content-Length: many` is not a number of bytes; skipped to \
         the next header block",
    );

    lsp.request(8, "sources/noSuchMethod", json!({}));
    let unknown = lsp.response(json!(8));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    lsp.notify("sources/noSuchNotification", json!({}));

    // Still serving: a real request gets a real answer.
    let uri = "file:///work/app.yaml";
    lsp.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": MISTAKES } }),
    );
    let published = lsp.published(uri);
    assert_eq!(published["version"], 1);
    assert_eq!(codes(&published), vec!["unknown-source"]);

    lsp.request(9, "shutdown", Value::Null);
    let shutdown = lsp.response(json!(9));
    assert_eq!(
        (shutdown.get("result"), shutdown.get("error")),
        (Some(&Value::Null), None),
        "{shutdown}"
    );
    lsp.request(
        10,
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 7, "character": 14 } }),
    );
    let after_shutdown = lsp.response(json!(10));
    assert_eq!(after_shutdown["error"]["code"], -32600, "{after_shutdown}");
    assert_eq!(
        after_shutdown["error"]["message"],
        "`textDocument/hover` after `shutdown`: the server only accepts `exit` now"
    );
    lsp.notify("exit", Value::Null);
    let (status, stderr) = lsp.finish();
    assert!(status.success(), "{status}: {stderr}");
    assert!(
        stderr.contains("sources lsp: a message body is not JSON"),
        "the cause is logged to standard error: {stderr}"
    );
}

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

/// The server widens the pipe of its input to 1 MiB where the system allows it, so a client
/// writing a large document whole waits for fewer reads.
#[cfg(target_os = "linux")]
#[test]
fn the_server_widens_its_input_pipe() {
    let mut lsp = Lsp::start();
    initialize(&mut lsp);
    let stdin = lsp.stdin.as_ref().expect("input is open");
    let allowed = std::fs::read_to_string("/proc/sys/fs/pipe-max-size")
        .ok()
        .and_then(|max| max.trim().parse::<usize>().ok())
        .unwrap_or_default();
    let size = rustix::pipe::fcntl_getpipe_size(stdin).expect("the input is a pipe");
    if allowed >= 1024 * 1024 {
        assert_eq!(size, 1024 * 1024);
    } else {
        assert_eq!(size, 64 * 1024, "a system allowing less keeps the default");
    }
}

/// mimalloc reads its options from the environment when a process starts, so `sources lsp` starts
/// itself again with the options that give memory back; a value the user set wins.
#[cfg(target_os = "linux")]
#[test]
fn the_server_runs_with_the_allocator_options_and_the_user_s_values_win() {
    let mut lsp = Lsp::start_with(&[("MIMALLOC_PURGE_DELAY", "5")]);
    lsp.request(
        1,
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {} }),
    );
    let answered = lsp.response(json!(1));
    assert_eq!(answered["result"]["serverInfo"]["name"], "sources");
    // It answered, so it is the process started again (the first one never reads its input).
    let environ = std::fs::read(format!("/proc/{}/environ", lsp.child.id()))
        .expect("the server's environment is readable");
    let variables: Vec<&[u8]> = environ.split(|byte| *byte == 0).collect();
    assert!(variables.contains(&&b"MIMALLOC_ALLOW_THP=0"[..]));
    assert!(variables.contains(&&b"MIMALLOC_PURGE_DELAY=5"[..]));
    assert!(!variables.contains(&&b"MIMALLOC_PURGE_DELAY=0"[..]));
    lsp.request(2, "shutdown", Value::Null);
    lsp.response(json!(2));
    lsp.notify("exit", Value::Null);
    let (status, stderr) = lsp.finish();
    assert!(status.success(), "{stderr}");
    assert!(!stderr.contains("default options"), "{stderr}");
}

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
/// with the content checked: semantic tokens (full, range, delta), inlay hints, code lenses and
/// the `sources.try` command, document highlight, folding and selection ranges, workspace
/// symbols, pull diagnostics and completion inside a template.
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

    // Code lenses: "▶ try", "⏺ try and record" and the reference count on each entry.
    let lenses = ask(
        &mut lsp,
        "textDocument/codeLens",
        json!({ "textDocument": document }),
    );
    let titles: Vec<(u64, &str)> = lenses
        .as_array()
        .expect("lenses")
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
            (9, "▶ try"),
            (9, "⏺ try and record"),
            (9, "1 reference"),
            (13, "▶ try"),
            (13, "⏺ try and record"),
            (13, "0 references"),
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
    let mut written: Vec<Value> = lsp.backlog.borrow().iter().cloned().collect();
    let deadline = Instant::now() + PATIENCE;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lsp.messages.recv_timeout(left) {
            Ok(message) => written.push(message),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => panic!("the server's output did not end"),
        }
    }
    let pushed: Vec<&Value> = written
        .iter()
        .filter(|message| message["method"] == "textDocument/publishDiagnostics")
        .collect();
    assert!(
        pushed.is_empty(),
        "pushed to a client that pulls: {pushed:?}"
    );
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
