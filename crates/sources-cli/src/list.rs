//! `sources list`: one line per entry of `data.sources` — name, kind, cadence, upstream entries and
//! the parameters it needs (`needs --param NAME=…`) or takes with a default. Reads the
//! configuration only: nothing is fetched.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::Outcome;
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

/// Runs `sources list`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<Outcome, Error> {
    let Some((_, analysis)) = analyze_sources(args.file.as_deref().or(args.config.as_deref()))?
    else {
        return Ok(Outcome::Failure);
    };
    let listings = sources_check::catalog::list(&analysis.config, args.all);
    match out.write_all(sources_check::catalog::render(&listings).as_bytes()) {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        written => written.map_err(Error::Write)?,
    }
    Ok(Outcome::Success)
}
