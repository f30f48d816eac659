//! A streamed entry's events ([`EventStream`]), how a front end follows them ([`follow`]), and a
//! snapshot of them ([`read`]). Where a snapshot is needed and the entry streams — a child of a
//! `merge` or `union` that polls (not every child streams), a `compose` part, a `join` driver —
//! the dashboard shows the events received so far; `try` reads the stream for a bounded window
//! instead: until it ends, [`SnapshotWindow::events`] events arrive (`--limit`), or
//! [`SnapshotWindow::within`] elapses (`--for`, else [`DEFAULT_WINDOW`]), and takes the events as
//! rows.

use std::ops::ControlFlow;
use std::time::Duration;

use futures::StreamExt;
use futures::stream::BoxStream;
use serde_json::Value;

use crate::error::EvalError;
use crate::io::Io;

/// A stream of events from a streamed entry; a failed event does not end the stream.
pub type EventStream<'a> = BoxStream<'a, Result<Value, EvalError>>;

/// How long a stream is read for a snapshot when no `--for` is given.
pub const DEFAULT_WINDOW: Duration = Duration::from_secs(2);

/// The most events one snapshot keeps, whatever the window says, so memory stays bounded.
pub const MAX_EVENTS: usize = 10_000;

/// How much of a stream a snapshot reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SnapshotWindow {
    /// Stop after this many events (`--limit`); at most [`MAX_EVENTS`].
    pub events: Option<usize>,
    /// Stop reading after this long (`--for`).
    pub within: Duration,
}

impl Default for SnapshotWindow {
    fn default() -> SnapshotWindow {
        SnapshotWindow {
            events: None,
            within: DEFAULT_WINDOW,
        }
    }
}

/// Why reading stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The stream ended.
    Ended,
    /// `events` events arrived.
    Events,
    /// The window elapsed.
    Elapsed,
    /// [`MAX_EVENTS`] events arrived.
    Cap,
    /// The one following the stream stopped it (its output went away, or it has what it needs).
    Reader,
}

/// How long a front end follows a stream; either bound may be absent (`sources try NAME` without
/// `--limit` and `--for` follows until the stream ends or the user stops it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Follow {
    /// Stop after this many events.
    pub events: Option<usize>,
    /// Stop after this long, by the run's clock.
    pub within: Option<Duration>,
}

/// The events a snapshot read, and why it stopped.
#[derive(Debug)]
pub struct Taken {
    /// The events, in arrival order.
    pub rows: Vec<Value>,
    /// Why reading stopped.
    pub stop: Stop,
}

impl Taken {
    /// What the trace says about this snapshot, e.g. `3 events (the stream ended)`.
    pub fn describe(&self, window: SnapshotWindow) -> String {
        let why = match self.stop {
            Stop::Ended => "the stream ended".to_owned(),
            Stop::Events => format!("--limit {}", self.rows.len()),
            Stop::Elapsed => format!("read for {}", crate::format_duration(window.within)),
            Stop::Cap => format!("at most {MAX_EVENTS} events per snapshot"),
            Stop::Reader => "stopped by its reader".to_owned(),
        };
        format!("{} events ({why})", self.rows.len())
    }
}

/// Hands each event of `events` to `each` (a failed event too: it does not end the stream) until
/// the stream ends, `follow.events` events were handed, `follow.within` elapses by `io`'s clock or
/// `each` breaks; returns why it stopped and how many events were handed. Ready events are taken
/// before the clock is looked at, and the deadline is checked after each one, so a stream that
/// always has an event ready stops on time too. Every front end follows a stream through this.
pub async fn follow(
    io: &dyn Io,
    events: &mut EventStream<'_>,
    follow: Follow,
    mut each: impl FnMut(Result<Value, EvalError>) -> ControlFlow<()>,
) -> (Stop, usize) {
    let deadline = follow.within.map(|within| io.now() + within);
    let mut sleep = match follow.within {
        Some(within) => io.sleep(within),
        None => futures::FutureExt::boxed(futures::future::pending::<()>()),
    };
    let mut handed = 0;
    let stop = loop {
        if follow.events.is_some_and(|limit| handed >= limit) {
            break Stop::Events;
        }
        let next = match futures::future::select(events.next(), &mut sleep).await {
            futures::future::Either::Left((next, _)) => next,
            futures::future::Either::Right(_) => break Stop::Elapsed,
        };
        let Some(event) = next else {
            break Stop::Ended;
        };
        handed += 1;
        if each(event).is_break() {
            break Stop::Reader;
        }
        if deadline.is_some_and(|deadline| io.now() >= deadline) {
            break Stop::Elapsed;
        }
    };
    (stop, handed)
}

/// Reads `events` for a snapshot. A failed event fails the snapshot (the entry cannot be shown
/// whole). Ready events are taken before the clock is looked at, so a stream that has its events
/// at hand is read to its end or limit whatever the clock does.
pub async fn read(
    io: &dyn Io,
    mut events: EventStream<'_>,
    window: SnapshotWindow,
) -> Result<Taken, EvalError> {
    let (limit, at_limit) = match window.events {
        Some(events) if events <= MAX_EVENTS => (events, Stop::Events),
        _ => (MAX_EVENTS, Stop::Cap),
    };
    let mut rows = Vec::new();
    let mut failed = None;
    let bounds = Follow {
        events: Some(limit),
        within: Some(window.within),
    };
    let (stop, _) = follow(io, &mut events, bounds, |event| match event {
        Ok(value) => {
            rows.push(value);
            ControlFlow::Continue(())
        }
        Err(error) => {
            failed = Some(error);
            ControlFlow::Break(())
        }
    })
    .await;
    if let Some(error) = failed {
        return Err(error);
    }
    let stop = match stop {
        Stop::Events => at_limit,
        stop => stop,
    };
    Ok(Taken { rows, stop })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Cause;
    use crate::testing::FakeIo;
    use serde_json::json;

    fn stream(items: Vec<Result<Value, EvalError>>) -> EventStream<'static> {
        futures::stream::iter(items).boxed()
    }

    #[tokio::test]
    async fn reads_until_the_stream_ends_or_the_limit() {
        let io = FakeIo::new();
        let taken = read(
            &io,
            stream(vec![Ok(json!(1)), Ok(json!(2))]),
            SnapshotWindow::default(),
        )
        .await
        .expect("read");
        assert_eq!(
            (taken.rows, taken.stop),
            (vec![json!(1), json!(2)], Stop::Ended)
        );

        let window = SnapshotWindow {
            events: Some(1),
            ..SnapshotWindow::default()
        };
        let taken = read(&io, stream(vec![Ok(json!(1)), Ok(json!(2))]), window)
            .await
            .expect("read");
        assert_eq!((taken.rows, taken.stop), (vec![json!(1)], Stop::Events));
        assert_eq!(taken_text(1, Stop::Events, window), "1 events (--limit 1)");
    }

    fn taken_text(count: usize, stop: Stop, window: SnapshotWindow) -> String {
        Taken {
            rows: vec![json!(null); count],
            stop,
        }
        .describe(window)
    }

    #[tokio::test]
    async fn a_silent_stream_stops_when_the_window_elapses() {
        let io = FakeIo::new();
        let silent = futures::stream::pending().boxed();
        let taken = read(&io, silent, SnapshotWindow::default())
            .await
            .expect("read");
        assert_eq!((taken.rows.len(), taken.stop), (0, Stop::Elapsed));
        assert_eq!(
            io.now(),
            DEFAULT_WINDOW,
            "the fake clock moved by the window"
        );
    }

    #[tokio::test]
    async fn a_failed_event_fails_the_snapshot() {
        let io = FakeIo::new();
        let failed = stream(vec![
            Ok(json!(1)),
            Err(EvalError::new(
                "feed",
                Cause::Unsupported("bad frame".into()),
            )),
        ]);
        let error = read(&io, failed, SnapshotWindow::default())
            .await
            .expect_err("fails");
        assert!(error.to_string().contains("bad frame"), "{error}");
    }

    #[tokio::test]
    async fn a_flood_is_capped() {
        let io = FakeIo::new();
        let flood = futures::stream::repeat_with(|| Ok(json!(0))).boxed();
        let taken = read(&io, flood, SnapshotWindow::default())
            .await
            .expect("read");
        assert_eq!((taken.rows.len(), taken.stop), (MAX_EVENTS, Stop::Cap));
    }

    #[tokio::test]
    async fn following_hands_failed_events_on_and_stops_when_the_reader_says() {
        let io = FakeIo::new();
        let mut events = stream(vec![
            Ok(json!(1)),
            Err(EvalError::new(
                "feed",
                Cause::Unsupported("bad frame".into()),
            )),
            Ok(json!(2)),
            Ok(json!(3)),
        ]);
        let mut handed = Vec::new();
        let (stop, count) = follow(&io, &mut events, Follow::default(), |event| {
            handed.push(event.map_err(|error| error.to_string()));
            if handed.len() == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .await;
        assert_eq!((stop, count), (Stop::Reader, 3));
        assert!(
            matches!(&handed[1], Err(error) if error.contains("bad frame")),
            "{handed:?}"
        );
        assert_eq!(handed[2], Ok(json!(2)));
    }

    #[tokio::test]
    async fn following_without_bounds_reads_to_the_end_and_a_deadline_stops_a_silent_stream() {
        let io = FakeIo::new();
        let mut events = stream(vec![Ok(json!(1)), Ok(json!(2))]);
        let (stop, count) = follow(&io, &mut events, Follow::default(), |_| {
            ControlFlow::Continue(())
        })
        .await;
        assert_eq!((stop, count), (Stop::Ended, 2));

        let mut silent = futures::stream::pending().boxed();
        let within = Duration::from_secs(7);
        let bounds = Follow {
            events: None,
            within: Some(within),
        };
        let (stop, count) = follow(&io, &mut silent, bounds, |_| ControlFlow::Continue(())).await;
        assert_eq!((stop, count), (Stop::Elapsed, 0));
        assert_eq!(io.now(), within, "the fake clock moved by the bound");
    }
}
