//! The `sources` binary: parses the command line and dispatches to a subcommand.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use sources_cli::cli::{Cli, Command};
use sources_cli::{EXIT_USAGE_OR_IO, Outcome, demo, explain, lint, list, lsp, rules, schema};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(outcome) => outcome.exit_code(),
        Err(error) if closed_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("sources: {error:#}");
            ExitCode::from(EXIT_USAGE_OR_IO)
        }
    }
}

/// Runs one subcommand.
fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Lint(args) => report(|out| Ok(lint::run(&args, out)?)),
        Command::Explain(args) => report(|out| Ok(explain::run(&args, out)?)),
        Command::Rules(args) => report(|out| Ok(rules::run(&args, out)?)),
        Command::Schema(args) => report(|out| Ok(schema::run(&args, out)?)),
        Command::Try(args) => report(|out| Ok(sources_cli::r#try::run(&args, out)?)),
        Command::List(args) => report(|out| Ok(list::run(&args, out)?)),
        Command::Graph(args) => report(|out| Ok(sources_cli::graph::run(&args, out)?)),
        // The language server writes the protocol to standard output itself, so no lock is held.
        Command::Lsp(args) => Ok(lsp::run(&args)?),
        Command::Demo(args) => Ok(demo::run(&args)?),
    }
}

/// Runs a subcommand that writes its report to (buffered, locked) standard output.
fn report(
    subcommand: impl FnOnce(&mut dyn Write) -> anyhow::Result<Outcome>,
) -> anyhow::Result<Outcome> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let outcome = subcommand(&mut out)?;
    match out.flush() {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(outcome),
        flushed => Ok(flushed.map(|()| outcome)?),
    }
}

/// Whether the run stopped because the reader of standard output went away (`sources lint | head`),
/// which is not a failure worth reporting.
fn closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
