//! `sources-fuzz`: generates configurations (mutated from `testdata/`, or from the schema's grammar
//! with `--grammar`) and checks every property on each, on all cores; failing inputs are saved with
//! what broke. See the crate docs and the README.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use sources_cli::lint::{Linted, lint_bytes};
use sources_fuzz::agreement;
use sources_fuzz::corpus::Corpus;
use sources_fuzz::grammar::Grammar;
use sources_fuzz::lsp::{self, LspProcess};
use sources_fuzz::mutate::{Input, generate};
use sources_fuzz::properties::{self, Failure};
use sources_syntax::Syntax;

/// Fuzzes the analysis, the JSON output, `--fix` and the language server with mutated configs.
#[derive(Parser, Debug)]
#[command(name = "sources-fuzz")]
struct Args {
    /// How many inputs to generate and check.
    #[arg(long, default_value_t = 20_000)]
    inputs: u64,
    /// The first input's index (with --inputs, a slice of a run).
    #[arg(long, default_value_t = 0)]
    start: u64,
    /// The run seed: the same seed and index always give the same input.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Check every Nth input against the real language server too (0: never).
    #[arg(long, default_value_t = 40)]
    lsp_every: u64,
    /// The `sources` binary whose `sources lsp` is checked (default: next to this program).
    #[arg(long)]
    sources_bin: Option<PathBuf>,
    /// The seed corpus (default: the repository's testdata/).
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Where failing inputs are written.
    #[arg(long, default_value = "target/fuzz-failures")]
    save: PathBuf,
    /// An input that takes longer than this many seconds counts as a hang.
    #[arg(long, default_value_t = 30)]
    hang_seconds: u64,
    /// Print input INDEX of the run (and what made it) instead of checking anything.
    #[arg(long, value_name = "INDEX")]
    show: Option<u64>,
    /// Generate whole configurations from the JSON Schema's grammar with adversarial values, and
    /// check also that lint and `try` agree on each (instead of mutating the corpus).
    #[arg(long)]
    grammar: bool,
}

/// Shared progress of one run.
struct Run {
    args: Args,
    corpus: Corpus,
    grammar: Grammar,
    checked: AtomicU64,
    /// Inputs that linted without error and went through `try` (`--grammar`).
    clean: AtomicU64,
    lsp_checked: AtomicU64,
    failures: Mutex<Vec<(u64, Failure)>>,
}

impl Run {
    /// Input `index` of this run.
    fn input(&self, index: u64) -> Input {
        if self.args.grammar {
            self.grammar.input(self.args.seed, index)
        } else {
            generate(&self.corpus, self.args.seed, index)
        }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let root = args
        .corpus
        .clone()
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata"));
    let corpus = match Corpus::load(&root) {
        Ok(corpus) => corpus,
        Err(error) => {
            eprintln!(
                "sources-fuzz: cannot read the corpus at {}: {error}",
                root.display()
            );
            return ExitCode::from(2);
        }
    };
    let grammar = Grammar::new();
    if let Some(index) = args.show {
        let input = if args.grammar {
            grammar.input(args.seed, index)
        } else {
            generate(&corpus, args.seed, index)
        };
        eprintln!("input {index} of seed {}: {}", args.seed, input.origin);
        print!("{}", String::from_utf8_lossy(&input.bytes));
        return ExitCode::SUCCESS;
    }
    let sources_bin = args.sources_bin.clone().unwrap_or_else(|| {
        let me = std::env::current_exe().unwrap_or_default();
        me.with_file_name(format!("sources{}", std::env::consts::EXE_SUFFIX))
    });
    if args.lsp_every > 0 && !sources_bin.exists() {
        eprintln!(
            "sources-fuzz: {} does not exist: build it (cargo build -p sources-cli), pass --sources-bin, or --lsp-every 0",
            sources_bin.display()
        );
        return ExitCode::from(2);
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    let from = if args.grammar {
        "the schema's grammar".to_owned()
    } else {
        format!("{} seeds", corpus.seeds.len())
    };
    eprintln!(
        "sources-fuzz: {} inputs from {from} (seed {}, first index {}), {threads} threads, server checked every {} inputs",
        args.inputs, args.seed, args.start, args.lsp_every
    );
    let run = Arc::new(Run {
        args,
        corpus,
        grammar,
        checked: AtomicU64::new(0),
        clean: AtomicU64::new(0),
        lsp_checked: AtomicU64::new(0),
        failures: Mutex::new(Vec::new()),
    });
    quiet_panics();
    let started = Instant::now();
    let current: Arc<Vec<(AtomicU64, AtomicU64)>> = Arc::new(
        (0..threads)
            .map(|_| (AtomicU64::new(u64::MAX), AtomicU64::new(0)))
            .collect(),
    );
    let workers: Vec<_> = (0..threads)
        .map(|worker| {
            let run = Arc::clone(&run);
            let current = Arc::clone(&current);
            let sources_bin = sources_bin.clone();
            std::thread::Builder::new()
                .name(format!("fuzz-{worker}"))
                // The size of a main thread's stack, so a deep recursion fails here as in the binary.
                .stack_size(8 << 20)
                .spawn(move || work(&run, worker, threads, &current, &sources_bin, started))
                .expect("a worker thread starts")
        })
        .collect();
    watch(&run, &current, &workers, started);
    for worker in workers {
        if worker.join().is_err() {
            eprintln!("sources-fuzz: a worker stopped unexpectedly");
        }
    }
    report(&run, started)
}

/// Checks the inputs `start + worker + k * threads`.
fn work(
    run: &Run,
    worker: usize,
    threads: usize,
    current: &[(AtomicU64, AtomicU64)],
    sources_bin: &Path,
    started: Instant,
) {
    let args = &run.args;
    let mut server = None;
    let runtime = match agreement::runtime() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("sources-fuzz: no runtime for `try`: {error}");
            return;
        }
    };
    let mut index = args.start + worker as u64;
    while index < args.start + args.inputs {
        current[worker]
            .1
            .store(started.elapsed().as_millis() as u64, Ordering::SeqCst);
        current[worker].0.store(index, Ordering::SeqCst);
        let input = run.input(index);
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            let report = properties::check(&input)?;
            if args.grammar {
                let text = String::from_utf8_lossy(&input.bytes);
                let agreed = agreement::check(&runtime, &text, input.syntax)?;
                if agreed.clean {
                    run.clean.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(report)
        }));
        let result = match outcome {
            Ok(Ok(_)) if args.lsp_every > 0 && index.is_multiple_of(args.lsp_every) => {
                match std::str::from_utf8(&input.bytes) {
                    Ok(text) => check_server(&mut server, sources_bin, text, input.syntax)
                        .map(|()| run.lsp_checked.fetch_add(1, Ordering::Relaxed))
                        .map(drop),
                    Err(_) => Ok(()),
                }
            }
            Ok(Ok(_)) => Ok(()),
            Ok(Err(failure)) => Err(failure),
            Err(payload) => Err(Failure {
                property: "panic",
                detail: panic_message(&payload),
            }),
        };
        if let Err(failure) = result {
            save(args, index, &input, &failure);
            run.failures
                .lock()
                .expect("failures")
                .push((index, failure));
        }
        let done = run.checked.fetch_add(1, Ordering::Relaxed) + 1;
        if done.is_multiple_of(50_000) {
            eprintln!(
                "sources-fuzz: {done} inputs checked in {:.0?}",
                started.elapsed()
            );
        }
        index += threads as u64;
    }
    current[worker].0.store(u64::MAX, Ordering::SeqCst);
}

/// Checks one text against the language server, restarting it after a failure. The editor shows
/// what `lint` shows for the file found in a directory walk: nothing for a file that is not a
/// configuration (a YAML file of another tool), everything for one that is; a document with a NUL
/// byte, which a walk skips as binary, is refused in the editor as `lint` refuses a named file.
fn check_server(
    server: &mut Option<LspProcess>,
    sources_bin: &Path,
    text: &str,
    syntax: Syntax,
) -> Result<(), Failure> {
    let failure = |detail: String| Failure {
        property: "lsp",
        detail,
    };
    if server.is_none() {
        *server = Some(
            LspProcess::start(sources_bin)
                .map_err(|error| failure(format!("the server did not start: {error}")))?,
        );
    }
    let Some(process) = server.as_mut() else {
        return Ok(());
    };
    let named = text.contains('\0');
    let walked = lint_bytes(
        properties::file_name(syntax),
        text.as_bytes(),
        syntax,
        named,
    );
    match process.diagnostics(text, syntax) {
        Ok(published) => match walked {
            Linted::Report(report) => lsp::compare(&report, &published),
            _ if published.is_empty() => Ok(()),
            _ => Err(failure(format!(
                "the server published {} diagnostics for a text lint does not take as a configuration",
                published.len()
            ))),
        },
        Err(error) => {
            *server = None;
            Err(failure(format!("no diagnostics from the server: {error}")))
        }
    }
}

/// Watches for an input that does not finish: saves it and stops the run with a failure.
fn watch(
    run: &Run,
    current: &[(AtomicU64, AtomicU64)],
    workers: &[std::thread::JoinHandle<()>],
    started: Instant,
) {
    let limit = Duration::from_secs(run.args.hang_seconds);
    while !workers.iter().all(|worker| worker.is_finished()) {
        std::thread::sleep(Duration::from_millis(200));
        for (index, since) in current {
            let index = index.load(Ordering::SeqCst);
            if index == u64::MAX {
                continue;
            }
            let since = Duration::from_millis(since.load(Ordering::SeqCst));
            if started.elapsed().saturating_sub(since) > limit {
                let input = run.input(index);
                let failure = Failure {
                    property: "hang",
                    detail: format!("input {index} did not finish within {limit:?}"),
                };
                save(&run.args, index, &input, &failure);
                eprintln!("sources-fuzz: {}", failure.detail);
                eprintln!(
                    "fuzz: {} passed, 1 failed",
                    run.checked.load(Ordering::SeqCst)
                );
                std::process::exit(1);
            }
        }
    }
}

/// Prints the summary and the failures; the exit status says whether any property broke.
fn report(run: &Run, started: Instant) -> ExitCode {
    let failures = run.failures.lock().expect("failures");
    let checked = run.checked.load(Ordering::SeqCst);
    let mut by_property: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, failure) in failures.iter() {
        *by_property.entry(failure.property).or_default() += 1;
    }
    for (index, failure) in failures.iter().take(20) {
        let input = run.input(*index);
        eprintln!(
            "FAIL input {index} [{}] from {}:\n  {}",
            failure.property,
            input.origin,
            failure.detail.replace('\n', "\n  ")
        );
    }
    if failures.len() > 20 {
        eprintln!("… and {} more failures", failures.len() - 20);
    }
    if !failures.is_empty() {
        eprintln!(
            "failing inputs are in {} (re-create one with --seed {} --show INDEX); by property: {by_property:?}",
            run.args.save.display(),
            run.args.seed
        );
    }
    eprintln!(
        "sources-fuzz: {checked} inputs in {:.1?} ({:.0} per second), {} also through the language server",
        started.elapsed(),
        checked as f64 / started.elapsed().as_secs_f64().max(0.001),
        run.lsp_checked.load(Ordering::SeqCst)
    );
    if run.args.grammar {
        let agreement = by_property.get("agreement").copied().unwrap_or(0);
        eprintln!(
            "sources-fuzz: {} linted without error and ran under `try`; {agreement} disagreements",
            run.clean.load(Ordering::SeqCst)
        );
    }
    println!(
        "fuzz: {} passed, {} failed",
        checked - failures.len() as u64,
        failures.len()
    );
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Writes a failing input and what broke next to it.
fn save(args: &Args, index: u64, input: &Input, failure: &Failure) {
    let extension = match input.syntax {
        Syntax::Yaml => "yaml",
        Syntax::Toml => "toml",
    };
    let base = args.save.join(format!("seed{}-{index}", args.seed));
    let written = std::fs::create_dir_all(&args.save)
        .and_then(|()| std::fs::write(base.with_extension(extension), &input.bytes))
        .and_then(|()| {
            std::fs::write(
                base.with_extension("txt"),
                format!(
                    "[{}] {}\nfrom {}\n",
                    failure.property, failure.detail, input.origin
                ),
            )
        });
    if let Err(error) = written {
        eprintln!(
            "sources-fuzz: cannot save input {index} in {}: {error}",
            args.save.display()
        );
    }
}

std::thread_local! {
    /// Where the last panic on this thread happened.
    static PANIC_AT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Panics are reported as failures with their message and place; the default hook's output would
/// interleave with the run's.
fn quiet_panics() {
    panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|location| format!(" at {}:{}", location.file(), location.line()))
            .unwrap_or_default();
        PANIC_AT.with(|place| *place.borrow_mut() = at);
    }));
}

fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned());
    PANIC_AT.with(|place| format!("{message}{}", place.borrow()))
}
