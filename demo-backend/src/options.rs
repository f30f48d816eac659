//! The service options of the spec's table: seed, now, apps, latency, schedule.

use std::sync::Arc;
use std::time::Duration;

use crate::clock::{AnchoredClock, Clock, Millis, SystemClock};

/// The playground's seed: what `sources try --demo`, `sources demo` and the `demo-backend` program
/// use unless told otherwise, so the same command prints the same world everywhere.
pub const DEFAULT_SEED: u64 = 2026;

/// The environment variable that changes the playground's seed (a whole number, or `0`/`random`
/// for a seed taken from the clock).
pub const SEED_ENV: &str = "SOURCES_DEMO_SEED";

/// The instant the in-process playground opens at: 2026-03-02T09:00:00Z.
pub const PLAYGROUND_START: Millis = 1_772_442_000_000;

/// How long the playground's world has already been running when it opens: long enough for
/// finished, failed and running jobs, events of the running automation job and new search
/// documents; one second past a scheduled event, so a scheduled sync is running at the start.
pub const PLAYGROUND_HISTORY: Duration = Duration::from_secs(121);

/// Number of applications generated when [`Options::apps`] is 0.
pub const DEFAULT_APPS: usize = 5_000;

/// How often the world starts work nobody asked for when [`Options::schedule`] is zero.
pub const DEFAULT_SCHEDULE: Duration = Duration::from_secs(6);

/// How the service is built. `Options::default()` is the spec's defaults; for every numeric option
/// 0 means the default.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Makes the generated world and its scheduled events reproducible. 0 seeds from the clock.
    pub seed: u64,
    /// The clock the world advances on; `None` is the system clock.
    pub now: Option<Arc<dyn Clock>>,
    /// Number of applications generated. 0 means 5,000.
    pub apps: usize,
    /// Floor added to every request before any per-request `latency`. Zero adds nothing.
    pub latency: Duration,
    /// How often the world starts work nobody asked for. Zero means 6s.
    pub schedule: Duration,
    /// How long the world has already been running when it is built: the service counts as built
    /// that long before the clock's time, and the world lives through it (scheduled work and a
    /// simulated client's commands, see the crate docs). Zero (the default) starts a fresh world.
    pub history: Duration,
}

/// A seed that is neither a whole number nor `random`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid demo seed {0:?}: expected a whole number such as {DEFAULT_SEED}, or 0 or `random` \
     for a seed taken from the clock"
)]
pub struct SeedError(pub String);

/// Parses a seed as given on a command line or in [`SEED_ENV`]: a whole number, with `0` and
/// `random` (any case) meaning a seed taken from the clock (returned as 0).
pub fn parse_seed(text: &str) -> Result<u64, SeedError> {
    let trimmed = text.trim();
    if trimmed.eq_ignore_ascii_case("random") {
        return Ok(0);
    }
    trimmed.parse().map_err(|_| SeedError(text.to_owned()))
}

/// A seed from the wall clock (never 0), for a `random` playground.
pub fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as u64);
    match crate::world::mix(nanos ^ u64::from(std::process::id())) {
        0 => 1,
        seed => seed,
    }
}

impl Options {
    /// Options with the given seed and clock and every other option at its default.
    pub fn seeded(seed: u64, clock: Arc<dyn Clock>) -> Options {
        Options {
            seed,
            now: Some(clock),
            ..Options::default()
        }
    }

    /// The playground: the world `sources try --demo` serves in-process. `seed` as from
    /// [`parse_seed`] (0 picks a seed from the wall clock); the clock opens at [`PLAYGROUND_START`]
    /// and moves on in real time; the world has lived [`PLAYGROUND_HISTORY`] already.
    pub fn playground(seed: u64) -> Options {
        Options {
            seed: if seed == 0 { clock_seed() } else { seed },
            now: Some(Arc::new(AnchoredClock::new(PLAYGROUND_START))),
            history: PLAYGROUND_HISTORY,
            ..Options::default()
        }
    }

    /// The history in milliseconds (the world's resolution), saturating.
    pub fn history_millis(&self) -> Millis {
        self.history.as_millis().min(i64::MAX as u128) as Millis
    }

    /// The clock, with the system clock for `None`.
    pub fn clock(&self) -> Arc<dyn Clock> {
        self.now.clone().unwrap_or_else(|| Arc::new(SystemClock))
    }

    /// The number of applications, with 0 resolved to [`DEFAULT_APPS`].
    pub fn resolved_apps(&self) -> usize {
        if self.apps == 0 {
            DEFAULT_APPS
        } else {
            self.apps
        }
    }

    /// The schedule interval, with zero resolved to [`DEFAULT_SCHEDULE`]. Intervals under a
    /// millisecond (the world's resolution) are raised to one millisecond.
    pub fn resolved_schedule(&self) -> Duration {
        if self.schedule.is_zero() {
            DEFAULT_SCHEDULE
        } else {
            self.schedule.max(Duration::from_millis(1))
        }
    }

    /// The seed, with 0 replaced by one taken from `now` (never 0 itself).
    pub fn resolved_seed(&self, now: crate::clock::Millis) -> u64 {
        if self.seed != 0 {
            return self.seed;
        }
        match crate::world::mix(now as u64) {
            0 => 1,
            seed => seed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_means_the_default() {
        let options = Options::default();
        assert_eq!(options.resolved_apps(), 5_000);
        assert_eq!(options.resolved_schedule(), Duration::from_secs(6));
        assert_ne!(options.resolved_seed(0), 0);
        assert_ne!(options.resolved_seed(1_700_000_000_000), 0);
        let set = Options {
            seed: 7,
            apps: 12,
            schedule: Duration::from_secs(2),
            ..Options::default()
        };
        assert_eq!(
            options.history,
            Duration::ZERO,
            "the library default is a fresh world"
        );
        assert_eq!(
            (
                set.resolved_seed(99),
                set.resolved_apps(),
                set.resolved_schedule()
            ),
            (7, 12, Duration::from_secs(2))
        );
    }
}

#[cfg(test)]
mod seed_tests {
    use super::*;

    #[test]
    fn seeds_parse_as_numbers_or_random() {
        assert_eq!(parse_seed("17"), Ok(17));
        assert_eq!(parse_seed(" 0 "), Ok(0));
        assert_eq!(parse_seed("Random"), Ok(0));
        let error = parse_seed("seven").expect_err("not a number");
        assert_eq!(
            error.to_string(),
            "invalid demo seed \"seven\": expected a whole number such as 2026, or 0 or `random` \
             for a seed taken from the clock"
        );
    }

    #[test]
    fn the_playground_is_fixed_unless_random() {
        let fixed = Options::playground(DEFAULT_SEED);
        assert_eq!(fixed.seed, DEFAULT_SEED);
        assert_eq!(fixed.history, PLAYGROUND_HISTORY);
        let start = fixed.clock().now();
        assert!((PLAYGROUND_START..PLAYGROUND_START + 1_000).contains(&start));
        assert_ne!(
            Options::playground(0).seed,
            0,
            "random resolves to a real seed"
        );
    }
}
