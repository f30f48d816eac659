//! The constructors of everything `try` sends, starts or reads, shared by the evaluator and lint.
//!
//! Each function takes a value as rendered (tokens substituted) and builds it with the call the
//! library that uses it makes: `url::Url::parse` and `http::Uri` for an `http` url (reqwest),
//! `http::Method`, `http::HeaderName` and `http::HeaderValue` for the method and headers, the
//! websocket client's own request builder and scheme check (tungstenite), `CString::new` for each
//! argument, variable and path handed to the operating system (what `std::process` and `std::fs`
//! do), and `serde_json` for the body of an anchored window. The evaluator builds every request,
//! process, path and anchored body through these functions before any I/O, and lint calls the
//! same functions on each value rendered with placeholders (`runnable`), so a refusal and the lint
//! rule that predicts it are one function.

use std::ffi::CString;

use tungstenite::client::IntoClientRequest;

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
    /// A websocket url the websocket client refuses.
    #[error("the websocket client refuses it: {0}")]
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

/// The websocket client's upgrade request for `url` with `headers`: its own request builder, the
/// host it connects to and the scheme it accepts (`ws` or `wss`, in lower case).
pub fn websocket_request(
    url: &str,
    headers: &[(String, String)],
) -> Result<http::Request<()>, Refusal> {
    let mut request = url
        .into_client_request()
        .map_err(|error| Refusal::WebSocketUrl(error.to_string()))?;
    if request.uri().host().is_none_or(str::is_empty) {
        return Err(Refusal::WebSocketUrl(
            tungstenite::error::UrlError::NoHostName.to_string(),
        ));
    }
    tungstenite::client::uri_mode(request.uri())
        .map_err(|error| Refusal::WebSocketUrl(error.to_string()))?;
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
    fn websocket_urls_are_judged_by_the_websocket_client() {
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
