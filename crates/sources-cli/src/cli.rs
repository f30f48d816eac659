//! The command-line grammar: the top-level [`Cli`] and its [`Command`]s.
//!
//! Each subcommand's arguments live in that subcommand's module.

use clap::{Parser, Subcommand};

use crate::terminal::ColorWhen;
use crate::{demo, explain, graph, lint, list, lsp, rules, schema, shell, r#try};

/// Tools for the `data.sources` block of a terminal-UI configuration file (YAML or TOML).
#[derive(Debug, Parser)]
#[command(name = "sources", version, propagate_version = true)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
    /// When to colour: `auto` colours a terminal unless `NO_COLOR` is set, and anywhere when
    /// `FORCE_COLOR` or `CLICOLOR_FORCE` is (not `0`).
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t)]
    pub color: ColorWhen,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check configuration files and report every problem in their `data.sources` block.
    Lint(lint::Args),
    /// Print the explanation of a rule: what it finds, why, an example and the fix.
    Explain(explain::Args),
    /// List every rule with its code, default severity and summary.
    Rules(rules::Args),
    /// Print the JSON Schema (draft 2020-12) of a configuration file, for YAML and TOML tools.
    Schema(schema::Args),
    /// Really fetch one entry of `data.sources` and print what the dashboard would receive.
    Try(r#try::Args),
    /// List the entries of `data.sources`: kind, cadence, inputs and whether they need parameters.
    List(list::Args),
    /// Draw the lineage of the entries: what reads what, which components show which entries,
    /// which cursors feed which parameters (DOT, Mermaid or JSON).
    Graph(graph::Args),
    /// Run the language server (for editors) over standard input and output.
    Lsp(lsp::Args),
    /// Serve the demo backend (a test fixture with no authentication: never deploy it) on a
    /// loopback address, the playground `sources try --demo` talks to with SOURCES_DEMO_API.
    ///
    /// Filtering GET /apps: q=region:eu-west-1 and region=eu-west-1 are the same filter, the
    /// column's whole value ignoring case; bare words in q are substrings of id, name or region,
    /// and a word with a colon whose key is not a column is searched as text.
    Demo(demo::Args),
    /// Print a completion script for a shell (bash, zsh, fish, powershell or elvish).
    ///
    /// bash: `sources completions bash > ~/.local/share/bash-completion/completions/sources`;
    /// zsh: into a directory of `$fpath` as `_sources`; fish: into
    /// `~/.config/fish/completions/sources.fish`.
    Completions(shell::CompletionArgs),
    /// Print the manual page (roff): `sources man > ~/.local/share/man/man1/sources.1`, or read it
    /// at once with `sources man | man -l -`; `sources man lint` prints `sources-lint(1)`.
    Man(shell::ManArgs),
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    #[test]
    fn the_grammar_is_consistent() {
        Cli::command().debug_assert();
    }
}
