//! The evaluator: fetches one named entry as the dashboard would — its leaf fetch, or its inputs
//! and the operator over them — then its `pipe`, and returns a value or a stream of events.
//!
//! Only the named entry and the entries it depends on are touched. Operators pass to each input
//! the bound parameters that input declares (by name); a join binds its lookups through `on`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::StreamExt;
use futures::stream::BoxStream;
use serde_json::Value;
use sources_config::{
    Anchor, Body, Config, Emit, Enumeration, Field, Format, Growing, Http, Kind, LeafFields,
    MergeFields, NamedMap, OnError, Order, Source, Stage, Template, Window,
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
pub use crate::params::declared_params;
use crate::params::{Bound, bind};
use crate::snapshot::{self as stream_snapshot, SnapshotWindow};
use crate::substitute::Scope;
use crate::trace::Trace;
use crate::window::{
    self, AnchorAt, AnchoredRequest, HttpWindow, WindowQuery, anchored_first, anchored_page,
};

/// A stream of events from a streamed entry; a failed event does not end the stream.
pub type EventStream<'a> = BoxStream<'a, Result<Value, EvalError>>;

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

fn walk_map(window: &Window, anchor: AnchorAt) -> Vec<(String, Value)> {
    let map = match anchor {
        AnchorAt::Newest => window.older.as_ref(),
        AnchorAt::Oldest => window.newer.as_ref(),
    };
    map.map(|map| {
        map.value
            .iter()
            .map(|item| (item.name.value.clone(), item.value.value.to_json()))
            .collect()
    })
    .unwrap_or_default()
}

fn params_text(params: &BTreeMap<String, String>) -> String {
    if params.is_empty() {
        return "no parameters".to_owned();
    }
    params
        .iter()
        .map(|(name, value)| {
            if crate::trace::is_credential(name) {
                format!("{name}={}", crate::trace::REDACTED)
            } else {
                format!("{name}={value}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod params_text_tests {
    use super::*;

    #[test]
    fn credential_named_parameter_values_are_redacted() {
        let params = BTreeMap::from([
            ("api_token".to_owned(), "s3cret-value".to_owned()),
            ("region".to_owned(), "eu".to_owned()),
        ]);
        let text = params_text(&params);
        assert!(!text.contains("s3cret-value"), "{text}");
        assert!(text.contains("region=eu"), "{text}");
    }
}

/// One `pipe` stage or single-input operator, compiled.
enum Step {
    Filter(Expr),
    Project(Vec<(String, Expr)>),
    Derive(Vec<(String, Expr)>),
    Sort(Expr, bool),
    Hold,
}

impl Step {
    fn apply(&self, value: Value, params: &operators::Params) -> Result<Value, Cause> {
        match self {
            Step::Filter(condition) => operators::filter(value, condition, params),
            Step::Project(keep) => operators::project(value, keep, params),
            Step::Derive(compute) => operators::derive(value, compute, params),
            Step::Sort(by, descending) => operators::sort(value, by, *descending, params),
            Step::Hold => Ok(value),
        }
    }

    /// Applies to one streamed event: `None` when a filter drops it.
    fn apply_event(
        &self,
        event: Value,
        params: &operators::Params,
    ) -> Option<Result<Value, Cause>> {
        match self {
            Step::Filter(condition) => match condition.eval_bool(&event, params) {
                Ok(true) => Some(Ok(event)),
                Ok(false) => None,
                Err(cause) => Some(Err(cause)),
            },
            Step::Sort(..) | Step::Hold => Some(Ok(event)),
            other => Some(other.apply(event, params)),
        }
    }
}

fn compile_map(
    field: &str,
    map: Option<&Field<NamedMap<Template>>>,
) -> Result<Vec<(String, Expr)>, Cause> {
    map.map(|map| {
        map.value
            .iter()
            .map(|item| {
                Expr::compile(
                    format!("{field}.{}", item.name.value),
                    &item.value.value.text,
                )
                .map(|expr| (item.name.value.clone(), expr))
            })
            .collect()
    })
    .unwrap_or_else(|| Ok(Vec::new()))
}

fn missing(field: &str) -> Cause {
    Cause::Unsupported(format!("`{field}` is missing (run `sources lint`)"))
}

/// Compiles the step of a single-input operator body or a `pipe` stage.
fn compile_step(body: &Body) -> Result<Option<Step>, Cause> {
    Ok(Some(match body {
        Body::Filter(filter) => {
            let condition = text(filter.condition.as_ref()).ok_or_else(|| missing("where"))?;
            Step::Filter(Expr::compile("where", condition)?)
        }
        Body::Project(project) => Step::Project(compile_map("keep", project.keep.as_ref())?),
        Body::Derive(derive) => Step::Derive(compile_map("compute", derive.compute.as_ref())?),
        Body::Sort(sort) => {
            let by = text(sort.by.as_ref()).ok_or_else(|| missing("by"))?;
            let descending = sort
                .order
                .as_ref()
                .is_some_and(|order| order.value == Order::Desc);
            Step::Sort(Expr::compile("by", by)?, descending)
        }
        Body::Cache(_) | Body::Passthrough(_) => Step::Hold,
        _ => return Ok(None),
    }))
}

fn compile_pipe(source: &Source) -> Result<Vec<(Option<usize>, Step)>, Cause> {
    let Some(pipe) = source.body.common().and_then(|common| common.pipe.as_ref()) else {
        return Ok(Vec::new());
    };
    let mut steps = Vec::new();
    for (index, stage) in pipe.value.iter().enumerate() {
        let stage: &Stage = &stage.value;
        match compile_step(&stage.body) {
            Ok(Some(step)) => steps.push((Some(index), step)),
            Ok(None) => {
                return Err(Cause::Unsupported(format!(
                    "pipe stage {index} is not a filter, project, derive, sort or cache stage"
                )));
            }
            Err(cause) => return Err(in_stage(Some(index), cause)),
        }
    }
    Ok(steps)
}

fn in_stage(index: Option<usize>, cause: Cause) -> Cause {
    match (index, cause) {
        (
            Some(index),
            Cause::Expression {
                field,
                expression,
                detail,
            },
        ) => Cause::Expression {
            field: format!("pipe[{index}].{field}"),
            expression,
            detail,
        },
        (_, other) => other,
    }
}

/// Options of an evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineOptions {
    /// Do extra work only to explain (evaluate a growing window's condition).
    pub explain: bool,
    /// How much of a streamed entry is read where a snapshot of it is needed.
    pub snapshot: SnapshotWindow,
}

/// Evaluates entries of one configuration through one I/O seam.
pub struct Engine<'c> {
    config: &'c Config,
    io: Arc<dyn Io>,
    trace: Arc<dyn Trace>,
    options: EngineOptions,
    caches: Mutex<HashMap<String, FetchCache>>,
}

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
        crate::params::bind_entry(source, supplied)
            .map_err(|message| EvalError::new(name, Cause::Param(message)))
    }

    /// Evaluates the entry whose parameters `params` holds, bound by the caller
    /// ([`crate::params::bind_entry`]): they are not bound again.
    pub async fn evaluate(&self, params: &Bound) -> Result<Output<'_>, EvalError> {
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
        self.snapshot_at(name.to_owned(), params.clone(), Vec::new())
            .await
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
            let params = bind(&declared_params(source), &supplied)
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
                    "a chain of more than {MAX_CHAIN_DEPTH} entries (run `sources lint`)"
                ))));
            }
            let source = self
                .config
                .get(&name)
                .ok_or_else(|| fail(Cause::UnknownSource(name.clone())))?;
            let pipe = compile_pipe(source).map_err(fail)?;
            stack.push(name.clone());
            let output = self.body(source, &params, &stack).await?;
            self.apply_pipe(&name, output, pipe, params)
        })
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
        let params = crate::params::typed(&declared, &params);
        let entry = name.to_owned();
        match output {
            Output::Value(mut value) => {
                for (index, step) in &pipe {
                    value = step
                        .apply(value, &params)
                        .map_err(|cause| EvalError::new(name, in_stage(*index, cause)))?;
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
            Body::Exec(exec) => {
                let leaf = &exec.leaf;
                let scope = Scope::new(params, self.io.as_ref());
                let command = exec
                    .command
                    .as_ref()
                    .ok_or_else(|| fail(missing("command")))?;
                let env: Vec<(String, String)> = exec
                    .env
                    .as_ref()
                    .map(|env| {
                        env.value
                            .iter()
                            .map(|item| {
                                (
                                    item.name.value.clone(),
                                    scope.render(&item.value.value.text),
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                if is_true(exec.follow.as_ref()) {
                    let argv = command
                        .value
                        .iter()
                        .map(|arg| scope.render(&arg.value.text))
                        .collect();
                    let lines = fetch::run_lines(
                        self.io.as_ref(),
                        self.trace.as_ref(),
                        CommandSpec { argv, env },
                    )
                    .await
                    .map_err(fail)?;
                    return Ok(self.events(name, lines, format_of(leaf), leaf));
                }
                let (values, window) = match &exec.window {
                    Some(window) => {
                        let window = &window.value;
                        let page_size = page_size_of(window);
                        let values = if window.is_anchored() {
                            anchored_first(page_size, anchor_of(window))
                        } else {
                            window::exec_values(
                                &WindowQuery::first_page(page_size),
                                &pairs(window.filters.as_ref()),
                                None,
                            )
                        };
                        (Some(values), Some((window, page_size)))
                    }
                    None => (None, None),
                };
                let argv: Vec<String> = match &values {
                    Some(values) => {
                        let scope = scope.with_window(values);
                        command
                            .value
                            .iter()
                            .filter_map(|arg| scope.render_arg(&arg.value.text))
                            .collect()
                    }
                    None => command
                        .value
                        .iter()
                        .map(|arg| scope.render(&arg.value.text))
                        .collect(),
                };
                let key = params.clone();
                if let Some(value) = self.cache_get(name, leaf, &key) {
                    return Ok(Output::Value(value));
                }
                let stdout = fetch::run(
                    self.io.as_ref(),
                    self.trace.as_ref(),
                    CommandSpec { argv, env },
                    timeout_of(leaf),
                )
                .await
                .map_err(fail)?;
                let raw = decode::decode(&stdout, format_of(leaf), "output").map_err(fail)?;
                let value = self
                    .windowed_result(name, raw, leaf, window)
                    .map_err(fail)?;
                self.cache_put(name, leaf, key, &value);
                Ok(Output::Value(value))
            }
            Body::File(file) => {
                let leaf = &file.leaf;
                let scope = Scope::new(params, self.io.as_ref());
                let path =
                    scope.render(text(file.path.as_ref()).ok_or_else(|| fail(missing("path")))?);
                let key = params.clone();
                if let Some(value) = self.cache_get(name, leaf, &key) {
                    return Ok(Output::Value(value));
                }
                let bytes = fetch::file(self.io.as_ref(), self.trace.as_ref(), path)
                    .await
                    .map_err(fail)?;
                let value = decode::decode(&bytes, format_of(leaf), "file")
                    .and_then(|raw| self.root(raw, leaf))
                    .map_err(fail)?;
                self.cache_put(name, leaf, key, &value);
                Ok(Output::Value(value))
            }
            Body::Websocket(socket) => {
                let leaf = &socket.leaf;
                let scope = Scope::new(params, self.io.as_ref());
                let url = scope
                    .render_url(text(socket.url.as_ref()).ok_or_else(|| fail(missing("url")))?);
                let request = WebSocketRequest {
                    url,
                    headers: headers(socket.headers.as_ref(), &scope),
                    initial_messages: socket
                        .initial_messages
                        .as_ref()
                        .map(|messages| {
                            messages
                                .value
                                .iter()
                                .map(|message| scope.render(&message.value.text))
                                .collect()
                        })
                        .unwrap_or_default(),
                };
                let connect_limit = if is_true(socket.follow.as_ref()) {
                    None
                } else {
                    Some(timeout_of(leaf))
                };
                let frames = fetch::websocket(
                    self.io.as_ref(),
                    self.trace.as_ref(),
                    request,
                    connect_limit,
                )
                .await
                .map_err(fail)?;
                Ok(self.events(name, frames, format_of(leaf), leaf))
            }
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
                for part in compose.parts.iter().flat_map(|parts| parts.value.iter()) {
                    let input = &part.value.value;
                    match self
                        .snapshot_at(input.clone(), self.forward(input, params), stack.to_vec())
                        .await
                    {
                        Ok(value) => {
                            out.insert(part.name.value.clone(), value);
                        }
                        Err(error) if skip => {
                            self.trace.note(&format!(
                                "compose `{name}`: part `{}` skipped: {error}",
                                part.name.value
                            ));
                        }
                        Err(error) => return Err(fail(Cause::from(error))),
                    }
                }
                Ok(Output::Value(Value::Object(out)))
            }
            Body::Join(join) => self
                .join(name, join, params, stack)
                .await
                .map(Output::Value),
            body => {
                let from = body.from().ok_or_else(|| {
                    fail(Cause::Unsupported(
                        "its `type` is missing or unknown (run `sources lint`)".to_owned(),
                    ))
                })?;
                let step = compile_step(body)
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
                        self.forward(&from.value, params),
                        stack.to_vec(),
                    )
                    .await?;
                let params = params.clone();
                self.apply_pipe(name, input, vec![(None, step)], params)
            }
        }
    }

    /// The bound parameters that `input` declares, to pass along to it.
    fn forward(&self, input: &str, params: &BTreeMap<String, String>) -> BTreeMap<String, String> {
        let Some(source) = self.config.get(input) else {
            return BTreeMap::new();
        };
        declared_params(source)
            .into_iter()
            .filter_map(|decl| Some((decl.name.clone(), params.get(&decl.name)?.clone())))
            .filter(|(_, value)| !value.is_empty())
            .collect()
    }

    fn root(&self, value: Value, leaf: &LeafFields) -> Result<Value, Cause> {
        apply_root(value, string(leaf.root.as_ref()))
    }

    fn cache_policy(leaf: &LeafFields) -> Option<CachePolicy> {
        let cache = &leaf.cache.as_ref()?.value;
        Some(CachePolicy {
            ttl: cache.ttl.as_ref()?.value.0,
            size: cache.size.as_ref().map_or(DEFAULT_SIZE, |size| size.value),
        })
    }

    fn cache_get(
        &self,
        name: &str,
        leaf: &LeafFields,
        params: &BTreeMap<String, String>,
    ) -> Option<Value> {
        let policy = Self::cache_policy(leaf)?;
        self.cached(name, policy, params)
    }

    fn cached(
        &self,
        key: &str,
        policy: CachePolicy,
        params: &BTreeMap<String, String>,
    ) -> Option<Value> {
        let mut caches = self.caches.lock().unwrap_or_else(PoisonError::into_inner);
        let cache = caches
            .entry(key.to_owned())
            .or_insert_with(|| FetchCache::new(policy));
        let hit = cache.get(params, self.io.now());
        if hit.is_some() {
            self.trace.note(&format!(
                "cache `{key}`: hit for {} (no request)",
                params_text(params)
            ));
        }
        hit
    }

    fn cache_put(
        &self,
        name: &str,
        leaf: &LeafFields,
        params: BTreeMap<String, String>,
        value: &Value,
    ) {
        if let Some(policy) = Self::cache_policy(leaf) {
            self.store(name, policy, params, value);
        }
    }

    fn store(
        &self,
        key: &str,
        policy: CachePolicy,
        params: BTreeMap<String, String>,
        value: &Value,
    ) {
        let mut caches = self.caches.lock().unwrap_or_else(PoisonError::into_inner);
        let cache = caches
            .entry(key.to_owned())
            .or_insert_with(|| FetchCache::new(policy));
        self.trace.note(&format!(
            "cache `{key}`: stored for {} ({}; ttl {})",
            params_text(&params),
            if policy.size < 0 {
                "unbounded".to_owned()
            } else {
                format!("at most {} entries", policy.size)
            },
            crate::format_duration(policy.ttl)
        ));
        cache.put(params, value.clone(), self.io.now());
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
        let root = string(leaf.root.as_ref()).map(str::to_owned);
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

    async fn http(
        &self,
        name: &str,
        http: &'c Http,
        params: &BTreeMap<String, String>,
    ) -> Result<Output<'_>, EvalError> {
        let fail = |cause: Cause| EvalError::new(name, cause);
        let leaf = &http.leaf;
        let scope = Scope::new(params, self.io.as_ref());
        let url = scope.render_url(text(http.url.as_ref()).ok_or_else(|| fail(missing("url")))?);
        let method = text(http.method.as_ref())
            .map(|method| scope.render(method).trim().to_ascii_uppercase())
            .filter(|method| !method.is_empty())
            .unwrap_or_else(|| "GET".to_owned());
        let mut request = HttpRequest {
            method,
            url,
            headers: headers(http.headers.as_ref(), &scope),
            body: text(http.body.as_ref()).map(|body| scope.render(body)),
        };
        let timeout = timeout_of(leaf);
        if is_true(http.follow.as_ref()) {
            let lines = fetch::http_lines(self.io.as_ref(), self.trace.as_ref(), request, timeout)
                .await
                .map_err(fail)?;
            return Ok(self.events(name, lines, format_of(leaf), leaf));
        }
        let key = params.clone();
        if let Some(value) = self.cache_get(name, leaf, &key) {
            return Ok(Output::Value(value));
        }
        if let Some(paginate) = &http.paginate {
            let paginate = &paginate.value;
            let walk = LinkWalk {
                next_path: string(paginate.next_path.as_ref())
                    .unwrap_or_default()
                    .to_owned(),
                max_pages: paginate.max_pages.as_ref().map_or(0, |max| max.value),
                skip_page_errors: paginate
                    .on_page_error
                    .as_ref()
                    .is_some_and(|on_error| on_error.value == OnError::Skip),
                root: string(leaf.root.as_ref()).map(str::to_owned),
                deadline: paginate::WALK_DEADLINE,
            };
            let value = paginate::walk(
                self.io.as_ref(),
                self.trace.as_ref(),
                request,
                &walk,
                timeout,
            )
            .await
            .map_err(fail)?;
            self.cache_put(name, leaf, key, &value);
            return Ok(Output::Value(value));
        }
        let window = http.window.as_ref().map(|window| {
            let window = &window.value;
            (window, page_size_of(window))
        });
        if let Some((window, page_size)) = window {
            if window.is_anchored() {
                let anchor = anchor_of(window);
                let values = anchored_first(page_size, anchor);
                let scope = scope.with_window(&values);
                let body = text(http.body.as_ref());
                let mut walk = walk_map(window, anchor);
                if let Some(limit_param) = string(window.limit_param.as_ref()) {
                    // Anchored windows 7: the limit is one more than `page_size`, on every request.
                    walk.push((limit_param.to_owned(), Value::from(values.limit)));
                }
                match window::anchored_http(body, &walk, &scope).map_err(fail)? {
                    AnchoredRequest::Body(body) => request.body = Some(body),
                    AnchoredRequest::Query(query) => {
                        request.url = window::set_query(&request.url, &query)
                            .map_err(|error| fail(Cause::Io(error)))?;
                    }
                }
                self.trace.note(&format!(
                    "anchored window: first request from the {} end, {} items asked for (page_size {page_size} + 1)",
                    match anchor {
                        AnchorAt::Newest => "newest",
                        AnchorAt::Oldest => "oldest",
                    },
                    values.limit
                ));
            } else {
                let spec = HttpWindow {
                    offset_param: string(window.offset_param.as_ref())
                        .unwrap_or("offset")
                        .to_owned(),
                    limit_param: string(window.limit_param.as_ref())
                        .unwrap_or("limit")
                        .to_owned(),
                    search_param: string(window.search_param.as_ref()).map(str::to_owned),
                    sort_param: string(window.sort_param.as_ref()).map(str::to_owned),
                    sorts: pairs(window.sorts.as_ref()),
                    sort_desc_prefix: string(window.sort_desc_prefix.as_ref()).map(str::to_owned),
                    filters: pairs(window.filters.as_ref()),
                };
                let query = spec.params(&WindowQuery::first_page(page_size));
                request.url = window::set_query(&request.url, &query)
                    .map_err(|error| fail(Cause::Io(error)))?;
                self.trace.note(&format!(
                    "window: first page, {page_size} rows from offset 0"
                ));
            }
        }
        let body = fetch::http_body(self.io.as_ref(), self.trace.as_ref(), request, timeout)
            .await
            .map_err(fail)?;
        let raw = decode::decode(&body, format_of(leaf), "response").map_err(fail)?;
        let value = self
            .windowed_result(name, raw, leaf, window)
            .map_err(fail)?;
        if let Some((window, _)) = window {
            self.explain_growing(name, window).await;
        }
        self.cache_put(name, leaf, key, &value);
        Ok(Output::Value(value))
    }

    /// Slices a raw response at `root`; for a window, reports the total and (anchored) cuts the
    /// extra item.
    fn windowed_result(
        &self,
        name: &str,
        raw: Value,
        leaf: &LeafFields,
        window: Option<(&Window, u64)>,
    ) -> Result<Value, Cause> {
        let Some((window, page_size)) = window else {
            return self.root(raw, leaf);
        };
        if let Some(total_path) = string(window.total_path.as_ref()) {
            match crate::path::lookup(&raw, total_path) {
                Ok(total) => self.trace.note(&format!(
                    "window `{name}`: total {total} (at `{total_path}`)"
                )),
                Err(miss) => {
                    return Err(Cause::MissingPath {
                        field: "total_path",
                        path: total_path.to_owned(),
                        detail: miss.0,
                    });
                }
            }
        }
        let items = self.root(raw, leaf)?;
        if !window.is_anchored() {
            return Ok(items);
        }
        let Value::Array(items) = items else {
            return Err(Cause::Unsupported(format!(
                "an anchored window needs a list of items at `root`, not {}",
                crate::path::kind(&items)
            )));
        };
        let page = anchored_page(items, page_size);
        let cursor_path = string(window.cursor.as_ref()).unwrap_or_default();
        let edge = match page.items.last() {
            Some(last) => match crate::path::lookup(last, cursor_path) {
                Ok(cursor) => cursor.to_string(),
                Err(miss) => {
                    return Err(Cause::MissingPath {
                        field: "cursor",
                        path: cursor_path.to_owned(),
                        detail: miss.0,
                    });
                }
            },
            None => "none (no items)".to_owned(),
        };
        self.trace.note(&format!(
            "anchored window `{name}`: {} items; {} beyond this page; edge cursor {edge}",
            page.items.len(),
            if page.has_more { "more" } else { "nothing" },
        ));
        Ok(Value::Array(page.items))
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
                let verdict = match Expr::compile("growing.while", &expression.value.text) {
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

    /// Runs `work` within a `merge`'s `timeout` (a `union` has none).
    async fn within<T>(
        &self,
        name: &str,
        limit: Option<Duration>,
        work: impl std::future::Future<Output = Result<T, EvalError>>,
    ) -> Result<T, EvalError> {
        let Some(limit) = limit else {
            return work.await;
        };
        let sleep = self.io.sleep(limit);
        futures::pin_mut!(work);
        match futures::future::select(work, sleep).await {
            futures::future::Either::Left((result, _)) => result,
            futures::future::Either::Right(_) => Err(EvalError::new(
                name,
                Cause::Io(crate::io::IoError::Timeout(limit)),
            )),
        }
    }

    /// A `merge` or `union`: it streams when every child streams; otherwise it polls, and a
    /// streamed child contributes a snapshot of its stream. `timeout` (on `merge`) bounds fetching
    /// the snapshot children and opening the streams; the streams are then read, all at once, for
    /// the snapshot window.
    async fn merge(
        &self,
        name: &str,
        merge: &'c MergeFields,
        params: &BTreeMap<String, String>,
        stack: &[String],
        timeout: Option<Duration>,
    ) -> Result<Output<'_>, EvalError> {
        let fail = |cause: Cause| EvalError::new(name, cause);
        let skip = merge
            .on_error
            .as_ref()
            .is_some_and(|on_error| on_error.value == OnError::Skip);
        let meta_key = string(merge.meta_key.as_ref())
            .unwrap_or(DEFAULT_META_KEY)
            .to_owned();
        let tag_field = string(merge.tag_field.as_ref());
        let mut children: Vec<(String, ChildTags)> = Vec::new();
        for child in merge.sources.iter().flat_map(|sources| &sources.value) {
            children.push((
                child.value.clone(),
                ChildTags::for_source(&child.value, tag_field),
            ));
        }
        for child in merge.children.iter().flat_map(|children| &children.value) {
            let Some(source) = &child.value.source else {
                continue;
            };
            children.push((
                source.value.clone(),
                ChildTags {
                    tags: pairs(child.value.tags.as_ref()),
                },
            ));
        }
        let all_stream = !children.is_empty()
            && children.iter().all(|(child, _)| {
                self.config
                    .get(child)
                    .is_some_and(|source| cadence(self.config, source).is_streamed())
            });
        let opened = self
            .within(name, timeout, async {
                let mut opened = Vec::new();
                for (child, tags) in children {
                    match self
                        .eval(child.clone(), self.forward(&child, params), stack.to_vec())
                        .await
                    {
                        Ok(output) => opened.push((child, tags, output)),
                        Err(error) if skip => self
                            .trace
                            .note(&format!("merge `{name}`: child `{child}` skipped: {error}")),
                        Err(error) => return Err(fail(Cause::from(error))),
                    }
                }
                Ok(opened)
            })
            .await?;
        if all_stream {
            let mut streams = Vec::new();
            for (child, tags, output) in opened {
                let Output::Stream(events) = output else {
                    return Err(fail(Cause::Unsupported(format!(
                        "child `{child}` did not stream"
                    ))));
                };
                let meta_key = meta_key.clone();
                streams.push(
                    events
                        .map(move |event| {
                            event.map(|mut value| {
                                merge::tag_row(&mut value, &tags, &meta_key);
                                value
                            })
                        })
                        .boxed(),
                );
            }
            return Ok(Output::Stream(futures::stream::select_all(streams).boxed()));
        }
        let settled =
            futures::future::join_all(opened.into_iter().map(|(child, tags, output)| async move {
                let value = self.settle(&child, output).await;
                (child, tags, value)
            }))
            .await;
        let mut values = Vec::new();
        for (child, tags, value) in settled {
            match value {
                Ok(value) => values.push((value, tags)),
                Err(error) if skip => self
                    .trace
                    .note(&format!("merge `{name}`: child `{child}` skipped: {error}")),
                Err(error) => return Err(fail(Cause::from(error))),
            }
        }
        Ok(Output::Value(merge::concat(values, &meta_key)))
    }

    async fn join(
        &self,
        name: &str,
        join: &'c sources_config::Join,
        params: &BTreeMap<String, String>,
        stack: &[String],
    ) -> Result<Value, EvalError> {
        let fail = |cause: Cause| EvalError::new(name, cause);
        let driver = join
            .driver
            .as_ref()
            .and_then(|driver| driver.value.from.as_ref())
            .ok_or_else(|| fail(missing("driver.from")))?;
        let merged = join
            .emit
            .as_ref()
            .is_some_and(|emit| emit.value == Emit::Merged);
        let skip = join
            .on_error
            .as_ref()
            .is_some_and(|on_error| on_error.value == OnError::Skip);
        struct Lookup {
            name: String,
            from: String,
            on: Vec<(String, Expr)>,
            policy: Option<CachePolicy>,
        }
        let mut lookups = Vec::new();
        for lookup in join.lookups.iter().flat_map(|lookups| lookups.value.iter()) {
            let from = lookup
                .value
                .value
                .from
                .as_ref()
                .ok_or_else(|| fail(missing(&format!("lookups.{}.from", lookup.name.value))))?;
            let source = self
                .config
                .get(&from.value)
                .ok_or_else(|| fail(Cause::UnknownSource(from.value.clone())))?;
            // A leaf with its own `cache` stores (and says so) on its own: the join does not
            // store the same fetch a second time.
            let policy = (!caches_itself(source)).then(|| {
                source
                    .body
                    .leaf()
                    .and_then(Self::cache_policy)
                    .unwrap_or(CachePolicy::JOIN_LOOKUP)
            });
            let on = compile_map(
                &format!("lookups.{}.on", lookup.name.value),
                lookup.value.value.on.as_ref(),
            )
            .map_err(fail)?;
            lookups.push(Lookup {
                name: lookup.name.value.clone(),
                from: from.value.clone(),
                on,
                policy,
            });
        }
        let rows = merge::rows(
            self.snapshot_at(
                driver.value.clone(),
                self.forward(&driver.value, params),
                stack.to_vec(),
            )
            .await
            .map_err(|error| fail(Cause::from(error)))?,
        );
        let declared = self
            .config
            .get(name)
            .map(declared_params)
            .unwrap_or_default();
        let typed = crate::params::typed(&declared, params);
        let mut out = Vec::with_capacity(rows.len());
        for (index, mut row) in rows.into_iter().enumerate() {
            for lookup in &lookups {
                let mut bound = BTreeMap::new();
                for (param, expr) in &lookup.on {
                    let value = expr.eval(&row, &typed).map_err(|cause| {
                        fail(match cause {
                            Cause::Expression {
                                field,
                                expression,
                                detail,
                            } => Cause::Expression {
                                field,
                                expression,
                                detail: format!("{detail} (driver row {index})"),
                            },
                            other => other,
                        })
                    })?;
                    let text = match value {
                        Value::String(text) => text,
                        other => other.to_string(),
                    };
                    bound.insert(param.clone(), text);
                }
                let cache_key = lookup.from.as_str();
                let result = match lookup.policy {
                    None => {
                        self.snapshot_at(lookup.from.clone(), bound, stack.to_vec())
                            .await
                    }
                    Some(policy) => match self.cached(cache_key, policy, &bound) {
                        Some(value) => Ok(value),
                        None => {
                            let fetched = self
                                .snapshot_at(lookup.from.clone(), bound.clone(), stack.to_vec())
                                .await;
                            if let Ok(value) = &fetched {
                                self.store(cache_key, policy, bound, value);
                            }
                            fetched
                        }
                    },
                };
                match result {
                    Ok(value) => attach(&mut row, &lookup.name, value, merged),
                    Err(error) if skip => self.trace.note(&format!(
                        "join `{name}`: lookup `{}` for driver row {index} skipped: {error}",
                        lookup.name
                    )),
                    Err(error) => return Err(fail(Cause::from(error))),
                }
            }
            out.push(row);
        }
        Ok(Value::Array(out))
    }
}

/// Puts a lookup result on a driver row: `separate` under the lookup's name; `merged` merges an
/// object's keys (or a one-item list's object) into the row without overwriting, and falls back
/// to the lookup's name for anything else.
fn attach(row: &mut Value, lookup: &str, value: Value, merged: bool) {
    let Value::Object(fields) = row else {
        return;
    };
    let object = match (&value, merged) {
        (Value::Object(object), true) => Some(object.clone()),
        (Value::Array(items), true) if items.len() == 1 => items[0].as_object().cloned(),
        _ => None,
    };
    match object {
        Some(object) => {
            for (key, item) in object {
                fields.entry(key).or_insert(item);
            }
        }
        None => {
            fields.insert(lookup.to_owned(), value);
        }
    }
}

/// Runs one streamed event through the stages: `None` when a filter drops it.
fn pipe_event(
    entry: &str,
    pipe: &[(Option<usize>, Step)],
    mut value: Value,
    params: &operators::Params,
) -> Option<Result<Value, EvalError>> {
    for (index, step) in pipe {
        match step.apply_event(value, params)? {
            Ok(next) => value = next,
            Err(cause) => return Some(Err(EvalError::new(entry, in_stage(*index, cause)))),
        }
    }
    Some(Ok(value))
}

/// Whether the entry memoises its own fetches: an `http`, `exec` or `file` with `cache` (and a
/// `ttl`) that does not stream.
fn caches_itself(source: &Source) -> bool {
    let fetches = match &source.body {
        Body::Http(http) => !is_true(http.follow.as_ref()),
        Body::Exec(exec) => !is_true(exec.follow.as_ref()),
        Body::File(_) => true,
        _ => false,
    };
    fetches && source.body.leaf().and_then(Engine::cache_policy).is_some()
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

/// The kind name of an entry (`http`, `filter`, …), or `?` when `type` is missing or unknown.
pub fn kind_name(source: &Source) -> &'static str {
    source
        .kind
        .as_ref()
        .map_or("?", |kind: &sources_config::Spanned<Kind>| {
            kind.value.as_str()
        })
}
