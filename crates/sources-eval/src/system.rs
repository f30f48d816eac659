//! The real [`Io`]: reqwest (rustls) for HTTP, tokio processes and files, tokio-tungstenite for
//! websockets, and tokio's clock.
//!
//! Each kind of access lives in its own module below this one (`http`, `process`, `websocket`);
//! what several of them share sits below them too (`error`, `read`).

mod error;
mod http;
mod process;
mod read;
mod websocket;

use std::time::{Duration, Instant};

use self::error::chain;
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
        Box::pin(websocket::connect(request, self.max_body))
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
