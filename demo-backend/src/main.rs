//! The `demo-backend` program: the demo service listening on a local address.
//!
//! **A test and demo fixture. Never deploy it.**

use std::process::ExitCode;

use clap::Parser;
use demo_backend::server::ServeArgs;

/// A test and demo HTTP fixture whose applications-and-jobs world moves on the clock.
///
/// THIS IS A FIXTURE: IT HAS NO AUTHENTICATION AND MUST NEVER BE DEPLOYED AS A REAL SERVICE.
/// It listens on a loopback address unless --public is given.
///
/// Filtering GET /apps: q=region:eu-west-1 and region=eu-west-1 are the same filter, the column's
/// whole value ignoring case; bare words in q are substrings of id, name or region, and a word
/// with a colon whose key is not a column is searched as text.
#[derive(Debug, Parser)]
#[command(name = "demo-backend", version, about, long_about)]
struct Args {
    #[command(flatten)]
    serve: ServeArgs,
}

fn main() -> ExitCode {
    match demo_backend::server::run(&Args::parse().serve) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("demo-backend: error: {error}");
            ExitCode::FAILURE
        }
    }
}
