//! What every front end checks before analysis (size, NUL bytes, UTF-8), and which documents are
//! configuration files of this format at all. The CLI and the language server both use these, so
//! a file the editor shows is refused for the same reason, in the same words, as by `lint`.

use sources_diagnostics::{Diagnostic, Rule, Span};
use sources_syntax::Change;

use crate::Analysis;

/// The largest document analysed (16 MiB); a larger one gets a diagnostic, not an attempt.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The diagnostic for a document over [`MAX_FILE_BYTES`]; `size` when it is known.
pub fn too_large(size: Option<u64>) -> Diagnostic {
    let limit = human_size(MAX_FILE_BYTES);
    let message = match size {
        Some(size) => format!(
            "the file is {}, over the {limit} limit for configuration files",
            human_size(size)
        ),
        None => format!("the input is over the {limit} limit for configuration files"),
    };
    Diagnostic::new(Rule::Syntax, Span::empty(0), message)
        .with_help("a configuration file this large is almost certainly not one: check the path")
}

/// The diagnostic for binary content: a NUL byte at offset `nul`. It sits at the start, since
/// binary bytes make no readable lines.
pub fn binary(nul: usize) -> Diagnostic {
    Diagnostic::new(
        Rule::Syntax,
        Span::empty(0),
        format!("this is a binary file (a NUL byte at offset {nul}), not YAML or TOML text"),
    )
    .with_help("name a YAML or TOML configuration file")
}

/// The checks that apply to text already decoded (what an editor sends): the size limit and NUL
/// bytes. `None` when the text may be analysed.
pub fn refuse_text(text: &str) -> Option<Diagnostic> {
    refuse_searching(text, 0..text.len())
}

/// [`refuse_text`] for `text` made by `change` from a text it accepted: only the changed bytes can
/// hold a NUL byte, so only they are searched. A `change` that cannot have made `text` (it reaches
/// past its end) makes the whole text be searched.
pub fn refuse_changed(text: &str, change: Change) -> Option<Diagnostic> {
    match text.as_bytes().get(change.start..change.new_end) {
        Some(_) => refuse_searching(text, change.start..change.new_end),
        None => refuse_text(text),
    }
}

/// The size limit, then the first NUL byte in `searched` (a range of `text`).
fn refuse_searching(text: &str, searched: std::ops::Range<usize>) -> Option<Diagnostic> {
    if text.len() as u64 > MAX_FILE_BYTES {
        return Some(too_large(Some(text.len() as u64)));
    }
    let start = searched.start;
    memchr::memchr(0, &text.as_bytes()[searched]).map(|at| binary(start + at))
}

/// `512 bytes`, `16 MiB`, `50.0 MiB`.
pub fn human_size(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes < MIB {
        format!("{bytes} bytes")
    } else if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    }
}

impl Analysis {
    /// Whether the analysed document is a configuration of this format: it has a `data.sources`
    /// block, or it does not parse and its text still looks like it declares one. The CLI skips
    /// walked files for which this is false; the language server publishes nothing for them.
    pub fn is_configuration(&self) -> bool {
        self.has_sources || (!self.parsed && mentions_sources(self.line_index.text()))
    }
}

/// Whether text that does not parse still looks like it declares a `data.sources` block: it says
/// `data.sources`, or has a `sources` key (`sources:`, `sources =`, `{sources: …`) and mentions
/// `data`. A YAML parser stops at its first error, so a walked configuration broken above its
/// `data:` key would otherwise be skipped as not ours, and a broken config would pass the lint.
fn mentions_sources(text: &str) -> bool {
    let sources_key = text.lines().any(|line| {
        let line = line.trim_start().trim_start_matches(['{', ' ']);
        ["sources:", "sources =", "sources="]
            .iter()
            .any(|key| line.starts_with(key))
            || line.contains("{sources:")
            || line.contains("{ sources:")
    });
    text.contains("data.sources") || (sources_key && text.contains("data"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_over_the_limit_or_with_a_nul_is_refused_with_the_reason() {
        assert_eq!(refuse_text("data:\n  sources: {}\n"), None);
        let nul = refuse_text("data:\0").expect("refused");
        assert_eq!(
            nul.message,
            "this is a binary file (a NUL byte at offset 5), not YAML or TOML text"
        );
        let large = "#".repeat(MAX_FILE_BYTES as usize + 1);
        assert_eq!(
            refuse_text(&large).expect("refused").message,
            "the file is 16.0 MiB, over the 16 MiB limit for configuration files"
        );
    }

    #[test]
    fn a_changed_text_is_searched_for_nul_bytes_in_its_change_only() {
        let change = |start, new_end| Change {
            start,
            old_end: start,
            new_end,
        };
        let text = "a: 1\nb: \0\0\n";
        assert_eq!(
            refuse_changed(text, change(8, 10))
                .expect("refused")
                .message,
            "this is a binary file (a NUL byte at offset 8), not YAML or TOML text"
        );
        assert_eq!(refuse_changed(text, change(0, 5)), None);
        // A change that cannot have made the text: all of it is searched.
        assert!(refuse_changed(text, change(8, 99)).is_some());
    }

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(human_size(512), "512 bytes");
        assert_eq!(human_size(16 * 1024 * 1024), "16 MiB");
        assert_eq!(human_size(50 * 1024 * 1024 + 512 * 1024), "50.5 MiB");
    }

    #[test]
    fn text_that_mentions_a_sources_block_is_recognised() {
        assert!(mentions_sources("data:\n  sources:\n"));
        assert!(mentions_sources("data: {sources: {a: 1}"));
        assert!(mentions_sources("[data.sources.apps]\ntype = \"http"));
        assert!(mentions_sources("[data]\nsources = {"));
        assert!(!mentions_sources("data:\n  rows: [\n"));
        assert!(!mentions_sources("open_sources: 1\n"));
    }
}
