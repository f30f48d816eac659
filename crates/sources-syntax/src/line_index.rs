//! Byte offsets to line/column positions, for the CLI (Unicode scalar columns) and LSP (negotiated).

use std::sync::{Arc, OnceLock};

use crate::Change;

/// A 1-based line and column; the column counts Unicode scalar values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    /// 1-based line.
    pub line: u32,
    /// 1-based column in Unicode scalar values.
    pub column: u32,
}

/// How an LSP client counts columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PositionEncoding {
    /// Bytes of UTF-8.
    Utf8,
    /// UTF-16 code units (the LSP default).
    #[default]
    Utf16,
    /// Unicode scalar values.
    Utf32,
}

/// The byte offset of each line's start: 0, and every offset just past a `\n` (found with
/// `memchr`: on a large file this is most of building the index).
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::with_capacity(text.len() / 32 + 1);
    starts.push(0);
    starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1));
    starts
}

/// What [`LineIndex::offset`] gives for `text`, found without indexing it: one pass over the lines
/// before `line`, for a single lookup (an editor's change) in a large text.
pub fn offset_in(
    text: &str,
    line: u32,
    character: u32,
    encoding: PositionEncoding,
) -> Option<usize> {
    let mut start = 0;
    for _ in 0..line {
        start += memchr::memchr(b'\n', &text.as_bytes()[start..])? + 1;
    }
    let end = memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |at| start + at);
    Some(start + column_offset(&text[start..end], character, encoding))
}

/// The byte offset in `line_text` (one line, without its `\n`) of `character` counted in
/// `encoding`, clamped to the line's end (before a `\r` ending it).
fn column_offset(line_text: &str, character: u32, encoding: PositionEncoding) -> usize {
    let line_text = line_text.strip_suffix('\r').unwrap_or(line_text);
    let mut counted = 0u32;
    for (index, ch) in line_text.char_indices() {
        if counted >= character {
            return index;
        }
        counted += match encoding {
            PositionEncoding::Utf8 => ch.len_utf8() as u32,
            PositionEncoding::Utf16 => ch.len_utf16() as u32,
            PositionEncoding::Utf32 => 1,
        };
    }
    line_text.len()
}

/// Line starts of one text, to convert between byte offsets and positions. A clone shares the
/// text and the line starts.
#[derive(Clone, Debug)]
pub struct LineIndex {
    text: Arc<String>,
    /// Made on first use by [`LineIndex::new`]'s index (a lint that finds nothing never asks), at
    /// once by [`LineIndex::shared`]'s and [`LineIndex::edited`]'s.
    line_starts: OnceLock<Arc<Vec<usize>>>,
}

impl PartialEq for LineIndex {
    /// The same text (hence the same lines).
    fn eq(&self, other: &LineIndex) -> bool {
        self.text == other.text && self.starts() == other.starts()
    }
}

impl LineIndex {
    /// Indexes a copy of `text`, finding its lines when first asked. A line ends after `\n`; a
    /// `\r` before it belongs to that line's end.
    pub fn new(text: &str) -> LineIndex {
        LineIndex {
            text: Arc::new(text.to_owned()),
            line_starts: OnceLock::new(),
        }
    }

    /// Indexes `text` without copying it: the index shares it with its other holders (the
    /// language server's document version). Its lines are found now, on the calling thread (the
    /// server's analysis thread, which also frees them: see ARCHITECTURE.md on mimalloc).
    pub fn shared(text: Arc<String>) -> LineIndex {
        let index = LineIndex {
            text,
            line_starts: OnceLock::new(),
        };
        index.starts();
        index
    }

    /// Indexes `text`, the text of `previous` changed by `change`, from `previous`'s line
    /// starts: those before the change are kept, those after it moved by its length, and only the
    /// changed bytes are searched for line ends (a copy of the starts, instead of a search of the
    /// whole text). A `change` that does not fit the two texts' lengths indexes `text` anew.
    /// Shares `text` and finds its lines now, as [`LineIndex::shared`] does.
    pub fn edited(previous: &LineIndex, text: Arc<String>, change: Change) -> LineIndex {
        if !change.fits(previous.text.len(), text.len()) {
            return LineIndex::shared(text);
        }
        let old = previous.starts();
        // A line starts just past a `\n`: one at or before the change's start follows a `\n` in
        // the common prefix, one past the old end follows a `\n` in the common suffix.
        let before = old.partition_point(|&start| start <= change.start);
        let after = old.partition_point(|&start| start <= change.old_end);
        let changed = &text.as_bytes()[change.start..change.new_end];
        let mut starts = Vec::with_capacity(old.len() - (after - before) + changed.len() / 32);
        starts.extend_from_slice(&old[..before]);
        starts.extend(memchr::memchr_iter(b'\n', changed).map(|at| change.start + at + 1));
        starts.extend(
            old[after..]
                .iter()
                .map(|&start| start - change.old_end + change.new_end),
        );
        LineIndex {
            text,
            line_starts: OnceLock::from(Arc::new(starts)),
        }
    }

    /// The byte offset of each line's start, found on first use.
    fn starts(&self) -> &[usize] {
        self.line_starts
            .get_or_init(|| Arc::new(line_starts(&self.text)))
    }

    /// The indexed text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Number of lines (an empty text has one).
    pub fn line_count(&self) -> usize {
        self.starts().len()
    }

    /// The 0-based line containing `offset` and that line's start, with `offset` clamped to the
    /// text and moved back to a character boundary.
    fn locate(&self, offset: usize) -> (usize, usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let starts = self.starts();
        let line = starts.partition_point(|&start| start <= offset) - 1;
        (line, starts[line], offset)
    }

    /// The 1-based line and Unicode scalar column of a byte offset.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let (line, start, offset) = self.locate(offset);
        let column = self.text[start..offset].chars().count();
        LineCol {
            line: line as u32 + 1,
            column: column as u32 + 1,
        }
    }

    /// The 0-based line and character of a byte offset, counted in `encoding`.
    pub fn position(&self, offset: usize, encoding: PositionEncoding) -> (u32, u32) {
        let (line, start, offset) = self.locate(offset);
        let prefix = &self.text[start..offset];
        let character = match encoding {
            PositionEncoding::Utf8 => prefix.len(),
            PositionEncoding::Utf16 => prefix.encode_utf16().count(),
            PositionEncoding::Utf32 => prefix.chars().count(),
        };
        (line as u32, character as u32)
    }

    /// The byte offset of a 0-based line and character counted in `encoding`. A character past the
    /// end of the line clamps to the line end; a line past the end of the text gives `None`.
    pub fn offset(&self, line: u32, character: u32, encoding: PositionEncoding) -> Option<usize> {
        let starts = self.starts();
        let start = *starts.get(line as usize)?;
        let end = starts
            .get(line as usize + 1)
            .map_or(self.text.len(), |next| next - 1);
        Some(start + column_offset(&self.text[start..end], character, encoding))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_scalars_and_utf16_units() {
        let text = "a: é😀x\nb: 1\n";
        let index = LineIndex::new(text);
        let x = text.find('x').expect("x");
        assert_eq!(index.line_col(x), LineCol { line: 1, column: 6 });
        assert_eq!(index.position(x, PositionEncoding::Utf16), (0, 6));
        assert_eq!(index.position(x, PositionEncoding::Utf8), (0, 9));
        assert_eq!(index.position(x, PositionEncoding::Utf32), (0, 5));
        assert_eq!(index.offset(0, 6, PositionEncoding::Utf16), Some(x));
        for line in 0..4 {
            for character in 0..9 {
                for encoding in [
                    PositionEncoding::Utf8,
                    PositionEncoding::Utf16,
                    PositionEncoding::Utf32,
                ] {
                    assert_eq!(
                        offset_in(text, line, character, encoding),
                        index.offset(line, character, encoding),
                        "line {line}, character {character}, {encoding:?}"
                    );
                }
            }
        }
        assert_eq!(
            index.line_col(text.find('b').expect("b")),
            LineCol { line: 2, column: 1 }
        );
    }

    /// A seeded linear congruential generator, so every run makes the same edits.
    struct Random(u64);

    impl Random {
        fn below(&mut self, bound: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) as usize % bound.max(1)
        }
    }

    #[test]
    fn an_edited_index_equals_a_fresh_one_over_seeded_edits() {
        const PIECES: [&str; 9] = ["\n", "\r\n", "a", "é", "😀", "key: v\n", "\n\n", "", "\r"];
        let mut random = Random(24);
        let mut text = Arc::new("a: é\r\nb: 😀\n\nc: 1".to_owned());
        let mut index = LineIndex::shared(Arc::clone(&text));
        for step in 0..2_000 {
            let boundaries: Vec<usize> = text
                .char_indices()
                .map(|(at, _)| at)
                .chain([text.len()])
                .collect();
            // Every eighth edit at one of the text's ends.
            let pick = |random: &mut Random| match random.below(8) {
                0 => 0,
                1 => text.len(),
                _ => boundaries[random.below(boundaries.len())],
            };
            let (a, b) = (pick(&mut random), pick(&mut random));
            let (from, to) = (a.min(b), a.max(b).min(a.min(b) + 12));
            let to = *boundaries
                .iter()
                .find(|&&at| at >= to)
                .unwrap_or(&text.len());
            let inserted: String = (0..random.below(3))
                .map(|_| PIECES[random.below(PIECES.len())])
                .collect();
            let mut next = text.as_ref().clone();
            next.replace_range(from..to, &inserted);
            if next.len() > 400 {
                next.truncate(
                    next.char_indices()
                        .nth(300)
                        .map_or(next.len(), |(at, _)| at),
                );
            }
            let next = Arc::new(next);
            let change = Change::between(&text, &next).unwrap_or(Change::none(next.len()));
            let edited = LineIndex::edited(&index, Arc::clone(&next), change);
            let fresh = LineIndex::new(&next);
            assert_eq!(edited, fresh, "step {step}: {text:?} -> {next:?}");
            for offset in 0..=next.len() + 1 {
                assert_eq!(
                    edited.position(offset, PositionEncoding::Utf16),
                    fresh.position(offset, PositionEncoding::Utf16)
                );
            }
            (text, index) = (next, edited);
        }
    }

    #[test]
    fn a_change_that_does_not_fit_indexes_the_text_anew() {
        let previous = LineIndex::new("a\nb\n");
        let text = Arc::new("a\nbc\nd\n".to_owned());
        let wrong = Change {
            start: 9,
            old_end: 9,
            new_end: 9,
        };
        assert_eq!(
            LineIndex::edited(&previous, Arc::clone(&text), wrong),
            LineIndex::new(&text)
        );
    }

    #[test]
    fn offsets_clamp_and_lines_past_end_are_none() {
        let index = LineIndex::new("ab\r\ncd");
        assert_eq!(index.offset(0, 99, PositionEncoding::Utf16), Some(2));
        assert_eq!(index.offset(1, 1, PositionEncoding::Utf16), Some(5));
        assert_eq!(index.offset(2, 0, PositionEncoding::Utf16), None);
        assert_eq!(index.line_col(999), LineCol { line: 2, column: 3 });
    }
}
