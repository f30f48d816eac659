//! The two outputs of `sources try`, `list` and `graph`: standard output and standard error, each
//! behind a [`Redacting`] writer that hides the run's secret values ([`Redactor`]: every form of
//! each value, none shorter than its minimum length). The subcommands get an [`Outputs`] and
//! nothing else to print with (their modules deny `println!`/`eprintln!`), so every line they
//! write — a value, an event, an error, a warning, a `--verbose` line, the final error the binary
//! prints — passes through the same redaction, and a new kind of line cannot miss it.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use sources_eval::trace::{Redactor, escape_controls};

/// Held text past this many bytes is passed on up to its last line end, so a long output is not
/// kept whole until its flush.
const HELD_AT_MOST: usize = 64 * 1024;

/// The secret values both outputs hide: none until a run knows them, then the run's.
#[derive(Clone, Debug, Default)]
pub struct Secrets(Arc<RwLock<Arc<Redactor>>>);

impl Secrets {
    /// Hides `redactor`'s secrets in everything written from now on.
    pub fn hide(&self, redactor: Redactor) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(redactor);
    }

    /// `text` with the secrets known so far redacted.
    pub fn redact(&self, text: &str) -> String {
        self.current().redact(text)
    }

    /// The secrets known so far.
    fn current(&self) -> Arc<Redactor> {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// A writer that holds what it is given until a flush and passes it on with the secrets redacted:
/// a secret written in pieces is still found whole. Past [`HELD_AT_MOST`] it passes on what it
/// holds up to the last line end, or, in a line longer than that, up to where no secret can be cut
/// ([`Redactor::safe_cut`]), so what it holds stays bounded.
pub struct Redacting<W: Write> {
    inner: W,
    secrets: Secrets,
    held: Vec<u8>,
}

impl<W: Write> Redacting<W> {
    /// `inner` behind the redaction of `secrets`.
    pub fn new(inner: W, secrets: Secrets) -> Redacting<W> {
        Redacting {
            inner,
            secrets,
            held: Vec::new(),
        }
    }

    /// Passes on the first `end` bytes held, redacted.
    fn pass_on(&mut self, end: usize) -> io::Result<()> {
        let text = String::from_utf8_lossy(&self.held[..end]);
        let shown = self.secrets.redact(&text);
        self.held.drain(..end);
        self.inner.write_all(shown.as_bytes())
    }
}

impl<W: Write> Write for Redacting<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.held.extend_from_slice(bytes);
        if self.held.len() > HELD_AT_MOST {
            let end = self
                .held
                .iter()
                .rposition(|byte| *byte == b'\n')
                .map_or(self.held.len(), |last| last + 1);
            let end = self.secrets.current().safe_cut(&self.held, end);
            if end > 0 {
                self.pass_on(end)?;
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.pass_on(self.held.len())?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for Redacting<W> {
    fn drop(&mut self) {
        // What is still held when the output goes away is passed on (a failure then has no one to
        // tell).
        let _ = self.flush();
    }
}

/// Standard error, shared by the threads that report on it.
#[derive(Clone)]
pub struct Stderr(Arc<Mutex<Redacting<Box<dyn Write + Send>>>>);

impl Stderr {
    /// Writes `line` and a line end, control characters escaped ([`escape_controls`]) and secrets
    /// redacted. A failure to write to standard error has no one to tell, so it is not returned.
    pub fn line(&self, line: &str) {
        let mut err = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = writeln!(err, "{}", escape_controls(line));
        let _ = err.flush();
    }

    /// Runs `write` on standard error as it is (a coloured report keeps its colours), secrets
    /// redacted.
    pub fn with<R>(&self, write: impl FnOnce(&mut dyn Write) -> io::Result<R>) -> io::Result<R> {
        let mut err = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let written = write(&mut *err)?;
        err.flush()?;
        Ok(written)
    }
}

/// A subcommand's standard output and standard error, both behind the same [`Secrets`].
pub struct Outputs {
    /// Standard output.
    pub out: Redacting<Box<dyn Write>>,
    /// Standard error.
    pub err: Stderr,
    secrets: Secrets,
}

impl Outputs {
    /// `out` and `err` behind one set of secrets (none until [`Outputs::hide`]).
    pub fn new(out: Box<dyn Write>, err: Box<dyn Write + Send>) -> Outputs {
        let secrets = Secrets::default();
        Outputs {
            out: Redacting::new(out, secrets.clone()),
            err: Stderr(Arc::new(Mutex::new(Redacting::new(err, secrets.clone())))),
            secrets,
        }
    }

    /// Hides `redactor`'s secrets in both outputs from now on.
    pub fn hide(&self, redactor: Redactor) {
        self.secrets.hide(redactor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose text the test reads afterwards.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap_or_else(PoisonError::into_inner))
                .into_owned()
        }
    }

    fn outputs() -> (Outputs, Shared, Shared) {
        let (out, err) = (Shared::default(), Shared::default());
        let outputs = Outputs::new(Box::new(out.clone()), Box::new(err.clone()));
        (outputs, out, err)
    }

    #[test]
    fn both_outputs_hide_the_secrets_known_when_they_are_flushed() {
        let (mut outputs, out, err) = outputs();
        outputs.err.line("before the run: hunter22");
        outputs.hide(Redactor::new(["hunter22".to_owned(), "abc".to_owned()]));
        // Written in pieces, found whole; a value shorter than the minimum is left alone.
        write!(outputs.out, "{{\"token\": \"hun").expect("held");
        writeln!(outputs.out, "ter22\", \"abc\": 1}}").expect("held");
        assert_eq!(out.text(), "", "nothing passes before the flush");
        outputs.out.flush().expect("flushed");
        assert_eq!(out.text(), "{\"token\": \"[redacted]\", \"abc\": 1}\n");
        outputs
            .err
            .line("sources: warning: hunter22 said \u{1b}[2Kno");
        assert_eq!(
            err.text(),
            "before the run: hunter22\nsources: warning: [redacted] said \\x1b[2Kno\n"
        );
        outputs
            .err
            .with(|raw| raw.write_all(b"\x1b[31mhunter22\x1b[0m\n"))
            .expect("written");
        assert!(err.text().ends_with("\x1b[31m[redacted]\x1b[0m\n"));
    }

    #[test]
    fn a_long_output_is_passed_on_by_lines_before_its_flush_and_the_rest_on_drop() {
        let (mut outputs, out, _) = outputs();
        outputs.hide(Redactor::new(["sekrit-1".to_owned()]));
        let line = "row sekrit-1\n".repeat(HELD_AT_MOST / 8);
        outputs.out.write_all(line.as_bytes()).expect("written");
        outputs.out.write_all(b"tail sekrit-1").expect("held");
        let passed = out.text();
        assert!(passed.ends_with("row [redacted]\n"), "passed on by lines");
        assert!(!passed.contains("sekrit-1"));
        drop(outputs);
        assert!(out.text().ends_with("row [redacted]\ntail [redacted]"));
    }

    #[test]
    fn a_line_longer_than_the_hold_is_passed_on_without_cutting_a_secret() {
        let (mut outputs, out, _) = outputs();
        outputs.hide(Redactor::new(["sekrit-1".to_owned()]));
        // One line of 4 HELD_AT_MOST bytes, written in 7-byte pieces so that pieces end inside
        // the secrets, with no line end: held whole before, it is now passed on as it comes.
        let line = "é sekrit-1 ".repeat(HELD_AT_MOST * 4 / 13);
        for piece in line.as_bytes().chunks(7) {
            outputs.out.write_all(piece).expect("written");
            assert!(
                outputs.out.held.len() <= HELD_AT_MOST + 7,
                "held stays bounded"
            );
        }
        assert!(
            out.text().len() > HELD_AT_MOST * 2,
            "passed on before the flush"
        );
        drop(outputs);
        let shown = out.text();
        assert!(
            !shown.contains("sekrit") && !shown.contains('\u{fffd}'),
            "no secret cut, no character split"
        );
        assert_eq!(shown, line.replace("sekrit-1", "[redacted]"));
    }
}
