//! The evaluator: fetches one named entry as the dashboard would — its leaf fetch, or its inputs
//! and the operator over them — then its `pipe`, and returns a value or a stream of events.
//!
//! Only the named entry and the entries it depends on are touched. An operator that declares no
//! parameters passes what it was given through to its inputs, and one that declares parameters
//! forwards none (`sources_config::accepted`, the rule lint and `list` follow too); a join binds
//! its lookups through `on`. Within one run an entry is fetched once per parameter set.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::StreamExt;
use serde_json::Value;
use sources_config::{
    Anchor, Body, Config, Emit, Exec, Field, File, Format, Growing, Http, LeafFields, MergeFields,
    NamedMap, OnError, Order, Source, Stage, Template, Websocket, Window,
};

use crate::cache::{CachePolicy, DEFAULT_SIZE, FetchCache};
use crate::decode::{self, apply_root};
use crate::error::{Cause, EvalError};
use crate::expr::Expr;
use crate::fetch::{self, DEFAULT_TIMEOUT, TextStream};
use crate::io::{BoxFuture, CommandSpec, HttpRequest, Io, WebSocketRequest};
use crate::merge::{self, ChildTags, DEFAULT_META_KEY};
use crate::operators;
use crate::paginate::{self, LinkWalk};
use crate::params::{Bound, bind};
pub use crate::snapshot::EventStream;
use crate::snapshot::{self as stream_snapshot, SnapshotWindow};
use crate::substitute::Scope;
use crate::trace::Trace;
use crate::window::{
    self, AnchorAt, AnchoredRequest, HttpWindow, WindowQuery, anchored_first, anchored_page,
};
use crate::window_flags::WindowAsk;
use sources_config::accepted::declared_params;

/// What an entry delivers.
pub enum Output<'a> {
    /// One value (one-shot and polled entries, and the first page of a window).
    Value(Value),
    /// Events as they happen (streamed entries).
    Stream(EventStream<'a>),
}

impl std::fmt::Debug for Output<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Output::Value(value) => f.debug_tuple("Value").field(value).finish(),
            Output::Stream(_) => f.write_str("Stream"),
        }
    }
}

pub use sources_config::cadence::{Cadence, MAX_CHAIN_DEPTH, cadence, upstream};

mod caching;
mod combine;
mod exec;
mod file;
mod http;
mod steps;
mod websocket;

use caching::caches_itself;
use steps::{Step, compile_map, compile_pipe, compile_step, in_stage, missing, pipe_event};

/// How many JSON values `value` holds, itself included.
fn json_size(value: &Value) -> usize {
    let mut size = 0;
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        size += 1;
        match value {
            Value::Array(items) => pending.extend(items),
            Value::Object(fields) => pending.extend(fields.values()),
            _ => {}
        }
    }
    size
}

/// Whether a boolean field is set to true.
fn is_true(field: Option<&Field<bool>>) -> bool {
    field.is_some_and(|field| field.value)
}

fn text(field: Option<&Field<Template>>) -> Option<&str> {
    field.map(|field| field.value.text.as_str())
}

fn string(field: Option<&Field<String>>) -> Option<&str> {
    field.map(|field| field.value.as_str())
}

fn pairs(map: Option<&Field<NamedMap<String>>>) -> Vec<(String, String)> {
    map.map(|map| {
        map.value
            .iter()
            .map(|item| (item.name.value.clone(), item.value.value.clone()))
            .collect()
    })
    .unwrap_or_default()
}

fn format_of(leaf: &LeafFields) -> decode::Format {
    match leaf.format.as_ref().map(|format| format.value) {
        Some(Format::Text) => decode::Format::Text,
        _ => decode::Format::Json,
    }
}

fn timeout_of(leaf: &LeafFields) -> Duration {
    leaf.timeout
        .as_ref()
        .map_or(DEFAULT_TIMEOUT, |timeout| timeout.value.0)
}

fn page_size_of(window: &Window) -> u64 {
    window
        .page_size
        .as_ref()
        .and_then(|size| u64::try_from(size.value).ok())
        .filter(|size| *size > 0)
        .unwrap_or(window::DEFAULT_PAGE_SIZE)
}

fn anchor_of(window: &Window) -> AnchorAt {
    match window.anchor.as_ref().map(|anchor| anchor.value) {
        Some(Anchor::Oldest) => AnchorAt::Oldest,
        _ => AnchorAt::Newest,
    }
}

/// Options of an evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineOptions {
    /// Do extra work only to explain (evaluate a growing window's condition).
    pub explain: bool,
    /// How much of a streamed entry is read where a snapshot of it is needed.
    pub snapshot: SnapshotWindow,
    /// The language the configuration's expressions are written in.
    pub language: sources_expr::Language,
}

/// The most entry reads one run may make. Within a run an entry that delivers one value is read
/// once per parameter set, as the dashboard fetches it, and read again from the run's memo, so
/// reads along several paths (the same child twice in each of many stacked `merge`s) do not
/// multiply. What is left to bound is what a memo cannot share: streamed entries, and lookups
/// with a parameter set per row. Past this budget the run stops with [`Cause::TooManyReads`].
pub const MAX_READS: usize = 100_000;

/// Evaluates entries of one configuration through one I/O seam.
pub struct Engine<'c> {
    config: &'c Config,
    io: Arc<dyn Io>,
    trace: Arc<dyn Trace>,
    options: EngineOptions,
    caches: Mutex<HashMap<String, FetchCache>>,
    /// The value of each entry read in this run with its size in JSON values, by entry and bound
    /// parameters (streams are not kept: each read opens its own; an entry with a `cache` is
    /// reused through its cache).
    memo: Mutex<HashMap<ReadKey, (Value, usize)>>,
    /// Entry reads so far, against [`MAX_READS`].
    reads: AtomicUsize,
    /// JSON values copied out of the memo so far, against [`MAX_COPIED`].
    copied: AtomicUsize,
    /// The terms and sort a window's first request asks for (`try --search`, `--sort`,
    /// `--filter`).
    window: WindowAsk,
    /// The fields already said to be missing, by entry, expression field and path: once a run.
    said_missing: Mutex<HashSet<(String, String, String)>>,
}

/// An entry and the parameters it was read with.
type ReadKey = (String, BTreeMap<String, String>);

/// The most JSON values (each scalar, list and map counts one) one run may copy out of its memo.
/// A value read again is not fetched again, but each path that reads it holds its own copy, so
/// copies still multiply where an entry is read along several paths at each level (a `merge`
/// listing its child three times, stacked twenty deep, would hold 3^20 copies of the bottom rows).
/// Past this budget the run stops with [`Cause::TooManyCopies`].
pub const MAX_COPIED: usize = 1_000_000;

impl<'c> Engine<'c> {
    /// An engine over `config`, reaching the world through `io` and reporting to `trace`.
    pub fn new(
        config: &'c Config,
        io: Arc<dyn Io>,
        trace: Arc<dyn Trace>,
        options: EngineOptions,
    ) -> Engine<'c> {
        Engine {
            config,
            io,
            trace,
            options,
            caches: Mutex::new(HashMap::new()),
            memo: Mutex::new(HashMap::new()),
            said_missing: Mutex::new(HashSet::new()),
            reads: AtomicUsize::new(0),
            copied: AtomicUsize::new(0),
            window: WindowAsk::default(),
        }
    }

    /// The engine, with a window's first request asking for `ask`'s terms and sort, as the
    /// dashboard asks when the user types into a table's filter box or sorts a column.
    pub fn with_window(mut self, ask: WindowAsk) -> Engine<'c> {
        self.window = ask;
        self
    }

    /// A window's first request: `page_size` rows from offset 0, with the asked terms and sort.
    fn first_page(&self, page_size: u64) -> WindowQuery {
        WindowQuery {
            terms: self.window.terms.clone(),
            sort: self.window.sort.clone(),
            ..WindowQuery::first_page(page_size)
        }
    }

    /// Binds the caller's values for the entry `name`, for [`Engine::evaluate`].
    pub fn bind(
        &self,
        name: &str,
        supplied: &BTreeMap<String, String>,
    ) -> Result<Bound, EvalError> {
        let source = self
            .config
            .get(name)
            .ok_or_else(|| EvalError::new(name, Cause::UnknownSource(name.to_owned())))?;
        crate::params::bind_entry(self.config, source, supplied)
            .map_err(|message| EvalError::new(name, Cause::Param(message)))
    }

    /// Evaluates the entry whose parameters `params` holds, bound by the caller
    /// ([`crate::params::bind_entry`]): they are not bound again.
    pub async fn evaluate(&self, params: &Bound) -> Result<Output<'_>, EvalError> {
        self.new_run();
        self.eval_bound(
            params.entry().to_owned(),
            params.values().clone(),
            Vec::new(),
        )
        .await
    }

    /// Evaluates `name` as a snapshot: a streamed entry is an error.
    pub async fn snapshot(
        &self,
        name: &str,
        params: &BTreeMap<String, String>,
    ) -> Result<Value, EvalError> {
        self.new_run();
        self.snapshot_at(name.to_owned(), params.clone(), Vec::new())
            .await
    }

    /// Starts a run: entries are fetched again, with a fresh read budget.
    fn new_run(&self) {
        self.memo
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.reads.store(0, Ordering::Relaxed);
        self.copied.store(0, Ordering::Relaxed);
    }

    fn snapshot_at(
        &self,
        name: String,
        params: BTreeMap<String, String>,
        stack: Vec<String>,
    ) -> BoxFuture<'_, Result<Value, EvalError>> {
        Box::pin(async move {
            let output = self.eval(name.clone(), params, stack).await?;
            self.settle(&name, output).await
        })
    }

    /// The value of an output: a stream is read for a snapshot (see [`crate::snapshot`]).
    async fn settle(&self, name: &str, output: Output<'_>) -> Result<Value, EvalError> {
        match output {
            Output::Value(value) => Ok(value),
            Output::Stream(events) => {
                let window = self.options.snapshot;
                let taken = stream_snapshot::read(self.io.as_ref(), events, window).await?;
                self.trace.note(&format!(
                    "`{name}` streams: its snapshot is the first {}",
                    taken.describe(window)
                ));
                Ok(Value::Array(taken.rows))
            }
        }
    }

    /// Binds `supplied` for the entry `name` (one the engine reads on the way), then evaluates it.
    fn eval(
        &self,
        name: String,
        supplied: BTreeMap<String, String>,
        stack: Vec<String>,
    ) -> BoxFuture<'_, Result<Output<'_>, EvalError>> {
        Box::pin(async move {
            let source = self
                .config
                .get(&name)
                .ok_or_else(|| EvalError::new(name.clone(), Cause::UnknownSource(name.clone())))?;
            let params = bind(
                &sources_config::accepted::accepted_params(self.config, source),
                &supplied,
            )
            .map_err(|message| EvalError::new(name.clone(), Cause::Param(message)))?;
            self.eval_bound(name, params, stack).await
        })
    }

    /// Evaluates `name` with its parameters already bound.
    fn eval_bound(
        &self,
        name: String,
        params: BTreeMap<String, String>,
        mut stack: Vec<String>,
    ) -> BoxFuture<'_, Result<Output<'_>, EvalError>> {
        Box::pin(async move {
            let fail = |cause: Cause| EvalError::new(name.clone(), cause);
            if let Some(start) = stack.iter().position(|entry| entry == &name) {
                let mut cycle = stack[start..].to_vec();
                cycle.push(name.clone());
                return Err(fail(Cause::Cycle(cycle.join(" → "))));
            }
            if stack.len() >= MAX_CHAIN_DEPTH {
                return Err(fail(Cause::Cycle(format!(
                    "a chain of more than {MAX_CHAIN_DEPTH} entries{}",
                    crate::error::RUN_LINT
                ))));
            }
            let source = self
                .config
                .get(&name)
                .ok_or_else(|| fail(Cause::UnknownSource(name.clone())))?;
            // An entry with its own `cache` is reused through it (and says so on the trace).
            let memoized = source.body.leaf().is_none_or(|leaf| leaf.cache.is_none());
            let key = (name.clone(), params);
            if memoized && let Some(value) = self.remembered(&key).map_err(fail)? {
                return Ok(Output::Value(value));
            }
            if self.reads.fetch_add(1, Ordering::Relaxed) >= MAX_READS {
                return Err(fail(Cause::TooManyReads { limit: MAX_READS }));
            }
            let pipe = compile_pipe(self.options.language, source).map_err(fail)?;
            stack.push(name.clone());
            let output = self.body(source, &key.1, &stack).await?;
            let output = self.apply_pipe(&name, output, pipe, key.1.clone())?;
            if let (true, Output::Value(value)) = (memoized, &output) {
                let size = json_size(value);
                self.memo
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(key, (value.clone(), size));
            }
            Ok(output)
        })
    }

    /// The value this run already read for an entry and parameter set, copied against
    /// [`MAX_COPIED`].
    fn remembered(&self, key: &ReadKey) -> Result<Option<Value>, Cause> {
        let memo = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
        let Some((value, size)) = memo.get(key) else {
            return Ok(None);
        };
        if self.copied.fetch_add(*size, Ordering::Relaxed) + size > MAX_COPIED {
            return Err(Cause::TooManyCopies { limit: MAX_COPIED });
        }
        self.trace.note(&format!(
            "`{}`: already read in this run with these parameters; its value is reused",
            key.0
        ));
        Ok(Some(value.clone()))
    }

    fn apply_pipe<'s>(
        &'s self,
        name: &str,
        output: Output<'s>,
        pipe: Vec<(Option<usize>, Step)>,
        params: BTreeMap<String, String>,
    ) -> Result<Output<'s>, EvalError> {
        if pipe.is_empty() {
            return Ok(output);
        }
        let declared = self
            .config
            .get(name)
            .map(declared_params)
            .unwrap_or_default();
        let params = crate::params::typed(self.options.language, &declared, &params);
        let entry = name.to_owned();
        match output {
            Output::Value(mut value) => {
                for (index, step) in &pipe {
                    value = step
                        .apply(value, &params)
                        .map_err(|cause| EvalError::new(name, in_stage(*index, cause)))?;
                    self.say_missing(name, *index, step);
                }
                Ok(Output::Value(value))
            }
            Output::Stream(events) => Ok(Output::Stream(
                events
                    .filter_map(move |event| {
                        futures::future::ready(match event {
                            Err(error) => Some(Err(error)),
                            Ok(value) => pipe_event(&entry, &pipe, value, &params),
                        })
                    })
                    .boxed(),
            )),
        }
    }

    async fn body(
        &self,
        source: &'c Source,
        params: &BTreeMap<String, String>,
        stack: &[String],
    ) -> Result<Output<'_>, EvalError> {
        let name = source.name.value.as_str();
        let fail = |cause: Cause| EvalError::new(name, cause);
        match &source.body {
            Body::Http(http) => self.http(name, http, params).await,
            Body::Exec(exec) => self.exec(name, exec, params).await,
            Body::File(file) => self.file(name, file, params).await,
            Body::Websocket(socket) => self.websocket(name, socket, params).await,
            Body::Static(data) => {
                let value = data
                    .data
                    .as_ref()
                    .map_or(Value::Null, |data| data.value.to_json());
                Ok(Output::Value(self.root(value, &data.leaf).map_err(fail)?))
            }
            Body::Merge(merge) => {
                let limit = timeout_of(&merge.leaf);
                self.merge(name, &merge.merge, params, stack, Some(limit))
                    .await
            }
            Body::Union(union) => self.merge(name, &union.merge, params, stack, None).await,
            Body::Compose(compose) => {
                let skip = compose
                    .on_error
                    .as_ref()
                    .is_some_and(|on_error| on_error.value == OnError::Skip);
                let mut out = serde_json::Map::new();
                let mut last_error = None;
                for part in compose.parts.iter().flat_map(|parts| parts.value.iter()) {
                    let input = &part.value.value;
                    match self
                        .snapshot_at(
                            input.clone(),
                            self.forward(name, input, params),
                            stack.to_vec(),
                        )
                        .await
                    {
                        Ok(value) => {
                            out.insert(part.name.value.clone(), value);
                        }
                        Err(error) if skip => {
                            self.trace.warn(&format!(
                                "compose `{name}`: part `{}` left out by `on_error: skip`: {error}",
                                part.name.value
                            ));
                            last_error = Some(error);
                        }
                        Err(error) => return Err(fail(Cause::from(error))),
                    }
                }
                // `skip` leaves failed parts out, but a compose whose every part failed has
                // nothing to give: that is an error, as it is in the dashboard.
                match last_error {
                    Some(error) if out.is_empty() => Err(fail(Cause::from(error))),
                    _ => Ok(Output::Value(Value::Object(out))),
                }
            }
            Body::Join(join) => self
                .join(name, join, params, stack)
                .await
                .map(Output::Value),
            body => {
                let from = body.from().ok_or_else(|| {
                    fail(Cause::Unsupported(format!(
                        "its `type` is missing or unknown{}",
                        crate::error::RUN_LINT
                    )))
                })?;
                let step = compile_step(self.options.language, body)
                    .map_err(fail)?
                    .ok_or_else(|| fail(Cause::Unsupported("not an operator".to_owned())))?;
                if let Some(ttl) = body_ttl(body) {
                    self.trace.note(&format!(
                        "cache `{name}`: the dashboard holds this snapshot for {}; `try` fetches it once",
                        crate::format_duration(ttl)
                    ));
                }
                let input = self
                    .eval(
                        from.value.clone(),
                        self.forward(name, &from.value, params),
                        stack.to_vec(),
                    )
                    .await?;
                let params = params.clone();
                self.apply_pipe(name, input, vec![(None, step)], params)
            }
        }
    }

    /// What `reader` passes to its input `input`: when the reader declares no parameters of its
    /// own, the bound values `input` takes (passed through); otherwise nothing, since an
    /// operator's parameters serve only its own expressions.
    fn forward(
        &self,
        reader: &str,
        input: &str,
        params: &BTreeMap<String, String>,
    ) -> BTreeMap<String, String> {
        let (Some(reader), Some(source)) = (self.config.get(reader), self.config.get(input)) else {
            return BTreeMap::new();
        };
        if !sources_config::passes_through(reader) {
            return BTreeMap::new();
        }
        sources_config::accepted::accepted_params(self.config, source)
            .into_iter()
            .filter_map(|decl| Some((decl.name.clone(), params.get(&decl.name)?.clone())))
            .filter(|(_, value)| !value.is_empty())
            .collect()
    }

    fn root(&self, value: Value, leaf: &LeafFields) -> Result<Value, Cause> {
        apply_root(value, string(leaf.root.as_deref()))
    }

    /// Turns raw events (lines, frames) into values: `json` parses each (an empty line is
    /// skipped), `text` keeps it; `root` slices each.
    fn events(
        &self,
        name: &str,
        raw: TextStream,
        format: decode::Format,
        leaf: &LeafFields,
    ) -> Output<'_> {
        if leaf.cache.is_some() {
            self.trace.note(&format!(
                "cache `{name}`: streamed events pass through uncached"
            ));
        }
        let entry = name.to_owned();
        let root = string(leaf.root.as_deref()).map(str::to_owned);
        Output::Stream(
            raw.filter_map(move |event| {
                let result = match event {
                    Err(cause) => Some(Err(EvalError::new(entry.clone(), cause))),
                    Ok(line) if format == decode::Format::Json && line.trim().is_empty() => None,
                    Ok(line) => Some(
                        decode::decode(line.as_bytes(), format, "event")
                            .and_then(|value| apply_root(value, root.as_deref()))
                            .map_err(|cause| EvalError::new(entry.clone(), cause)),
                    ),
                };
                futures::future::ready(result)
            })
            .boxed(),
        )
    }

    /// With `explain`, evaluates a growing window's condition over its source's value.
    async fn explain_growing(&self, name: &str, window: &Window) {
        if !self.options.explain {
            return;
        }
        let Some(growing) = &window.growing else {
            return;
        };
        let every = window
            .follow_every
            .as_ref()
            .map_or(Duration::from_secs(2), |every| every.value.0);
        match &growing.value {
            Growing::Flag(_) => self.trace.note(&format!(
                "growing `{name}`: grows while the screen is open (polled every {})",
                crate::format_duration(every)
            )),
            Growing::While(condition) => {
                let (Some(source), Some(expression)) = (&condition.source, &condition.condition)
                else {
                    return;
                };
                let verdict = match Expr::compile(
                    self.options.language,
                    "growing.while",
                    &expression.value.text,
                ) {
                    Err(cause) => cause.to_string(),
                    Ok(expr) => match self.snapshot(&source.value, &BTreeMap::new()).await {
                        Err(error) => format!("cannot tell: {error}"),
                        Ok(value) => match expr.eval_bool(&value, &BTreeMap::new()) {
                            Ok(true) => "true: still growing".to_owned(),
                            Ok(false) => "false: growth has stopped".to_owned(),
                            Err(cause) => cause.to_string(),
                        },
                    },
                };
                self.trace.note(&format!(
                    "growing `{name}`: while `{}` over `{}` is {verdict} (polled every {})",
                    expression.value.text,
                    source.value,
                    crate::format_duration(every)
                ));
            }
        }
    }
}

fn body_ttl(body: &Body) -> Option<Duration> {
    match body {
        Body::Cache(cache) => cache.ttl.as_ref().map(|ttl| ttl.value.0),
        _ => None,
    }
}

fn headers(map: Option<&Field<NamedMap<Template>>>, scope: &Scope<'_>) -> Vec<(String, String)> {
    map.map(|map| {
        map.value
            .iter()
            .map(|item| {
                (
                    item.name.value.clone(),
                    scope.render(&item.value.value.text),
                )
            })
            .collect()
    })
    .unwrap_or_default()
}
