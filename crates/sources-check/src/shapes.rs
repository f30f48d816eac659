//! The shape of every entry, computed once per analysis and read by the data checks
//! (`data_refs`), the language server and `graph`: exactly from `static` data, from what the front
//! end hands in ([`ShapeInputs`]: recorded samples, the demo backend's published responses), and
//! through every operator and `pipe` stage.
//!
//! Pure: samples and published shapes are read by the front ends and handed in; nothing here reads
//! a file. An entry whose data nothing tells is unknown, and an unknown shape is never an error.

use std::sync::Arc;

use sources_config::Config;
use sources_config::model::{Body, MergeFields, Source};
use sources_expr::{Language, ResultKind};

use crate::expressions;
use crate::shape::{Field, Fields, PathLookup, Shape};
pub use crate::shaped::{Certainty, Origin, RouteShape, Sample, ShapeInputs, Shaped, fingerprint};

/// The meta key when `meta_key` is unset (tags of `merge` and `union` rows go under it).
pub const DEFAULT_META_KEY: &str = "_meta";

/// The shapes of one entry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EntryShapes {
    /// A leaf's response, before `root` (what `root`, `total_path`, `next_path` read).
    pub response: Option<Shaped>,
    /// What a single-input operator reads (its `from`'s value): what its expressions see.
    pub input: Option<Shaped>,
    /// What each `pipe` stage reads, in order.
    pub stages: Vec<Option<Shaped>>,
    /// What the entry gives, after its `pipe`.
    pub output: Option<Shaped>,
}

/// The shapes of every entry of one analysis, by the entry's position in `Config::entries`.
/// Entries with the same shapes share them when computed one after the other (a document of many
/// entries alike, such as static data of one form, holds them once rather than once per entry).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shapes {
    entries: Vec<Arc<EntryShapes>>,
}

impl Shapes {
    /// The shapes of the entry at `position` in `Config::entries`.
    pub fn at(&self, position: usize) -> Option<&EntryShapes> {
        self.entries.get(position).map(Arc::as_ref)
    }

    /// The output of the entry named `name`.
    pub fn output<'s>(&'s self, config: &Config, name: &str) -> Option<&'s Shaped> {
        self.at(config.position(name)?)?.output.as_ref()
    }

    /// Computes every entry's shapes (`text` is the document, for samples' fingerprints).
    pub fn of(config: &Config, text: &str, inputs: &ShapeInputs) -> Shapes {
        let count = config.entries.len();
        // Every entry shares one empty value until its own are computed.
        let empty = Arc::new(EntryShapes::default());
        let mut shapes = Shapes {
            entries: std::iter::repeat_n(empty, count).collect(),
        };
        let mut state = vec![State::Waiting; count];
        shapes.compute(config, text, inputs, &mut state, 0..count);
        shapes
    }

    /// These shapes, of the previous version of a document, with the entries at `changed`
    /// (ascending) computed again for `config`, the next one: every other entry's shapes must be
    /// what they were (it reads none of them, directly or not) and the references between entries
    /// must form no cycle (whose members read each other as unknown in the order they are met).
    pub(crate) fn updated(
        mut self,
        config: &Config,
        text: &str,
        inputs: &ShapeInputs,
        changed: &[usize],
    ) -> Shapes {
        let mut state = vec![State::Done; config.entries.len()];
        self.entries
            .resize(config.entries.len(), Arc::new(EntryShapes::default()));
        for &at in changed {
            if let Some(state) = state.get_mut(at) {
                *state = State::Waiting;
            }
        }
        self.compute(config, text, inputs, &mut state, changed.iter().copied());
        self
    }

    /// Computes the shapes of the entries from `starts` that are waiting, and of the waiting ones
    /// they read first.
    fn compute(
        &mut self,
        config: &Config,
        text: &str,
        inputs: &ShapeInputs,
        state: &mut [State],
        starts: impl Iterator<Item = usize>,
    ) {
        let entries = &mut self.entries;
        // The shapes computed last, which the next entry shares when it has the same.
        let mut last: Option<Arc<EntryShapes>> = None;
        // Depth-first in dependency order on an explicit stack (chains may be long); an entry met
        // again while in progress (a cycle, reported elsewhere) reads as unknown.
        for first in starts {
            if state.get(first) != Some(&State::Waiting) {
                continue;
            }
            let mut stack = vec![(first, false)];
            while let Some((at, expanded)) = stack.pop() {
                if state[at] == State::Done {
                    continue;
                }
                if !expanded {
                    state[at] = State::Active;
                    stack.push((at, true));
                    for name in reads(&config.entries[at]) {
                        if let Some(dep) = config.position(name)
                            && state[dep] == State::Waiting
                        {
                            stack.push((dep, false));
                        }
                    }
                    continue;
                }
                let computed = {
                    let done = |name: &str| -> Option<Shaped> {
                        let dep = config.position(name)?;
                        match state[dep] {
                            State::Done => entries[dep].output.clone(),
                            _ => None,
                        }
                    };
                    entry_shapes(&config.entries[at], text, inputs, &done)
                };
                let computed = match last.take() {
                    Some(last) if same_entry(&last, &computed) => last,
                    _ => Arc::new(computed),
                };
                entries[at] = Arc::clone(&computed);
                last = Some(computed);
                state[at] = State::Done;
            }
        }
    }
}

/// Whether two entries' shapes are the same: [`EntryShapes`]'s equality, which looks inside a
/// shape only when the two do not share it (entries reading one route's published shape do).
fn same_entry(a: &EntryShapes, b: &EntryShapes) -> bool {
    fn same(a: &Option<Shaped>, b: &Option<Shaped>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => {
                a.certainty == b.certainty
                    && (Arc::ptr_eq(&a.origin, &b.origin) || a.origin == b.origin)
                    && (Arc::ptr_eq(&a.shape, &b.shape) || a.shape == b.shape)
            }
            (a, b) => a.is_none() && b.is_none(),
        }
    }
    same(&a.response, &b.response)
        && same(&a.input, &b.input)
        && same(&a.output, &b.output)
        && a.stages.len() == b.stages.len()
        && a.stages.iter().zip(&b.stages).all(|(a, b)| same(a, b))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Waiting,
    Active,
    Done,
}

/// The names an entry reads.
fn reads(source: &Source) -> Vec<&str> {
    let mut names = Vec::new();
    if let Some(from) = source.body.from() {
        names.push(from.value.as_str());
    }
    if let Some(merge) = source.body.merge_fields() {
        names.extend(children(merge).into_iter().map(|(name, _)| name));
    }
    match &source.body {
        Body::Compose(compose) => {
            for part in compose.parts.iter().flat_map(|parts| parts.value.iter()) {
                names.push(part.value.value.as_str());
            }
        }
        Body::Join(join) => {
            if let Some(from) = join.driver.as_ref().and_then(|d| d.value.from.as_ref()) {
                names.push(from.value.as_str());
            }
            for lookup in join.lookups.iter().flat_map(|lookups| lookups.value.iter()) {
                if let Some(from) = &lookup.value.value.from {
                    names.push(from.value.as_str());
                }
            }
        }
        _ => {}
    }
    names
}

/// A merge's or union's children with the tag keys each child's rows get.
fn children(merge: &MergeFields) -> Vec<(&str, Vec<&str>)> {
    let mut found = Vec::new();
    if let Some(sources) = &merge.sources {
        let tag = merge.tag_field.as_ref().map(|tag| tag.value.as_str());
        for child in &sources.value {
            found.push((child.value.as_str(), tag.into_iter().collect()));
        }
    }
    if let Some(list) = &merge.children {
        for child in &list.value {
            if let Some(source) = &child.value.source {
                let tags = child
                    .value
                    .tags
                    .iter()
                    .flat_map(|tags| tags.value.iter())
                    .map(|tag| tag.name.value.as_str())
                    .collect();
                found.push((source.value.as_str(), tags));
            }
        }
    }
    found
}

/// The shapes of one entry, its inputs' outputs read through `done`.
fn entry_shapes(
    source: &Source,
    text: &str,
    inputs: &ShapeInputs,
    done: &dyn Fn(&str) -> Option<Shaped>,
) -> EntryShapes {
    let mut shapes = EntryShapes::default();
    let produced = match &source.body {
        Body::Static(body) => {
            let response = body.data.as_ref().map(|data| {
                Shaped::new(
                    Shape::of_node(&data.value.0),
                    Certainty::Exact,
                    Origin::Static,
                )
            });
            shapes.response = response.clone();
            response.and_then(|response| rooted(&response, source))
        }
        Body::Http(_) | Body::Exec(_) | Body::File(_) | Body::Websocket(_) => {
            let response = crate::demo_shapes::route(source, inputs);
            shapes.response = response.clone();
            response.and_then(|response| rooted(&response, source))
        }
        Body::Merge(merge) => union(&merge.merge, done),
        Body::Union(union_body) => union(&union_body.merge, done),
        Body::Passthrough(_) | Body::Filter(_) | Body::Sort(_) | Body::Cache(_) => {
            let input = source.body.from().and_then(|from| done(&from.value));
            shapes.input = input.clone();
            input
        }
        Body::Project(_) | Body::Derive(_) => {
            let input = source.body.from().and_then(|from| done(&from.value));
            shapes.input = input.clone();
            apply(&source.body, input.as_ref(), inputs.language)
        }
        Body::Compose(compose) => {
            let skip = compose
                .on_error
                .as_ref()
                .is_some_and(|on_error| on_error.value == sources_config::enums::OnError::Skip);
            let mut fields = Fields::new();
            let mut weakest: Option<Shaped> = None;
            for part in compose.parts.iter().flat_map(|parts| parts.value.iter()) {
                let shaped = done(&part.value.value);
                let shape = shaped
                    .as_ref()
                    .map_or(Shape::Unknown, |s| (*s.shape).clone());
                if let Some(shaped) = shaped {
                    weakest = Some(weaker(weakest, shaped));
                }
                fields.insert(
                    part.name.value.to_string(),
                    Field {
                        shape,
                        optional: skip,
                    },
                );
            }
            let base = weakest
                .unwrap_or_else(|| Shaped::new(Shape::Unknown, Certainty::Exact, Origin::Operator));
            Some(base.with(Shape::Object(fields)))
        }
        Body::Join(join) => {
            let driver = join
                .driver
                .as_ref()
                .and_then(|driver| driver.value.from.as_ref())
                .and_then(|from| done(&from.value));
            shapes.input = driver.clone();
            let merged = join
                .emit
                .as_ref()
                .is_some_and(|emit| emit.value == sources_config::enums::Emit::Merged);
            let lookups: Vec<(String, Option<Shaped>)> = join
                .lookups
                .iter()
                .flat_map(|lookups| lookups.value.iter())
                .map(|lookup| {
                    let shaped = lookup
                        .value
                        .value
                        .from
                        .as_ref()
                        .and_then(|from| done(&from.value));
                    (lookup.name.value.to_string(), shaped)
                })
                .collect();
            joined(driver, lookups, merged)
        }
        Body::Unknown => None,
    };
    let mut current = produced.and_then(Shaped::known);
    if let Some(pipe) = source.body.common().and_then(|common| common.pipe.as_ref()) {
        for stage in &pipe.value {
            shapes.stages.push(current.clone());
            current =
                apply(&stage.value.body, current.as_ref(), inputs.language).and_then(Shaped::known);
        }
    }
    // A sample is the entry's value as `try` gave it: it describes the output, whatever the
    // text alone tells (an unknown leaf, an operator over one).
    if let Some(sample) = sample(source, text, inputs)
        && current
            .as_ref()
            .is_none_or(|current| current.certainty == Certainty::Sampled)
    {
        current = Some(sample);
    }
    if shapes
        .input
        .as_ref()
        .is_some_and(|input| input.shape.is_unknown())
    {
        shapes.input = None;
    }
    shapes.output = current;
    shapes
}

/// The entry's recorded sample, unless the entry was written differently when it was recorded.
fn sample(source: &Source, text: &str, inputs: &ShapeInputs) -> Option<Shaped> {
    let sample = inputs.samples.get(source.name.value.as_str())?;
    if sample.fingerprint != fingerprint(text, source) {
        return None;
    }
    Some(Shaped::new(
        sample.shape.clone(),
        Certainty::Sampled,
        Origin::Sample(sample.recorded.clone()),
    ))
}

/// A leaf's value: its response at `root`.
fn rooted(response: &Shaped, source: &Source) -> Option<Shaped> {
    let root = source.body.leaf().and_then(|leaf| leaf.root.as_ref());
    match root {
        None => Some(response.clone()),
        Some(root) => match response.shape.lookup(&root.value) {
            PathLookup::Found(shape) => Some(response.with(shape.clone())),
            _ => None,
        },
    }
}

/// The weaker of two shapes' certainties, with its origin.
fn weaker(current: Option<Shaped>, next: Shaped) -> Shaped {
    match current {
        Some(current) if current.certainty <= next.certainty => current,
        _ => next,
    }
}

/// The rows of a `merge` or `union`: every child's rows joined, each child's tags added under
/// `meta_key` (or at the top level with `meta_key: ""`).
fn union(merge: &MergeFields, done: &dyn Fn(&str) -> Option<Shaped>) -> Option<Shaped> {
    let meta_key = merge
        .meta_key
        .as_ref()
        .map_or(DEFAULT_META_KEY, |meta| meta.value.as_str());
    let mut rows: Option<Shape> = None;
    let mut weakest: Option<Shaped> = None;
    for (child, tags) in children(merge) {
        let shaped = done(child)?;
        let mut row = shaped.shape.rows().clone();
        if let Shape::Object(fields) = &mut row {
            tag(fields, meta_key, &tags);
        }
        rows = Some(match rows {
            None => row,
            Some(rows) => rows.join(row),
        });
        weakest = Some(weaker(weakest, shaped));
    }
    let rows = rows?;
    Some(weakest?.with(Shape::Array(Box::new(rows))))
}

/// Adds tag keys to a row's keys, under `meta_key` or at the top level.
fn tag(fields: &mut Fields, meta_key: &str, tags: &[&str]) {
    if tags.is_empty() {
        return;
    }
    let target = if meta_key.is_empty() {
        fields
    } else {
        let meta = fields
            .entry(meta_key.to_owned())
            .or_insert_with(|| Field::required(Shape::Object(Fields::new())));
        match &mut meta.shape {
            Shape::Object(meta) => meta,
            _ => return,
        }
    };
    for name in tags {
        target
            .entry((*name).to_owned())
            .or_insert_with(|| Field::required(Shape::String));
    }
}

/// A join's rows: `{row, LOOKUP…}` (separate) or the driver row with each lookup's keys merged in,
/// a key the row already has written `LOOKUP_KEY` (merged).
fn joined(
    driver: Option<Shaped>,
    lookups: Vec<(String, Option<Shaped>)>,
    merged: bool,
) -> Option<Shaped> {
    let mut weakest = driver.clone();
    let driver_rows = driver
        .as_ref()
        .map_or(Shape::Unknown, |driver| driver.shape.rows().clone());
    let row = if merged {
        let Shape::Object(mut fields) = driver_rows else {
            return None;
        };
        for (name, lookup) in &lookups {
            let lookup = lookup.as_ref()?;
            let Shape::Object(extra) = lookup.shape.rows() else {
                return None;
            };
            for (key, field) in extra {
                let key = if fields.contains_key(key) {
                    format!("{name}_{key}")
                } else {
                    key.clone()
                };
                fields.insert(key, field.clone());
            }
            weakest = Some(weaker(weakest, lookup.clone()));
        }
        Shape::Object(fields)
    } else {
        let mut fields = Fields::new();
        fields.insert("row".to_owned(), Field::required(driver_rows));
        for (name, lookup) in &lookups {
            let shape = lookup
                .as_ref()
                .map_or(Shape::Unknown, |lookup| (*lookup.shape).clone());
            fields.insert(name.clone(), Field::required(shape));
        }
        Shape::Object(fields)
    };
    let base =
        weakest.unwrap_or_else(|| Shaped::new(Shape::Unknown, Certainty::Exact, Origin::Operator));
    Some(base.with(Shape::Array(Box::new(row))))
}

/// What a single-input body gives from `input`: filter, sort and cache keep it; project builds
/// rows from `keep` (whatever the input, the keys are known); derive adds `compute`'s keys.
pub(crate) fn apply(body: &Body, input: Option<&Shaped>, language: Language) -> Option<Shaped> {
    match body {
        Body::Project(project) => {
            let rows = input.map(|input| input.shape.rows());
            let mut fields = Fields::new();
            for item in project.keep.iter().flat_map(|keep| keep.value.iter()) {
                let shape = result_shape(language, &item.value.value.text, rows);
                fields.insert(item.name.value.to_string(), Field::required(shape));
            }
            let row = Shape::Object(fields);
            let shape = match input.map(|input| &*input.shape) {
                Some(Shape::Array(_)) => Shape::Array(Box::new(row)),
                Some(Shape::Object(_)) => row,
                _ => Shape::Rows(Box::new(row)),
            };
            Some(match input {
                Some(input) => input.with(shape),
                None => Shaped::new(shape, Certainty::Exact, Origin::Operator),
            })
        }
        Body::Derive(derive) => {
            let input = input?;
            let rows = input.shape.rows();
            let Shape::Object(mut fields) = rows.clone() else {
                return None;
            };
            for item in derive
                .compute
                .iter()
                .flat_map(|compute| compute.value.iter())
            {
                let shape = result_shape(language, &item.value.value.text, Some(rows));
                fields.insert(item.name.value.to_string(), Field::required(shape));
            }
            let row = Shape::Object(fields);
            Some(input.with(match &*input.shape {
                Shape::Array(_) => Shape::Array(Box::new(row)),
                Shape::Rows(_) => Shape::Rows(Box::new(row)),
                _ => row,
            }))
        }
        Body::Filter(_) | Body::Sort(_) | Body::Cache(_) | Body::Passthrough(_) => input.cloned(),
        _ => None,
    }
}

/// The shape of an expression's value over rows of shape `rows`, where evident.
fn result_shape(language: Language, text: &str, rows: Option<&Shape>) -> Shape {
    let Ok(refs) = expressions::facts(language, text) else {
        return Shape::Unknown;
    };
    match &refs.result {
        ResultKind::Unknown => Shape::Unknown,
        ResultKind::Kind(kind) => Shape::of_kind(*kind),
        ResultKind::Path(path) => match rows {
            Some(rows) => match rows.lookup(&path.join(".")) {
                PathLookup::Found(shape) => shape.clone(),
                _ => Shape::Unknown,
            },
            None => Shape::Unknown,
        },
    }
}
