//! The one analysis every front end calls: [`analyze`] turns text into diagnostics and a model.
//!
//! Pure: no file, process, network or clock access. Decoding (`sources-config`) reports the
//! problems of single fields; the modules here check the model as a whole, one module per domain,
//! each a `check_*` function that appends to the diagnostics.

mod merge;
mod references;

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
    let config = match &parse.root {
        Some(root) => {
            let (config, decoded) = sources_config::decode(root);
            diagnostics.extend(decoded);
            config
        }
        None => Config::default(),
    };
    if config.has_sources() {
        check(&config, &mut diagnostics);
    }
    sources_diagnostics::sort(&mut diagnostics);
    Analysis {
        diagnostics,
        has_sources: config.has_sources(),
        config,
        line_index: LineIndex::new(text),
    }
}

/// Every check over the decoded model.
fn check(config: &Config, out: &mut Vec<Diagnostic>) {
    references::check_unknown_sources(config, out);
    references::check_cycles(config, out);
    merge::check_merge(config, out);
}

#[cfg(test)]
mod tests;
