//! The one analysis every front end calls: [`analyze`] turns text into diagnostics and a model.
//!
//! Pure: no file, process, network or clock access, except `settings_file`, which finds and reads
//! the project's settings file for every front end. Decoding (`sources-config`) reports the
//! problems of single fields; the modules here check the model as a whole, one module per domain,
//! each a `check_*` function that appends to the diagnostics.

mod anchored;
mod bindings;
mod expressions;
mod fix_all;
mod fixes;
mod graph;
mod growing;
mod ineffective;
mod inherited;
pub mod input;
mod merge;
mod operators;
mod params;
mod references;
mod runnable;
pub mod settings;
pub mod settings_file;
mod suppress;
mod templates;
mod window;

pub use expressions::{CompileError, MAX_EXPRESSION_LEN, MAX_EXPRESSION_NESTING, compile_program};
pub use expressions::{ExpressionSite, sites as expression_sites};
pub use fix_all::{AppliedFix, Fixed, fix_all};
pub use graph::{EdgeKind, Graph, GraphEdge, GraphNode, NodeKind};
use std::sync::Arc;

use sources_config::Config;
use sources_diagnostics::{Diagnostic, Rule};
use sources_syntax::{LineIndex, Syntax};
pub use suppress::{Baseline, add_suppressions, suppression_edit};
pub use templates::{SiteKind, TemplateSite, sites as template_sites, window_token_misplaced};

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
    analyze_parsed(text, syntax, sources_syntax::parse(text, syntax))
}

/// Analyses one document from its parse, which must be `sources_syntax::parse(text, syntax)` (the
/// editor keeps a [`sources_syntax::Tree`] and reparses only what an edit changed). Gives exactly
/// what [`analyze`] gives for the same text.
pub fn analyze_parsed(text: &str, syntax: Syntax, parse: sources_syntax::Parse) -> Analysis {
    analyze_indexed(text, syntax, parse, || LineIndex::new(text))
}

/// Analyses one document from its parse like [`analyze_parsed`], with a line index that shares
/// `text` rather than copying it (the language server keeps the text of each version anyway).
pub fn analyze_shared(
    text: &Arc<String>,
    syntax: Syntax,
    parse: sources_syntax::Parse,
) -> Analysis {
    analyze_indexed(text, syntax, parse, || LineIndex::shared(Arc::clone(text)))
}

/// Analyses `text` from its parse; `index` makes its line index, once the tree is gone.
fn analyze_indexed(
    text: &str,
    syntax: Syntax,
    parse: sources_syntax::Parse,
    index: impl FnOnce() -> LineIndex,
) -> Analysis {
    let mut diagnostics: Vec<Diagnostic> = parse
        .errors
        .iter()
        .map(|error| Diagnostic::new(Rule::Syntax, error.span, error.message.clone()))
        .collect();
    // What the steps after the checks need from the tree is read now: the decoder takes the tree,
    // moving its strings into the model and freeing the rest as it goes.
    let suppressions = suppress::find(text, parse.root.as_ref());
    let (config, inheritors) = match parse.root {
        Some(root) => {
            let inheritors = inherited::inheritors(&root, text, syntax);
            let (config, decoded) = sources_config::decode(root);
            // Moved rather than copied when there is nothing before them: on a document with
            // many problems, a copy would hold every diagnostic twice.
            if diagnostics.is_empty() {
                diagnostics = decoded;
            } else {
                diagnostics.extend(decoded);
            }
            (config, inheritors)
        }
        None => (Config::default(), Vec::new()),
    };
    if config.has_sources() {
        check(&config, text, &mut diagnostics);
    }
    inherited::attribute(&inheritors, &mut diagnostics);
    drop_recovered(&parse.errors, &mut diagnostics);
    let parsed = parse.errors.is_empty();
    suppress::apply(text, suppressions, &mut diagnostics, parsed);
    sources_diagnostics::sort(&mut diagnostics);
    Analysis {
        diagnostics,
        has_sources: config.has_sources(),
        config,
        line_index: index(),
    }
}

/// Drops the diagnostics about a value the parser had to recover (a TOML value written without
/// quotes, or missing): they start where a syntax error is, and that error already is the one
/// mistake. Syntax errors themselves are all kept.
fn drop_recovered(errors: &[sources_syntax::SyntaxError], diagnostics: &mut Vec<Diagnostic>) {
    if errors.is_empty() {
        return;
    }
    diagnostics.retain(|diagnostic| {
        diagnostic.rule == Rule::Syntax
            || !errors.iter().any(|error| {
                let end = error.span.end.max(error.span.start + 1);
                (error.span.start..end).contains(&diagnostic.span.start)
            })
    });
}

/// Every check over the decoded model.
fn check(config: &Config, text: &str, out: &mut Vec<Diagnostic>) {
    let references = references::References::of(config);
    references::check_unknown_sources(config, &references, out);
    references::check_unknown_components(config, out);
    references::check_cycles(config, &references, out);
    merge::check_merge(config, out);
    window::check_window(config, text, out);
    anchored::check_anchored(config, out);
    growing::check_growing(config, text, out);
    bindings::check_bindings(config, &references, text, out);
    params::check_params(config, &references, text, out);
    templates::check_template_uses(config, text, out);
    expressions::check_expressions(config, text, out);
    operators::check_operators(config, text, out);
    ineffective::check_ineffective(config, text, out);
    runnable::check_runnable(config, text, out);
}

#[cfg(test)]
mod tests;
