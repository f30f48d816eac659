//! `sources lint`: find the configuration files, analyse each one, render every diagnostic.
//!
//! No rule is written here: every diagnostic comes from `sources_check::analyze`, except the few
//! that say a file cannot be analysed at all (too large, binary, not UTF-8), which are reported as
//! `syntax` diagnostics.

use std::io::{self, Write};
use std::path::PathBuf;

use sources_check::Fixed;
use sources_check::input::human_size;
use sources_diagnostics::{Diagnostic, Rule, Span, unified_diff};
use sources_syntax::{LineIndex, Syntax};

use crate::Outcome;
use crate::fix::{self, FixMode};
use crate::inputs::{self, Content, Input, MAX_FILE_BYTES, Origin, ReadError};
use crate::render::{self, Format, RenderOptions};
use crate::report::{FileReport, Summary};
use crate::selection::Selection;
use crate::terminal::{self, Stream};
use crate::{parallel, settings_file};
use sources_check::settings::Language;
use sources_check::settings_file::{Finder, Found};

/// Arguments of `sources lint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files and directories to lint; `-` reads standard input. Directories are walked for
    /// `.yaml`, `.yml` and `.toml` files that have a `data.sources` block (hidden files and
    /// directories, `target`, `node_modules` and what `.gitignore` and `.ignore` files ignore
    /// are skipped); files named here are always linted.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Output format [default: human when standard output is a terminal, short otherwise].
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Exit with status 1 on warnings too, not only on errors.
    #[arg(long)]
    pub deny_warnings: bool,
    /// The name shown for standard input; a `.toml` name reads it as TOML, anything else as YAML.
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<String>,
    /// Apply every safe fix in place (comments and formatting are kept), say what changed on
    /// standard error, then report what remains. With `--diff`, show what it would change instead.
    #[arg(long)]
    pub fix: bool,
    /// Print the safe fixes as a unified diff instead of the diagnostics, without writing anything;
    /// exit with status 1 when there is something to fix.
    #[arg(long)]
    pub diff: bool,
    /// Report only these rules: codes or prefixes of codes (`window` is every `window-…` rule,
    /// `ALL` every rule), comma-separated or repeated; on top of the settings file's levels.
    #[arg(long, value_name = "CODE", value_delimiter = ',', add = clap_complete::ArgValueCandidates::new(crate::completion::rule_codes))]
    pub select: Vec<String>,
    /// Report these rules too (codes or prefixes), even where the settings file turns them off.
    #[arg(long, value_name = "CODE", value_delimiter = ',', add = clap_complete::ArgValueCandidates::new(crate::completion::rule_codes))]
    pub extend_select: Vec<String>,
    /// Never report these rules (codes or prefixes); wins over `--select` and `--extend-select`.
    #[arg(long, value_name = "CODE", value_delimiter = ',', add = clap_complete::ArgValueCandidates::new(crate::completion::rule_codes))]
    pub ignore: Vec<String>,
    /// Exit with status 0 even when problems are found (2 still means the run could not finish).
    #[arg(long)]
    pub exit_zero: bool,
    /// Write the report to FILE instead of standard output (notes stay on standard error).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output_file: Option<PathBuf>,
    /// Print how many diagnostics each rule reported (most first), instead of the diagnostics.
    #[arg(long, conflicts_with_all = ["format", "diff"])]
    pub statistics: bool,
    /// Print the diagnostics and nothing else: no summary line, no notes on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    /// Also say on standard error which entries over static data lint did not run, and why (too
    /// many rows, parameters, an operator it does not run).
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Never colour the report (as `--color never`). Without either, the report is coloured on a
    /// terminal unless `NO_COLOR` is set, and anywhere when `FORCE_COLOR` or `CLICOLOR_FORCE` is
    /// (not `0`).
    #[arg(long)]
    pub no_color: bool,
    /// Baseline a repository: add a `# sources: ignore[…]` comment for every current finding to
    /// the line it starts on (files are written in place), then report what remains.
    #[arg(long, conflicts_with_all = ["fix", "diff"])]
    pub add_suppressions: bool,
    /// The settings file to use for every file, instead of the `sources-lint.toml` (or
    /// `.sources-lint.toml`) found by walking up from each file's directory.
    #[arg(long, value_name = "PATH")]
    pub settings: Option<PathBuf>,
    /// Walk directories without honouring `.gitignore`, `.ignore` and git's exclude files (hidden
    /// entries, `target` and `node_modules` are still skipped).
    #[arg(long)]
    pub no_ignore: bool,
    /// Lint on N threads; 0 uses one per core. The output is the same whatever N.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Ignore every settings file: each rule at its default level.
    #[arg(long, conflicts_with = "settings")]
    pub isolated: bool,
    /// Print the settings in force for FILE (each rule's level and where it was set: `default`
    /// or the settings file and line) instead of linting.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fix", "diff", "add_suppressions"])]
    pub show_settings: Option<PathBuf>,
}

impl Args {
    /// What to do with safe fixes, if anything: `--diff` (also with `--fix`) only shows them.
    pub fn fix_mode(&self) -> Option<FixMode> {
        if self.diff {
            Some(FixMode::Diff)
        } else if self.fix {
            Some(FixMode::Write)
        } else {
            None
        }
    }
}

/// Why `sources lint` could not finish (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A path could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The report could not be written.
    #[error("cannot write the report")]
    Write(#[source] io::Error),
    /// A fixed file could not be written back.
    #[error("cannot write the fixed `{path}`")]
    WriteFixed {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: sources_eval::files::WriteError,
    },
    /// `--fix` or `--add-suppressions` was asked for standard input, which has no file to write
    /// back to.
    #[error(
        "`--fix` and `--add-suppressions` write files in place and cannot change standard input: use `--diff` to see fixes"
    )]
    FixStdin,
    /// A settings file could not be read or is invalid.
    #[error(transparent)]
    Settings(#[from] sources_check::settings_file::Error),
    /// A `--select`, `--extend-select` or `--ignore` value names no rule.
    #[error(transparent)]
    Selection(#[from] crate::selection::UnknownRule),
    /// `--output-file` could not be created or moved into place.
    #[error("cannot write `{path}`")]
    OutputFile {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: sources_eval::files::WriteError,
    },
}

/// Runs `sources lint`: reads and analyses every input, on `--threads` threads (an unreadable one
/// stops the run before anything is printed; with `--fix`, files before it are already fixed, and
/// files after it may be), then prints what each file says on standard error and renders the
/// reports, sorted by path: the same bytes whatever the number of threads.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<Outcome, Error> {
    let selection = Selection::new(&args.select, &args.extend_select, &args.ignore)?;
    let Some(path) = &args.output_file else {
        let outcome = lint(args, &selection, out)?;
        match out.flush() {
            // The reader went away (`sources lint | head`): the exit status still tells the outcome.
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
            flushed => flushed.map_err(Error::Write)?,
        }
        return Ok(finish(args, outcome));
    };
    // The report goes to a temporary file beside `--output-file`, moved into place when complete.
    let output_error = |source| Error::OutputFile {
        path: path.display().to_string(),
        source,
    };
    let created = sources_eval::files::AtomicFile::create(path, None).map_err(output_error)?;
    let mut file = io::BufWriter::new(created);
    let outcome = lint(args, &selection, &mut file)?;
    let written = file
        .into_inner()
        .map_err(|error| Error::Write(error.into_error()))?;
    written.commit().map_err(output_error)?;
    Ok(finish(args, outcome))
}

/// The outcome `run` reports: success under `--exit-zero`.
fn finish(args: &Args, outcome: Outcome) -> Outcome {
    if args.exit_zero {
        Outcome::Success
    } else {
        outcome
    }
}

/// Lints every input and writes the report to `out`.
fn lint(args: &Args, selection: &Selection, out: &mut dyn Write) -> Result<Outcome, Error> {
    // Settings files with mistakes, each reported as a file of its own; the files they govern
    // are not linted, every other file is.
    let mut broken = Vec::new();
    let mut finder = if args.isolated {
        Finder::isolated()
    } else {
        match Finder::new(args.settings.as_deref()) {
            Ok(finder) => finder,
            Err(error) => {
                broken.push(settings_report(error)?);
                Finder::isolated()
            }
        }
    };
    if let Some(file) = &args.show_settings {
        let found = finder.for_file(Some(file))?;
        return match settings_file::show(found.as_deref(), out) {
            Err(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(Error::Write(error)),
            _ => Ok(Outcome::Success),
        };
    }
    let mut inputs =
        inputs::discover(&args.paths, args.stdin_filename.as_deref(), !args.no_ignore)?;
    // In path order, so that what `--fix` says on standard error is in file and line order.
    inputs.sort_by(|a, b| a.path.cmp(&b.path));
    let fix_mode = args.fix_mode();
    let writes = fix_mode == Some(FixMode::Write) || args.add_suppressions;
    if writes && inputs.iter().any(|input| input.origin == Origin::Stdin) {
        return Err(Error::FixStdin);
    }
    // The settings of each file, in order; a settings file that cannot be read stops the run at
    // the first file it applies to, after the files before it. One with mistakes is reported, and
    // the files it governs are left out.
    let mut planned = Vec::with_capacity(inputs.len());
    let mut settings_error = None;
    for input in inputs {
        let file = match &input.origin {
            Origin::File(path) => Some(path.as_path()),
            Origin::Stdin => None,
        };
        let found = match broken.first() {
            Some(named) if args.settings.is_some() => Err(named.path.clone()),
            _ => match finder.for_file(file) {
                Ok(found) => Ok(found),
                Err(error) => match settings_report(error) {
                    Ok(report) => {
                        let path = report.path.clone();
                        if !broken.iter().any(|known: &FileReport| known.path == path) {
                            if !args.quiet {
                                eprintln!(
                                    "sources: the files `{path}` governs are not linted until its \
                                     mistakes are fixed"
                                );
                            }
                            broken.push(report);
                        }
                        Err(path)
                    }
                    Err(error) => {
                        settings_error = Some(error);
                        break;
                    }
                },
            },
        };
        match found {
            Ok(found) => planned.push((input, found)),
            // A file named on the command line is always linted, so its omission is said.
            Err(settings) if input.named && !args.quiet => eprintln!(
                "sources: `{}` is not linted: its settings file `{settings}` has mistakes",
                input.path
            ),
            Err(_) => {}
        }
    }
    let threads = parallel::threads(args.threads);
    let linted = parallel::map_until_error(&planned, threads, |(input, found)| {
        lint_one(args, selection, fix_mode, input, found.as_deref())
    });
    let mut reports = Vec::new();
    let mut diffs = Vec::new();
    for done in linted {
        let done = done?;
        for note in done.notes.iter().filter(|_| !args.quiet) {
            eprintln!("{note}");
        }
        reports.extend(done.report);
        diffs.extend(done.diff);
    }
    if let Some(error) = settings_error {
        return Err(error);
    }
    if fix_mode == Some(FixMode::Diff) && !broken.is_empty() {
        for report in &broken {
            render::render(
                Format::Short,
                std::slice::from_ref(report),
                &quiet_options(),
                &mut io::stderr(),
            )
            .map_err(Error::Write)?;
        }
        return Ok(Outcome::Failure);
    }
    reports.extend(broken);
    if fix_mode == Some(FixMode::Diff) {
        diffs.sort();
        let written = diffs.iter().try_for_each(|(_, diff)| write!(out, "{diff}"));
        match written {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
            written => written.map_err(Error::Write)?,
        }
        return Ok(if diffs.is_empty() {
            Outcome::Success
        } else {
            Outcome::Failure
        });
    }
    let quiet = reports
        .iter()
        .filter(|report| report.diagnostics.is_empty() && !report.has_sources);
    for report in quiet.filter(|_| !args.quiet) {
        let why = if report.text().trim().is_empty() {
            "is empty"
        } else {
            "has no `data.sources` block"
        };
        eprintln!("sources: note: `{}` {why}: nothing to check", report.path);
    }
    reports.sort_by(|a, b| a.path.cmp(&b.path));
    let to_terminal = args.output_file.is_none() && Stream::Stdout.is_terminal();
    let format = args
        .format
        .unwrap_or_else(|| Format::for_terminal(to_terminal));
    let mut options = RenderOptions::for_stream(Stream::Stdout);
    options.color = !args.no_color && terminal::color(to_terminal);
    options.quiet = args.quiet;
    let rendered = if args.statistics {
        render::statistics(&reports, out)
    } else {
        render::render(format, &reports, &options, out)
    };
    match rendered {
        // The reader went away (`sources lint | head`): the exit status still tells the outcome.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        written => written.map_err(Error::Write)?,
    }
    let summary = Summary::of(&reports);
    if summary.errors > 0 || (args.deny_warnings && summary.warnings > 0) {
        Ok(Outcome::Failure)
    } else {
        Ok(Outcome::Success)
    }
}

/// The report of a settings file with mistakes (an `invalid-settings` diagnostic each, which
/// `--select` and `--ignore` do not filter: they choose among the findings of the files linted,
/// and these files were not), or the error of one that could not be read.
fn settings_report(error: sources_check::settings_file::Error) -> Result<FileReport, Error> {
    let sources_check::settings_file::Error::Invalid { path, text, errors } = error else {
        return Err(error.into());
    };
    let diagnostics = errors.iter().map(|error| error.diagnostic()).collect();
    Ok(FileReport {
        path: settings_file::shown(std::path::Path::new(&path)),
        line_index: LineIndex::new(&text),
        diagnostics,
        has_sources: true,
    })
}

/// The short format's options with no summary line.
fn quiet_options() -> RenderOptions {
    RenderOptions {
        quiet: true,
        ..RenderOptions::for_stream(Stream::Stdout)
    }
}

/// What linting one input produced, for [`run`] to print and render in input order.
#[derive(Debug, Default)]
struct Done {
    /// Lines for standard error, in the order a one-thread run prints them.
    notes: Vec<String>,
    /// The file's report, when it is one to render.
    report: Option<FileReport>,
    /// `--diff`: the file's path and unified diff, when its fixes change it.
    diff: Option<(String, String)>,
}

/// Reads, lints and (with `--fix`, `--diff` or `--add-suppressions`) repairs one input with the
/// settings `found` for it. Prints nothing: what it would say is in [`Done::notes`].
fn lint_one(
    args: &Args,
    selection: &Selection,
    fix_mode: Option<FixMode>,
    input: &Input,
    found: Option<&Found>,
) -> Result<Done, Error> {
    let mut done = Done::default();
    if let (Some(found), Origin::File(file), false) = (found, &input.origin, input.named) {
        if !found.walks(file) {
            return Ok(done);
        }
    }
    let content = inputs::read(input)?;
    let recognised = inputs::recognise(input, &content);
    let input = recognised.as_ref().unwrap_or(input);
    let language = found.map_or_else(Language::default, |found| found.settings.language);
    let report = match lint_content(input, content, language) {
        Linted::Report(mut report) => {
            selection.apply(found.map(|found| &found.settings), &mut report.diagnostics);
            report
        }
        Linted::NotOurs => return Ok(done),
        Linted::SkippedTooLarge(size) => {
            done.notes.push(format!(
                "sources: skipping `{}`: {}, larger than the {} limit",
                input.path,
                human_size(size),
                human_size(MAX_FILE_BYTES)
            ));
            return Ok(done);
        }
    };
    let report = if args.add_suppressions {
        baseline(input, report, language, &mut done.notes)?
    } else {
        report
    };
    let repaired = fix_mode.and_then(|mode| Some((mode, fix::repair(&report, input.syntax)?)));
    let mut report = match repaired {
        None => report,
        Some((FixMode::Diff, fixed)) => {
            done.notes.extend(fix::notes(&report.path, &fixed, false));
            if fixed.text != report.text() {
                let diff = unified_diff(&report.path, report.text(), &fixed.text);
                done.diff = Some((report.path.clone(), diff));
            }
            report
        }
        Some((FixMode::Write, fixed)) => {
            write_fixed(input, report, &fixed, language, &mut done.notes)?
        }
    };
    // Again: `--fix` and `--add-suppressions` lint the text they wrote.
    selection.apply(found.map(|found| &found.settings), &mut report.diagnostics);
    fix::keep_applied_fixes_safe(&mut report, input.syntax);
    if args.verbose {
        done.notes.extend(not_run(&report, input.syntax, language));
    }
    done.report = Some(report);
    Ok(done)
}

/// `--verbose`: a line per entry over static data that lint did not run, saying why.
fn not_run(report: &FileReport, syntax: Syntax, language: Language) -> Vec<String> {
    let text = report.text();
    let config = sources_check::analyze(text, syntax).config;
    sources_check::not_run(&config, text, language)
        .into_iter()
        .map(|entry| {
            let at = report.line_index.line_col(entry.span.start());
            format!(
                "sources: {}:{}:{}: lint did not run `{}`: {}",
                report.path, at.line, at.column, entry.entry, entry.reason
            )
        })
        .collect()
}

/// Whether to colour the report: never with `--no-color`; always when `FORCE_COLOR` or
/// `CLICOLOR_FORCE` is set to anything but `0` (or empty); else on a terminal unless `NO_COLOR` is
/// set (to anything but empty).
pub fn color(no_color: bool, to_terminal: bool) -> bool {
    let set = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    let forced = ["FORCE_COLOR", "CLICOLOR_FORCE"]
        .iter()
        .any(|name| set(name).is_some_and(|value| value != "0"));
    !no_color && (forced || (to_terminal && set("NO_COLOR").is_none()))
}

/// Writes a fixed document back to its file (when it changed), says in `notes` what changed and
/// what was left out, and lints the fixed text (what remains to report).
fn write_fixed(
    input: &Input,
    report: FileReport,
    fixed: &Fixed,
    language: Language,
    notes: &mut Vec<String>,
) -> Result<FileReport, Error> {
    notes.extend(fix::notes(&input.path, fixed, true));
    if fixed.text == report.text() {
        return Ok(report);
    }
    if let Origin::File(path) = &input.origin {
        sources_eval::files::write(path, fixed.text.as_bytes(), Some(&input.root)).map_err(
            |source| Error::WriteFixed {
                path: input.path.clone(),
                source,
            },
        )?;
    }
    match lint_bytes_in(
        &input.path,
        fixed.text.as_bytes(),
        input.syntax,
        true,
        language,
    ) {
        Linted::Report(report) => Ok(report),
        Linted::NotOurs | Linted::SkippedTooLarge(_) => Ok(report),
    }
}

/// `--add-suppressions`: writes the file with a suppression for every finding, says in `notes`
/// how many, and lints the new text.
fn baseline(
    input: &Input,
    report: FileReport,
    language: Language,
    notes: &mut Vec<String>,
) -> Result<FileReport, Error> {
    let Origin::File(path) = &input.origin else {
        return Ok(report);
    };
    let baseline = sources_check::add_suppressions(report.text(), input.syntax);
    if baseline.added > 0 {
        sources_eval::files::write(path, baseline.text.as_bytes(), Some(&input.root)).map_err(
            |source| Error::WriteFixed {
                path: input.path.clone(),
                source,
            },
        )?;
        notes.push(format!(
            "sources: suppressed {} finding{} in {}",
            baseline.added,
            if baseline.added == 1 { "" } else { "s" },
            input.path
        ));
    }
    if baseline.left > 0 {
        notes.push(format!(
            "sources: {} finding{} in {} cannot be suppressed with a comment (syntax errors, or inside a multi-line string)",
            baseline.left,
            if baseline.left == 1 { "" } else { "s" },
            input.path
        ));
    }
    match lint_bytes_in(
        &input.path,
        baseline.text.as_bytes(),
        input.syntax,
        true,
        language,
    ) {
        Linted::Report(report) => Ok(report),
        Linted::NotOurs | Linted::SkippedTooLarge(_) => Ok(report),
    }
}

/// What linting one input gave.
#[derive(Debug)]
pub enum Linted {
    /// The file's report (possibly without diagnostics).
    Report(FileReport),
    /// A walked file that has no `data.sources` block, or is binary: not a configuration file.
    NotOurs,
    /// A walked file over the size limit, skipped with a note.
    SkippedTooLarge(u64),
}

/// Lints one input's content, as [`lint_bytes`] does, with its expressions read in `language`
/// (its settings file's), turning an oversized file into a diagnostic when it was named and a skip
/// when it was walked.
pub fn lint_content(input: &Input, content: Content, language: Language) -> Linted {
    match content {
        Content::Bytes(bytes) => {
            // The samples recorded beside a file on disk (`sources try NAME --record`) tell the
            // data checks what its entries' data looks like.
            let path = match &input.origin {
                crate::inputs::Origin::File(path) => Some(path.as_path()),
                _ => None,
            };
            let inputs = sources_inputs::for_config(path, language);
            lint_bytes_with(&input.path, &bytes, input.syntax, input.named, &inputs)
        }
        Content::TooLarge(Some(size)) if !input.named => Linted::SkippedTooLarge(size),
        Content::TooLarge(size) => Linted::Report(FileReport {
            path: input.path.clone(),
            line_index: LineIndex::new(""),
            diagnostics: vec![sources_check::input::too_large(size)],
            has_sources: false,
        }),
    }
}

/// Lints one document given as bytes. A `named` file is always reported; a walked one only when it
/// is text with a `data.sources` block. The data checks know the demo backend's shapes, and no
/// samples.
pub fn lint_bytes(path: &str, bytes: &[u8], syntax: Syntax, named: bool) -> Linted {
    lint_bytes_in(path, bytes, syntax, named, Language::default())
}

/// [`lint_bytes`] with the document's expressions read in `language` (its settings file's).
pub fn lint_bytes_in(
    path: &str,
    bytes: &[u8],
    syntax: Syntax,
    named: bool,
    language: Language,
) -> Linted {
    let inputs = sources_inputs::for_config(None, language);
    lint_bytes_with(path, bytes, syntax, named, &inputs)
}

/// [`lint_bytes`] with what the front end knows of the data (samples read beside the file).
pub fn lint_bytes_with(
    path: &str,
    bytes: &[u8],
    syntax: Syntax,
    named: bool,
    inputs: &sources_check::shapes::ShapeInputs,
) -> Linted {
    let report = |text: &str, diagnostics| {
        Linted::Report(FileReport {
            path: path.to_owned(),
            line_index: LineIndex::new(text),
            diagnostics,
            has_sources: false,
        })
    };
    // `contains` looks for a byte with memchr; the position is needed only when there is one.
    if bytes.contains(&0)
        && let Some(nul) = bytes.iter().position(|&byte| byte == 0)
    {
        if !named {
            return Linted::NotOurs;
        }
        // No snippet: binary bytes make no readable lines, so the diagnostic sits on an empty text.
        return report("", vec![sources_check::input::binary(nul)]);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            let analysis = sources_check::analyze_with(text, syntax, inputs);
            if !named && !analysis.is_configuration() {
                return Linted::NotOurs;
            }
            Linted::Report(FileReport {
                path: path.to_owned(),
                line_index: analysis.line_index,
                diagnostics: analysis.diagnostics,
                has_sources: analysis.has_sources,
            })
        }
        Err(error) => {
            let text = String::from_utf8_lossy(bytes);
            if !named && !sources_check::analyze(&text, syntax).has_sources {
                return Linted::NotOurs;
            }
            let start = error.valid_up_to();
            let end = start + error.error_len().unwrap_or(bytes.len() - start);
            // The diagnostic sits in the lossy text, where the bad bytes became one U+FFFD.
            let replaced = Span::new(start, start + char::REPLACEMENT_CHARACTER.len_utf8());
            let shown: Vec<String> = bytes[start..end]
                .iter()
                .map(|byte| format!("0x{byte:02X}"))
                .collect();
            let diagnostic = Diagnostic::new(
                Rule::Syntax,
                replaced,
                format!(
                    "the file is not valid UTF-8: byte {} is not part of a character",
                    shown.join(" ")
                ),
            )
            .with_label("invalid UTF-8")
            .with_help("YAML and TOML files are UTF-8: save the file with UTF-8 encoding");
            report(&text, vec![diagnostic])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only_diagnostic(linted: Linted) -> (FileReport, Diagnostic) {
        let Linted::Report(report) = linted else {
            panic!("expected a report, got {linted:?}")
        };
        assert_eq!(report.diagnostics.len(), 1, "{:?}", report.diagnostics);
        let diagnostic = report.diagnostics[0].clone();
        (report, diagnostic)
    }

    #[test]
    fn invalid_utf8_is_a_syntax_diagnostic_at_the_first_bad_byte() {
        let (report, diagnostic) = only_diagnostic(lint_bytes(
            "bad.yaml",
            b"data:\n  sources: {}\n  x: \xFF\xFEy\n",
            Syntax::Yaml,
            true,
        ));
        assert_eq!(diagnostic.rule, Rule::Syntax);
        // In the report's lossy text, the bad bytes are one U+FFFD (three bytes).
        assert_eq!(diagnostic.span, Span::new(25, 28));
        assert_eq!(&report.text()[25..28], "\u{fffd}");
        assert!(
            diagnostic.message.contains("0xFF"),
            "{}",
            diagnostic.message
        );
        let (start, _) = report.line_cols(diagnostic.span);
        assert_eq!((start.line, start.column), (3, 6));
    }

    #[test]
    fn a_truncated_character_at_the_end_is_reported_with_its_bytes() {
        let (_, diagnostic) =
            only_diagnostic(lint_bytes("t.yaml", b"a: \xE2\x82", Syntax::Yaml, true));
        assert_eq!(diagnostic.span, Span::new(3, 6));
        assert!(
            diagnostic.message.contains("0xE2 0x82"),
            "{}",
            diagnostic.message
        );
    }

    #[test]
    fn a_named_binary_file_is_reported_and_a_walked_one_skipped() {
        let bytes = b"\x7fELF\x02\x01\x01\x00\x00";
        let (_, diagnostic) = only_diagnostic(lint_bytes("a.yaml", bytes, Syntax::Yaml, true));
        assert_eq!(diagnostic.span, Span::empty(0));
        assert_eq!(
            diagnostic.message,
            "this is a binary file (a NUL byte at offset 7), not YAML or TOML text"
        );
        assert!(matches!(
            lint_bytes("a.yaml", bytes, Syntax::Yaml, false),
            Linted::NotOurs
        ));
    }

    #[test]
    fn an_oversized_named_file_gets_a_diagnostic_and_a_walked_one_a_skip() {
        let named = Input {
            path: "big.yaml".into(),
            origin: inputs::Origin::Stdin,
            syntax: Syntax::Yaml,
            named: true,
            root: std::path::PathBuf::from("."),
        };
        let size = 50 * 1024 * 1024;
        let (_, diagnostic) = only_diagnostic(lint_content(
            &named,
            Content::TooLarge(Some(size)),
            Language::Cel,
        ));
        assert_eq!(
            diagnostic.message,
            "the file is 50 MiB, over the 16 MiB limit for configuration files"
        );
        let walked = Input {
            named: false,
            ..named
        };
        assert!(matches!(
            lint_content(&walked, Content::TooLarge(Some(size)), Language::Cel),
            Linted::SkippedTooLarge(bytes) if bytes == size
        ));
    }

    #[test]
    fn a_walked_file_broken_above_its_sources_block_is_still_reported() {
        let broken = "app:\n\ttitle: x\ndata:\n  sources:\n    a: {type: static, data: []}\n";
        let Linted::Report(report) =
            lint_bytes("early.yaml", broken.as_bytes(), Syntax::Yaml, false)
        else {
            panic!("a broken sources config must be reported");
        };
        assert_eq!(report.diagnostics[0].rule, Rule::Syntax);
        let unrelated = "app:\n\ttitle: x\n";
        assert!(matches!(
            lint_bytes("other.yaml", unrelated.as_bytes(), Syntax::Yaml, false),
            Linted::NotOurs
        ));
    }
}
