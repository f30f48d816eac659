//! A scripted [`Io`] for unit tests: canned replies, a record of every request, and a clock that
//! jumps forward instead of sleeping.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;

use crate::io::{
    BoxFuture, CommandOutput, CommandSpec, FrameStream, HttpRequest, HttpResponse, Io, IoError,
    LineStream, WebSocketRequest,
};

/// What the fake answers to one HTTP request.
pub enum Reply {
    /// A status and a body sent in these chunks.
    Body(u16, Vec<String>),
    /// A transport failure.
    Fail(IoError),
    /// Never answers.
    Hang,
}

impl Reply {
    /// A 200 with this JSON body.
    pub fn json(value: serde_json::Value) -> Reply {
        Reply::Body(200, vec![value.to_string()])
    }
}

type HttpHandler = Box<dyn Fn(&HttpRequest) -> Reply + Send + Sync>;
type RunHandler = Box<dyn Fn(&CommandSpec) -> Result<CommandOutput, IoError> + Send + Sync>;
type WsHandler = Box<dyn Fn(&WebSocketRequest) -> Result<Vec<String>, IoError> + Send + Sync>;

/// The scripted seam.
#[derive(Default)]
pub struct FakeIo {
    env: BTreeMap<String, String>,
    env_fallback: Option<String>,
    http: Option<HttpHandler>,
    run: Option<RunHandler>,
    websocket: Option<WsHandler>,
    /// Files by path; tests may change them between fetches.
    pub files: Mutex<BTreeMap<String, Vec<u8>>>,
    /// Every HTTP request made, in order.
    pub requests: Mutex<Vec<HttpRequest>>,
    /// Every command run or followed, in order.
    pub commands: Mutex<Vec<CommandSpec>>,
    /// Every websocket opened, in order.
    pub sockets: Mutex<Vec<WebSocketRequest>>,
    clock: Arc<Mutex<Duration>>,
    real_sleep: bool,
}

impl FakeIo {
    /// A seam that fails every operation it has not been given a script for.
    pub fn new() -> FakeIo {
        FakeIo::default()
    }

    /// Sleeps on tokio's clock instead of jumping (for tests that also talk to a real server).
    pub fn with_real_sleep(mut self) -> FakeIo {
        self.real_sleep = true;
        self
    }

    /// Sets an environment variable.
    pub fn with_env(mut self, name: &str, value: &str) -> FakeIo {
        self.env.insert(name.to_owned(), value.to_owned());
        self
    }

    /// Gives every variable not set by [`FakeIo::with_env`] this value.
    pub fn with_every_env(mut self, value: &str) -> FakeIo {
        self.env_fallback = Some(value.to_owned());
        self
    }

    /// Answers HTTP requests with `handler`.
    pub fn with_http(
        mut self,
        handler: impl Fn(&HttpRequest) -> Reply + Send + Sync + 'static,
    ) -> FakeIo {
        self.http = Some(Box::new(handler));
        self
    }

    /// Answers commands with `handler`.
    pub fn with_run(
        mut self,
        handler: impl Fn(&CommandSpec) -> Result<CommandOutput, IoError> + Send + Sync + 'static,
    ) -> FakeIo {
        self.run = Some(Box::new(handler));
        self
    }

    /// Answers websockets with the frames `handler` returns.
    pub fn with_websocket(
        mut self,
        handler: impl Fn(&WebSocketRequest) -> Result<Vec<String>, IoError> + Send + Sync + 'static,
    ) -> FakeIo {
        self.websocket = Some(Box::new(handler));
        self
    }

    /// Adds a file.
    pub fn with_file(self, path: &str, contents: &str) -> FakeIo {
        self.set_file(path, contents);
        self
    }

    /// Replaces a file's contents.
    pub fn set_file(&self, path: &str, contents: &str) {
        lock(&self.files).insert(path.to_owned(), contents.as_bytes().to_vec());
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        *lock(&self.clock) += by;
    }

    /// The HTTP requests made so far.
    pub fn http_log(&self) -> Vec<HttpRequest> {
        lock(&self.requests).clone()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn output_lines(output: CommandOutput) -> Vec<Result<String, IoError>> {
    let mut lines: Vec<Result<String, IoError>> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| Ok(line.to_owned()))
        .collect();
    if output.code != Some(0) {
        lines.push(Err(IoError::Exit {
            code: output.code,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }));
    }
    lines
}

impl Io for FakeIo {
    fn http(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, IoError>> {
        lock(&self.requests).push(request.clone());
        let reply = match &self.http {
            Some(handler) => handler(&request),
            None => Reply::Fail(IoError::Transport("no HTTP script".into())),
        };
        Box::pin(async move {
            match reply {
                Reply::Body(status, chunks) => Ok(HttpResponse {
                    status,
                    body: futures::stream::iter(chunks.into_iter().map(|c| Ok(Bytes::from(c))))
                        .boxed(),
                    redirects: Vec::new(),
                }),
                Reply::Fail(error) => Err(error),
                Reply::Hang => futures::future::pending().await,
            }
        })
    }

    fn run(&self, command: CommandSpec) -> BoxFuture<'_, Result<CommandOutput, IoError>> {
        lock(&self.commands).push(command.clone());
        let result = match &self.run {
            Some(handler) => handler(&command),
            None => Err(IoError::CommandNotFound {
                program: command.argv.first().cloned().unwrap_or_default(),
            }),
        };
        Box::pin(async move { result })
    }

    fn follow(&self, command: CommandSpec) -> BoxFuture<'_, Result<LineStream, IoError>> {
        let run = self.run(command);
        Box::pin(async move {
            let output = run.await?;
            Ok(futures::stream::iter(output_lines(output)).boxed())
        })
    }

    fn read_file(&self, path: String) -> BoxFuture<'_, Result<Vec<u8>, IoError>> {
        let result = lock(&self.files).get(&path).cloned().ok_or(IoError::File {
            path,
            detail: "No such file or directory (os error 2)".into(),
        });
        Box::pin(async move { result })
    }

    fn websocket(&self, request: WebSocketRequest) -> BoxFuture<'_, Result<FrameStream, IoError>> {
        lock(&self.sockets).push(request.clone());
        let result = match &self.websocket {
            Some(handler) => handler(&request),
            None => Err(IoError::WebSocket("no websocket script".into())),
        };
        Box::pin(async move {
            let frames = result?;
            Ok(futures::stream::iter(frames.into_iter().map(Ok)).boxed())
        })
    }

    fn env_var(&self, name: &str) -> Option<String> {
        self.env
            .get(name)
            .cloned()
            .or_else(|| self.env_fallback.clone())
    }

    fn now(&self) -> Duration {
        *lock(&self.clock)
    }

    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        if self.real_sleep {
            return Box::pin(tokio::time::sleep(duration));
        }
        let clock = Arc::clone(&self.clock);
        Box::pin(async move {
            *lock(&clock) += duration;
        })
    }
}
