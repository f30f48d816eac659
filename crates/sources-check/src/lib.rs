//! The one analysis every front end calls: [`analyze`] turns text into diagnostics and a model.
//!
//! Pure: no file, process, network or clock access.

use sources_config::Config;
use sources_diagnostics::{Diagnostic, Rule};
use sources_syntax::{LineIndex, Syntax};

/// Everything one document's analysis produced.
#[derive(Debug)]
pub struct Analysis {
    /// Every problem, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// The decoded model (as much of it as could be decoded).
    pub config: Config,
    /// Positions for this document's text.
    pub line_index: LineIndex,
    /// Whether the document has a `data.sources` block at all (files without one are not ours).
    pub has_sources: bool,
}

/// Analyses one document. Never panics, never performs I/O.
pub fn analyze(text: &str, syntax: Syntax) -> Analysis {
    let parse = sources_syntax::parse(text, syntax);
    let mut diagnostics: Vec<Diagnostic> = parse
        .errors
        .iter()
        .map(|error| Diagnostic::new(Rule::Syntax, error.span, error.message.clone()))
        .collect();
    sources_diagnostics::sort(&mut diagnostics);
    Analysis {
        diagnostics,
        config: Config::default(),
        line_index: LineIndex::new(text),
        has_sources: false,
    }
}
