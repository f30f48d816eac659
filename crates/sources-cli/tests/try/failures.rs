//! What `try` refuses and how a failed fetch is said: usage errors, configurations with errors,
//! one-line failures, streams, timeouts and partial results.

use super::*;

#[test]
fn usage_errors_exit_2() {
    let (_dir, config) = with_config(PARAMS);
    let cases: &[(&[&str], &str)] = &[
        (&["try", "ap", "-c", &config], "did you mean `app`?"),
        (&["try", "app", "-c", &config], "parameter `id` is required"),
        (
            &[
                "try", "app", "-c", &config, "--param", "id=1", "--param", "idd=2",
            ],
            "parameter `idd` is not declared",
        ),
        (
            &[
                "try", "app", "-c", &config, "--param", "id=1", "--param", "n=ten",
            ],
            "declared `int` but got `ten`",
        ),
        (
            &["try", "app", "-c", &config, "--param", "noequals"],
            "is not NAME=VALUE",
        ),
        (
            &["try", "app", "-c", &config, "--param", "id=1", "--for", "5"],
            "`--for 5`",
        ),
    ];
    for (args, expected) in cases {
        let (code, stdout, stderr) = run(&mut sources(args));
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty());
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn a_config_with_errors_is_refused_with_its_diagnostics() {
    let (_dir, config) = with_config(
        "data:\n  sources:\n    x:\n      type: http\n      urll: http://127.0.0.1:1/\n",
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "x", "-c", &config]));
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(stderr.contains("has errors"), "{stderr}");
    // The file is analysed once: the one mistake is one diagnostic, printed once.
    assert_eq!(stderr.matches("unknown-field").count(), 1, "{stderr}");
    assert_eq!(stderr.lines().count(), 3, "{stderr}");
    assert!(
        stderr.ends_with("\n1 error in 1 of 1 file; 1 fixable with --fix\n"),
        "{stderr}"
    );
}

#[test]
fn bad_input_is_one_line_naming_the_source_and_the_cause() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let closed = listener.local_addr().expect("addr");
    drop(listener);
    one_line_failure(
        &http_source(&format!("http://{closed}/x"), ""),
        "feed",
        &format!("cannot connect to {closed}"),
    );
    one_line_failure(
        &http_source("http://sources-try-test.invalid/x", ""),
        "feed",
        "cannot resolve host `sources-try-test.invalid`",
    );
    one_line_failure(
        &http_source(&silent_server(), "      timeout: 300ms\n"),
        "feed",
        "timed out after 300ms",
    );
    let (html, _) = responder(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 15\r\nConnection: close\r\n\r\n<html>hi</html>",
    );
    one_line_failure(&http_source(&html, ""), "feed", "response is not JSON");
    let (rows, _) = responder(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{\"rows\": []}",
    );
    one_line_failure(
        &http_source(&rows, "      root: data.items\n"),
        "feed",
        "root `data.items` not found: no key `data` at the top level",
    );
    one_line_failure(
        "data:\n  sources:\n    pods:\n      type: exec\n      command: [sources-no-such-command]\n",
        "pods",
        "command `sources-no-such-command` not found",
    );
    let (failing, _) = responder(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 22\r\nConnection: close\r\n\r\n{\"error\":\"flaky\\nnow\"}",
    );
    one_line_failure(&http_source(&failing, ""), "feed", "HTTP 503 from GET");
}

#[test]
fn streamed_failures_are_error_lines() {
    let (_dir, config) = with_config(
        r#"
data:
  sources:
    out:
      type: exec
      follow: true
      command: [sh, -c, "echo '{\"n\": 1}'; echo oops; echo bad >&2; exit 3"]
"#,
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "out", "-c", &config]));
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<Value> = stdout.lines().map(json).collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0], serde_json::json!({"n": 1}));
    assert!(
        lines[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("event is not JSON"))
    );
    assert!(
        lines[2]["error"]
            .as_str()
            .is_some_and(|e| e.ends_with("exited with status 3: bad")),
        "{stdout}"
    );
}

#[test]
fn a_stream_stops_after_for() {
    let (_dir, config) = with_config(
        "data:\n  sources:\n    ticks:\n      type: exec\n      follow: true\n      format: text\n      command: [sh, -c, 'echo first; exec sleep 30']\n",
    );
    let (code, stdout, stderr) = run(&mut sources(&[
        "try",
        "ticks",
        "-c",
        &config,
        "--for",
        "300ms",
        "--verbose",
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "\"first\"\n");
    assert!(
        stderr.contains("stopped after --for with 1 events"),
        "{stderr}"
    );
}

#[test]
fn a_partial_result_is_said_on_stderr_and_strict_makes_it_fail() {
    let (server, _) = responder(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 39\r\nConnection: close\r\n\r\n{\"next\": \"?page=2\", \"results\": [1, 2]}\n",
    );
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let closed = listener.local_addr().expect("addr");
    drop(listener);
    let (_dir, config) = with_config(&format!(
        "data:\n  sources:\n    pages:\n      type: http\n      url: {server}/items\n      root: results\n      paginate:\n        strategy: link\n        next_path: next\n        max_pages: 1\n    down:\n      type: http\n      url: http://{closed}/x\n    fixed:\n      type: static\n      data: [{{n: 1}}]\n    both:\n      type: merge\n      sources: [down, fixed]\n      on_error: skip\n"
    ));
    let (code, stdout, stderr) = run(&mut sources(&["try", "pages", "-c", &config]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout), serde_json::json!([1, 2]));
    assert_eq!(
        stderr,
        "sources: warning: stopped at `max_pages: 1` with 2 items; more pages remain (raise `max_pages` to read them)\n"
    );
    let (code, _, stderr) = run(&mut sources(&["try", "pages", "-c", &config, "--strict"]));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.ends_with("sources: --strict: 1 warning(s), so this run fails\n"),
        "{stderr}"
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "both", "-c", &config]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout)[0]["n"], 1);
    assert!(
        stderr.starts_with(&format!(
            "sources: warning: `both`: child `down` left out by `on_error: skip`: source `down`: cannot connect to {closed}"
        )),
        "{stderr}"
    );
    let (code, _, stderr) = run(&mut sources(&["try", "both", "-c", &config, "--strict"]));
    assert_eq!(code, 1, "{stderr}");
}

#[test]
fn a_required_parameter_given_an_empty_value_is_refused_like_a_missing_one() {
    let (_dir, config) = with_config(PARAMS);
    let (code, stdout, stderr) = run(&mut sources(&[
        "try", "app", "-c", &config, "--param", "id=",
    ]));
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(
        stderr,
        "sources: `app`: parameter `id` is required and `--param id=` gives it no value: pass it with `--param id=VALUE`\n"
    );
    let (code, stdout, stderr) = try_demo("app_detail", &["--param", "id="]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("`app_detail` needs --param id=…; for example --param id="),
        "{stderr}"
    );
}

#[test]
fn a_timeout_names_its_field_and_line_and_verbose_shows_a_whole_error_body() {
    let (_dir, config) = with_config(&http_source(&silent_server(), "      timeout: 300ms\n"));
    let (code, _, stderr) = run(&mut sources(&["try", "feed", "-c", &config]));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "sources: source `feed`: timed out after 300ms (`timeout` of `feed` at {config}:6:7: raise it there)\n"
        )
    );
    let body = format!("{}the end", "a long explanation ".repeat(12));
    let response: &'static str = Box::leak(
        format!(
            "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_boxed_str(),
    );
    let (server, _) = responder(response);
    let (_dir, config) = with_config(&http_source(&format!("{server}/x"), ""));
    let (code, _, quiet) = run(&mut sources(&["try", "feed", "-c", &config]));
    assert_eq!(code, 1, "{quiet}");
    assert!(!quiet.contains("the end"), "cut without --verbose: {quiet}");
    let (code, _, verbose) = run(&mut sources(&["try", "feed", "-c", &config, "--verbose"]));
    assert_eq!(code, 1, "{verbose}");
    assert!(
        verbose.contains(&format!(
            "the whole response body of HTTP 500 ({} bytes):\n{body}",
            body.len()
        )),
        "{verbose}"
    );
}
