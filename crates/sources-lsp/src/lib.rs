//! The language server for the `data.sources` block of YAML and TOML configuration files.
//!
//! An adapter from [`sources_check::analyze`] to the Language Server Protocol, on
//! `tower-lsp-server`. It owns the document store, position encoding, and the conversion of the
//! analysis into diagnostics, hovers, completions, navigation, symbols, quick fixes, semantic
//! tokens and code lenses. It runs no rule of its own. It executes a command, reads a `file`
//! source or touches the network only in the user-run `sources.try` command, through
//! `sources_eval`'s I/O seam.
//!
//! Only this crate knows LSP types. Standard output is the transport, so printing is denied.

#![deny(clippy::print_stdout, clippy::print_stderr)]

mod analysis_thread;
mod code_actions;
mod column_values;
mod completion;
mod context;
mod dashboard_completion;
mod data_completion;
mod describe;
mod diagnostics;
mod document;
mod expression_help;
mod guard;
mod hover;
mod inlay;
mod json;
mod lens;
mod levels;
mod names;
mod position;
mod project;
mod ranges;
mod samples;
mod semantic_tokens;
mod server;
mod settings;
mod suppress;
mod symbols;
mod transport;
mod try_command;
mod workspace;

pub use diagnostics::{RULES_DOCS_URL, rule_docs_url};
pub use server::Server;
pub use tower_lsp_server::{ClientSocket, LspService};

/// How the server behaves; the defaults are what `sources lsp` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The most diagnostics published for one document; past it, one more diagnostic says how
    /// many were left out, so a huge broken file cannot flood the client.
    pub max_published_diagnostics: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_published_diagnostics: 1000,
        }
    }
}

/// Builds the server as a `tower` service and the socket of its messages to the client.
pub fn service(options: Options) -> (LspService<Server>, ClientSocket) {
    LspService::new(|client| Server::new(client, options))
}

/// Serves the protocol over `input` and `output` until the client sends `exit` or the input
/// ends. Malformed frames are answered (or skipped) and logged; they never end the session.
pub async fn serve<I, O>(input: I, output: O, options: Options)
where
    I: tokio::io::AsyncRead + Unpin,
    O: tokio::io::AsyncWrite + Unpin,
{
    transport::serve(input, output, options).await;
}

/// Serves the protocol over standard input and output (what `sources lsp` runs).
pub fn run_stdio() -> std::io::Result<()> {
    widen_input_pipe();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(
        tokio::io::stdin(),
        tokio::io::stdout(),
        Options::default(),
    ));
    Ok(())
}

/// The most a pipe holds that an unprivileged process may ask for (Linux's `pipe-max-size`).
#[cfg(target_os = "linux")]
const INPUT_PIPE_BYTES: usize = 1024 * 1024;

/// Widens the pipe of standard input, when it is one, from 64 KiB to [`INPUT_PIPE_BYTES`]: a
/// client without incremental sync writes a large document whole with each change, which a 64 KiB
/// pipe passes a sixteenth at a time, the client waiting for each read.
fn widen_input_pipe() {
    // Not a pipe, or a size refused: the default stays, which works too.
    #[cfg(target_os = "linux")]
    let _ = rustix::pipe::fcntl_setpipe_size(std::io::stdin(), INPUT_PIPE_BYTES);
}
