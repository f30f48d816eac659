//! A test and demo fixture: an HTTP service whose world moves on a clock.
//!
//! **This is a fixture. Never deploy it as a real service.**

pub mod automation;
pub mod clock;
pub mod error;
pub mod search;

use std::sync::Arc;

use clock::{Clock, Millis};

/// What every corner of the world is built from: the shared clock, the seed and the build time.
#[derive(Clone, Debug)]
pub struct CornerContext {
    /// The clock the world advances on.
    pub clock: Arc<dyn Clock>,
    /// The resolved seed (never 0: a 0 option is replaced by one taken from the clock).
    pub seed: u64,
    /// When the service was built; the running automation job and the search index count from it.
    pub built_at: Millis,
}
