//! The `websocket` leaf: a connection whose frames are the entry's events.

use super::*;

impl<'c> Engine<'c> {
    pub(super) async fn websocket(
        &self,
        name: &str,
        socket: &'c Websocket,
        params: &BTreeMap<String, String>,
    ) -> Result<Output<'_>, EvalError> {
        let fail = |cause: Cause| EvalError::new(name, cause);
        let leaf = &socket.leaf;
        let scope = Scope::new(params, self.io.as_ref());
        let url = scope.render_url(text(socket.url.as_ref()).ok_or_else(|| fail(missing("url")))?);
        let request = WebSocketRequest {
            url,
            headers: headers(socket.headers.as_ref(), &scope),
            initial_messages: socket
                .initial_messages
                .as_ref()
                .map(|messages| {
                    messages
                        .value
                        .iter()
                        .map(|message| scope.render(&message.value.text))
                        .collect()
                })
                .unwrap_or_default(),
        };
        let connect_limit = if is_true(socket.follow.as_ref()) {
            None
        } else {
            Some(timeout_of(leaf))
        };
        let frames = fetch::websocket(
            self.io.as_ref(),
            self.trace.as_ref(),
            request,
            connect_limit,
        )
        .await
        .map_err(fail)?;
        Ok(self.events(name, frames, format_of(leaf), leaf))
    }
}
