//! The [`Collector`] every producer of diagnostics pushes into (the parser's errors, the decoder,
//! each check): unbounded for the command line, or bounded to the first diagnostics in the final
//! order for the editor, so a document with 100,000 problems never holds them all.
//!
//! A stage set by the analysis runs on each diagnostic as it is pushed (and may drop it) before
//! the bound counts it, so what is dropped never takes a place among the kept ones.

use std::cmp::Ordering;

use crate::{Diagnostic, Severity};

/// What runs on each diagnostic as it is pushed; `None` drops it.
type Stage = Box<dyn FnMut(Diagnostic) -> Option<Diagnostic>>;

/// Collects diagnostics, optionally keeping only the first `limit` in [`order`] and counting the
/// rest.
pub struct Collector {
    stage: Option<Stage>,
    limit: Option<usize>,
    diagnostics: Vec<Diagnostic>,
    omitted: usize,
    omitted_errors: usize,
}

/// What a [`Collector`] collected.
#[derive(Debug, Default)]
pub struct Collected {
    /// The kept diagnostics, sorted by [`order`].
    pub diagnostics: Vec<Diagnostic>,
    /// How many more past the limit were left out (0 without a limit).
    pub omitted: usize,
    /// How many of those left out are errors.
    pub omitted_errors: usize,
}

impl std::fmt::Debug for Collector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Collector")
            .field("staged", &self.stage.is_some())
            .field("limit", &self.limit)
            .field("diagnostics", &self.diagnostics.len())
            .field("omitted", &self.omitted)
            .finish()
    }
}

impl Default for Collector {
    fn default() -> Collector {
        Collector::unbounded()
    }
}

impl Collector {
    /// A collector that keeps every diagnostic.
    pub fn unbounded() -> Collector {
        Collector {
            stage: None,
            limit: None,
            diagnostics: Vec::new(),
            omitted: 0,
            omitted_errors: 0,
        }
    }

    /// A collector that keeps the first `limit` diagnostics in [`order`] and counts the rest. It
    /// holds at most about twice `limit` at any time: when its buffer reaches that, it sorts it and
    /// keeps the first `limit` (amortised O(log `limit`) per diagnostic).
    pub fn bounded(limit: usize) -> Collector {
        Collector {
            limit: Some(limit),
            ..Collector::unbounded()
        }
    }

    /// Runs `stage` on every diagnostic pushed from now on, before the bound; `None` drops it.
    pub fn set_stage(&mut self, stage: impl FnMut(Diagnostic) -> Option<Diagnostic> + 'static) {
        self.stage = Some(Box::new(stage));
    }

    /// Adds one diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        let diagnostic = match &mut self.stage {
            Some(stage) => match stage(diagnostic) {
                Some(diagnostic) => diagnostic,
                None => return,
            },
            None => diagnostic,
        };
        self.diagnostics.push(diagnostic);
        let Some(limit) = self.limit else {
            return;
        };
        if self.diagnostics.len() >= limit.saturating_add(1).saturating_mul(2) {
            self.shrink(limit);
        }
    }

    /// Sorts the buffer and keeps its first `limit`, counting the others as omitted. The sort is
    /// stable and the buffer holds what it keeps in the order pushed among equals, so the kept ones
    /// are always the first `limit` of a stable sort of everything pushed.
    fn shrink(&mut self, limit: usize) {
        self.diagnostics.sort_by(order);
        if self.diagnostics.len() > limit {
            self.omitted += self.diagnostics.len() - limit;
            self.omitted_errors += self.diagnostics[limit..]
                .iter()
                .filter(|diagnostic| diagnostic.severity == Severity::Error)
                .count();
            self.diagnostics.truncate(limit);
        }
    }

    /// The diagnostics kept, sorted by [`order`], and how many were left out past the limit.
    pub fn finish(mut self) -> Collected {
        match self.limit {
            Some(limit) => self.shrink(limit),
            None => self.diagnostics.sort_by(order),
        }
        Collected {
            diagnostics: self.diagnostics,
            omitted: self.omitted,
            omitted_errors: self.omitted_errors,
        }
    }
}

impl Extend<Diagnostic> for Collector {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, diagnostics: I) {
        for diagnostic in diagnostics {
            self.push(diagnostic);
        }
    }
}

/// The stable order of every output: by position, then rule code, then message.
pub fn order(a: &Diagnostic, b: &Diagnostic) -> Ordering {
    (a.span.start(), a.span.end(), a.rule.code(), &a.message).cmp(&(
        b.span.start(),
        b.span.end(),
        b.rule.code(),
        &b.message,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rule, Span};

    /// `count` diagnostics with many equal positions, rules and messages (ties), told apart by
    /// their help, in an order shuffled by `seed`.
    fn shuffled(count: usize, seed: u64) -> Vec<Diagnostic> {
        let rules = [Rule::UnknownField, Rule::UnknownSource, Rule::InvalidValue];
        let mut diagnostics: Vec<Diagnostic> = (0..count)
            .map(|i| {
                let start = (i * 7) % 23;
                Diagnostic::new(rules[i % 3], Span::new(start, start + i % 2), "same")
                    .with_help(format!("pushed {i}"))
            })
            .collect();
        let mut state = seed;
        for i in (1..diagnostics.len()).rev() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let j = (state >> 33) as usize % (i + 1);
            diagnostics.swap(i, j);
        }
        diagnostics
    }

    #[test]
    fn a_bounded_collector_keeps_the_first_of_the_sorted_whole_and_counts_the_rest() {
        for seed in 0..20 {
            for (count, limit) in [(0, 3), (5, 10), (10, 10), (11, 10), (500, 7), (1000, 1)] {
                let input = shuffled(count, seed);
                let mut all = Collector::unbounded();
                all.extend(input.clone());
                let all = all.finish();
                assert_eq!(all.omitted, 0);
                let mut bounded = Collector::bounded(limit);
                for diagnostic in input {
                    bounded.push(diagnostic);
                    assert!(bounded.diagnostics.len() < 2 * (limit + 1), "held too many");
                }
                let bounded = bounded.finish();
                let kept = count.min(limit);
                assert_eq!(bounded.diagnostics, all.diagnostics[..kept], "seed {seed}");
                assert_eq!(bounded.omitted, count - kept, "seed {seed}");
                let errors = |diagnostics: &[Diagnostic]| {
                    diagnostics
                        .iter()
                        .filter(|diagnostic| diagnostic.severity == Severity::Error)
                        .count()
                };
                assert_eq!(bounded.omitted_errors, errors(&all.diagnostics[kept..]));
            }
        }
    }

    #[test]
    fn the_stage_runs_before_the_bound_so_a_dropped_diagnostic_takes_no_place() {
        let input = shuffled(300, 7);
        let mut bounded = Collector::bounded(10);
        bounded
            .set_stage(|diagnostic| (diagnostic.rule != Rule::UnknownField).then_some(diagnostic));
        bounded.extend(input.clone());
        let bounded = bounded.finish();
        let mut expected: Vec<Diagnostic> = input
            .into_iter()
            .filter(|diagnostic| diagnostic.rule != Rule::UnknownField)
            .collect();
        expected.sort_by(order);
        assert_eq!(bounded.diagnostics, expected[..10]);
        assert_eq!(bounded.omitted, expected.len() - 10);
    }
}
