//! `sources try NAME`: lints the configuration, then really fetches one entry (and only what it
//! depends on) and prints what the dashboard would receive.
//!
//! One-shot and polled entries print one value (a polled one is fetched once): a table on a
//! terminal, JSON when piped, or `--output json|ndjson|table|yaml`; streamed entries print one
//! event per line, with failures as `{"error": "…"}` lines, until `--limit` events, `--for`
//! elapses or the stream ends. Where a snapshot of a streamed entry is needed (a child of a
//! `merge`/`union` that polls because not every child streams, a `compose` part, a `join` driver),
//! the stream is read until it ends, `--limit` events or `--for` (2s by default) and its events
//! are the snapshot's rows. On a terminal, stderr shows progress (pages, rows, events, elapsed
//! time). Exit 0 on success, 1 when the fetch failed (or the configuration has errors), 2 on usage
//! errors. `--all` tries every entry instead, one summary line each (`all`). Everything is
//! printed through [`Outputs`], which hides the run's secret values.

#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod all;
pub mod colors;
pub mod failure;
pub mod output;
pub mod screen;
mod show;
pub mod table;
pub mod view;

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use sources_check::settings_file::{Finder, Found};
use sources_config::cadence::{Cadence, cadence};
use sources_diagnostics::Severity;
use sources_eval::engine::EngineOptions;
use sources_eval::run::{Ask, Entry, Run, try_entry};
use sources_eval::snapshot::{Follow, SnapshotWindow};
use sources_eval::trace::Collect;
use sources_eval::window_flags::WindowFlags;
use sources_syntax::Syntax;

use self::failure::Tried;
use self::output::{OutputFormat, Printing};
use self::show::{Presenter, Said, StderrTrace, announce, world_error};
use crate::Outcome;
use crate::config_file;
use crate::outputs::{Outputs, Stderr};
use crate::render::{self, Format, RenderOptions};
use crate::report::FileReport;
use crate::terminal::Stream;

/// Arguments of `sources try`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The entry of `data.sources` to fetch.
    #[arg(
        required_unless_present_any = ["all", "screen"],
        add = clap_complete::ArgValueCompleter::new(crate::completion::entry_names)
    )]
    pub name: Option<String>,
    /// Try every entry of the file instead of one, each with the parameters it needs from
    /// `--param` (given to the entries that declare it), its defaults or, with `--demo`, values
    /// the demo world answers; print one summary line per entry (rows or events, time, warnings)
    /// and exit 1 when any fails: a whole dashboard smoke-tested in one command.
    #[arg(long, conflicts_with_all = ["name", "output", "pretty", "raw", "record"])]
    pub all: bool,
    /// The configuration file [default: $SOURCES_CONFIG, else the nearest sources.yaml,
    /// sources.yml or sources.toml in this directory or a parent].
    #[arg(short = 'c', long = "config", value_name = "CONFIG")]
    pub config: Option<PathBuf>,
    /// A parameter value (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Serve http://127.0.0.1:8099 and http://localhost:8099 from the demo backend: in-process,
    /// or the running one at $SOURCES_DEMO_API when it is set.
    #[arg(long)]
    pub demo: bool,
    /// Stop after N events of a streamed entry; print at most N rows of a list. A streamed entry
    /// read for a snapshot (a child of a merge or union that polls, a compose part, a join
    /// driver) contributes at most N events.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Stop following a streamed entry after this long (Go duration: `10s`, `1m30s`). A streamed
    /// entry read for a snapshot is read this long [default there: 2s].
    #[arg(long = "for", value_name = "DURATION")]
    pub for_duration: Option<String>,
    /// How to print: `table` on a terminal, else `json` (NDJSON for streamed events); `ndjson`
    /// prints each row of a list on its own line; `yaml` one document (one per event).
    #[arg(short = 'o', long = "output", value_name = "FORMAT", value_enum)]
    pub output: Option<OutputFormat>,
    /// Indent the JSON value (NDJSON events stay one per line).
    #[arg(long)]
    pub pretty: bool,
    /// Print a `text` value as the text itself, not as a JSON string.
    #[arg(long)]
    pub raw: bool,
    /// Say on stderr what is requested, cached and paged (credentials redacted).
    #[arg(long)]
    pub verbose: bool,
    /// Exit with status 1 when the result is partial or suspect: any warning (a page or child left
    /// out by `skip`, a walk cut short by `max_pages`, a `next_path` that matched nothing, a table
    /// column empty in every row) fails the run, for smoke tests in CI.
    #[arg(long)]
    pub strict: bool,
    /// The most one response body, command output, file, followed line or websocket message may
    /// hold (`64MiB`, `512KiB`, `1GiB`, or bytes); more fails the entry.
    #[arg(long = "max-body", value_name = "SIZE", default_value = "64MiB", value_parser = parse_max_body)]
    pub max_body: usize,
    /// A windowed entry's search text, as typed into its table's filter box: bare words go to
    /// `search_param` (`${window.search}`), `title:value` terms to the column `filters` maps.
    #[arg(long, value_name = "TEXT", conflicts_with = "all")]
    pub search: Option<String>,
    /// Sort a windowed entry by a column of its table, `-COLUMN` for descending: sent through
    /// `sort_param` (the field `sorts` maps it to, else the title) or `${window.sort}`.
    #[arg(
        long,
        value_name = "[-]COLUMN",
        allow_hyphen_values = true,
        conflicts_with = "all"
    )]
    pub sort: Option<String>,
    /// Filter a windowed entry's column (repeatable): a scoped term on a column its window maps
    /// in `filters`, sent as that query parameter or `${window.filters.NAME}`.
    #[arg(long = "filter", value_name = "COLUMN=VALUE", conflicts_with = "all")]
    pub filters: Vec<String>,
    /// Print a snapshot of a screen as it first appears [default: `tui.initial`, else the first
    /// screen]: every component its layout places, in layout order, each drawn from its entry,
    /// an `on_cursor` component's `bind` filled from its driver's first row.
    #[arg(
        long,
        value_name = "SCREEN",
        num_args = 0..=1,
        conflicts_with_all = ["all", "name", "output", "raw", "record", "component", "search", "sort", "filters"]
    )]
    pub screen: Option<Option<String>>,
    /// Show the entry as this component of `tui.components` (on a terminal, or with `--output
    /// table`) when several show it [default: the first that shows it]; its table columns are
    /// also the ones `--strict` checks.
    #[arg(long, value_name = "NAME", conflicts_with = "all")]
    pub component: Option<String>,
    /// Also record what the entry gives as a sample in `.sources/samples/` beside the
    /// configuration (the first rows, the time, the request; credentials redacted): lint and the
    /// editor then check references into its data against it.
    #[arg(long)]
    pub record: bool,
}

fn parse_max_body(text: &str) -> Result<usize, String> {
    sources_eval::io::parse_size(text)
}

/// Why `sources try` could not run (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No configuration file.
    #[error(transparent)]
    NotFound(#[from] config_file::NotFound),
    /// A discovered configuration belongs to another user.
    #[error(transparent)]
    ForeignOwner(#[from] config_file::ForeignOwner),
    /// The configuration file could not be read.
    #[error("cannot read `{path}`")]
    Read {
        /// The path.
        path: String,
        /// Why (printed after the message by the error chain, so not in it).
        #[source]
        source: io::Error,
    },
    /// A usage error (unknown entry, bad parameter, bad `--for`).
    #[error("{0}")]
    Usage(String),
    /// The async runtime could not start.
    #[error("cannot start the runtime: {0}")]
    Runtime(io::Error),
    /// The output could not be written.
    #[error("cannot write the output")]
    Write(#[source] io::Error),
    /// The settings file that applies to the configuration could not be read or is invalid.
    #[error(transparent)]
    Settings(#[from] sources_check::settings_file::Error),
}

/// A configuration file read and checked.
pub struct Loaded {
    /// The path as shown.
    pub path: String,
    /// The text.
    pub text: String,
    /// The syntax (from the extension; YAML when unknown).
    pub syntax: Syntax,
}

/// Finds and reads the configuration file; one found by the upward search is said on standard
/// error (`err`) and, when `own_only` (for `try`, which runs it), refused if another user owns it.
pub fn load(explicit: Option<&Path>, own_only: bool, err: &Stderr) -> Result<Loaded, Error> {
    let located = config_file::locate_from_process(explicit)?;
    let path = located.path;
    let shown = path.display().to_string();
    if located.discovered {
        if own_only {
            config_file::check_owner(&path, std::env::var_os(config_file::SAFE_ENV).as_deref())?;
        }
        err.line(&format!(
            "sources: reading {shown} (found by searching up from the current directory)"
        ));
    }
    let bytes = std::fs::read(&path).map_err(|source| Error::Read {
        path: shown.clone(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|_| Error::Read {
        path: shown.clone(),
        source: io::Error::new(io::ErrorKind::InvalidData, "the file is not UTF-8"),
    })?;
    Ok(Loaded {
        syntax: Syntax::from_path(&path).unwrap_or(Syntax::Yaml),
        path: shown,
        text,
    })
}

/// Analyses a loaded configuration as `sources lint` does: with the demo backend's shapes, the
/// samples recorded beside it and the expression language of the settings file found for it
/// (also returned), so `try`, `list` and `graph` see what lint sees.
fn analyze_loaded(loaded: &Loaded) -> Result<(sources_check::Analysis, Option<Arc<Found>>), Error> {
    let found = Finder::new(None)?.for_file(Some(Path::new(&loaded.path)))?;
    let language = found
        .as_ref()
        .map_or_else(Default::default, |found| found.settings.language);
    let inputs = sources_inputs::for_config(Some(Path::new(&loaded.path)), language);
    let analysis = sources_check::analyze_with(&loaded.text, loaded.syntax, &inputs);
    Ok((analysis, found))
}

/// A missing configuration file where the entry name given on the command line is itself a file:
/// the name was meant for `-c`, so the error says so (other errors are returned as they are).
pub fn name_meant_for_config(error: Error, name: Option<&str>, command: &str) -> Error {
    match (error, name) {
        (Error::NotFound(_), Some(name)) if Path::new(name).is_file() => Error::Usage(format!(
            "`{name}` is a file, not an entry name: name the configuration file with `-c` \
             (`sources {command} -c {name} NAME`)"
        )),
        (error, _) => error,
    }
}

/// Finds, reads and analyses the configuration file; `None`, said on standard error (`err`), when
/// it has no `data.sources` block (for the subcommands that read entries without running them).
pub fn analyze_sources(
    explicit: Option<&Path>,
    err: &Stderr,
) -> Result<Option<(Loaded, sources_check::Analysis)>, Error> {
    let loaded = load(explicit, false, err)?;
    let (analysis, _) = analyze_loaded(&loaded)?;
    if !analysis.config.has_sources() {
        err.line(&format!(
            "sources: `{}` has no `data.sources` block: name the configuration file with `-c PATH`",
            loaded.path
        ));
        return Ok(None);
    }
    Ok(Some((loaded, analysis)))
}

/// Runs `sources try`, printing through `outputs`.
pub fn run(args: &Args, outputs: &mut Outputs) -> Result<Outcome, Error> {
    let loaded = load(args.config.as_deref(), true, &outputs.err)
        .map_err(|error| name_meant_for_config(error, args.name.as_deref(), "try"))?;
    // One analysis serves both the refusal below and the run; the settings file and suppression
    // comments apply as they do to `sources lint` and the editor, and what they hide is kept to
    // explain a refusal it predicts.
    let (mut analysis, found) = analyze_loaded(&loaded)?;
    let hidden = self::failure::hide_as_lint_does(&loaded.path, &mut analysis, found.as_deref());
    if analysis
        .diagnostics
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Error)
    {
        outputs.err.line(&format!(
            "sources: `{}` has errors; fix them before `try` (`sources lint {}`):",
            loaded.path, loaded.path
        ));
        let report = FileReport {
            path: loaded.path.clone(),
            line_index: analysis.line_index,
            diagnostics: analysis.diagnostics,
            has_sources: analysis.has_sources,
        };
        outputs
            .err
            .with(|stderr| {
                render::render(
                    Format::for_terminal(Stream::Stderr.is_terminal()),
                    std::slice::from_ref(&report),
                    &RenderOptions::for_stream(Stream::Stderr),
                    stderr,
                )
            })
            .map_err(Error::Write)?;
        return Ok(Outcome::Failure);
    }
    let line_index = analysis.line_index;
    let config = analysis.config;
    let tried = Tried {
        config: &config,
        line_index: &line_index,
        path: &loaded.path,
        demo: args.demo,
        hidden: &hidden,
        language: analysis.language,
    };
    let supplied = parse_assignments(&args.params).map_err(Error::Usage)?;
    if let Some(screen) = &args.screen {
        return self::screen::run(
            &tried,
            args,
            screen.as_deref(),
            &loaded.text,
            supplied,
            outputs,
        );
    }
    let Some(name) = args.name.as_deref() else {
        return self::all::run(&tried, args, &loaded.text, supplied, outputs);
    };
    let Some(source) = config.get(name) else {
        let names: Vec<&str> = config.names().collect();
        let hint = match sources_diagnostics::did_you_mean(name, names.iter().copied()).first() {
            Some(best) => format!("; did you mean `{best}`?"),
            None => format!("; `sources list -c {}` shows the entries", loaded.path),
        };
        return Err(Error::Usage(format!(
            "`{}` has no entry `{name}` in `data.sources`{hint}",
            loaded.path
        )));
    };
    let component =
        self::view::pick(&config, name, args.component.as_deref()).map_err(Error::Usage)?;
    let flags = WindowFlags {
        search: args.search.clone(),
        sort: args.sort.clone(),
        filters: args.filters.clone(),
    };
    let for_duration = for_duration(args)?;
    let runtime = runtime()?;
    let reporter = Arc::new(StderrTrace::new(outputs.err.clone(), args.verbose, name));
    let options = EngineOptions {
        explain: args.verbose,
        language: tried.language,
        snapshot: SnapshotWindow {
            events: args.limit,
            within: for_duration.unwrap_or(sources_eval::snapshot::DEFAULT_WINDOW),
        },
    };
    let recorder = args.record.then(|| crate::record::Recorder {
        config_path: PathBuf::from(&loaded.path),
        text: loaded.text.clone(),
        params: supplied.clone(),
    });
    let terminal = Stream::Stdout.is_terminal();
    let format = args.output.unwrap_or(if terminal {
        OutputFormat::Table
    } else {
        OutputFormat::Json
    });
    let mut preface = Vec::new();
    if args.verbose {
        let cadence = cadence(&config, source);
        preface.push(Said::Note(format!(
            "config {}; `{name}` is {cadence}",
            loaded.path
        )));
        if let Cadence::Polled(every) = cadence {
            preface.push(Said::Note(format!(
                "polled every {} in the dashboard: `try` fetches it once",
                sources_config::duration::format_duration(every)
            )));
        }
    }
    if let (Some(component), true) = (
        component,
        format == OutputFormat::Table || args.component.is_some(),
    ) {
        let which = self::view::which(&config, name, component);
        preface.push(Said::Line(format!("sources: {which}")));
    }
    let printing = Printing {
        format,
        pretty: args.pretty,
        raw: args.raw,
        limit: args.limit,
        component,
        width: terminal_width(terminal),
        color: crate::terminal::color(terminal),
    };
    let mut presenter = Presenter::new(outputs, &reporter, &printing, preface, args.record);
    let ask = Ask {
        config: &config,
        text: &loaded.text,
        params: supplied,
        demo: args.demo,
        max_body: args.max_body,
        options,
        trace: reporter.clone(),
    };
    let entry = Entry {
        source,
        flags: &flags,
        follow: Follow {
            events: args.limit,
            within: for_duration,
        },
    };
    let tried_entry = runtime.block_on(try_entry(ask, entry, &mut presenter));
    reporter.finish();
    let outcome = presenter.outcome(tried_entry, &tried, args.demo, name);
    if let Some(recorder) = &recorder {
        recorder.save(&config, source, &outcome, &outputs.err);
    }
    let outcome = outcome.map(|(outcome, _)| outcome);
    let warnings = reporter.warnings();
    if args.strict && warnings > 0 && matches!(outcome, Ok(Outcome::Success)) {
        outputs.err.line(&format!(
            "sources: --strict: {warnings} warning(s), so this run fails"
        ));
        return Ok(Outcome::Failure);
    }
    outcome
}

/// Parses `--param NAME=VALUE` assignments; a name given twice is an error (which value was
/// meant?).
fn parse_assignments(pairs: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for pair in pairs {
        let Some((name, value)) = pair.split_once('=') else {
            return Err(format!("`--param {pair}` is not NAME=VALUE"));
        };
        if name.is_empty() {
            return Err(format!("`--param {pair}` has an empty name"));
        }
        if let Some(first) = out.insert(name.to_owned(), value.to_owned()) {
            return Err(format!(
                "`--param {name}` is given twice (`{name}={first}` and `{pair}`): pass each parameter once"
            ));
        }
    }
    Ok(out)
}

/// The width a table is drawn within, as [`crate::terminal`] reads it: `COLUMNS` when it is a
/// number, else the terminal's when printing to one.
pub(crate) fn terminal_width(terminal: bool) -> Option<u16> {
    Stream::Stdout
        .width()
        .filter(|&width| width > 0 && (terminal || std::env::var_os("COLUMNS").is_some()))
        .and_then(|width| u16::try_from(width).ok())
}

/// `--for`, parsed.
pub(crate) fn for_duration(args: &Args) -> Result<Option<Duration>, Error> {
    args.for_duration
        .as_deref()
        .map(|text| {
            sources_config::parse_duration(text)
                .map_err(|error| Error::Usage(format!("`--for {text}`: {error}")))
        })
        .transpose()
}

/// Starts the one run of `try --all` and `try --screen` ([`start`]): no `--explain`, no window of
/// the user's, and a stream's snapshot limited by `--limit` within `--for` (else the default
/// window); what the engine reports is kept by the returned trace.
pub(crate) fn start_for_many<'c>(
    runtime: &tokio::runtime::Runtime,
    tried: &Tried<'c>,
    text: &'c str,
    params: BTreeMap<String, String>,
    args: &Args,
    outputs: &Outputs,
) -> Result<(Run<'c>, Arc<Collect>), Error> {
    let trace = Arc::new(Collect::default());
    let ask = Ask {
        config: tried.config,
        text,
        params,
        demo: args.demo,
        max_body: args.max_body,
        options: EngineOptions {
            explain: false,
            language: tried.language,
            snapshot: SnapshotWindow {
                events: args.limit,
                within: for_duration(args)?.unwrap_or(sources_eval::snapshot::DEFAULT_WINDOW),
            },
        },
        trace: trace.clone(),
    };
    Ok((start(runtime, ask, outputs)?, trace))
}

/// The runtime `try` evaluates on.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, Error> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(Error::Runtime)
}

/// Starts the run `ask` describes ([`Run::new`]) and [`announce`]s it.
pub(crate) fn start<'c>(
    runtime: &tokio::runtime::Runtime,
    ask: Ask<'c>,
    outputs: &Outputs,
) -> Result<Run<'c>, Error> {
    let run = runtime
        .block_on(async { Run::new(ask) })
        .map_err(world_error)?;
    announce(outputs, run.secrets(), run.world().describe().as_deref());
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_split_on_the_first_equals_sign() {
        let pairs = vec!["q=a=b".to_owned(), "id=1".to_owned()];
        let parsed = parse_assignments(&pairs).expect("parsed");
        assert_eq!(parsed["q"], "a=b");
        assert_eq!(parsed["id"], "1");
        assert_eq!(
            parse_assignments(&["id=1".to_owned(), "id=2".to_owned()]).expect_err("twice"),
            "`--param id` is given twice (`id=1` and `id=2`): pass each parameter once"
        );
        assert_eq!(
            parse_assignments(&["novalue".to_owned()]).expect_err("no `=`"),
            "`--param novalue` is not NAME=VALUE"
        );
        assert_eq!(
            parse_assignments(&["=x".to_owned()]).expect_err("no name"),
            "`--param =x` has an empty name"
        );
    }
}
