//! Which documents are configuration files of this format at all.

use sources_diagnostics::Rule;

use crate::Analysis;

impl Analysis {
    /// Whether the analysed document is a configuration of this format: it has a `data.sources`
    /// block, or it does not parse and its text still looks like it declares one. The CLI skips
    /// walked files for which this is false; the language server publishes nothing for them.
    pub fn is_configuration(&self) -> bool {
        self.has_sources
            || (self
                .diagnostics
                .iter()
                .any(|diagnostic| diagnostic.rule == Rule::Syntax)
                && mentions_sources(self.line_index.text()))
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
    fn text_that_mentions_a_sources_block_is_recognised() {
        assert!(mentions_sources("data:\n  sources:\n"));
        assert!(mentions_sources("data: {sources: {a: 1}"));
        assert!(mentions_sources("[data.sources.apps]\ntype = \"http"));
        assert!(mentions_sources("[data]\nsources = {"));
        assert!(!mentions_sources("data:\n  rows: [\n"));
        assert!(!mentions_sources("open_sources: 1\n"));
    }
}
