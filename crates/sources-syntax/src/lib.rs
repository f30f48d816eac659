//! The front end of `sources`: YAML and TOML text become one spanned tree.
//!
//! This crate owns parsing and text positions. It knows nothing about sources,
//! rules or diagnostics: it returns a [`Parse`] (a tree plus every syntax error
//! it could find) and a [`LineIndex`] converts byte offsets to positions.
//! [`str_offset`] maps an offset inside a string's decoded text back to the file.
//!
//! [`Tree`] keeps a parse for the document's next version, which reparses only the entry an edit
//! lies in where that is sound (`incremental`).
//!
//! Modules: `yaml` (saphyr-parser's spanned events to the tree, and saphyr's quirks), `toml`
//! (`toml`'s recoverable parser to the tree), `string_offset`, `line_index`, `span`, `tree`,
//! `change` (what changed between two versions of a text), and,
//! behind the `bench-support` feature, `bench_support` (the config generator benchmarks share).
//! No input makes [`parse`] panic, hang or overflow the stack: nesting is limited (128 levels in
//! YAML, 80 in TOML) and so are alias expansions.

#[cfg(feature = "bench-support")]
pub mod bench_support;
mod change;
mod incremental;
mod line_index;
mod span;
mod string_offset;
mod toml;
mod tree;
mod yaml;

pub use change::Change;
pub use incremental::{Reparse, Tree};
pub use line_index::{LineCol, LineIndex, PositionEncoding, offset_in};
pub use span::Span;
pub use string_offset::str_offset;
pub use tree::{Entry, Key, Map, Node, ScalarStyle, Str, Value};

/// The concrete syntax a document is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// YAML 1.2.
    Yaml,
    /// TOML 1.0.
    Toml,
}

impl Syntax {
    /// Picks the syntax from a file name's extension (`.yaml`, `.yml`, `.toml`).
    pub fn from_path(path: &std::path::Path) -> Option<Syntax> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "yaml" | "yml" => Some(Syntax::Yaml),
            "toml" => Some(Syntax::Toml),
            _ => None,
        }
    }
}

/// A syntax error at a position in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is wrong, in the parser's words made readable.
    pub message: String,
    /// Where: a byte range into the original text (possibly empty).
    pub span: Span,
}

/// The result of parsing one document: the tree (when any part could be built) and every error.
#[derive(Clone, Debug, Default)]
pub struct Parse {
    /// The document's root node; `None` for an empty document or one that could not be read at all.
    pub root: Option<Node>,
    /// Every syntax error found, in text order.
    pub errors: Vec<SyntaxError>,
}

/// Parses `text` as `syntax`. Never panics; never stops at the first error where the parser can go on.
///
/// An empty document (nothing but blanks and comments) gives `root: None` and no error. Text with
/// control characters (a binary file) gives one error naming the first and is not parsed further.
/// YAML stops at its first syntax error, keeping the tree read before it; only the first YAML
/// document is read, and a second one is an error at its `---`. TOML recovers and reports every
/// error it can.
pub fn parse(text: &str, syntax: Syntax) -> Parse {
    if let Some(error) = control_character(text) {
        return Parse {
            root: None,
            errors: vec![error],
        };
    }
    match syntax {
        Syntax::Yaml => yaml::parse(text),
        Syntax::Toml => toml::parse(text),
    }
}

/// Holds the fast YAML reader to saphyr's path on `text`, for the tests and the fuzzer: `Ok(true)`
/// when the fast reader reads it into the very tree saphyr's path gives (values, spans, styles),
/// `Ok(false)` when it leaves the text to saphyr, `Err` showing both trees when they differ.
pub fn compare_yaml_readers(text: &str) -> Result<bool, String> {
    yaml::compare_readers(text)
}

/// The first character neither syntax allows outside a string escape: a C0 control other than tab,
/// line feed and carriage return, or DEL.
pub(crate) fn control_character(text: &str) -> Option<SyntaxError> {
    let is_control = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f;
    // Whole chunks are tested without stopping at the first hit, which the compiler vectorises;
    // only the chunk that holds one is searched byte by byte.
    const CHUNK: usize = 64;
    let bytes = text.as_bytes();
    let chunk = bytes
        .chunks(CHUNK)
        .position(|chunk| chunk.iter().fold(false, |found, &b| found | is_control(b)))?;
    let from = chunk * CHUNK;
    let at = from + bytes[from..].iter().position(|&b| is_control(b))?;
    let code = bytes[at];
    let name = match code {
        0 => " (NUL)".to_owned(),
        0x7f => " (DEL)".to_owned(),
        _ => String::new(),
    };
    Some(SyntaxError {
        message: format!(
            "control character U+{code:04X}{name} is not allowed in a config file; is this a binary \
             file? Write it as an escape (`\\u{code:04X}`) inside a double-quoted string"
        ),
        span: Span::new(at, at + 1),
    })
}
