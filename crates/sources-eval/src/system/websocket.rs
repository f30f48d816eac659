//! Websockets over tokio-tungstenite: the upgrade with the configured headers, the initial
//! messages, then one item per text or binary message, the first error ending the stream.

use futures::{SinkExt, StreamExt};
use sources_check::request;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::error::CapacityError;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};

use super::error::{chain, is_dns_failure, refused};
use crate::io::{FrameStream, IoError, WebSocketRequest};

/// Connects as `request` says and sends its initial messages; a message or frame over `max_body`
/// bytes is an error.
pub(super) async fn connect(
    request: WebSocketRequest,
    max_body: usize,
) -> Result<FrameStream, IoError> {
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
        .max_message_size(Some(max_body))
        .max_frame_size(Some(max_body));
    let (mut socket, _) =
        tokio_tungstenite::connect_async_with_config(upgrade, Some(config), false)
            .await
            .map_err(|error| websocket_error(&request.url, &error))?;
    let limit = max_body;
    for message in request.initial_messages {
        socket
            .send(Message::text(message))
            .await
            .map_err(|error| IoError::WebSocket(chain(&error)))?;
    }
    let frames = socket.filter_map(move |message| async move {
        match message {
            Ok(Message::Text(text)) => Some(Ok(text.as_str().to_owned())),
            Ok(Message::Binary(bytes)) => Some(Ok(String::from_utf8_lossy(&bytes).into_owned())),
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
    use std::time::Duration;

    use futures::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    use crate::io::WebSocketRequest;
    use crate::system::SystemIo;

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
