//! The terminal policy of every command: whether a standard stream is a terminal, whether text
//! written somewhere is coloured, and how wide the terminal is.
//!
//! `--color` (and a subcommand's `--no-color`) is held as `colorchoice`'s global choice, which
//! clap's own help and errors follow too. With `auto`, colour is on when `FORCE_COLOR` or
//! `CLICOLOR_FORCE` is set to anything but `0` (or empty); else when the text goes to a terminal,
//! `NO_COLOR` is unset (or empty) and `TERM` is not `dumb`. The rule is the same for standard
//! output and standard error; each stream is asked about itself.

use std::io::{self, IsTerminal};

use colorchoice::ColorChoice;

/// When to colour (`--color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, following `NO_COLOR`, `FORCE_COLOR` and `CLICOLOR_FORCE`.
    #[default]
    Auto,
    /// Always, wherever the text goes.
    Always,
    /// Never.
    Never,
}

impl ColorWhen {
    /// Makes this the choice of the whole process.
    pub fn apply(self) {
        ColorChoice::write_global(match self {
            ColorWhen::Auto => ColorChoice::Auto,
            ColorWhen::Always => ColorChoice::Always,
            ColorWhen::Never => ColorChoice::Never,
        });
    }
}

/// A standard stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

impl Stream {
    /// Whether the stream is a terminal.
    pub fn is_terminal(self) -> bool {
        match self {
            Stream::Stdout => io::stdout().is_terminal(),
            Stream::Stderr => io::stderr().is_terminal(),
        }
    }

    /// Whether text written to the stream is coloured.
    pub fn color(self) -> bool {
        color(self.is_terminal())
    }

    /// The width of the terminal: `COLUMNS` when set to a number, else the stream's own size
    /// when it is a terminal.
    pub fn width(self) -> Option<usize> {
        let columns = std::env::var("COLUMNS")
            .ok()
            .and_then(|columns| columns.trim().parse().ok());
        columns.or_else(|| {
            let term = match self {
                Stream::Stdout => console::Term::stdout(),
                Stream::Stderr => console::Term::stderr(),
            };
            let (_, columns) = term.size_checked()?;
            Some(usize::from(columns))
        })
    }
}

/// Whether to colour text going to a terminal (`to_terminal`) or elsewhere (a pipe, a file).
pub fn color(to_terminal: bool) -> bool {
    match ColorChoice::global() {
        ColorChoice::Always | ColorChoice::AlwaysAnsi => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let set = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
            let forced = ["FORCE_COLOR", "CLICOLOR_FORCE"]
                .iter()
                .any(|name| set(name).is_some_and(|value| value != "0"));
            forced
                || (to_terminal
                    && set("NO_COLOR").is_none()
                    && set("TERM").is_none_or(|term| term != "dumb"))
        }
    }
}

/// `text` as it may be drawn on a terminal: control characters other than the line end and the
/// tab are shown escaped (`\x1b`), as in every line `try` prints, so data never moves the
/// cursor, clears the screen or writes the clipboard.
pub fn printable(text: &str) -> String {
    sources_eval::trace::escape_controls(text).into_owned()
}
