//! `sources lsp`: the language server for editors, over standard input and output.
//!
//! The server is `sources-lsp`; this module hands it the process's standard streams. Standard
//! output carries the protocol, so nothing else may write to it (or hold its lock) meanwhile.

use crate::Outcome;

/// Arguments of `sources lsp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Accepted for clients that pass it: standard input and output are the only transport.
    #[arg(long)]
    pub stdio: bool,
}

/// Runs the language server until the client sends `exit`.
pub fn run(_: &Args) -> std::io::Result<Outcome> {
    sources_lsp::run_stdio()?;
    Ok(Outcome::Success)
}
