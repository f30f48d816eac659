//! The service options of the spec's table: seed, now, apps, latency, schedule.

use std::sync::Arc;
use std::time::Duration;

use crate::clock::{Clock, SystemClock};

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
            (
                set.resolved_seed(99),
                set.resolved_apps(),
                set.resolved_schedule()
            ),
            (7, 12, Duration::from_secs(2))
        );
    }
}
