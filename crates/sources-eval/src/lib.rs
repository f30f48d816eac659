//! The `try` engine: fetches one entry of `data.sources` as the dashboard would and returns what it
//! would receive.
//!
//! Every file, process, network and clock access goes through the [`io::Io`] seam; the linter and
//! the language server never hold one.

pub mod cache;
pub mod catalog;
pub mod decode;
pub mod demo;
pub mod engine;
#[cfg(test)]
mod engine_tests;
pub mod error;
pub mod expr;
pub mod fetch;
pub mod io;
pub mod merge;
pub mod operators;
pub mod paginate;
pub mod params;
pub mod path;
pub mod substitute;
pub mod system;
#[cfg(test)]
mod testing;
pub mod trace;
pub mod window;

use std::time::Duration;

/// A duration as a short human string (`1.5s`, `250ms`, `2m`).
pub fn format_duration(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis == 0 {
        return "0s".to_owned();
    }
    if millis.is_multiple_of(60_000) {
        return format!("{}m", millis / 60_000);
    }
    if millis.is_multiple_of(1000) {
        return format!("{}s", millis / 1000);
    }
    if millis < 1000 {
        return format!("{millis}ms");
    }
    format!("{}s", duration.as_secs_f64())
}
