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

/// Runs `sources completions SHELL`: writes the script that registers `sources` with the shell's
/// completion. The script asks this binary (by its path) for the candidates of each word
/// (`crate::completion`), so rule codes and the configuration's entry names complete as they are.
pub fn completions(args: &CompletionArgs, out: &mut dyn Write) -> io::Result<Outcome> {
    let shells = clap_complete::env::Shells::builtins();
    let name = args.shell.to_string();
    let Some(shell) = shells.completer(&name) else {
        return Err(io::Error::other(format!("no completion for {name}")));
    };
    let program = std::env::current_exe()
        .map(|path| path.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "sources".to_owned());
    shell.write_registration("COMPLETE", "sources", "sources", &program, out)?;
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
    let page = match &args.subcommand {
        None => grammar,
        Some(name) => {
            let Some(subcommand) = grammar.find_subcommand(name) else {
                let names: Vec<&str> = grammar.get_subcommands().map(|c| c.get_name()).collect();
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
                .version(env!("CARGO_PKG_VERSION"))
        }
    };
    let man = clap_mangen::Man::new(page)
        .source(format!("sources {}", env!("CARGO_PKG_VERSION")))
        .manual("sources manual");
    // clap_mangen's sections, with ours before the version: the pieces it renders in `render`.
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    if args.subcommand.is_none() {
        man.render_subcommands_section(out)?;
    }
    for (title, items) in SECTIONS {
        write_section(out, title, items)?;
    }
    man.render_version_section(out)?;
    Ok(Outcome::Success)
}

/// The sections every page has besides clap_mangen's: each a title and its tagged paragraphs.
const SECTIONS: &[(&str, &[(&str, &str)])] = &[
    (
        "EXIT STATUS",
        &[
            (
                "0",
                "Success: lint found no error (warnings allowed unless --deny-warnings); try fetched every entry asked for.",
            ),
            (
                "1",
                "lint found an error, or a warning with --deny-warnings; try could not fetch an entry; --diff has changes to show.",
            ),
            (
                "2",
                "A usage error, an unknown rule code or field path, a configuration file that cannot be found, or a path that cannot be read or written (one line on standard error names it).",
            ),
        ],
    ),
    (
        "ENVIRONMENT",
        &[
            (
                "SOURCES_CONFIG",
                "The configuration file try, list and graph read when -c is not given.",
            ),
            (
                "SOURCES_SAFE_DIRECTORIES",
                "Directories (separated by : as in PATH) in which try runs a configuration it found by searching up even when another user owns it: each absolute path allows that directory and those below it, * allows all.",
            ),
            (
                "NO_COLOR",
                "Set to anything but empty: no colour on a terminal.",
            ),
            (
                "FORCE_COLOR, CLICOLOR_FORCE",
                "Set to anything but empty or 0: colour even off a terminal.",
            ),
            (
                "COLUMNS",
                "The width the human format wraps at (default 100).",
            ),
            (
                "SOURCES_DEMO_API",
                "With --demo, the base URL of a running demo backend to send the demo address's requests to, instead of the in-process one.",
            ),
            (
                "SOURCES_DEMO_SEED",
                "The seed of the in-process demo world (--demo and sources demo).",
            ),
            (
                "SOURCES_DEMO_FROZEN",
                "Set to anything but empty or 0: the in-process demo world's clock stays at its opening instant.",
            ),
        ],
    ),
    (
        "FILES",
        &[
            (
                "sources.yaml, sources.yml, sources.toml",
                "The configuration try, list and graph read without -c or SOURCES_CONFIG: the first found in the current directory, then in each parent.",
            ),
            (
                "sources-lint.toml, .sources-lint.toml",
                "Lint settings (rule levels, included and excluded files), found walking up from each file linted, or named with --settings.",
            ),
            (
                ".sources/samples/",
                "Beside a configuration: the samples try --record writes, which lint and the editor check references into an entry's data against.",
            ),
        ],
    ),
];

/// Writes one roff section of tagged paragraphs.
fn write_section(out: &mut dyn Write, title: &str, items: &[(&str, &str)]) -> io::Result<()> {
    writeln!(out, ".SH \"{}\"", roff_text(title))?;
    for (tag, text) in items {
        writeln!(out, ".TP\n\\fB{}\\fR\n{}", roff_text(tag), roff_text(text))?;
    }
    Ok(())
}

/// `text` escaped for roff: backslashes and hyphens, and a leading dot or quote kept as text.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}
