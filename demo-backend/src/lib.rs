//! A test and demo fixture: an HTTP service whose world moves on a clock.
//!
//! **This is a fixture. Never deploy it as a real service.** It has no authentication, and the
//! standalone program refuses to listen on anything but a loopback address unless `--public` is
//! given.
//!
//! # The world
//!
//! Applications (`app-0001`…, 5,000 by default) are generated from the seed; jobs run against them.
//! The world advances on the clock, not on requests: every request first advances the world to
//! the clock's time, applying due events (job ends, scheduled work) in timestamp order, so a job
//! started at T finishes at T plus its duration however often anyone reads, and one big step gives
//! the same world as many small ones. The same seed and clock give byte-identical responses.
//!
//! Job durations: a sync runs 4s, a failing sync (`?failing=1`) 1.5s, a quick sync (`?quick=1`)
//! 0.5s; a refresh is finished when answered. `rev` changes when, and only when, a job completes;
//! a failed sync leaves the app `OutOfSync` with phase `Failed`.
//!
//! **Scheduled work and the drift rule.** Every Schedule interval (6s by default, counted from when
//! the service was built), scheduled event `n` draws from a generator seeded by the seed and `n`
//! alone. It picks one of the first 8 applications and, if that one has no job running, starts a
//! sync on it (one in 5 of them a failing sync). Then it picks 2 applications among the rest
//! (uniformly, repeats allowed) and marks each one with no job running `OutOfSync`. Drift changes
//! neither `rev` nor `phase`, since no job completed. The world remembers running jobs and the
//! last 256 finished ones, and the last 10 operations of each application, so memory stays flat
//! however long it runs.
//!
//! # Seed, start and history
//!
//! [`Options::default`] is a fresh world seeded from the clock. [`Options::playground`] is what
//! `sources try --demo`, `sources demo` and the `demo-backend` program serve: seed
//! [`options::DEFAULT_SEED`] unless [`options::SEED_ENV`] or `--seed` say otherwise (`0` or `random`
//! for a clock seed), and a world that has already lived [`options::PLAYGROUND_HISTORY`]: finished,
//! failed and running jobs with logs, events of the running automation job, new search documents.
//! In-process the clock opens at [`options::PLAYGROUND_START`] and moves on in real time, so the
//! same command prints the same rows on every machine. The history is lived under the rules below
//! plus a simulated client's commands ([`world::history`]).
//!
//! # Per-request controls
//!
//! Every route of the service, including the automation and search corners and unknown routes,
//! honours `latency=<duration>` (Go-style, such as `250ms` or `1.5s`; waits on the world clock,
//! only this request; at most [`controls::MAX_LATENCY`]), `fail=<status>` (answers that error
//! status with an error body; a redirect status answers with a `Location` to the same request
//! without `fail`) and
//! `flaky=<fraction>` (fails that fraction of requests with 503; which ones is decided by the seed
//! and the order of flaky requests). The `latency` option is a floor added to every request. A
//! malformed control is a 400 naming it (a `fail` status that is neither an error nor a redirect
//! counts as malformed). Every error has the body `{"error": "…"}`.
//!
//! # Embedding
//!
//! [`app`] builds the router from [`Options`]; [`Client`] calls it in-process with no socket and
//! streams chunked bodies as they are produced, or talks to a running server over the network:
//!
//! ```
//! # async fn demo() -> Result<(), demo_backend::ClientError> {
//! use demo_backend::{Client, Options};
//! let client = Client::from_env(Options::default())?; // SOURCES_DEMO_API unset: in-process
//! let response = client.get("/apps?q=checkout&sort=name&limit=10").await?;
//! let page = response.into_body().text().await?;
//! # let _ = page; Ok(()) }
//! ```
//!
//! See the crate's README for the endpoints, the decisions behind them and the benchmark figures.

pub mod api;
pub mod automation;
pub mod client;
pub mod clock;
pub mod controls;
pub mod duration;
pub mod error;
pub mod hosts;
pub mod joblog;
pub mod listener;
pub mod listing;
pub mod options;
pub mod params;
pub mod parse_errors;
pub mod search;
pub mod server;
pub mod world;

use std::sync::Arc;

use axum::Router;
use clock::{Clock, Millis};

pub use client::{Client, ClientBody, ClientError, DEMO_API_ENV};
pub use options::Options;

/// What every corner of the world is built from: the shared clock, the seed and the build time.
#[derive(Clone, Debug)]
pub struct CornerContext {
    /// The clock the world advances on.
    pub clock: Arc<dyn Clock>,
    /// The resolved seed (never 0: a 0 option is replaced by one taken from the clock).
    pub seed: u64,
    /// When the service was built (its history before the clock's time when it was opened); the
    /// running automation job and the search index count from it.
    pub built_at: Millis,
}

/// A handle on a built service: its context and its applications-and-jobs world.
#[derive(Clone, Debug)]
pub struct Handle {
    world: api::SharedWorld,
}

impl Handle {
    /// The clock, seed and build time every corner shares.
    pub fn context(&self) -> &CornerContext {
        self.world.context()
    }

    /// Ids that exist in the world now (a running job, a failed one, an application with history),
    /// for suggesting parameter values that work: `needs --param job=…; for example
    /// --param job=job-000017, a running job`.
    pub fn examples(&self) -> world::history::Examples {
        self.with_world(|world| world.examples())
    }

    /// Advances the world to the clock's time and runs `f` on it.
    pub fn with_world<R>(&self, f: impl FnOnce(&mut world::World) -> R) -> R {
        self.world.with(f)
    }
}

/// Builds the whole service from `options`: the applications-and-jobs routes, the automation and
/// search corners, the per-request controls over all of them, and JSON errors everywhere.
pub fn app(options: Options) -> (Router, Handle) {
    let clock = options.clock();
    let opened_at = clock.now();
    let built_at = opened_at.saturating_sub(options.history_millis());
    let seed = options.resolved_seed(opened_at);
    let ctx = CornerContext {
        clock: clock.clone(),
        seed,
        built_at,
    };
    let schedule = options
        .resolved_schedule()
        .as_millis()
        .min(i64::MAX as u128) as Millis;
    let mut world = world::World::new(world::WorldConfig {
        seed,
        apps: options.resolved_apps(),
        schedule,
        start: built_at,
    });
    world.live_until(opened_at);
    let shared = api::SharedWorld::new(ctx.clone(), world);
    let controls = controls::ControlState::new(clock, options.latency, seed);
    let router = api::router(shared.clone())
        .merge(automation::router(ctx.clone()))
        .merge(search::router(ctx))
        .layer(axum::middleware::from_fn_with_state(
            controls,
            controls::apply_controls,
        ))
        .layer(axum::middleware::from_fn(controls::json_errors))
        .layer(axum::middleware::from_fn(controls::request_limits));
    (router, Handle { world: shared })
}
