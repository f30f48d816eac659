//! A streamed entry's events ([`EventStream`]) and a snapshot of them. Where a snapshot is needed and the entry streams — a child of a `merge`
//! or `union` that polls (not every child streams), a `compose` part, a `join` driver — the dashboard
//! shows the events received so far; `try` reads the stream for a bounded window instead: until it
//! ends, [`SnapshotWindow::events`] events arrive (`--limit`), or [`SnapshotWindow::within`]
//! elapses (`--for`, else [`DEFAULT_WINDOW`]), and takes the events as rows.

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
        };
        format!("{} events ({why})", self.rows.len())
    }
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
    let deadline = io.now() + window.within;
    let mut sleep = io.sleep(window.within);
    let mut rows = Vec::new();
    let stop = loop {
        if rows.len() >= limit {
            break at_limit;
        }
        let next = match futures::future::select(events.next(), &mut sleep).await {
            futures::future::Either::Left((next, _)) => next,
            futures::future::Either::Right(_) => break Stop::Elapsed,
        };
        match next {
            None => break Stop::Ended,
            Some(Err(error)) => return Err(error),
            Some(Ok(value)) => rows.push(value),
        }
        // A hard deadline: a stream that always has an event ready stops on time too.
        if io.now() >= deadline {
            break Stop::Elapsed;
        }
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
}
