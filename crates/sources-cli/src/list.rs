//! `sources list`: one line per entry of `data.sources` — name, kind, cadence, upstream entries and
//! the parameters it needs (`needs --param NAME=…`) or takes with a default. Reads the
//! configuration only: nothing is fetched. Printed through [`Outputs`], which hides the secret
//! values a run of the file would hide.

#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

use sources_eval::trace::Redactor;

use crate::Outcome;
use crate::outputs::Outputs;
use crate::r#try::{Error, analyze_sources};

/// Arguments of `sources list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The configuration file, as `-c` names it.
    #[arg(value_name = "FILE", conflicts_with = "config")]
    pub file: Option<PathBuf>,
    /// The configuration file [default: $SOURCES_CONFIG, else the nearest sources.yaml,
    /// sources.yml or sources.toml in this directory or a parent].
    #[arg(short = 'c', long = "config", value_name = "CONFIG")]
    pub config: Option<PathBuf>,
    /// Also list entries whose names start with `_`.
    #[arg(short = 'a', long = "all")]
    pub all: bool,
}

/// Runs `sources list`, printing through `outputs`.
pub fn run(args: &Args, outputs: &mut Outputs) -> Result<Outcome, Error> {
    let explicit = args.file.as_deref().or(args.config.as_deref());
    let Some((loaded, analysis)) = analyze_sources(explicit, &outputs.err)? else {
        return Ok(Outcome::Failure);
    };
    outputs.hide(Redactor::for_run(
        &analysis.config,
        &loaded.text,
        &BTreeMap::new(),
        |name| std::env::var(name).ok(),
    ));
    let listings = sources_check::catalog::list(&analysis.config, args.all);
    match outputs
        .out
        .write_all(sources_check::catalog::render(&listings).as_bytes())
    {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        written => written.map_err(Error::Write)?,
    }
    Ok(Outcome::Success)
}
