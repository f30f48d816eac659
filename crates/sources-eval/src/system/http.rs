//! HTTP over reqwest (rustls): the client every run uses, redirects followed here under the host
//! rules of [`crate::origin`], and reqwest's errors as [`IoError`]s.

use std::error::Error as _;

use futures::StreamExt;
use sources_check::request;

use super::error::{chain, is_dns_failure, refused};
use crate::io::{HttpRequest, HttpResponse, IoError};

/// The HTTP client of every run: no proxy from the environment, redirects left to [`send`], no
/// `Referer`.
pub(super) fn client() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .referer(false)
        .user_agent(concat!("sources-try/", env!("CARGO_PKG_VERSION")))
}

/// How many redirects one request follows.
pub const MAX_REDIRECTS: usize = 10;

/// Where a redirect answer points, resolved against the URL that answered; `None` when the
/// status is not a redirect or there is no usable `Location`.
fn redirect_target(response: &reqwest::Response, from: &reqwest::Url) -> Option<reqwest::Url> {
    if !matches!(response.status().as_u16(), 301 | 302 | 303 | 307 | 308) {
        return None;
    }
    let location = response.headers().get(reqwest::header::LOCATION)?;
    from.join(location.to_str().ok()?).ok()
}

fn host_and_port(url: &reqwest::Url) -> (String, String) {
    let host = url.host_str().unwrap_or_default().to_owned();
    let address = match url.port_or_known_default() {
        Some(port) => format!("{host}:{port}"),
        None => host.clone(),
    };
    (host, address)
}

fn http_error(url: &reqwest::Url, error: &reqwest::Error) -> IoError {
    let (host, address) = host_and_port(url);
    let detail = chain(error);
    if is_dns_failure(&detail) {
        return IoError::Dns { host };
    }
    if error.is_connect() {
        let reason = error
            .source()
            .map(|source| {
                let mut last = source;
                while let Some(next) = last.source() {
                    last = next;
                }
                last.to_string()
            })
            .unwrap_or(detail);
        return IoError::Connect {
            address,
            detail: reason,
        };
    }
    if error.is_builder() {
        return IoError::Transport(format!("the request cannot be built: {detail}"));
    }
    IoError::Transport(detail)
}

/// Sends `request` with `client`, following up to [`MAX_REDIRECTS`] redirects; the answer's body
/// is left to stream.
pub(super) async fn send(
    client: &reqwest::Client,
    request: HttpRequest,
) -> Result<HttpResponse, IoError> {
    // The same constructors `try` checked the request with before calling the seam.
    let refused = |refusal| refused(&request.url, refusal);
    let mut url = request::http_url(&request.url).map_err(refused)?;
    let mut method = request::http_method(Some(&request.method)).map_err(refused)?;
    let mut body = request.body;
    let mut redirects = Vec::new();
    loop {
        // The configured headers go only to the configured origin.
        let headers = crate::origin::headers_for(&request.url, url.as_str(), &request.headers);
        let mut builder = client.request(method.clone(), url.clone());
        for (name, value) in &headers {
            let (name, value) = request::header(name, value).map_err(refused)?;
            builder = builder.header(name, value);
        }
        if let Some(body) = &body {
            builder = builder.body(body.clone());
        }
        let response = builder
            .send()
            .await
            .map_err(|error| http_error(&url, &error))?;
        let status = response.status().as_u16();
        let Some(next) = redirect_target(&response, &url) else {
            let body = response
                .bytes_stream()
                .map(move |chunk| chunk.map_err(|error| http_error(&url, &error)))
                .boxed();
            return Ok(HttpResponse {
                status,
                body,
                redirects,
            });
        };
        if redirects.len() == MAX_REDIRECTS {
            return Err(IoError::Transport(format!(
                "more than {MAX_REDIRECTS} redirects, the last to {}",
                crate::trace::url(next.as_str())
            )));
        }
        if let Some(refusal) = crate::origin::downgrade(url.as_str(), next.as_str()) {
            return Err(IoError::Transport(format!(
                "a redirect ({status}): {refusal}"
            )));
        }
        let sent = if crate::origin::same_origin(&request.url, next.as_str()) {
            "the configured headers sent"
        } else {
            "another origin: none of the configured headers sent"
        };
        redirects.push(format!(
            "{status} to {} ({sent})",
            crate::trace::url(next.as_str())
        ));
        // 303, and 301 or 302 after a POST, continue as a GET without a body, as browsers do.
        if status == 303 || (matches!(status, 301 | 302) && method == reqwest::Method::POST) {
            method = reqwest::Method::GET;
            body = None;
        }
        url = next;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use futures::StreamExt;

    use crate::io::{HttpRequest, Io};
    use crate::system::SystemIo;

    #[tokio::test]
    async fn a_refused_connection_names_the_address() {
        let io = SystemIo::new().expect("client");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        drop(listener);
        let error = io
            .http(HttpRequest {
                method: "GET".into(),
                url: format!("http://127.0.0.1:{port}/"),
                headers: vec![],
                body: None,
            })
            .await
            .expect_err("refused");
        let text = error.to_string();
        assert!(
            text.starts_with(&format!("cannot connect to 127.0.0.1:{port}: ")),
            "{text}"
        );
    }

    #[tokio::test]
    async fn an_unresolvable_host_is_a_dns_error() {
        let io = SystemIo::new().expect("client");
        let error = io
            .http(HttpRequest {
                method: "GET".into(),
                url: "http://sources-try-test.invalid/".into(),
                headers: vec![],
                body: None,
            })
            .await
            .expect_err("dns");
        assert_eq!(
            error.to_string(),
            "cannot resolve host `sources-try-test.invalid`"
        );
    }

    async fn serve(router: axum::Router) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let address = listener.local_addr().expect("addr");
        tokio::spawn(async move { axum::serve(listener, router).await });
        format!("http://{address}")
    }

    fn get(url: String) -> HttpRequest {
        HttpRequest {
            method: "GET".into(),
            url,
            headers: vec![("X-Probe".into(), "yes".into())],
            body: None,
        }
    }

    #[tokio::test]
    async fn a_real_server_streams_lines_and_sees_headers() {
        use axum::routing::get as route;
        let router = axum::Router::new()
            .route(
                "/log",
                route(|| async {
                    let chunks = futures::stream::iter(["one\ntw", "o\nthree\n"])
                        .map(|chunk| Ok::<_, std::convert::Infallible>(chunk.to_owned()));
                    axum::body::Body::from_stream(chunks)
                }),
            )
            .route(
                "/probe",
                route(|headers: axum::http::HeaderMap| async move {
                    format!("{:?}", headers.get("x-probe"))
                }),
            );
        let base = serve(router).await;
        let io = SystemIo::new().expect("client");
        let lines: Vec<String> = crate::fetch::http_lines(
            &io,
            &crate::trace::Silent,
            get(format!("{base}/log")),
            Duration::from_secs(5),
        )
        .await
        .expect("opens")
        .map(|line| line.expect("line"))
        .collect()
        .await;
        assert_eq!(lines, ["one", "two", "three"]);
        let body = crate::fetch::http_body(
            &io,
            &crate::trace::Silent,
            get(format!("{base}/probe")),
            Duration::from_secs(5),
        )
        .await
        .expect("answers");
        assert_eq!(body, b"Some(\"yes\")");
    }

    #[tokio::test]
    async fn a_silent_server_times_out_on_the_real_clock() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let address = listener.local_addr().expect("addr");
        let held = tokio::spawn(async move {
            let accepted = listener.accept().await;
            futures::future::pending::<()>().await;
            drop(accepted);
        });
        let io = SystemIo::new().expect("client");
        let error = crate::fetch::http_body(
            &io,
            &crate::trace::Silent,
            get(format!("http://{address}/")),
            Duration::from_millis(200),
        )
        .await
        .expect_err("times out");
        assert_eq!(error.to_string(), "timed out after 200ms");
        held.abort();
    }

    #[tokio::test]
    async fn a_header_that_cannot_be_sent_is_named_as_such() {
        let io = SystemIo::new().expect("client");
        let error = io
            .http(HttpRequest {
                method: "GET".into(),
                url: "http://127.0.0.1:9/".into(),
                headers: vec![("X-Bad".into(), "line\nbreak".into())],
                body: None,
            })
            .await
            .expect_err("not sendable");
        assert_eq!(
            error.to_string(),
            "the request cannot be built: the value of header `X-Bad` holds a line break or another control character"
        );
    }
}
