//! The real [`Io`]: reqwest (rustls) for HTTP, tokio processes and files, tokio-tungstenite for
//! websockets, and tokio's clock.

mod error;
mod http;
mod process;
mod read;

use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use sources_check::request;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::error::CapacityError;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};

use self::error::{chain, is_dns_failure, refused};
pub use self::http::MAX_REDIRECTS;
use self::read::read_capped;
use crate::io::{
    BoxFuture, CommandOutput, CommandSpec, DEFAULT_MAX_BODY, FrameStream, HttpRequest,
    HttpResponse, Io, IoError, LineStream, WebSocketRequest,
};

/// The process's real network, processes, files, environment and clock.
#[derive(Clone, Debug)]
pub struct SystemIo {
    client: reqwest::Client,
    origin: Instant,
    max_body: usize,
}

impl SystemIo {
    /// A seam over the real world. Redirects are followed here, not by reqwest (up to
    /// [`MAX_REDIRECTS`], see [`crate::origin`]); no `Referer` is sent; no proxy is read from the
    /// environment.
    pub fn new() -> Result<SystemIo, IoError> {
        SystemIo::with_client(http::client())
    }

    /// The same seam trusting `certificate` besides the usual roots: how a test reaches its own
    /// loopback TLS server. Test builds only: a run never trusts more than the usual roots.
    #[cfg(test)]
    pub(crate) fn trusting(certificate: reqwest::Certificate) -> Result<SystemIo, IoError> {
        SystemIo::with_client(http::client().add_root_certificate(certificate))
    }

    fn with_client(client: reqwest::ClientBuilder) -> Result<SystemIo, IoError> {
        let client = client
            .build()
            .map_err(|error| IoError::Transport(chain(&error)))?;
        Ok(SystemIo {
            client,
            origin: Instant::now(),
            max_body: DEFAULT_MAX_BODY,
        })
    }

    /// The same seam with another size limit for bodies, outputs, files, lines and messages.
    pub fn with_max_body(mut self, max_body: usize) -> SystemIo {
        self.max_body = max_body;
        self
    }
}

impl Io for SystemIo {
    fn http(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, IoError>> {
        Box::pin(http::send(&self.client, request))
    }

    fn run(&self, spec: CommandSpec) -> BoxFuture<'_, Result<CommandOutput, IoError>> {
        Box::pin(process::run(spec, self.max_body))
    }

    fn follow(&self, spec: CommandSpec) -> BoxFuture<'_, Result<LineStream, IoError>> {
        Box::pin(process::follow(spec, self.max_body))
    }

    fn read_file(&self, path: String) -> BoxFuture<'_, Result<Vec<u8>, IoError>> {
        Box::pin(async move {
            let failed = |error: std::io::Error| IoError::File {
                path: path.clone(),
                detail: error.to_string(),
            };
            let file = tokio::fs::File::open(&path).await.map_err(failed)?;
            match read_capped(file, self.max_body).await.map_err(failed)? {
                Some(bytes) => Ok(bytes),
                None => Err(IoError::TooLarge {
                    what: format!("the file `{path}`"),
                    limit: self.max_body,
                }),
            }
        })
    }

    fn websocket(&self, request: WebSocketRequest) -> BoxFuture<'_, Result<FrameStream, IoError>> {
        Box::pin(async move {
            let checked = request::websocket_request(&request.url, &request.headers)
                .map_err(|refusal| refused(&request.url, refusal))?;
            let (checked, ()) = checked.into_parts();
            // The upgrade's own headers (key, version), then the configured ones over them.
            let mut upgrade = checked
                .uri
                .into_client_request()
                .map_err(|error| websocket_error(&request.url, &error))?;
            upgrade.headers_mut().extend(checked.headers);
            let config = WebSocketConfig::default()
                .max_message_size(Some(self.max_body))
                .max_frame_size(Some(self.max_body));
            let (mut socket, _) =
                tokio_tungstenite::connect_async_with_config(upgrade, Some(config), false)
                    .await
                    .map_err(|error| websocket_error(&request.url, &error))?;
            let limit = self.max_body;
            for message in request.initial_messages {
                socket
                    .send(Message::text(message))
                    .await
                    .map_err(|error| IoError::WebSocket(chain(&error)))?;
            }
            let frames = socket.filter_map(move |message| async move {
                match message {
                    Ok(Message::Text(text)) => Some(Ok(text.as_str().to_owned())),
                    Ok(Message::Binary(bytes)) => {
                        Some(Ok(String::from_utf8_lossy(&bytes).into_owned()))
                    }
                    Ok(_) => None,
                    Err(tungstenite::Error::Capacity(CapacityError::MessageTooLong { .. })) => {
                        Some(Err(IoError::TooLarge {
                            what: "a message".to_owned(),
                            limit,
                        }))
                    }
                    Err(error) => Some(Err(IoError::WebSocket(chain(&error)))),
                }
            });
            // A failed socket yields nothing more: the first error ends the stream.
            let frames = frames.scan(false, |failed, frame| {
                let next = (!*failed).then(|| {
                    *failed = frame.is_err();
                    frame
                });
                futures::future::ready(next)
            });
            Ok(frames.boxed())
        })
    }

    fn env_var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }

    fn now(&self) -> Duration {
        self.origin.elapsed()
    }

    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(duration))
    }

    fn max_body(&self) -> usize {
        self.max_body
    }
}

fn websocket_error(url: &str, error: &tokio_tungstenite::tungstenite::Error) -> IoError {
    let detail = chain(error);
    let parsed = url::Url::parse(url).ok();
    let host = parsed
        .as_ref()
        .and_then(|url| url.host_str())
        .unwrap_or_default()
        .to_owned();
    if is_dns_failure(&detail) {
        return IoError::Dns { host };
    }
    if let tokio_tungstenite::tungstenite::Error::Io(io) = error {
        let port = parsed
            .as_ref()
            .and_then(url::Url::port_or_known_default)
            .map(|port| format!(":{port}"))
            .unwrap_or_default();
        return IoError::Connect {
            address: format!("{host}{port}"),
            detail: io.to_string(),
        };
    }
    IoError::WebSocket(detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_websocket_gets_initial_messages_in_order_and_yields_one_event_per_frame() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let address = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            let (stream, _) = listener.accept().await.expect("accept");
            let mut socket = tokio_tungstenite::accept_async(stream)
                .await
                .expect("upgrade");
            let mut received = Vec::new();
            while received.len() < 2 {
                match socket.next().await {
                    Some(Ok(Message::Text(text))) => received.push(text.as_str().to_owned()),
                    _ => return,
                }
            }
            for frame in [
                format!("got {}", received.join(" then ")),
                "second".to_owned(),
            ] {
                if socket.send(Message::text(frame)).await.is_err() {
                    return;
                }
            }
            let _ = socket.close(None).await;
        });
        let io = SystemIo::new().expect("client");
        let frames: Vec<String> = crate::fetch::websocket(
            &io,
            &crate::trace::Silent,
            WebSocketRequest {
                url: format!("ws://{address}/feed"),
                headers: vec![("Authorization".into(), "Bearer x".into())],
                initial_messages: vec!["first".into(), "second".into()],
            },
            Some(Duration::from_secs(5)),
        )
        .await
        .expect("connects")
        .map(|frame| frame.expect("frame"))
        .collect()
        .await;
        assert_eq!(frames, ["got first then second", "second"]);
    }
}
