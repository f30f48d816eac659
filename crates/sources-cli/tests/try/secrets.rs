//! Parameter values and secrets `try` never shows.

use super::*;

#[test]
fn verbose_never_shows_masked_or_credential_named_parameter_values() {
    let (_dir, path) = with_config(
        "data:\n  sources:\n    t:\n      type: exec\n      command: [echo, '${params.pin}']\n      format: text\n      cache: {ttl: 30s}\n      parameters:\n        api_token: {default: hunter2-default}\n        pin: {default: '4711-masked', mask: true}\n      env:\n        TOK: ${params.api_token}\n",
    );
    for extra in [&[][..], &["--param", "api_token=zz-supplied-secret"][..]] {
        let mut args = vec!["try", "-c", &path, "t", "--verbose"];
        args.extend_from_slice(extra);
        let (code, _, stderr) = run(&mut sources(&args));
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("env TOK=[redacted]"), "{stderr}");
        assert!(stderr.contains("api_token=[redacted]"), "{stderr}");
        for secret in ["hunter2-default", "4711-masked", "zz-supplied-secret"] {
            assert!(!stderr.contains(secret), "{secret} shown: {stderr}");
        }
    }
}

#[test]
fn secrets_percent_encoded_into_a_url_are_redacted_too() {
    let (server, seen) = responder(
        "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    );
    let (_dir, path) = with_config(&format!(
        "data:\n  sources:\n    t:\n      type: http\n      url: {server}/u/${{params.api_token}}/rows?q=${{params.pin}}&n=1\n      parameters:\n        api_token: {{required: true}}\n        pin: {{required: true, mask: true}}\n"
    ));
    let (code, stdout, stderr) = run(&mut sources(&[
        "try",
        "-c",
        &path,
        "t",
        "--verbose",
        "--param",
        "api_token=tok en/1",
        "--param",
        "pin=a b&c",
    ]));
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    let requests = seen.lock().expect("lock").clone();
    assert!(
        requests[0].starts_with("GET /u/tok%20en%2F1/rows?q=a%20b%26c&n=1 "),
        "the encoded values are really sent: {requests:?}"
    );
    assert!(
        stderr.contains("/u/[redacted]/rows?q=[redacted]&n=1"),
        "{stderr}"
    );
    let error = stderr.lines().last().unwrap_or_default();
    assert!(
        error.starts_with("sources: source `t`: HTTP 500"),
        "{stderr}"
    );
    for secret in ["tok en", "tok%20en", "a b", "a%20b", "b%26c", "b&c"] {
        assert!(!stderr.contains(secret), "{secret} shown: {stderr}");
    }
}

#[test]
fn a_secret_of_the_wrong_type_is_not_echoed_in_the_usage_error() {
    let (_dir, path) = with_config(
        "data:\n  sources:\n    t:\n      type: static\n      data: []\n      parameters:\n        pin: {type: int, mask: true}\n",
    );
    let (code, _, stderr) = run(&mut sources(&[
        "try",
        "-c",
        &path,
        "t",
        "--param",
        "pin=hunter2",
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("parameter `pin` is declared `int` but got `[redacted]`"),
        "{stderr}"
    );
    assert!(!stderr.contains("hunter2"), "{stderr}");
}
