//! The real [`Io`]: reqwest (rustls) for HTTP, tokio processes and files, tokio-tungstenite for
//! websockets, and tokio's clock.

mod error;
mod http;
mod read;

use std::process::Stdio;
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use sources_check::request;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::error::CapacityError;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};

use self::error::{chain, is_dns_failure, refused};
pub use self::http::MAX_REDIRECTS;
use self::read::{chunks, read_capped, read_tail};
use crate::io::{
    BoxFuture, CommandOutput, CommandSpec, DEFAULT_MAX_BODY, FrameStream, HttpRequest,
    HttpResponse, Io, IoError, LineStream, STDERR_TAIL, WebSocketRequest, tail,
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

/// How much of a process's stderr is kept while it runs (only the end is ever shown).
const STDERR_KEEP: usize = 16 * 1024;

fn spawn_error(program: &str, error: &std::io::Error) -> IoError {
    if error.kind() == std::io::ErrorKind::NotFound {
        IoError::CommandNotFound {
            program: program.to_owned(),
        }
    } else {
        IoError::Spawn {
            program: program.to_owned(),
            detail: error.to_string(),
        }
    }
}

/// A started command with its output pipes taken: the program's name (for messages), the child,
/// its stdout and its stderr.
struct Spawned {
    program: String,
    child: tokio::process::Child,
    stdout: tokio::process::ChildStdout,
    stderr: tokio::process::ChildStderr,
}

/// Starts `spec` with stdin closed and stdout and stderr piped; the child is killed when dropped.
fn spawn(spec: &CommandSpec) -> Result<Spawned, IoError> {
    let Some((program, args)) = spec.argv.split_first() else {
        return Err(IoError::Spawn {
            program: String::new(),
            detail: "the command is empty".to_owned(),
        });
    };
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .envs(spec.env.iter().map(|(name, value)| (name, value)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|error| spawn_error(program, &error))?;
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(IoError::Spawn {
            program: program.clone(),
            detail: "its output could not be captured".to_owned(),
        });
    };
    Ok(Spawned {
        program: program.clone(),
        child,
        stdout,
        stderr,
    })
}

impl Io for SystemIo {
    fn http(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, IoError>> {
        Box::pin(http::send(&self.client, request))
    }

    fn run(&self, spec: CommandSpec) -> BoxFuture<'_, Result<CommandOutput, IoError>> {
        Box::pin(async move {
            let Spawned {
                program,
                mut child,
                stdout,
                stderr,
            } = spawn(&spec)?;
            let stderr = tokio::spawn(read_tail(stderr, STDERR_KEEP));
            let stdout = read_capped(stdout, self.max_body).await;
            let stdout = match stdout {
                Ok(Some(stdout)) => stdout,
                Ok(None) => {
                    stderr.abort();
                    return Err(IoError::TooLarge {
                        what: format!("the output of `{program}`"),
                        limit: self.max_body,
                    });
                }
                Err(error) => {
                    stderr.abort();
                    return Err(IoError::Transport(format!(
                        "reading the output of `{program}`: {error}"
                    )));
                }
            };
            let status = child
                .wait()
                .await
                .map_err(|error| spawn_error(&program, &error))?;
            Ok(CommandOutput {
                code: status.code(),
                stdout,
                stderr: stderr.await.unwrap_or_default(),
            })
        })
    }

    fn follow(&self, spec: CommandSpec) -> BoxFuture<'_, Result<LineStream, IoError>> {
        Box::pin(async move {
            let Spawned {
                child,
                stdout,
                stderr,
                ..
            } = spawn(&spec)?;
            // A read error only shortens what an exit error shows.
            let stderr_task = tokio::spawn(read_tail(stderr, STDERR_KEEP));
            let lines = crate::fetch::lines(chunks(stdout), self.max_body);
            let state = (Some(lines), Some(child), Some(stderr_task));
            let stream = futures::stream::unfold(state, |(lines, child, stderr)| async move {
                let mut lines = lines?;
                match lines.next().await {
                    Some(Ok(line)) => Some((Ok(line), (Some(lines), child, stderr))),
                    None => {
                        let mut child = child?;
                        let status = child.wait().await;
                        let stderr = match stderr {
                            Some(task) => task.await.unwrap_or_default(),
                            None => Vec::new(),
                        };
                        match status {
                            Ok(status) if status.success() => None,
                            Ok(status) => Some((
                                Err(IoError::Exit {
                                    code: status.code(),
                                    stderr: tail(&stderr, STDERR_TAIL),
                                }),
                                (None, None, None),
                            )),
                            Err(error) => Some((
                                Err(IoError::Transport(error.to_string())),
                                (None, None, None),
                            )),
                        }
                    }
                    Some(Err(error)) => Some((Err(error), (None, None, None))),
                }
            });
            Ok(stream.boxed())
        })
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

    fn spec(argv: &[&str]) -> CommandSpec {
        CommandSpec {
            argv: argv.iter().map(|arg| (*arg).to_owned()).collect(),
            env: vec![("SOURCES_TRY_TEST".into(), "from-env".into())],
        }
    }

    #[tokio::test]
    async fn runs_argv_without_a_shell_with_added_env() {
        let io = SystemIo::new().expect("client");
        let output = io
            .run(spec(&[
                "sh",
                "-c",
                "printf '%s|%s' \"$SOURCES_TRY_TEST\" \"$1\"",
                "sh",
                "$HOME; x",
            ]))
            .await
            .expect("runs");
        assert_eq!(output.code, Some(0));
        assert_eq!(String::from_utf8_lossy(&output.stdout), "from-env|$HOME; x");
    }

    #[tokio::test]
    async fn a_missing_program_is_named() {
        let io = SystemIo::new().expect("client");
        let error = io
            .run(spec(&["sources-no-such-command-xyz"]))
            .await
            .expect_err("not found");
        assert_eq!(
            error.to_string(),
            "command `sources-no-such-command-xyz` not found"
        );
    }

    #[tokio::test]
    async fn followed_output_ends_with_the_exit_error() {
        let io = SystemIo::new().expect("client");
        let lines: Vec<Result<String, IoError>> = io
            .follow(spec(&[
                "sh",
                "-c",
                "echo one; echo two; echo bad >&2; exit 4",
            ]))
            .await
            .expect("starts")
            .collect()
            .await;
        assert_eq!(lines[0].as_deref().ok(), Some("one"));
        assert_eq!(lines[1].as_deref().ok(), Some("two"));
        assert_eq!(
            lines[2].as_ref().expect_err("exit").to_string(),
            "exited with status 4: bad"
        );
        assert_eq!(lines.len(), 3);
    }

    #[tokio::test]
    async fn a_command_past_its_timeout_is_killed() {
        let io = SystemIo::new().expect("client");
        let pid_file =
            std::env::temp_dir().join(format!("sources-eval-kill-{}.pid", std::process::id()));
        let script = format!("echo $$ > {}; exec sleep 30", pid_file.display());
        let run = crate::fetch::run(
            &io,
            &crate::trace::Silent,
            spec(&["sh", "-c", &script]),
            Duration::from_millis(300),
        );
        let error = run.await.expect_err("times out");
        assert_eq!(error.to_string(), "timed out after 300ms");
        let pid = std::fs::read_to_string(&pid_file).expect("the script wrote its pid");
        let _ = std::fs::remove_file(&pid_file);
        let stat = format!("/proc/{}/stat", pid.trim());
        let mut gone = false;
        for _ in 0..100 {
            let state = std::fs::read_to_string(&stat).ok();
            // Gone, or a zombie waiting to be reaped: either way no longer running.
            if state.as_deref().is_none_or(|stat| stat.contains(") Z")) {
                gone = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(gone, "the process is still running after the timeout");
    }

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
