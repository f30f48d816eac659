//! The one analysis every front end calls: [`analyze`] turns text into diagnostics and a model.
//!
//! Pure: no file, process, network or clock access, except `settings_file`, which finds and reads
//! the project's settings file for every front end, and `walk`, which finds the configuration
//! files under a directory for every front end. Decoding (`sources-config`) reports the
//! problems of single fields; the modules here check the model as a whole, one module per domain,
//! each a `check_*` function that pushes into the analysis's `Collector`, which runs the
//! per-diagnostic stages (inherited keys, recovered values, suppressions, a front end's filter
//! and bound) as each diagnostic is found.

mod anchored;
mod bindings;
pub mod catalog;
mod cross;
mod data_miss;
mod data_paths;
mod data_refs;
mod data_types;
mod demo_shapes;
mod drivers;
mod expression_language;
mod expressions;
mod fix_all;
mod fixes;
mod foreign;
mod graph;
mod growing;
pub mod hidden;
mod ineffective;
mod inherited;
pub mod input;
mod lookup_rows;
mod merge;
mod operators;
mod param_expressions;
mod params;
mod passed;
pub mod placeholders;
mod references;
pub mod request;
mod reuse;
mod rows;
mod runnable;
mod screens;
mod selection;
pub mod settings;
pub mod settings_file;
pub mod shape;
mod shaped;
pub mod shapes;
pub mod shown;
mod suppress;
mod templates;
pub mod walk;
mod window;

pub use drivers::{RowNames, RowNamespace, driver_named, row_names, selection_drivers};
pub use expressions::{ExpressionSite, sites as expression_sites};
pub use fix_all::{AppliedFix, Fixed, fix_all};
pub use graph::{EdgeKind, Graph, GraphEdge, GraphNode, NodeKind};
pub use param_expressions::reads_row;
pub use reuse::Memo;
pub use rows::{MAX_EVALUATIONS, MAX_ROWS, NotRun, knows_value, not_run};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use shapes::{ShapeInputs, Shapes};
use sources_config::Config;
use sources_diagnostics::{Collector, Diagnostic, Rule, Severity, Span};
use sources_syntax::{LineIndex, Syntax, Tree};
pub use suppress::{Baseline, add_suppressions, suppression_edit};
pub use templates::{SiteKind, TemplateSite, sites as template_sites, window_token_misplaced};

/// Everything one document's analysis produced.
#[derive(Debug)]
pub struct Analysis {
    /// Every problem, sorted by position (for a [`Bounded`] analysis, the first ones kept).
    pub diagnostics: Vec<Diagnostic>,
    /// How many problems past a [`Bounded`] analysis's limit were left out (0 otherwise).
    pub omitted: usize,
    /// How many of those left out are errors.
    pub omitted_errors: usize,
    /// Whether the text parsed without syntax errors.
    pub parsed: bool,
    /// The decoded model (as much of it as could be decoded).
    pub config: Config,
    /// Positions for this document's text.
    pub line_index: LineIndex,
    /// Whether the document has a `data.sources` block at all (files without one are not ours).
    pub has_sources: bool,
    /// The shape of every entry's data, as far as the text and the front end's inputs tell.
    pub shapes: Shapes,
    /// The errors a suppression comment silenced, each with the code that did (so that `try`,
    /// refused by what one of them predicts, can name it).
    pub silenced: Vec<Silenced>,
    /// The language the expressions were read in (the front end's [`ShapeInputs::language`]).
    pub language: sources_expr::Language,
}

/// An error a suppression comment silenced.
#[derive(Clone, Debug, PartialEq)]
pub struct Silenced {
    /// The error, as it would have been reported.
    pub diagnostic: Diagnostic,
    /// The rule code in the comment that silenced it.
    pub by: Span,
}

/// What a front end that shows only the first diagnostics asks of an analysis (the editor): its
/// filter, then the limit. Both run as each diagnostic is found, after suppressions, so the
/// analysis never holds more than about twice `limit` diagnostics.
pub struct Bounded {
    /// Keep the first `limit` diagnostics in the order of every output, and count the rest.
    pub limit: usize,
    /// Whether the front end shows a diagnostic at all (`false`: a rule its settings turn off).
    pub keep: Box<dyn Fn(&Diagnostic) -> bool>,
}

impl std::fmt::Debug for Bounded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bounded")
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

/// Analyses one document. Never panics, never performs I/O.
pub fn analyze(text: &str, syntax: Syntax) -> Analysis {
    analyze_with(text, syntax, &ShapeInputs::default())
}

/// Analyses one document with what the front end knows about its data (recorded samples, the
/// demo backend's shapes), which the data checks read. Never panics, never performs I/O.
pub fn analyze_with(text: &str, syntax: Syntax, inputs: &ShapeInputs) -> Analysis {
    analyze_parsed_with(text, syntax, sources_syntax::parse(text, syntax), inputs)
}

/// Analyses one document from its parse, which must be `sources_syntax::parse(text, syntax)` (the
/// editor keeps a [`sources_syntax::Tree`] and reparses only what an edit changed). Gives exactly
/// what [`analyze`] gives for the same text.
pub fn analyze_parsed(text: &str, syntax: Syntax, parse: sources_syntax::Parse) -> Analysis {
    analyze_parsed_with(text, syntax, parse, &ShapeInputs::default())
}

/// [`analyze_parsed`] with the front end's [`ShapeInputs`].
pub fn analyze_parsed_with(
    text: &str,
    syntax: Syntax,
    parse: sources_syntax::Parse,
    inputs: &ShapeInputs,
) -> Analysis {
    analyze_indexed(
        text,
        syntax,
        Parsed::Owned(parse),
        || LineIndex::new(text),
        None,
        inputs,
    )
}

/// Analyses one document from its parse like [`analyze_parsed`], keeping only what `bounded` asks
/// for: the diagnostics it keeps, the first `limit` of them, and how many more there were. The
/// kept ones are exactly the first `limit` of [`analyze`]'s diagnostics that `keep` accepts. The
/// line index shares `text` rather than copying it (the language server keeps each version's
/// text anyway).
pub fn analyze_bounded(
    text: &Arc<String>,
    syntax: Syntax,
    parse: sources_syntax::Parse,
    bounded: Bounded,
) -> Analysis {
    analyze_bounded_with(text, syntax, parse, bounded, &ShapeInputs::default())
}

/// [`analyze_bounded`] with the front end's [`ShapeInputs`].
pub fn analyze_bounded_with(
    text: &Arc<String>,
    syntax: Syntax,
    parse: sources_syntax::Parse,
    bounded: Bounded,
    inputs: &ShapeInputs,
) -> Analysis {
    analyze_indexed(
        text,
        syntax,
        Parsed::Owned(parse),
        || LineIndex::shared(Arc::clone(text)),
        Some(bounded),
        inputs,
    )
}

/// Analyses the editor's next version of a document as [`analyze_bounded_with`] does (or, without
/// `bounded`, as [`analyze_with`] does), from `tree`, the document's tree updated to `text`.
/// `memo` holds what the analysis of the version the tree was updated from kept (empty at first)
/// and is replaced by what this one keeps: an entry the update kept is neither copied out of the
/// tree and decoded again nor checked again by the checks of one entry alone, and the line index
/// is the previous one with the changed lines spliced in ([`LineIndex::edited`]). Gives exactly
/// what a fresh analysis of `text` gives.
pub fn analyze_edited(
    text: &Arc<String>,
    tree: &Tree,
    memo: &mut Memo,
    bounded: Option<Bounded>,
    inputs: &ShapeInputs,
) -> Analysis {
    let parse = tree.parse();
    let mut previous = std::mem::take(memo);
    let previous_index = previous.line_index.take();
    if previous.language != inputs.language {
        // What the checks found was found reading the expressions in another language.
        previous = Memo::default();
    }
    let mut reuse = reuse::Reuse::new(
        previous,
        tree.reparsed(),
        text.len(),
        reuse::sources_path(parse.root.as_ref()),
    );
    let index = || match (previous_index, tree.change()) {
        (Some(previous), Some(change)) => LineIndex::edited(&previous, Arc::clone(text), change),
        _ => LineIndex::shared(Arc::clone(text)),
    };
    let analysis = analyze_indexed(
        text,
        tree.syntax(),
        Parsed::Kept(parse, &mut reuse),
        index,
        bounded,
        inputs,
    );
    *memo = reuse.finish();
    memo.line_index = Some(analysis.line_index.clone());
    memo.language = inputs.language;
    analysis
}

/// The parse an analysis works from.
enum Parsed<'a> {
    /// Taken by value: the decoder moves its strings into the model.
    Owned(sources_syntax::Parse),
    /// The editor's kept tree, with what the previous version's analysis left for reuse: the
    /// decoder copies only the entries it decodes again.
    Kept(&'a sources_syntax::Parse, &'a mut reuse::Reuse),
}

/// Analyses `text` from its parse; `index` makes its line index, once the tree is gone. Every
/// diagnostic goes through the same stages as it is found: named after the entries inheriting
/// it, dropped where the parser recovered a value, silenced by suppressions, then (when
/// `bounded`) filtered and bounded.
fn analyze_indexed(
    text: &str,
    syntax: Syntax,
    parsed: Parsed<'_>,
    index: impl FnOnce() -> LineIndex,
    bounded: Option<Bounded>,
    inputs: &ShapeInputs,
) -> Analysis {
    let parse = match &parsed {
        Parsed::Owned(parse) => parse,
        Parsed::Kept(parse, _) => *parse,
    };
    let (mut out, keep) = match bounded {
        Some(bounded) => (
            Collector::bounded(bounded.limit),
            Some(Rc::<dyn Fn(&Diagnostic) -> bool>::from(bounded.keep)),
        ),
        None => (Collector::unbounded(), None),
    };
    // What the stages need from the tree is read now: the decoder takes the tree, moving its
    // strings into the model and freeing the rest as it goes.
    let suppressions = Rc::new(suppress::find(text, parse.root.as_ref()));
    let inheritors = match &parse.root {
        Some(root) => inherited::inheritors(root, text, syntax),
        None => Vec::new(),
    };
    let recovered: Vec<Span> = parse.errors.iter().map(|error| error.span).collect();
    let syntax_errors = parse
        .errors
        .iter()
        .map(|error| Diagnostic::new(Rule::Syntax, error.span, error.message.clone()));
    let silenced = Rc::new(RefCell::new(Vec::new()));
    {
        let suppressions = Rc::clone(&suppressions);
        let silenced = Rc::clone(&silenced);
        let keep = keep.clone();
        // A diagnostic hidden by a suppression gives way to its stand-in, which goes through the
        // same stages; the stand-in of one kept goes through them at once (named, dropped where
        // recovered, silenced), so that whoever hides the kept one later (the filter here, a
        // front end's selection) reveals it as these stages left it.
        let settle = move |diagnostic: Diagnostic| {
            settled(diagnostic, &|diagnostic: &mut Diagnostic| {
                inherited::attribute(&inheritors, diagnostic);
                if is_recovered(&recovered, diagnostic) {
                    return Stage::Drop;
                }
                match suppressions.silences(diagnostic) {
                    Some(by) => Stage::Silenced(by),
                    None => Stage::Keep,
                }
            })
        };
        out.set_stage(move |diagnostic| {
            let (mut next, by_comment) = settle(diagnostic);
            for Silenced { diagnostic, by } in by_comment {
                if diagnostic.severity == Severity::Error {
                    silenced.borrow_mut().push(Silenced { diagnostic, by });
                }
            }
            while let Some(mut diagnostic) = next {
                match keep.as_deref() {
                    Some(keep) if !keep(&diagnostic) => {
                        next = diagnostic.stand_in.take().map(|stand_in| *stand_in);
                    }
                    _ => return Some(diagnostic),
                }
            }
            None
        });
    }
    out.extend(syntax_errors);
    let parsed_cleanly = parse.errors.is_empty();
    let (config, reuse) = match parsed {
        Parsed::Owned(parse) => match parse.root {
            Some(root) => (sources_config::decode_into(root, &mut out), None),
            None => (Config::default(), None),
        },
        Parsed::Kept(parse, reuse) => match &parse.root {
            Some(root) => (
                sources_config::decode_edited(root, &mut out, &mut *reuse),
                Some(reuse),
            ),
            None => (Config::default(), Some(reuse)),
        },
    };
    let shapes = if config.has_sources() {
        check(&config, text, inputs, &mut out, reuse)
    } else {
        Shapes::default()
    };
    // The suppressions' own diagnostics come last, once every other diagnostic had its chance to
    // use them; only the front end's filter and the bound apply to them.
    let parsed = parsed_cleanly;
    out.set_stage(move |diagnostic| kept(keep.as_deref(), diagnostic));
    out.extend(suppressions.unused(parsed));
    let collected = out.finish();
    let silenced = silenced.take();
    Analysis {
        diagnostics: collected.diagnostics,
        omitted: collected.omitted,
        omitted_errors: collected.omitted_errors,
        parsed,
        has_sources: config.has_sources(),
        config,
        line_index: index(),
        shapes,
        silenced,
        language: inputs.language,
    }
}

/// `diagnostic` unless the front end's filter drops it.
fn kept(keep: Option<&dyn Fn(&Diagnostic) -> bool>, diagnostic: Diagnostic) -> Option<Diagnostic> {
    match keep {
        Some(keep) if !keep(&diagnostic) => None,
        _ => Some(diagnostic),
    }
}

/// Whether `diagnostic` is about a value the parser had to recover (a TOML value written without
/// quotes, or missing): it starts where a syntax error (in `errors`) is, and that error already is
/// the one mistake. Syntax errors themselves are all kept.
/// What the analysis's stages make of one diagnostic.
enum Stage {
    /// It goes on.
    Keep,
    /// It is dropped, with its stand-in (the parser recovered its value).
    Drop,
    /// A suppression comment (its span) silenced it: its stand-in goes on in its place.
    Silenced(Span),
}

/// `diagnostic` through `stage`: the one that goes on (itself, or the first of its stand-ins that
/// does when it is silenced), whose own stand-in has been through `stage` too; and the ones a
/// suppression silenced on the way, not counting those of a stand-in never shown.
fn settled(
    diagnostic: Diagnostic,
    stage: &dyn Fn(&mut Diagnostic) -> Stage,
) -> (Option<Diagnostic>, Vec<Silenced>) {
    let mut silenced = Vec::new();
    let mut next = Some(diagnostic);
    while let Some(mut diagnostic) = next {
        match stage(&mut diagnostic) {
            Stage::Drop => return (None, silenced),
            Stage::Silenced(by) => {
                next = diagnostic.stand_in.take().map(|stand_in| *stand_in);
                silenced.push(Silenced { diagnostic, by });
            }
            Stage::Keep => {
                if let Some(stand_in) = diagnostic.stand_in.take() {
                    diagnostic.stand_in = settled(*stand_in, stage).0.map(Box::new);
                }
                return (Some(diagnostic), silenced);
            }
        }
    }
    (None, silenced)
}

fn is_recovered(errors: &[Span], diagnostic: &Diagnostic) -> bool {
    diagnostic.rule != Rule::Syntax
        && errors.iter().any(|error| {
            let end = error.end().max(error.start() + 1);
            (error.start()..end).contains(&diagnostic.span.start())
        })
}

/// Every check over the decoded model, giving the shapes: those that read other entries
/// (`cross`), then those of one entry alone, entry by entry (`reuse` gives, for an entry an edit
/// did not touch, the latter's diagnostics, and what the former can take from the previous
/// version).
fn check(
    config: &Config,
    text: &str,
    inputs: &ShapeInputs,
    out: &mut Collector,
    mut reuse: Option<&mut reuse::Reuse>,
) -> Shapes {
    let edit = reuse.as_deref_mut().and_then(reuse::Reuse::edit);
    let (shapes, facts) = cross::check(config, text, inputs, out, edit);
    if let (Some(reuse), Some(facts)) = (reuse.as_deref_mut(), facts) {
        reuse.keep_facts(facts);
    }
    let mut tallies = Vec::with_capacity(config.entries.len());
    for (index, source) in config.entries.iter().enumerate() {
        tallies.push(match reuse.as_deref_mut() {
            Some(reuse) => reuse.check(index, source, text, inputs.language, out),
            None => reuse::check_entry(source, text, inputs.language, out),
        });
    }
    expression_language::check_language(config, text, inputs.language, &tallies, out);
    shapes
}

#[cfg(test)]
mod tests;
