//! Positions: saphyr's character indices as byte offsets, and line numbers for messages.

/// Converts saphyr's character indices to byte offsets.
pub(super) struct CharToByte<'t> {
    text: &'t str,
    ascii: bool,
    chars: usize,
    bytes: usize,
}

impl<'t> CharToByte<'t> {
    pub(super) fn new(text: &'t str) -> Self {
        CharToByte {
            text,
            ascii: text.is_ascii(),
            chars: 0,
            bytes: 0,
        }
    }

    /// The byte offset of the character at `index` (the text's length past its end).
    pub(super) fn byte(&mut self, index: usize) -> usize {
        if self.ascii {
            return index.min(self.text.len());
        }
        let bytes = self.text.as_bytes();
        while self.chars < index && self.bytes < bytes.len() {
            self.bytes += utf8_width(bytes[self.bytes]);
            self.chars += 1;
        }
        while self.chars > index && self.bytes > 0 {
            self.bytes -= 1;
            while self.bytes > 0 && !self.text.is_char_boundary(self.bytes) {
                self.bytes -= 1;
            }
            self.chars -= 1;
        }
        self.bytes.min(bytes.len())
    }
}

fn utf8_width(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

/// Line numbers for messages, computed once on first use.
pub(super) struct Lines<'t> {
    text: &'t str,
    starts: Option<Vec<usize>>,
}

impl<'t> Lines<'t> {
    pub(super) fn new(text: &'t str) -> Self {
        Lines { text, starts: None }
    }

    /// The 1-based line of `offset`.
    pub(super) fn line(&mut self, offset: usize) -> usize {
        let text = self.text;
        let starts = self.starts.get_or_insert_with(|| {
            let mut starts = vec![0];
            starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
            starts
        });
        starts.partition_point(|&start| start <= offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn character_indices_become_byte_offsets_in_both_directions() {
        let text = "aé😀b\nc";
        let mut bytes = CharToByte::new(text);
        assert_eq!(bytes.byte(0), 0);
        assert_eq!(bytes.byte(2), 3);
        assert_eq!(bytes.byte(3), 7);
        assert_eq!(bytes.byte(1), 1);
        assert_eq!(bytes.byte(5), 9);
        assert_eq!(bytes.byte(99), text.len());
        let mut ascii = CharToByte::new("plain");
        assert_eq!(ascii.byte(3), 3);
        assert_eq!(ascii.byte(9), 5);
    }
}
