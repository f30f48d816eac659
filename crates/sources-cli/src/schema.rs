//! `sources schema`: prints the JSON Schema (draft 2020-12) of a configuration file, generated from
//! the typed model (`sources_config::schema`). `schema/sources.schema.json` is this output.

use std::io::{self, Write};

use crate::Outcome;

/// Arguments of `sources schema`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `sources schema`.
pub fn run(_args: &Args, out: &mut dyn Write) -> io::Result<Outcome> {
    out.write_all(sources_config::schema::document_schema_text().as_bytes())?;
    Ok(Outcome::Success)
}
