//! When each document of the log index was written, ingested and made searchable: pure arithmetic
//! on the document number and the build time.
//!
//! Document `d` (0-based, also its `_shard_doc`) has the timestamp
//! `built_at + (d / 2 - 9,999) × 400 ms`: two documents per timestamp, five per second, the
//! 20,000 initial ones ending at `built_at`. A new document is ingested at its timestamp, except
//! every seventeenth, ingested 3 seconds later; it becomes searchable at the next refresh, on the
//! whole seconds counted from `built_at`. `(timestamp, d)` grows with `d`, so the sort order of the
//! index is the document order.

use crate::clock::Millis;

/// Documents that exist (and are searchable) when the service is built.
pub const INITIAL_DOCS: u64 = 20_000;
/// New documents per second.
pub const DOCS_PER_SECOND: u64 = 5;
/// Documents that share each `@timestamp`.
pub const DOCS_PER_TIMESTAMP: u64 = 2;
/// Time between two consecutive timestamps: two documents every 400 ms make five per second.
pub const TIMESTAMP_STEP: Millis = 1_000 * DOCS_PER_TIMESTAMP as Millis / DOCS_PER_SECOND as Millis;
/// How often the index refreshes; a document is searchable from the first refresh after ingestion.
pub const REFRESH_INTERVAL: Millis = 1_000;
/// Every this-many-th new document is ingested late.
pub const LATE_DOC_EVERY: u64 = 17;
/// How long after its own `@timestamp` a late document is ingested.
pub const LATE_DOC_DELAY: Millis = 3_000;

/// The index's timeline, anchored at the build time.
#[derive(Clone, Copy, Debug)]
pub struct Timeline {
    built_at: Millis,
}

/// The sort key of a document: its `@timestamp` in epoch millis and its `_shard_doc`.
pub type SortKey = (Millis, i64);

impl Timeline {
    /// The timeline of an index built at `built_at`.
    pub fn new(built_at: Millis) -> Timeline {
        Timeline { built_at }
    }

    /// The `@timestamp` of document `doc`.
    pub fn timestamp(&self, doc: u64) -> Millis {
        let pair =
            Millis::try_from(doc / DOCS_PER_TIMESTAMP).unwrap_or(Millis::MAX / TIMESTAMP_STEP);
        let last_initial_pair = (INITIAL_DOCS / DOCS_PER_TIMESTAMP - 1) as Millis;
        self.built_at + (pair - last_initial_pair) * TIMESTAMP_STEP
    }

    /// The sort key of document `doc`.
    pub fn key(&self, doc: u64) -> SortKey {
        (self.timestamp(doc), i64::try_from(doc).unwrap_or(i64::MAX))
    }

    /// Whether `doc` is one of the new documents ingested 3 seconds after its timestamp.
    pub fn is_late(&self, doc: u64) -> bool {
        doc >= INITIAL_DOCS && (doc - INITIAL_DOCS) % LATE_DOC_EVERY == LATE_DOC_EVERY - 1
    }

    /// When `doc` becomes searchable.
    pub fn searchable_at(&self, doc: u64) -> Millis {
        if doc < INITIAL_DOCS {
            return self.built_at;
        }
        let ingested = self.timestamp(doc) + if self.is_late(doc) { LATE_DOC_DELAY } else { 0 };
        let since_build = ingested - self.built_at;
        self.built_at
            + (since_build + REFRESH_INTERVAL - 1).div_euclid(REFRESH_INTERVAL) * REFRESH_INTERVAL
    }

    /// What is searchable at `now`.
    pub fn view(&self, now: Millis) -> IndexView {
        let refreshed = (now.max(self.built_at) - self.built_at).div_euclid(REFRESH_INTERVAL)
            * REFRESH_INTERVAL;
        let new_pairs = u64::try_from(refreshed / TIMESTAMP_STEP).unwrap_or(0);
        let end = INITIAL_DOCS + new_pairs * DOCS_PER_TIMESTAMP;
        // A late document is searchable at most 3 s + one refresh after an on-time one with the
        // same timestamp; 64 documents span more than 12 s.
        let pending: Vec<u64> = (end.saturating_sub(64).max(INITIAL_DOCS)..end)
            .filter(|&doc| self.is_late(doc) && self.searchable_at(doc) > now)
            .collect();
        IndexView {
            timeline: *self,
            end,
            pending,
        }
    }
}

/// The searchable documents at one time: every document below `end` except a few late ones.
#[derive(Clone, Debug)]
pub struct IndexView {
    timeline: Timeline,
    /// Every document below this number has been ingested on time and refreshed, or is pending.
    end: u64,
    /// The late documents below `end` not yet searchable, ascending.
    pending: Vec<u64>,
}

impl IndexView {
    /// One past the highest document number that may be searchable.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// How many documents are searchable.
    pub fn searchable_count(&self) -> u64 {
        self.end - self.pending.len() as u64
    }

    /// Whether `doc` is searchable.
    pub fn is_searchable(&self, doc: u64) -> bool {
        doc < self.end && !(self.timeline.is_late(doc) && self.pending.binary_search(&doc).is_ok())
    }

    /// The first document number whose key is greater than `after` (ascending `search_after`).
    pub fn first_after(&self, after: SortKey) -> u64 {
        self.partition(|doc| self.timeline.key(doc) <= after)
    }

    /// The first document number whose key is not less than `before`; documents below it come
    /// before `before` (descending `search_after`).
    pub fn first_not_before(&self, before: SortKey) -> u64 {
        self.partition(|doc| self.timeline.key(doc) < before)
    }

    /// The first document in `0..end` for which `is_before` is false (`is_before` holds on a
    /// prefix, since keys grow with the document number).
    fn partition(&self, is_before: impl Fn(u64) -> bool) -> u64 {
        let (mut low, mut high) = (0, self.end);
        while low < high {
            let middle = low + (high - low) / 2;
            if is_before(middle) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        low
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUILT: Millis = 1_700_000_000_000;

    #[test]
    fn twenty_thousand_at_build_then_five_per_second_two_per_timestamp() {
        let timeline = Timeline::new(BUILT);
        assert_eq!(timeline.view(BUILT).searchable_count(), 20_000);
        assert_eq!(timeline.timestamp(19_999), BUILT);
        assert_eq!(timeline.timestamp(19_998), BUILT);
        assert_eq!(timeline.timestamp(0), BUILT - 3_999_600);
        assert_eq!(timeline.timestamp(20_000), timeline.timestamp(20_001));
        assert_eq!(timeline.view(BUILT + 3_600_000).end(), 38_000);
        for seconds in [2, 10, 600] {
            let end = timeline.view(BUILT + seconds * 1_000).end();
            assert_eq!(end, 20_000 + 5 * seconds as u64);
        }
    }

    #[test]
    fn a_new_document_is_searchable_from_the_next_refresh() {
        let timeline = Timeline::new(BUILT);
        assert_eq!(timeline.timestamp(20_000), BUILT + 400);
        assert_eq!(timeline.searchable_at(20_000), BUILT + 1_000);
        assert!(!timeline.view(BUILT + 999).is_searchable(20_000));
        assert!(timeline.view(BUILT + 1_000).is_searchable(20_000));
    }

    #[test]
    fn every_seventeenth_new_document_is_ingested_three_seconds_late() {
        let timeline = Timeline::new(BUILT);
        let late = 20_016;
        assert!(timeline.is_late(late));
        assert!(!timeline.is_late(20_015) && !timeline.is_late(20_017) && !timeline.is_late(16));
        assert_eq!(timeline.timestamp(late), BUILT + 3_600);
        assert_eq!(timeline.searchable_at(late), BUILT + 7_000);
        let before = timeline.view(BUILT + 6_999);
        assert!(before.is_searchable(20_017) && !before.is_searchable(late));
        assert_eq!(before.searchable_count(), before.end() - 1);
        assert!(timeline.view(BUILT + 7_000).is_searchable(late));
    }

    #[test]
    fn partition_points_respect_ties() {
        let timeline = Timeline::new(BUILT);
        let view = timeline.view(BUILT);
        let key = timeline.key(10);
        assert_eq!(view.first_after(key), 11);
        assert_eq!(view.first_after((key.0, i64::MAX)), 12);
        assert_eq!(view.first_not_before(key), 10);
        assert_eq!(view.first_not_before((key.0, 0)), 10);
        assert_eq!(view.first_after((Millis::MAX, 0)), view.end());
    }
}
