//! The `sources` binary: parses the command line and dispatches to a subcommand.

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use sources_cli::cli::{Cli, Command};
use sources_cli::outputs::Outputs;
use sources_cli::{
    EXIT_USAGE_OR_IO, Outcome, demo, explain, lint, list, lsp, rules, schema, shell,
};

/// mimalloc rather than the system allocator, whose per-thread arenas only grow: with it (and
/// [`ALLOCATOR_OPTIONS`] in the language server) resident memory follows what the open documents
/// need and is given back when they close (measured by `scripts/bench-lsp-memory`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc options for the long-running language server, which mimalloc reads from the
/// environment when the process starts. `PURGE_DELAY=0` gives freed pages back at once: by
/// default they go back a second later and only when the allocating thread runs again, so an idle
/// server kept the memory of a closed document. `ALLOW_THP=0` keeps the kernel from backing the
/// heap with 2 MiB pages that stay resident while mostly free (also off at build time, by the
/// `no_thp` feature, for systems whose kernel only gives huge pages to those who ask).
const ALLOCATOR_OPTIONS: &[(&str, &str)] =
    &[("MIMALLOC_PURGE_DELAY", "0"), ("MIMALLOC_ALLOW_THP", "0")];

fn main() -> ExitCode {
    // `COMPLETE=SHELL sources -- WORDS…`: the shell asking for candidates (the script `sources
    // completions SHELL` writes does); answers and exits.
    clap_complete::CompleteEnv::with_factory(Cli::command).complete();
    let cli = Cli::parse();
    cli.color.apply();
    match cli.command {
        Command::Try(args) => shown(|outputs| Ok(sources_cli::r#try::run(&args, outputs)?)),
        Command::List(args) => shown(|outputs| Ok(list::run(&args, outputs)?)),
        Command::Graph(args) => shown(|outputs| Ok(sources_cli::graph::run(&args, outputs)?)),
        Command::Lint(args) => exit(report(|out| Ok(lint::run(&args, out)?))),
        Command::Explain(args) => exit(report(|out| Ok(explain::run(&args, out)?))),
        Command::Rules(args) => exit(report(|out| Ok(rules::run(&args, out)?))),
        Command::Schema(args) => exit(report(|out| Ok(schema::run(&args, out)?))),
        // The language server writes the protocol to standard output itself, so no lock is held.
        Command::Lsp(args) => {
            with_allocator_options();
            exit(lsp::run(&args).map_err(anyhow::Error::from))
        }
        Command::Demo(args) => exit(demo::run(&args).map_err(anyhow::Error::from)),
        Command::Completions(args) => exit(report(|out| Ok(shell::completions(&args, out)?))),
        Command::Man(args) => exit(report(|out| Ok(shell::man(&args, Cli::command(), out)?))),
    }
}

/// The exit code of a subcommand that wrote to standard output and error itself; its error, if
/// any, is said on standard error.
fn exit(ran: anyhow::Result<Outcome>) -> ExitCode {
    match ran {
        Ok(outcome) => outcome.exit_code(),
        Err(error) if closed_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("sources: {error:#}");
            ExitCode::from(EXIT_USAGE_OR_IO)
        }
    }
}

/// Runs a subcommand that prints through [`Outputs`] (buffered standard output, and standard
/// error), its final error included, so the secrets its run hides are hidden there too.
fn shown(subcommand: impl FnOnce(&mut Outputs) -> anyhow::Result<Outcome>) -> ExitCode {
    let stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut outputs = Outputs::new(Box::new(stdout), Box::new(std::io::stderr()));
    let ran =
        subcommand(&mut outputs).and_then(|outcome| Ok(outputs.out.flush().map(|()| outcome)?));
    match ran {
        Ok(outcome) => outcome.exit_code(),
        Err(error) if closed_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            // What was printed comes first, as when the error is said after the output closes.
            let _ = outputs.out.flush();
            outputs.err.line(&format!("sources: {error:#}"));
            ExitCode::from(EXIT_USAGE_OR_IO)
        }
    }
}

/// Starts this program again, in place, with those of [`ALLOCATOR_OPTIONS`] that are not set in
/// its environment (a value the user set wins). Where that is not possible the server runs with
/// mimalloc's defaults.
fn with_allocator_options() {
    let missing: Vec<(&str, &str)> = ALLOCATOR_OPTIONS
        .iter()
        .copied()
        .filter(|(name, _)| std::env::var_os(name).is_none())
        .collect();
    if missing.is_empty() {
        return;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let Ok(program) = std::env::current_exe() else {
            return;
        };
        let error = std::process::Command::new(program)
            .args(std::env::args_os().skip(1))
            .envs(missing)
            .exec();
        eprintln!("sources: running with the allocator's default options ({error})");
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
