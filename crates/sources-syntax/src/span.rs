//! Byte ranges into the original text.

use std::ops::Range;

/// A half-open byte range `start..end` into the original text, stored as two `u32` offsets (8
/// bytes, as rust-analyzer's `TextRange`): every key, tree node and decoded field carries spans,
/// so their size counts on large documents in the editor.
///
/// Documents are refused above `sources_check::input::MAX_FILE_BYTES` (16 MiB) before analysis,
/// far below the 4 GiB `u32` offsets can address. An offset above `u32::MAX` given to
/// [`Span::new`] is saturated to `u32::MAX` rather than panicking or wrapping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    start: u32,
    /// One past the last byte.
    end: u32,
}

/// `offset` as a `u32`, saturated at `u32::MAX` (documents are limited far below it).
const fn offset(offset: usize) -> u32 {
    if offset > u32::MAX as usize {
        u32::MAX
    } else {
        offset as u32
    }
}

impl Span {
    /// A span from `start` to `end` (offsets above `u32::MAX` saturate to it).
    pub const fn new(start: usize, end: usize) -> Span {
        Span {
            start: offset(start),
            end: offset(end),
        }
    }

    /// The empty span at `offset` (saturated at `u32::MAX` like [`Span::new`]).
    pub const fn empty(offset: usize) -> Span {
        Span::new(offset, offset)
    }

    /// First byte.
    pub const fn start(self) -> usize {
        self.start as usize
    }

    /// One past the last byte.
    pub const fn end(self) -> usize {
        self.end as usize
    }

    /// The byte range, for slicing the text.
    pub const fn range(self) -> Range<usize> {
        self.start()..self.end()
    }

    /// Whether the two spans overlap or meet (an empty span at either end touches).
    pub const fn touches(self, other: Span) -> bool {
        self.start <= other.end && other.start <= self.end
    }

    /// Length in bytes (0 for a span whose end lies before its start, which `Span::new` accepts).
    pub const fn len(self) -> usize {
        self.end.saturating_sub(self.start) as usize
    }

    /// Whether the span covers no bytes.
    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }

    /// Whether `offset` lies inside the span (the end counts, for cursors at the end of a word).
    pub const fn contains(self, offset: usize) -> bool {
        self.start() <= offset && offset <= self.end()
    }

    /// This span moved by `delta` bytes, as when text before it changed length (an offset moved
    /// past either end of `usize` saturates there, like [`Span::new`]).
    pub const fn shifted(self, delta: isize) -> Span {
        // In `i64`, which holds every `u32` offset moved by any `isize` delta, then clamped: a few
        // instructions per end (every span after an edit that changes the length moves).
        const fn moved(offset: u32, delta: i64) -> u32 {
            let moved = (offset as i64).saturating_add(delta);
            if moved < 0 {
                0
            } else if moved > u32::MAX as i64 {
                u32::MAX
            } else {
                moved as u32
            }
        }
        Span {
            start: moved(self.start, delta as i64),
            end: moved(self.end, delta as i64),
        }
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

impl From<Range<usize>> for Span {
    fn from(range: Range<usize>) -> Span {
        Span::new(range.start, range.end)
    }
}

#[cfg(test)]
mod tests {
    use super::Span;

    #[test]
    fn a_shifted_span_moves_both_ends_and_saturates() {
        assert_eq!(Span::new(10, 14).shifted(5), Span::new(15, 19));
        assert_eq!(Span::new(10, 14).shifted(-10), Span::new(0, 4));
        assert_eq!(Span::new(2, 4).shifted(-3), Span::new(0, 1));
        let max = u32::MAX as usize;
        assert_eq!(Span::new(max - 2, max).shifted(5), Span::new(max, max));
        assert_eq!(Span::new(1, 2).shifted(isize::MIN), Span::new(0, 0));
        assert_eq!(Span::new(1, 2).shifted(isize::MAX), Span::new(max, max));
    }

    #[test]
    fn a_span_is_two_u32_offsets() {
        assert_eq!(
            std::mem::size_of::<Span>(),
            8,
            "every key, tree node and model field holds spans: their size is the editor's memory \
             on large documents"
        );
    }

    #[test]
    fn offsets_read_back_as_given() {
        let span = Span::new(3, 10);
        assert_eq!((span.start(), span.end(), span.len()), (3, 10, 7));
        assert_eq!(span.range(), 3..10);
        assert!(span.contains(10) && !span.contains(11));
        assert_eq!(span.cover(Span::empty(20)), Span::new(3, 20));
        assert_eq!(format!("{span:?}"), "Span { start: 3, end: 10 }");
    }

    #[test]
    fn a_span_ending_before_its_start_is_empty_instead_of_panicking() {
        // `end - start` overflowed (a panic in debug builds, a length near 4 GiB in release).
        assert_eq!(Span::new(5, 3).len(), 0);
        assert!(Span::new(5, 3).is_empty());
    }

    #[test]
    fn offsets_past_u32_saturate_instead_of_panicking() {
        let max = u32::MAX as usize;
        let span = Span::new(max - 1, max + 10);
        assert_eq!((span.start(), span.end()), (max - 1, max));
        let span = Span::new(usize::MAX, usize::MAX);
        assert_eq!((span.start(), span.end(), span.len()), (max, max, 0));
    }
}
