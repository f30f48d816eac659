//! The I/O world of one run, built in one place for every front end (`sources try`, the editor's
//! "▶ try"): the real world, or with the demo the demo backend in front of it. The demo backend is
//! linked only with this crate's `demo` feature (which the `sources` program enables); without it,
//! asking for the demo is an error saying so.

use std::sync::Arc;

use crate::io::{Io, IoError};
use crate::system::SystemIo;

/// What a run reaches the outside world through.
pub struct World {
    /// The I/O seam the engine uses.
    pub io: Arc<dyn Io>,
    /// The demo backend, when the demo was asked for (for parameter values it answers).
    #[cfg(feature = "demo")]
    pub demo: Option<Arc<crate::demo::DemoIo>>,
}

/// Why a world could not be built.
#[derive(Debug, thiserror::Error)]
pub enum WorldError {
    /// The HTTP client could not be set up.
    #[error("cannot set up HTTP: {0}")]
    Http(IoError),
    /// The demo backend could not be set up (a bad `SOURCES_DEMO_SEED` or `SOURCES_DEMO_API`).
    #[error("demo backend: {0}")]
    Demo(IoError),
    /// The demo was asked for from a build without the demo backend.
    #[error(
        "this build has no demo backend (sources-eval's `demo` feature is off); use the `sources` \
         program, which has it"
    )]
    NoDemo,
}

impl World {
    /// The real world, each response body capped at `max_body` bytes, with the demo backend in
    /// front of it when `demo` is set. Call it inside a Tokio runtime: the in-process demo backend
    /// starts its world there.
    pub fn new(demo: bool, max_body: usize) -> Result<World, WorldError> {
        let system = SystemIo::new().map_err(WorldError::Http)?;
        let system: Arc<dyn Io> = Arc::new(system.with_max_body(max_body));
        if !demo {
            return Ok(World {
                io: system,
                #[cfg(feature = "demo")]
                demo: None,
            });
        }
        World::with_demo(system)
    }

    #[cfg(feature = "demo")]
    fn with_demo(system: Arc<dyn Io>) -> Result<World, WorldError> {
        let demo = Arc::new(crate::demo::DemoIo::new(system).map_err(WorldError::Demo)?);
        Ok(World {
            io: demo.clone(),
            demo: Some(demo),
        })
    }

    #[cfg(not(feature = "demo"))]
    fn with_demo(_system: Arc<dyn Io>) -> Result<World, WorldError> {
        Err(WorldError::NoDemo)
    }
}

#[cfg(all(test, not(feature = "demo")))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_demo_is_refused_by_a_build_without_it() {
        let refused = World::new(true, 1024).err().map(|error| error.to_string());
        assert_eq!(
            refused.as_deref(),
            Some(
                "this build has no demo backend (sources-eval's `demo` feature is off); use the \
                 `sources` program, which has it"
            )
        );
        assert!(
            World::new(false, 1024).is_ok(),
            "the real world needs no feature"
        );
    }
}
