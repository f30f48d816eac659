//! What the shell and `man` read about the command line: completion scripts (`sources completions
//! SHELL`, clap_complete) and the manual page (`sources man`, clap_mangen), both generated from the
//! one grammar (`crate::cli::Cli`, handed in by the binary), so they never drift from it.

use std::io::{self, Write};

use clap_complete::Shell;

use crate::Outcome;

/// Arguments of `sources completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Runs `sources completions SHELL`: writes the shell's completion script for `grammar`.
pub fn completions(
    args: &CompletionArgs,
    mut grammar: clap::Command,
    out: &mut dyn Write,
) -> io::Result<Outcome> {
    clap_complete::generate(args.shell, &mut grammar, "sources", out);
    Ok(Outcome::Success)
}

/// Arguments of `sources man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// A subcommand whose own page to print (`sources-lint(1)` for `lint`); without it, the page
    /// of `sources`, which lists the subcommands.
    pub subcommand: Option<String>,
}

/// Why `sources man` printed no page (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum ManError {
    /// The subcommand named has no page.
    #[error("`{name}` is not a subcommand of `sources`{suggestion}; `sources man` lists them")]
    UnknownSubcommand {
        /// The name given.
        name: String,
        /// " (did you mean `lint`?)" or nothing.
        suggestion: String,
    },
    /// The page could not be written.
    #[error("cannot write the manual page")]
    Write(#[from] io::Error),
}

/// Runs `sources man [SUBCOMMAND]`: writes the manual page of `sources` or of one subcommand
/// (named `sources-NAME`, as the page of `sources` refers to it), in roff, from `grammar`.
pub fn man(
    args: &ManArgs,
    grammar: clap::Command,
    out: &mut dyn Write,
) -> Result<Outcome, ManError> {
    let command = grammar;
    let page = match &args.subcommand {
        None => command,
        Some(name) => {
            let Some(subcommand) = command.find_subcommand(name) else {
                let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                let suggestion = sources_diagnostics::did_you_mean(name, names)
                    .first()
                    .map(|best| format!(" (did you mean `{best}`?)"))
                    .unwrap_or_default();
                return Err(ManError::UnknownSubcommand {
                    name: name.clone(),
                    suggestion,
                });
            };
            subcommand
                .clone()
                .name(format!("sources-{name}"))
                .bin_name(format!("sources {name}"))
        }
    };
    clap_mangen::Man::new(page).render(out)?;
    Ok(Outcome::Success)
}
