//! The clock the world advances on: the system clock, or a manual one that tests set and advance.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// Milliseconds since the Unix epoch: the world's notion of time.
pub type Millis = i64;

/// Formats `millis` as RFC 3339 UTC with milliseconds (`2026-11-21T04:56:41.123Z`). Times before
/// the epoch are shown as the epoch.
pub fn rfc3339(millis: Millis) -> String {
    let since = Duration::from_millis(millis.max(0) as u64);
    humantime::format_rfc3339_millis(UNIX_EPOCH + since).to_string()
}

/// A source of the current time, and a way to wait until a time has come.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The current time.
    fn now(&self) -> Millis;

    /// Resolves once `now() >= deadline`. The system clock sleeps; a manual clock waits until a
    /// test advances it, so no test ever sleeps to wait for the world.
    fn sleep_until(
        &self,
        deadline: Millis,
    ) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

/// The wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        let since = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or(Duration::ZERO);
        since.as_millis() as Millis
    }

    fn sleep_until(
        &self,
        deadline: Millis,
    ) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        let wait = (deadline - self.now()).max(0) as u64;
        Box::pin(tokio::time::sleep(Duration::from_millis(wait)))
    }
}

/// The wall clock's pace from a fixed instant: it reads `start` when built and then moves on with
/// real time. The in-process playground uses it so that the same command prints the same world on
/// every machine, while jobs still finish and logs still grow as time passes.
#[derive(Clone, Copy, Debug)]
pub struct AnchoredClock {
    start: Millis,
    since: std::time::Instant,
}

impl AnchoredClock {
    /// A clock that reads `start` now and moves on at the wall clock's pace.
    pub fn new(start: Millis) -> AnchoredClock {
        AnchoredClock {
            start,
            since: std::time::Instant::now(),
        }
    }
}

impl Clock for AnchoredClock {
    fn now(&self) -> Millis {
        let elapsed = self.since.elapsed().as_millis().min(i64::MAX as u128) as Millis;
        self.start.saturating_add(elapsed)
    }

    fn sleep_until(
        &self,
        deadline: Millis,
    ) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        let wait = (deadline - self.now()).max(0) as u64;
        Box::pin(tokio::time::sleep(Duration::from_millis(wait)))
    }
}

/// A clock that moves only when told to. Cloning shares the same time.
#[derive(Clone)]
pub struct ManualClock {
    now: Arc<Mutex<Millis>>,
    changed: watch::Sender<Millis>,
}

impl fmt::Debug for ManualClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ManualClock")
            .field("now", &self.now())
            .finish()
    }
}

impl ManualClock {
    /// A clock standing at `start`.
    pub fn new(start: Millis) -> ManualClock {
        let (changed, _) = watch::channel(start);
        ManualClock {
            now: Arc::new(Mutex::new(start)),
            changed,
        }
    }

    /// Moves the clock to `to` (never backwards: an earlier time is ignored).
    pub fn set(&self, to: Millis) {
        let mut now = self.now.lock().unwrap_or_else(PoisonError::into_inner);
        if to > *now {
            *now = to;
            self.changed.send_replace(to);
        }
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        self.set(self.now() + by.as_millis() as Millis);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Millis {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn sleep_until(
        &self,
        deadline: Millis,
    ) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        let mut changed = self.changed.subscribe();
        Box::pin(async move {
            while self.now() < deadline {
                if changed.changed().await.is_err() {
                    return;
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_anchored_clock_starts_at_its_instant_and_moves_on() {
        let clock = AnchoredClock::new(1_772_442_000_000);
        let first = clock.now();
        assert!((1_772_442_000_000..1_772_442_001_000).contains(&first));
        assert!(clock.now() >= first);
    }

    #[tokio::test]
    async fn manual_sleep_resolves_only_when_advanced() {
        let clock = ManualClock::new(1_000);
        let waiter = {
            let clock = clock.clone();
            tokio::spawn(async move { clock.sleep_until(1_500).await })
        };
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        clock.advance(Duration::from_millis(499));
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        clock.advance(Duration::from_millis(1));
        waiter.await.expect("waiter finishes");
        assert_eq!(clock.now(), 1_500);
    }
}
