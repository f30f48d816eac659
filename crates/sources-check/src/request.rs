//! The constructors of everything `try` sends, starts or reads, shared by the evaluator and lint.
//!
//! Each function takes a value as rendered (tokens substituted) and builds it with the call the
//! library that uses it makes: `url::Url::parse` and `http::Uri` for an `http` url (reqwest),
//! `http::Method`, `http::HeaderName` and `http::HeaderValue` for the method and headers,
//! `http::Uri` and the websocket client's host and scheme rules for a websocket url (the evaluator
//! hands the result to tungstenite, which then refuses nothing these accept), `CString::new` for each
//! argument, variable and path handed to the operating system (what `std::process` and `std::fs`
//! do), and `serde_json` for the body of an anchored window. The evaluator builds every request,
//! process, path and anchored body through these functions before any I/O, and lint calls the
//! same functions on each value rendered with placeholders (`runnable`), so a refusal and the lint
//! rule that predicts it are one function.

use std::ffi::CString;

/// Why a rendered value cannot be sent, started or read. Messages never repeat the value itself
/// (it may hold a secret read from the environment).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The URL does not parse.
    #[error("it is not a URL: {0}")]
    Url(String),
    /// An `http` url with another scheme.
    #[error("its scheme is `{0}`, and an `http` source sends only `http://` and `https://` urls")]
    HttpScheme(String),
    /// A websocket url the websocket client would refuse: not a URI, no host, not `ws`/`wss`.
    #[error("it is not a websocket URL: {0}")]
    WebSocketUrl(String),
    /// A method HTTP does not allow.
    #[error("`{0}` is not an HTTP method")]
    Method(String),
    /// A header name HTTP does not allow.
    #[error("`{0}` is not an HTTP header name")]
    HeaderName(String),
    /// A header value HTTP does not allow.
    #[error("the value of header `{0}` holds a line break or another control character")]
    HeaderValue(String),
    /// No program to run.
    #[error("`command` is empty: there is no program to run")]
    NoProgram,
    /// An argument no process can receive.
    #[error("`command[{0}]` holds a NUL byte, which no process argument can carry")]
    ArgumentNul(usize),
    /// An environment variable no process can receive.
    #[error("`env` `{0}` holds a NUL byte, which no environment variable can carry")]
    EnvironmentNul(String),
    /// An empty file path.
    #[error("`path` is empty: there is no file to read")]
    EmptyPath,
    /// A file path no file system call can take.
    #[error("`path` holds a NUL byte, which no file name can carry")]
    PathNul,
    /// The body of an anchored window, once rendered for the first request, is not a JSON object.
    #[error(
        "an anchored window merges `older`/`newer` into `body`, which must be a JSON object: {0}"
    )]
    AnchoredBody(String),
}

/// An `http` url, parsed as reqwest parses it: `url::Url`, scheme `http` or `https`, and the
/// `http::Uri` reqwest hands to its connection.
pub fn http_url(rendered: &str) -> Result<url::Url, Refusal> {
    let url = url::Url::parse(rendered).map_err(|error| Refusal::Url(error.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Refusal::HttpScheme(url.scheme().to_owned()));
    }
    http::Uri::try_from(url.as_str()).map_err(|error| Refusal::Url(error.to_string()))?;
    Ok(url)
}

/// The method of an `http` request: the rendered text trimmed and upper-cased, `GET` when empty.
pub fn http_method(rendered: Option<&str>) -> Result<http::Method, Refusal> {
    let text = rendered.map(str::trim).unwrap_or_default();
    if text.is_empty() {
        return Ok(http::Method::GET);
    }
    let upper = text.to_ascii_uppercase();
    http::Method::from_bytes(upper.as_bytes()).map_err(|_| Refusal::Method(text.to_owned()))
}

/// One request header, as reqwest and the websocket client build it.
pub fn header(name: &str, value: &str) -> Result<(http::HeaderName, http::HeaderValue), Refusal> {
    let header_name = http::HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| Refusal::HeaderName(name.to_owned()))?;
    let header_value =
        http::HeaderValue::from_str(value).map_err(|_| Refusal::HeaderValue(name.to_owned()))?;
    Ok((header_name, header_value))
}

/// A websocket url, parsed as the websocket client (tungstenite) parses it: an `http::Uri` with an
/// authority whose host (after any `user@`) is not empty, and the scheme `ws` or `wss` written in
/// lower case. tungstenite refuses exactly these urls (`tests::websocket_urls_are_refused_as_tungstenite_refuses_them`
/// compares the two over many urls).
pub fn websocket_url(rendered: &str) -> Result<http::Uri, Refusal> {
    let uri: http::Uri = rendered
        .parse()
        .map_err(|error: http::uri::InvalidUri| Refusal::WebSocketUrl(error.to_string()))?;
    let host = uri
        .authority()
        .map(|authority| {
            let text = authority.as_str();
            text.find('@').map_or(text, |at| &text[at + 1..])
        })
        .unwrap_or_default();
    if host.is_empty() || uri.host().is_none_or(str::is_empty) {
        return Err(Refusal::WebSocketUrl("it has no host".to_owned()));
    }
    match uri.scheme_str() {
        Some("ws" | "wss") => Ok(uri),
        scheme => Err(Refusal::WebSocketUrl(format!(
            "its scheme is `{}`, and a websocket is opened only with `ws://` or `wss://`, in lower case",
            scheme.unwrap_or_default()
        ))),
    }
}

/// A websocket request for `url` with `headers`: its [`websocket_url`] and its headers (the
/// evaluator adds the upgrade's own headers before connecting).
pub fn websocket_request(
    url: &str,
    headers: &[(String, String)],
) -> Result<http::Request<()>, Refusal> {
    let mut request = http::Request::new(());
    *request.uri_mut() = websocket_url(url)?;
    for (name, value) in headers {
        let (name, value) = header(name, value)?;
        request.headers_mut().insert(name, value);
    }
    Ok(request)
}

/// A process's argv and added environment, as `std::process` hands them to the operating system:
/// a program, and no NUL byte anywhere.
pub fn command(argv: &[String], env: &[(String, String)]) -> Result<(), Refusal> {
    if argv.first().is_none_or(String::is_empty) {
        return Err(Refusal::NoProgram);
    }
    if let Some(index) = argv
        .iter()
        .position(|arg| CString::new(arg.as_bytes()).is_err())
    {
        return Err(Refusal::ArgumentNul(index));
    }
    if let Some((name, _)) = env.iter().find(|(name, value)| {
        CString::new(name.as_bytes()).is_err() || CString::new(value.as_bytes()).is_err()
    }) {
        return Err(Refusal::EnvironmentNul(name.clone()));
    }
    Ok(())
}

/// A `file` path, as the file system call takes it: not empty, no NUL byte.
pub fn file_path(rendered: &str) -> Result<&std::path::Path, Refusal> {
    if rendered.is_empty() {
        return Err(Refusal::EmptyPath);
    }
    CString::new(rendered.as_bytes()).map_err(|_| Refusal::PathNul)?;
    Ok(std::path::Path::new(rendered))
}

/// The body of an anchored window's request, rendered: a JSON object (`older`/`newer` are merged
/// into it).
pub fn anchored_body(
    rendered: &str,
) -> Result<serde_json::Map<String, serde_json::Value>, Refusal> {
    match serde_json::from_str::<serde_json::Value>(rendered) {
        Ok(serde_json::Value::Object(object)) => Ok(object),
        Ok(other) => Err(Refusal::AnchoredBody(format!(
            "it is {}",
            match other {
                serde_json::Value::Array(_) => "an array",
                serde_json::Value::String(_) => "a string",
                serde_json::Value::Number(_) => "a number",
                serde_json::Value::Bool(_) => "a boolean",
                _ => "null",
            }
        ))),
        Err(error) => Err(Refusal::AnchoredBody(format!("it is not JSON ({error})"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_urls_are_judged_by_the_url_parser_and_the_scheme() {
        assert!(http_url("https://api.example.com/items?q=1").is_ok());
        assert!(http_url("HTTP://api.example.com/").is_ok());
        assert_eq!(
            http_url("http://").expect_err("no host").to_string(),
            "it is not a URL: empty host"
        );
        assert_eq!(
            http_url("http://x:65536/").expect_err("port").to_string(),
            "it is not a URL: invalid port number"
        );
        assert!(matches!(
            http_url("ftp://x/"),
            Err(Refusal::HttpScheme(scheme)) if scheme == "ftp"
        ));
    }

    #[test]
    fn websocket_urls_are_judged_by_the_websocket_client_s_rules() {
        assert!(websocket_request("wss://stream.example.com/ticks", &[]).is_ok());
        assert!(websocket_request("ws://[::1]:8080/", &[]).is_ok());
        for refused in ["WS://x/", "http://x/", "ws://", "ws:///x", "ws://a b/", "x"] {
            assert!(
                matches!(
                    websocket_request(refused, &[]),
                    Err(Refusal::WebSocketUrl(_))
                ),
                "{refused}"
            );
        }
        assert_eq!(
            websocket_url("WS://x/")
                .expect_err("upper case")
                .to_string(),
            "it is not a websocket URL: its scheme is `WS`, and a websocket is opened only with \
             `ws://` or `wss://`, in lower case"
        );
        assert_eq!(
            websocket_url("ws://:80/x")
                .expect_err("no host")
                .to_string(),
            "it is not a websocket URL: it has no host"
        );
        let request = websocket_request("ws://h/", &[("X-Key".into(), "k".into())]);
        assert_eq!(request.expect("built").headers()["x-key"], "k");
    }

    /// Whether tungstenite accepts `url`: its request builder, then the host its connection
    /// needs and the scheme its handshake checks (what this module called before it had its own).
    fn tungstenite_accepts(url: &str) -> bool {
        use tungstenite::client::IntoClientRequest;
        url.into_client_request().is_ok_and(|request| {
            request.uri().host().is_some_and(|host| !host.is_empty())
                && tungstenite::client::uri_mode(request.uri()).is_ok()
        })
    }

    #[test]
    fn websocket_urls_are_refused_as_tungstenite_refuses_them() {
        let schemes = [
            "ws", "wss", "WS", "Ws", "wSs", "http", "https", "ftp", "", "ws+unix", "w s", "1ws",
        ];
        let separators = ["://", ":/", ":", "//", ":///", "://@"];
        let authorities = [
            "",
            "host",
            "host:80",
            "host:",
            ":80",
            "user@host",
            "user@",
            "@",
            "@host",
            "user:pw@host:1",
            "[::1]",
            "[::1]:8080",
            "[::1",
            "::1",
            "h st",
            "h%20st",
            "127.0.0.1",
            "host:99999",
            "host:abc",
            "ho\u{e9}st",
            "a@b@c",
            "a@b:1@c",
            "xn--bcher-kva.example",
            "host:80:90",
            "[v1.x]",
            "h\tst",
            "host.",
            "-h",
        ];
        let paths = [
            "",
            "/",
            "/a b",
            "/x?q=1",
            "?q",
            "#f",
            "/#f",
            "/%zz",
            "/\u{1F600}",
            "/a\"b",
            "/{}",
            "/a|b",
            "/a\\b",
            "//x",
            "/a?b?c",
            "/ ",
        ];
        let mut urls = Vec::new();
        for scheme in schemes {
            for separator in separators {
                for authority in authorities {
                    for path in paths {
                        urls.push(format!("{scheme}{separator}{authority}{path}"));
                    }
                }
            }
        }
        // And random strings over the characters a URL is made of.
        let alphabet: Vec<char> = "wsWS:/@[]?#%.: -_1x\u{e9}\"{}|\\".chars().collect();
        let mut random = sources_testkit::random::Random::new(8);
        for _ in 0..20_000 {
            let length = random.below(16);
            let tail: String = (0..length)
                .map(|_| alphabet[random.below(alphabet.len())])
                .collect();
            let prefix = ["", "ws://", "wss://", "ws:"][random.below(4)];
            urls.push(format!("{prefix}{tail}"));
        }
        let mut accepted = 0;
        for url in &urls {
            let ours = websocket_url(url).is_ok();
            assert_eq!(
                ours,
                tungstenite_accepts(url),
                "{url:?}: ours accepts: {ours}"
            );
            accepted += usize::from(ours);
        }
        // Both answers are well represented, so the comparison can tell the two apart.
        assert!(accepted > 1_000, "{accepted} of {} accepted", urls.len());
        assert!(
            urls.len() - accepted > 10_000,
            "{accepted} of {} accepted",
            urls.len()
        );
    }

    #[test]
    fn headers_methods_argv_and_paths_are_refused_as_the_libraries_refuse_them() {
        assert!(header("X-Api-Key", "a b\tc").is_ok());
        assert_eq!(
            header("X-Key", "a\r\nb").expect_err("line break"),
            Refusal::HeaderValue("X-Key".into())
        );
        assert_eq!(
            header("a b", "c").expect_err("name"),
            Refusal::HeaderName("a b".into())
        );
        assert_eq!(http_method(None), Ok(http::Method::GET));
        assert_eq!(http_method(Some(" post ")), Ok(http::Method::POST));
        assert_eq!(
            http_method(Some("GE T")),
            Err(Refusal::Method("GE T".into()))
        );
        let argv = |args: &[&str]| args.iter().map(|arg| (*arg).to_owned()).collect::<Vec<_>>();
        assert_eq!(command(&argv(&["ls", "-l"]), &[]), Ok(()));
        assert_eq!(command(&argv(&[]), &[]), Err(Refusal::NoProgram));
        assert_eq!(
            command(&argv(&["ls", "a\0b"]), &[]),
            Err(Refusal::ArgumentNul(1))
        );
        assert_eq!(
            command(&argv(&["ls"]), &[("K".into(), "v\0".into())]),
            Err(Refusal::EnvironmentNul("K".into()))
        );
        assert_eq!(file_path(""), Err(Refusal::EmptyPath));
        assert_eq!(file_path("a\0"), Err(Refusal::PathNul));
        assert!(file_path("/var/log/x.json").is_ok());
    }

    #[test]
    fn an_anchored_body_must_be_a_json_object() {
        assert!(anchored_body(r#"{"q": ""}"#).is_ok());
        assert_eq!(
            anchored_body("[1]").expect_err("array").to_string(),
            "an anchored window merges `older`/`newer` into `body`, which must be a JSON object: it is an array"
        );
        assert!(matches!(
            anchored_body(r#"{"q": }"#),
            Err(Refusal::AnchoredBody(detail)) if detail.starts_with("it is not JSON")
        ));
    }
}
