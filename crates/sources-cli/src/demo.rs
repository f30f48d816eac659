//! `sources demo`: the demo backend's server, the same one the `demo-backend` program runs, so
//! installing the CLI gives the whole playground.

use crate::Outcome;

/// The arguments of `sources demo`: those of the `demo-backend` program.
pub type Args = demo_backend::server::ServeArgs;

/// Serves the demo backend until SIGINT or SIGTERM.
pub fn run(args: &Args) -> Result<Outcome, demo_backend::server::ServeError> {
    demo_backend::server::run(args)?;
    Ok(Outcome::Success)
}
