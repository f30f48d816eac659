//! Running the workspace's programs from tests: a `sources` command that reads none of the
//! caller's configuration, demo or terminal settings, a command fed its standard input with its
//! output collected or read as text, a free loopback port, and bounded waits for a server's pidfile
//! and for its exit.
//! Every wait polls for at most [`PROCESS_WAIT`]: it waits for a process, never for a clock.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// The longest a test waits for a program to start (its pidfile) or to stop.
pub const PROCESS_WAIT: Duration = Duration::from_secs(20);
/// How often a wait looks again.
const POLL: Duration = Duration::from_millis(20);

/// Runs `command` with `stdin` written to it and returns its output. The program may exit before
/// reading everything (usage errors): a broken pipe is fine then.
///
/// # Panics
/// When the program cannot start.
pub fn run(command: &mut Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().expect("the program finishes")
}

/// Runs `command` with no input and returns its exit code (`-1` when a signal ended it) and its
/// standard output and error as text (invalid UTF-8 replaced).
///
/// # Panics
/// When the program cannot start.
pub fn outcome(command: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("the program runs");
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

/// Standard output or error as text.
///
/// # Panics
/// When it is not UTF-8.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("the output is UTF-8")
}

/// A finished program's standard output as text.
///
/// # Panics
/// When it is not UTF-8.
pub fn stdout(output: &Output) -> String {
    text(&output.stdout)
}

/// A finished program's standard error as text.
///
/// # Panics
/// When it is not UTF-8.
pub fn stderr(output: &Output) -> String {
    text(&output.stderr)
}

/// A command running `program` (a path to `sources`) with `args`, without the environment variables
/// that would point it at another configuration or demo (`SOURCES_CONFIG`, `SOURCES_DEMO_API`,
/// `SOURCES_SAFE_DIRECTORIES`).
pub fn command(program: &str, args: &[&str]) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .env_remove("SOURCES_DEMO_API")
        .env_remove("SOURCES_CONFIG")
        .env_remove("SOURCES_SAFE_DIRECTORIES");
    command
}

/// A [`command`] running in `dir`.
pub fn in_dir(program: &str, dir: &Path, args: &[&str]) -> Command {
    let mut command = command(program, args);
    command.current_dir(dir);
    command
}

/// An [`in_dir`] command also without `NO_COLOR` and `COLUMNS`: with its output piped, what it
/// prints depends on none of the caller's terminal settings.
pub fn piped_in_dir(program: &str, dir: &Path, args: &[&str]) -> Command {
    let mut command = in_dir(program, dir, args);
    command.env_remove("NO_COLOR").env_remove("COLUMNS");
    command
}

/// A port on 127.0.0.1 that was free when asked.
///
/// # Panics
/// When no port can be bound.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}

/// Waits until the file at `path` exists (a server's pidfile) and returns its text.
///
/// # Panics
/// When `child` exits first, or after [`PROCESS_WAIT`].
pub fn wait_for_file(path: &Path, child: &mut Child) -> String {
    let deadline = Instant::now() + PROCESS_WAIT;
    while Instant::now() < deadline {
        if let Ok(text) = std::fs::read_to_string(path) {
            return text;
        }
        let exited = child.try_wait().expect("the program's status");
        assert!(exited.is_none(), "the program exited early: {exited:?}");
        std::thread::sleep(POLL);
    }
    panic!("no file at {} after {PROCESS_WAIT:?}", path.display());
}

/// Waits until `child` exits and returns its status.
///
/// # Panics
/// After [`PROCESS_WAIT`] (the child is killed first).
pub fn wait_for_exit(child: &mut Child) -> ExitStatus {
    let deadline = Instant::now() + PROCESS_WAIT;
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().expect("the program's status") {
            return status;
        }
        std::thread::sleep(POLL);
    }
    let _ = child.kill();
    panic!("the program did not stop within {PROCESS_WAIT:?}");
}

/// Sends the signal `name` (`TERM`, `INT`) to the process `pid` with `kill`.
///
/// # Panics
/// When `kill` fails.
pub fn signal(pid: u32, name: &str) {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(pid.to_string())
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{name} {pid}: {status}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_feeds_standard_input_and_collects_both_outputs() {
        let output = run(
            Command::new("sh").args(["-c", "cat; echo oops >&2; exit 3"]),
            b"hello",
        );
        assert_eq!(output.stdout, b"hello");
        assert_eq!(output.stderr, b"oops\n");
        assert_eq!(output.status.code(), Some(3));
    }

    #[test]
    fn outcome_is_the_code_and_both_outputs_as_text() {
        assert_eq!(
            outcome(Command::new("sh").args(["-c", "printf 'a\\377'; echo b >&2; kill -9 $$"])),
            (-1, "a\u{fffd}".to_owned(), "b\n".to_owned())
        );
    }

    #[test]
    fn stdout_and_stderr_are_each_output_as_text() {
        let output = run(
            Command::new("sh").args(["-c", "printf out; printf err >&2"]),
            b"",
        );
        assert_eq!(
            (stdout(&output), stderr(&output)),
            ("out".into(), "err".into())
        );
    }

    #[test]
    fn commands_leave_out_the_callers_configuration_demo_and_terminal() {
        let command = piped_in_dir("sources", Path::new("/"), &["lint", "."]);
        let removed: Vec<_> = command
            .get_envs()
            .filter(|(_, value)| value.is_none())
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            removed,
            [
                "COLUMNS",
                "NO_COLOR",
                "SOURCES_CONFIG",
                "SOURCES_DEMO_API",
                "SOURCES_SAFE_DIRECTORIES"
            ]
        );
        assert_eq!(command.get_args().collect::<Vec<_>>(), ["lint", "."]);
        assert_eq!(command.get_current_dir(), Some(Path::new("/")));
    }

    #[test]
    fn waits_end_when_the_file_appears_or_the_program_exits() {
        let dir = std::env::temp_dir().join(format!("testkit-process-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let path = dir.join("pid");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "echo 42 > {0}.tmp && mv {0}.tmp {0}; sleep 5",
                path.display()
            ))
            .spawn()
            .expect("sh starts");
        assert_eq!(wait_for_file(&path, &mut child), "42\n");
        signal(child.id(), "TERM");
        assert!(!wait_for_exit(&mut child).success());
        std::fs::remove_dir_all(&dir).expect("cleaned up");
    }
}
