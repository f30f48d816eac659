//! The I/O world of one run, built in one place for every front end (`sources try`, the editor's
//! "▶ try"): the real world, or with the demo the demo backend in front of it. The demo backend is
//! linked only with this crate's `demo` feature (which the `sources` program enables); without it,
//! asking for the demo is an error saying so.

use std::sync::Arc;

use sources_config::{Body, Source};

use crate::io::{Io, IoError};
use crate::params::Example;
use crate::system::SystemIo;

/// What a run reaches the outside world through.
pub struct World {
    /// The I/O seam the engine uses.
    pub io: Arc<dyn Io>,
    /// The demo backend, when the demo was asked for (for parameter values it answers).
    #[cfg(feature = "demo")]
    demo: Option<Arc<crate::demo::DemoIo>>,
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

    /// Whether the demo backend is in front of the real world.
    pub fn is_demo(&self) -> bool {
        #[cfg(feature = "demo")]
        return self.demo.is_some();
        #[cfg(not(feature = "demo"))]
        false
    }

    /// What the demo backend in front of the real world serves, and from where; `None` in the
    /// real world.
    pub fn describe(&self) -> Option<String> {
        #[cfg(feature = "demo")]
        if let Some(demo) = &self.demo {
            return Some(demo.describe());
        }
        None
    }

    /// A value for the parameter `name` of `source` that the demo world answers, read from the
    /// collection its URL names; `None` in the real world or when the demo has none.
    pub async fn example(&self, source: &Source, name: &str) -> Option<Example> {
        let url = match &source.body {
            Body::Http(http) => http.url.as_ref(),
            Body::Websocket(socket) => socket.url.as_ref(),
            _ => None,
        }?;
        self.example_at(&url.value.text, name).await
    }

    #[cfg(feature = "demo")]
    async fn example_at(&self, url: &str, name: &str) -> Option<Example> {
        self.demo.as_ref()?.example(url, name).await
    }

    #[cfg(not(feature = "demo"))]
    async fn example_at(&self, _url: &str, _name: &str) -> Option<Example> {
        None
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
