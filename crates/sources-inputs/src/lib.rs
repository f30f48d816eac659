//! What the analysis knows of a configuration's data besides its text, for every front end to hand
//! to `sources_check::analyze_with`: the demo backend's published response shapes ([`demo`]) and
//! the samples recorded beside the configuration file ([`samples`]).
//!
//! It reads files (the samples), so it is not part of the pure checker; it sits below the
//! evaluator, so lint and the language server get these inputs without an evaluator. Of the
//! settings file, the analysis takes the expression language; which settings file governs a
//! document is each front end's choice (`sources lint --settings`, `--isolated`), found through
//! `sources_check::settings_file`, so the language is handed in.

use std::path::Path;

use sources_check::settings::Language;
use sources_check::shapes::ShapeInputs;

pub mod demo;
pub mod samples;

/// The analysis inputs for the configuration file at `path` whose expressions are in `language`:
/// the demo backend's routes, and the samples recorded beside the file; the routes alone for a
/// text with no file (standard input, an unsaved editor buffer).
pub fn for_config(path: Option<&Path>, language: Language) -> ShapeInputs {
    let mut inputs = demo::inputs();
    inputs.language = language;
    if let Some(path) = path {
        inputs.samples = samples::read(path).samples;
    }
    inputs
}
