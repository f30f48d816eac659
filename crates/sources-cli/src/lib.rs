//! The `sources` command line as a library: argument types, one module per subcommand and one per
//! output format.
//!
//! Every check runs in `sources_check::analyze`; this crate only finds files, reads them, calls the
//! analysis and renders what it returns. The binary (`src/main.rs`) parses the arguments and
//! dispatches to a subcommand's `run`.
//!
//! Adding a subcommand: write `src/NAME.rs` with an `Args` struct (clap derive) and
//! `pub fn run(args: &Args, out: &mut dyn Write) -> Result<Outcome, Error>` (or, for one that
//! reads a configuration's entries as `try`, `list` and `graph` do, `outputs: &mut
//! outputs::Outputs`, so that what it prints hides the run's secrets), add a variant to
//! [`cli::Command`], and one match arm in `main.rs`.

pub mod cli;
pub mod completion;
pub mod config_file;
pub mod demo;
pub mod explain;
pub mod explain_field;
pub mod fix;
pub mod graph;
pub mod inputs;
pub mod lint;
pub mod list;
pub mod lsp;
pub mod markdown;
pub mod outputs;
pub mod parallel;
pub mod record;
pub mod render;
pub mod report;
pub mod rules;
pub mod schema;
pub mod selection;
pub mod settings_file;
pub mod shell;
pub mod terminal;
pub mod r#try;

use std::process::ExitCode;

/// How a successful run ended; errors that stop a run (usage, I/O) are exit code 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing to complain about: exit code 0.
    Success,
    /// The run found problems (lint errors, or warnings with `--deny-warnings`): exit code 1.
    Failure,
}

impl Outcome {
    /// The process exit code for this outcome.
    pub fn exit_code(self) -> ExitCode {
        match self {
            Outcome::Success => ExitCode::SUCCESS,
            Outcome::Failure => ExitCode::from(1),
        }
    }
}

/// The exit code for usage and I/O failures.
pub const EXIT_USAGE_OR_IO: u8 = 2;
