//! The `try` engine: fetches one entry of `data.sources` as the dashboard would and returns what it
//! would receive.
//!
//! Every file, process, network and clock access goes through the [`io::Io`] seam; the linter and
//! the language server never hold one.

pub mod cache;
pub mod decode;
#[cfg(feature = "demo")]
pub mod demo;
pub mod engine;
#[cfg(test)]
mod engine_tests;
pub mod error;
pub mod expr;
pub mod fetch;
pub mod files;
pub mod io;
pub mod merge;
pub mod operators;
pub mod origin;
pub mod paginate;
pub mod params;
pub mod run;
pub mod samples;
pub mod snapshot;
pub mod stack;
pub use sources_config::json_path as path;
pub mod substitute;
pub mod system;
#[cfg(test)]
mod system_tls_tests;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod trace;
pub mod window;
pub mod window_flags;
pub mod world;

pub use sources_config::duration::format_duration;
