//! A client for the service: in-process (the router called directly, no socket) or over the
//! network to a running server, chosen by `SOURCES_DEMO_API`.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::Router;
use bytes::Bytes;
use futures::Stream;
use http::{HeaderValue, Method, Request, Response, Uri, header};
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt;
use http_body_util::combinators::UnsyncBoxBody;
use hyper_util::rt::TokioIo;
use tower::ServiceExt;

use crate::Options;

/// The environment variable naming a running server's base URL (such as `http://127.0.0.1:8099`).
pub const DEMO_API_ENV: &str = "SOURCES_DEMO_API";

/// Why a request through a [`Client`] failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The base URL is not an `http://host[:port][/prefix]` URL.
    #[error("invalid demo API base URL {url:?}: {reason}")]
    InvalidBaseUrl {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The request could not be built (a malformed path).
    #[error("invalid request: {0}")]
    InvalidRequest(#[from] http::Error),
    /// The server could not be reached.
    #[error("cannot connect to the demo API at {address}: {source}")]
    Connect {
        /// The `host:port` dialled.
        address: String,
        /// The connection error.
        source: std::io::Error,
    },
    /// The HTTP exchange failed.
    #[error("HTTP error talking to the demo API: {0}")]
    Http(#[from] hyper::Error),
    /// The response body failed while being read.
    #[error("reading the response body failed: {0}")]
    Body(String),
}

/// A response body that yields chunks as the service produces them.
pub struct ClientBody(UnsyncBoxBody<Bytes, ClientError>);

impl std::fmt::Debug for ClientBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClientBody")
    }
}

impl ClientBody {
    /// The next chunk of data, or `None` at the end of the body.
    pub async fn next_chunk(&mut self) -> Option<Result<Bytes, ClientError>> {
        loop {
            match self.0.frame().await? {
                Ok(frame) => {
                    if let Ok(data) = frame.into_data() {
                        return Some(Ok(data));
                    }
                }
                Err(error) => return Some(Err(error)),
            }
        }
    }

    /// The whole body.
    pub async fn bytes(self) -> Result<Bytes, ClientError> {
        Ok(self.0.collect().await?.to_bytes())
    }

    /// The whole body as text (invalid UTF-8 replaced).
    pub async fn text(self) -> Result<String, ClientError> {
        Ok(String::from_utf8_lossy(&self.bytes().await?).into_owned())
    }

    /// The body as a stream of chunks.
    pub fn into_stream(self) -> impl Stream<Item = Result<Bytes, ClientError>> + Send {
        futures::stream::unfold(self, |mut body| async move {
            body.next_chunk().await.map(|chunk| (chunk, body))
        })
    }
}

impl Body for ClientBody {
    type Data = Bytes;
    type Error = ClientError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, ClientError>>> {
        Pin::new(&mut self.0).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.0.size_hint()
    }
}

#[derive(Clone, Debug)]
enum Transport {
    InProcess(Router),
    Network(NetworkTarget),
}

#[derive(Clone, Debug)]
struct NetworkTarget {
    base_url: String,
    address: String,
    host: HeaderValue,
    prefix: String,
}

/// A client of the service: in-process or over the network. Cloning is cheap.
#[derive(Clone, Debug)]
pub struct Client {
    transport: Transport,
    handle: Option<crate::Handle>,
}

impl Client {
    /// Builds the service from `options` and calls it in-process, with no socket.
    pub fn in_process(options: Options) -> Client {
        let (router, handle) = crate::app(options);
        Client {
            transport: Transport::InProcess(router),
            handle: Some(handle),
        }
    }

    /// Calls an already built router in-process.
    pub fn from_router(router: Router) -> Client {
        Client {
            transport: Transport::InProcess(router),
            handle: None,
        }
    }

    /// Talks to a running server at `base_url` (`http://host[:port][/prefix]`).
    pub fn network(base_url: &str) -> Result<Client, ClientError> {
        let invalid = |reason: &str| ClientError::InvalidBaseUrl {
            url: base_url.to_owned(),
            reason: reason.to_owned(),
        };
        let uri: Uri = base_url.trim().parse().map_err(|_| invalid("not a URL"))?;
        if uri.scheme_str() != Some("http") {
            return Err(invalid("only http:// is supported"));
        }
        let authority = uri.authority().ok_or_else(|| invalid("no host"))?;
        if uri.query().is_some() {
            return Err(invalid("a base URL has no query"));
        }
        let address = format!(
            "{}:{}",
            authority.host(),
            authority.port_u16().unwrap_or(80)
        );
        let host = HeaderValue::from_str(authority.as_str()).map_err(|_| invalid("bad host"))?;
        let prefix = uri.path().trim_end_matches('/').to_owned();
        Ok(Client {
            transport: Transport::Network(NetworkTarget {
                base_url: base_url.trim().to_owned(),
                address,
                host,
                prefix,
            }),
            handle: None,
        })
    }

    /// Reads [`DEMO_API_ENV`]: unset or empty builds the service in-process from `options`; set,
    /// talks to that base URL over the network and ignores `options`.
    pub fn from_env(options: Options) -> Result<Client, ClientError> {
        Client::from_setting(std::env::var(DEMO_API_ENV).ok().as_deref(), options)
    }

    /// [`Client::from_env`] with the variable's value given: `None` or empty is in-process.
    pub fn from_setting(setting: Option<&str>, options: Options) -> Result<Client, ClientError> {
        match setting.map(str::trim).filter(|value| !value.is_empty()) {
            None => Ok(Client::in_process(options)),
            Some(base_url) => Client::network(base_url),
        }
    }

    /// Whether this client talks to a live server over the network (rather than in-process).
    pub fn is_live(&self) -> bool {
        matches!(self.transport, Transport::Network(_))
    }

    /// The base URL of a live server; `None` in-process.
    pub fn base_url(&self) -> Option<&str> {
        match &self.transport {
            Transport::Network(target) => Some(&target.base_url),
            Transport::InProcess(_) => None,
        }
    }

    /// The in-process service's handle (clock, seed, world), when [`Client::in_process`] built it.
    pub fn handle(&self) -> Option<&crate::Handle> {
        self.handle.as_ref()
    }

    /// Sends `request`. Only the path and query of its URI are used: in-process they go to the
    /// router; over the network they are joined to the base URL. The body streams as produced.
    pub async fn send(&self, request: Request<Bytes>) -> Result<Response<ClientBody>, ClientError> {
        match &self.transport {
            Transport::InProcess(router) => {
                let request = request.map(axum::body::Body::from);
                let response = match router.clone().oneshot(request).await {
                    Ok(response) => response,
                    Err(never) => match never {},
                };
                Ok(response.map(|body| {
                    ClientBody(
                        body.map_err(|e| ClientError::Body(e.to_string()))
                            .boxed_unsync(),
                    )
                }))
            }
            Transport::Network(target) => send_over_network(target, request).await,
        }
    }

    /// `GET path_and_query` with an empty body.
    pub async fn get(&self, path_and_query: &str) -> Result<Response<ClientBody>, ClientError> {
        self.send(
            Request::builder()
                .method(Method::GET)
                .uri(path_and_query)
                .body(Bytes::new())?,
        )
        .await
    }

    /// `POST path_and_query` with an empty body.
    pub async fn post(&self, path_and_query: &str) -> Result<Response<ClientBody>, ClientError> {
        self.send(
            Request::builder()
                .method(Method::POST)
                .uri(path_and_query)
                .body(Bytes::new())?,
        )
        .await
    }
}

async fn send_over_network(
    target: &NetworkTarget,
    request: Request<Bytes>,
) -> Result<Response<ClientBody>, ClientError> {
    let (mut parts, body) = request.into_parts();
    let path_and_query = parts.uri.path_and_query().map_or("/", |pq| pq.as_str());
    parts.uri = format!("{}{}", target.prefix, path_and_query)
        .parse::<Uri>()
        .map_err(http::Error::from)?;
    parts.headers.insert(header::HOST, target.host.clone());
    let stream = tokio::net::TcpStream::connect(&target.address)
        .await
        .map_err(|source| ClientError::Connect {
            address: target.address.clone(),
            source,
        })?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    let body = http_body_util::Full::new(body).map_err(|never: Infallible| match never {});
    let response = sender
        .send_request(Request::from_parts(parts, body))
        .await?;
    Ok(response.map(|body| ClientBody(body.map_err(ClientError::from).boxed_unsync())))
}
