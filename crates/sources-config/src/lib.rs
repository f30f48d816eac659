//! The typed model of the `data.sources` block (being written).

/// The decoded configuration.
#[derive(Clone, Debug, Default)]
pub struct Config {}
