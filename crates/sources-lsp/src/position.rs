//! Byte spans to LSP ranges and back, in the position encoding negotiated with the client.

use sources_syntax::{LineIndex, PositionEncoding, Span};
use tower_lsp_server::ls_types::{ClientCapabilities, Position, PositionEncodingKind, Range};

/// Picks the encoding: UTF-8 when the client offers it (no conversion needed), else UTF-16, which
/// every client supports.
pub(crate) fn negotiate(capabilities: &ClientCapabilities) -> PositionEncoding {
    let offered = capabilities
        .general
        .as_ref()
        .and_then(|general| general.position_encodings.as_ref());
    match offered {
        Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => PositionEncoding::Utf8,
        _ => PositionEncoding::Utf16,
    }
}

/// The protocol's name for an encoding.
pub(crate) fn encoding_kind(encoding: PositionEncoding) -> PositionEncodingKind {
    match encoding {
        PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
        PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
        PositionEncoding::Utf32 => PositionEncodingKind::UTF32,
    }
}

/// Converts between byte offsets of one text and positions in one encoding.
#[derive(Clone, Copy)]
pub(crate) struct Positions<'a> {
    index: &'a LineIndex,
    encoding: PositionEncoding,
}

impl<'a> Positions<'a> {
    /// Positions of the text `index` was built from.
    pub(crate) fn new(index: &'a LineIndex, encoding: PositionEncoding) -> Positions<'a> {
        Positions { index, encoding }
    }

    /// The position of a byte offset.
    pub(crate) fn position(&self, offset: usize) -> Position {
        let (line, character) = self.index.position(offset, self.encoding);
        Position::new(line, character)
    }

    /// The range of a byte span.
    pub(crate) fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start()), self.position(span.end()))
    }

    /// The byte offset of a position; a position past the last line is the end of the text.
    pub(crate) fn offset(&self, position: Position) -> usize {
        self.index
            .offset(position.line, position.character, self.encoding)
            .unwrap_or(self.index.text().len())
    }

    /// The byte span of a range (start and end ordered).
    pub(crate) fn span(&self, range: Range) -> Span {
        let start = self.offset(range.start);
        let end = self.offset(range.end);
        Span::new(start.min(end), start.max(end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_and_utf8_columns_differ_after_non_ascii_text() {
        let text = "a: \"é😀\" x\n";
        let index = LineIndex::new(text);
        let x = text.find('x').expect("x is in the text");
        let utf16 = Positions::new(&index, PositionEncoding::Utf16);
        let utf8 = Positions::new(&index, PositionEncoding::Utf8);
        assert_eq!(utf16.position(x), Position::new(0, 9));
        assert_eq!(utf8.position(x), Position::new(0, 12));
        assert_eq!(utf16.offset(Position::new(0, 9)), x);
        assert_eq!(utf8.offset(Position::new(0, 12)), x);
        assert_eq!(utf16.offset(Position::new(7, 0)), text.len());
        let range = Range::new(Position::new(0, 10), Position::new(0, 9));
        assert_eq!(utf16.span(range), Span::new(x, x + 1));
    }
}
