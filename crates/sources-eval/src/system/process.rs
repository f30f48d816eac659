//! Commands as tokio processes: started without a shell, stdin closed, killed when dropped; run to
//! the end with their output capped, or followed line by line until their exit.

use std::process::Stdio;

use futures::StreamExt;

use super::read::{chunks, read_capped, read_tail};
use crate::io::{CommandOutput, CommandSpec, IoError, LineStream, STDERR_TAIL, tail};

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

/// Runs `spec` to its end: its exit code, its stdout (more than `max_body` bytes is an error) and
/// the end of its stderr.
pub(super) async fn run(spec: CommandSpec, max_body: usize) -> Result<CommandOutput, IoError> {
    let Spawned {
        program,
        mut child,
        stdout,
        stderr,
    } = spawn(&spec)?;
    let stderr = tokio::spawn(read_tail(stderr, STDERR_KEEP));
    let stdout = read_capped(stdout, max_body).await;
    let stdout = match stdout {
        Ok(Some(stdout)) => stdout,
        Ok(None) => {
            stderr.abort();
            return Err(IoError::TooLarge {
                what: format!("the output of `{program}`"),
                limit: max_body,
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
}

/// Starts `spec` and yields its stdout's lines (each up to `max_body` bytes), then an error if it
/// exits with a failure.
pub(super) async fn follow(spec: CommandSpec, max_body: usize) -> Result<LineStream, IoError> {
    let Spawned {
        child,
        stdout,
        stderr,
        ..
    } = spawn(&spec)?;
    // A read error only shortens what an exit error shows.
    let stderr_task = tokio::spawn(read_tail(stderr, STDERR_KEEP));
    let lines = crate::fetch::lines(chunks(stdout), max_body);
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
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use futures::StreamExt;

    use crate::io::{CommandSpec, Io, IoError};
    use crate::system::SystemIo;

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
}
