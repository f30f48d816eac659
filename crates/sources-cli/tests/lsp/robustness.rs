//! Malformed frames, invalid messages, unknown methods and requests after `shutdown` are
//! answered or skipped and the server stays up; the process widens its input pipe and runs with
//! the allocator options.

use serde_json::{Value, json};
use sources_testkit::lsp_frame::frame;

use super::*;

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

/// The server widens the pipe of its input to 1 MiB where the system allows it, so a client
/// writing a large document whole waits for fewer reads.
#[cfg(target_os = "linux")]
#[test]
fn the_server_widens_its_input_pipe() {
    let mut lsp = Lsp::start();
    initialize(&mut lsp);
    let stdin = lsp.client.stdin().expect("input is open");
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
    let environ = std::fs::read(format!("/proc/{}/environ", lsp.client.pid()))
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
