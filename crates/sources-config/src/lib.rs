//! The typed model of the `data.sources` block (being written).

pub mod template;

/// The decoded configuration.
#[derive(Clone, Debug, Default)]
pub struct Config {}
