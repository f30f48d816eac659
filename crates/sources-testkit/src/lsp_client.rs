//! A client of the real `sources lsp` process over its standard input and output, for the
//! command line's protocol tests and the fuzzer's comparison with `lint`: one way of starting the
//! server, framing what is sent, reading what it writes and waiting (bounded) for a message.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::lsp_frame::{frame, read_message};

/// How long the client waits for any one message it expects, and for the server to exit.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// What becomes of the server's standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stderr {
    /// Kept, line by line, for [`LspClient::finish`] to return.
    Kept,
    /// Discarded (a long run that never reads it).
    Discarded,
}

/// A running language server and the messages it wrote, parsed.
pub struct LspClient {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Each message the server wrote, or why its output could not be read as messages.
    messages: Receiver<Result<Value, String>>,
    /// Messages received while waiting for another one, in arrival order: a later wait may want
    /// them (a publication can overtake the response the test waited for first).
    backlog: RefCell<VecDeque<Value>>,
    stderr: Option<Receiver<String>>,
}

impl LspClient {
    /// Starts `command` (a `sources lsp` command line) with its standard input and output piped.
    pub fn start(mut command: Command, stderr: Stderr) -> io::Result<LspClient> {
        command.stdin(Stdio::piped()).stdout(Stdio::piped());
        command.stderr(match stderr {
            Stderr::Kept => Stdio::piped(),
            Stderr::Discarded => Stdio::null(),
        });
        let mut child = command.spawn()?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("the server's output is not piped"))?;
        let (sender, messages) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let message = match read_message(&mut reader) {
                    Ok(Some(message)) => Ok(message),
                    Ok(None) => return,
                    Err(error) => Err(format!("the server wrote a broken frame: {error}")),
                };
                let broken = message.is_err();
                if sender.send(message).is_err() || broken {
                    return;
                }
            }
        });
        let stderr = child.stderr.take().map(|stderr| {
            let (sender, lines) = mpsc::channel();
            thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    if sender.send(line).is_err() {
                        return;
                    }
                }
            });
            lines
        });
        Ok(LspClient {
            stdin: child.stdin.take(),
            child,
            messages,
            backlog: RefCell::default(),
            stderr,
        })
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's standard input, until [`LspClient::finish`] closes it.
    pub fn stdin(&self) -> Option<&ChildStdin> {
        self.stdin.as_ref()
    }

    /// Writes `bytes` as they are (a broken frame, or many frames at once).
    pub fn send_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::other("the server's input is closed"))?;
        stdin.write_all(bytes)?;
        stdin.flush()
    }

    /// Writes one message, framed.
    pub fn send(&mut self, message: &Value) -> io::Result<()> {
        self.send_raw(&frame(&message.to_string()))
    }

    /// Sends the request `method` with the id `id`.
    pub fn request(&mut self, id: i64, method: &str, params: Value) -> io::Result<()> {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
    }

    /// Sends the notification `method`.
    pub fn notify(&mut self, method: &str, params: Value) -> io::Result<()> {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }))
    }

    /// The next message the server wrote (the oldest kept one first), waiting until `deadline`.
    pub fn next(&self, deadline: Instant) -> io::Result<Value> {
        if let Some(kept) = self.backlog.borrow_mut().pop_front() {
            return Ok(kept);
        }
        self.receive(deadline)
    }

    fn receive(&self, deadline: Instant) -> io::Result<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(Ok(message)) => Ok(message),
            Ok(Err(broken)) => Err(io::Error::new(io::ErrorKind::InvalidData, broken)),
            Err(RecvTimeoutError::Timeout) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the server sent nothing in time",
            )),
            Err(RecvTimeoutError::Disconnected) => Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the server closed its output (it exited)",
            )),
        }
    }

    /// The first message that satisfies `wanted`, within [`PATIENCE`]. Messages skipped on the way
    /// are kept for later waits (a publication can overtake the response waited for first),
    /// except that a notification drops the earlier ones of its method: what follows a
    /// publication stays what followed it.
    pub fn wait_for(&self, wanted: impl Fn(&Value) -> bool) -> io::Result<Value> {
        let mut backlog = self.backlog.borrow_mut();
        let (message, at) = match backlog.iter().position(&wanted) {
            Some(at) => match backlog.remove(at) {
                Some(found) => (found, at),
                None => return Err(io::Error::other("the backlog lost a message")),
            },
            None => {
                let deadline = Instant::now() + PATIENCE;
                loop {
                    let message = self.receive(deadline)?;
                    if wanted(&message) {
                        break (message, backlog.len());
                    }
                    backlog.push_back(message);
                }
            }
        };
        if let Some(method) = message.get("method") {
            let mut index = 0;
            backlog.retain(|earlier| {
                index += 1;
                index > at || earlier.get("method") != Some(method)
            });
        }
        Ok(message)
    }

    /// Sends `initialize` (id 0) with `capabilities`, waits for its result, sends `initialized`
    /// and returns the result.
    pub fn initialize(&mut self, capabilities: Value) -> io::Result<Value> {
        self.request(
            0,
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": capabilities }),
        )?;
        let answer =
            self.wait_for(|message| message["id"] == 0 && message.get("method").is_none())?;
        self.notify("initialized", json!({}))?;
        Ok(answer["result"].clone())
    }

    /// Every message written from now (the kept ones first) until the server closes its output,
    /// within [`PATIENCE`].
    pub fn rest(&self) -> io::Result<Vec<Value>> {
        let mut written: Vec<Value> = self.backlog.borrow_mut().drain(..).collect();
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self.receive(deadline) {
                Ok(message) => written.push(message),
                Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(written),
                Err(error) => return Err(error),
            }
        }
    }

    /// Closes the server's input and waits (within [`PATIENCE`]) for it to exit: its status and
    /// what it wrote to standard error (empty when discarded).
    pub fn finish(mut self) -> io::Result<(ExitStatus, String)> {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait()? {
                break status;
            }
            if Instant::now() >= deadline {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the server did not exit",
                ));
            }
            thread::sleep(Duration::from_millis(20));
        };
        // The reader may still be passing on the last lines: read until the pipe closes (or the
        // deadline, should a program the server started keep it open).
        let mut stderr = Vec::new();
        if let Some(lines) = &self.stderr {
            let left = || deadline.saturating_duration_since(Instant::now());
            while let Ok(line) = lines.recv_timeout(left()) {
                stderr.push(line);
            }
        }
        Ok((status, stderr.join("\n")))
    }
}

impl Drop for LspClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in server: `sh` writing two framed messages, the second after reading a line.
    fn echoing() -> LspClient {
        let first = String::from_utf8(frame(r#"{"method":"a","params":1}"#)).expect("ASCII");
        let second = String::from_utf8(frame(r#"{"id":0,"result":2}"#)).expect("ASCII");
        let mut command = Command::new("sh");
        command.arg("-c").arg(format!(
            "printf '%s' '{first}'; read line; printf '%s' '{second}'; echo done >&2"
        ));
        LspClient::start(command, Stderr::Kept).expect("sh starts")
    }

    #[test]
    fn a_wait_keeps_what_it_skips_and_the_end_of_output_ends_the_rest() {
        let mut client = echoing();
        client.send_raw(b"go\n").expect("the input is open");
        let answer = client
            .wait_for(|message| message["id"] == 0)
            .expect("the answer");
        assert_eq!(answer["result"], 2);
        let skipped = client
            .wait_for(|message| message["method"] == "a")
            .expect("kept");
        assert_eq!(skipped["params"], 1);
        assert_eq!(client.rest().expect("the output ends"), Vec::<Value>::new());
        let (status, stderr) = client.finish().expect("it exits");
        assert!(status.success());
        assert_eq!(stderr, "done");
    }

    #[test]
    fn a_broken_frame_is_an_error_not_a_hang() {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg("printf 'Content-Length: x\\r\\n\\r\\n'; sleep 5");
        let client = LspClient::start(command, Stderr::Discarded).expect("sh starts");
        let error = client.wait_for(|_| true).expect_err("a broken frame");
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(error.to_string().contains("broken frame"), "{error}");
    }
}
