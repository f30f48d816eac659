//! The `sources` binary: parses the command line and dispatches to a subcommand.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use sources_cli::cli::{Cli, Command};
use sources_cli::{EXIT_USAGE_OR_IO, Outcome, explain, lint, list, rules, schema};

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

/// Runs one subcommand, writing its report to standard output.
fn run(cli: Cli) -> anyhow::Result<Outcome> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let outcome = match cli.command {
        Command::Lint(args) => lint::run(&args, &mut out)?,
        Command::Explain(args) => explain::run(&args, &mut out)?,
        Command::Rules(args) => rules::run(&args, &mut out)?,
        Command::Schema(args) => schema::run(&args, &mut out)?,
        Command::Try(args) => sources_cli::r#try::run(&args, &mut out)?,
        Command::List(args) => list::run(&args, &mut out)?,
    };
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
