//! The checks that read other entries (references, cycles, drivers, growing, bindings, params,
//! operators, ineffective fields, passed parameters, data references, the rows lint runs over
//! static data) and the shapes they read, in the order of every output; and, for the editor, what
//! of them one version keeps for the next ([`Facts`]), so that an edit re-runs them only for the
//! entries it can change.
//!
//! Each check is a [`Slot`]: one of an entry (it reads that entry, what the entry reads, directly
//! or not, the names of all entries and the dashboard), one of the dashboard, or the cycles of the
//! reference graph. A fresh analysis runs every slot over every entry, slot after slot. The
//! editor's analysis of an edit inside one entry of `data.sources` (the rest of the text only
//! moved, [`Edit`]) runs the entry slots only for the entries the edit can change: those
//! decoded again and every entry that reads one of them, directly or not, in the new reference
//! graph (an entry that reads none of them reads only entries whose text and references did not
//! change, so its results and shapes are the previous ones, their spans moved where the text
//! moved). Their shapes are computed again the same way ([`Shapes::updated`]). The dashboard slots
//! run on every version: they cost what the dashboard holds, not the entries. The cycles slot
//! reports nothing as long as the graph has no cycle and no chain too deep: the previous version's
//! had none, and a cycle or a deeper chain the edit makes goes through the changed entries, so it
//! is looked for among them alone, with the depths the previous version kept for the others.
//! Anything else (the names of the entries changed, the front end's shape inputs changed, the
//! dashboard was edited, the previous version had a cycle) runs everything again.

use sources_config::cadence::MAX_CHAIN_DEPTH;
use sources_config::{Config, Placed, ReferenceField, Source, SourceRef};
use sources_diagnostics::{Collector, Diagnostic};
use sources_expr::Language;

use crate::references::{self, References};
use crate::shapes::{ShapeInputs, Shapes};
use crate::{
    bindings, data_paths, data_refs, drivers, growing, ineffective, lookup_rows, operators, params,
    passed, rows, screens, selection,
};

/// The most diagnostics of these checks kept for the next version: a document with more is
/// checked whole on every version rather than holding them all.
const MAX_KEPT: usize = 2_000;

/// What one analysis reads to run a check.
struct Cx<'a> {
    config: &'a Config,
    shapes: &'a Shapes,
    file: &'a str,
    /// The language the expressions are written in.
    language: Language,
    /// The entries lint runs over static data, run as the checks ask for them.
    runs: rows::Runs,
}

/// One check of one entry.
#[derive(Clone, Copy, Debug)]
enum Check {
    UnknownRefs,
    Growing,
    MappedColumns,
    Consumed,
    WindowedPipe,
    Unbound,
    Params,
    Operators,
    Ineffective,
    Passed,
    SharedTypes,
    LookupValues,
    DataRefs,
    DataGrowing,
    FailingRows,
    LookupRows,
}

impl Check {
    /// Runs the check on each of `entries` (an entry's index, model and references), in order:
    /// a loop of its own per check, so that a whole document's run calls each check directly.
    fn run<'e>(
        self,
        cx: &Cx<'_>,
        entries: impl Iterator<Item = (usize, &'e Source, &'e [SourceRef])>,
        out: &mut Collector,
    ) {
        let (config, file) = (cx.config, cx.file);
        match self {
            Check::UnknownRefs => entries.for_each(|(_, source, refs)| {
                references::check_unknown_refs(config, source, refs, out);
            }),
            Check::Growing => entries.for_each(|(_, source, _)| {
                growing::check_growing(config, source, file, cx.language, out);
            }),
            Check::MappedColumns => entries.for_each(|(_, source, _)| {
                bindings::check_mapped_columns(config, source, file, out);
            }),
            Check::Consumed => entries.for_each(|(_, source, refs)| {
                bindings::check_consumed(config, source, refs, out);
            }),
            Check::WindowedPipe => {
                entries.for_each(|(_, source, _)| bindings::check_windowed_pipe(source, out));
            }
            Check::Unbound => entries.for_each(|(_, source, refs)| {
                params::check_unbound(config, source, refs, out);
            }),
            Check::Params => entries.for_each(|(_, source, _)| {
                params::check_entry_params(config, source, file, out);
            }),
            Check::Operators => entries.for_each(|(_, source, _)| {
                operators::check_operators(config, source, file, cx.language, out);
            }),
            Check::Ineffective => entries.for_each(|(_, source, _)| {
                ineffective::check_ineffective(config, source, file, out);
            }),
            Check::Passed => entries.for_each(|(_, source, refs)| {
                passed::check_passed(config, source, refs, file, out);
            }),
            Check::SharedTypes => entries.for_each(|(_, source, _)| {
                passed::check_shared_types(config, source, out);
            }),
            Check::LookupValues => entries.for_each(|(_, source, _)| {
                passed::check_lookup_values(config, source, cx.language, out);
            }),
            Check::DataRefs => entries.for_each(|(index, source, _)| {
                data_refs::check_data_refs(source, cx.shapes.at(index), file, cx.language, out);
            }),
            Check::DataGrowing => entries.for_each(|(_, source, _)| {
                data_refs::check_growing(config, cx.shapes, source, file, cx.language, out);
            }),
            Check::FailingRows => entries.for_each(|(index, source, _)| {
                rows::check_rows(
                    &cx.runs,
                    config,
                    index,
                    source,
                    cx.shapes.at(index),
                    file,
                    out,
                );
            }),
            Check::LookupRows => entries.for_each(|(index, source, _)| {
                lookup_rows::check_lookup_rows(
                    &cx.runs,
                    config,
                    source,
                    cx.shapes.at(index),
                    file,
                    out,
                );
            }),
        }
    }

    /// What the check finds for the entry at `index`, in the order it pushes it.
    fn found(
        self,
        cx: &Cx<'_>,
        index: usize,
        source: &Source,
        refs: &[SourceRef],
    ) -> Vec<Diagnostic> {
        let mut found = Collector::unbounded();
        self.run(cx, std::iter::once((index, source, refs)), &mut found);
        found.finish().diagnostics
    }
}

/// One check, in the order of every output.
enum Slot {
    /// Of one entry, run entry by entry.
    Entry(Check),
    /// Of the dashboard (its components and screens, and the entries they bind).
    Dashboard(fn(&Cx<'_>, &mut Collector)),
    /// Reference cycles and chains too deep.
    Cycles,
}

/// Every check that reads other entries, in the order their diagnostics are pushed.
const SLOTS: &[Slot] = &[
    Slot::Entry(Check::UnknownRefs),
    Slot::Dashboard(|cx, out| references::check_unknown_bound(cx.config, out)),
    Slot::Dashboard(|cx, out| references::check_unknown_components(cx.config, out)),
    Slot::Dashboard(|cx, out| screens::check_layouts(cx.config, out)),
    Slot::Dashboard(|cx, out| screens::check_binding_keys(cx.config, out)),
    Slot::Dashboard(|cx, out| drivers::check_drivers(cx.config, cx.file, out)),
    Slot::Dashboard(|cx, out| selection::check_bindings(cx.config, cx.file, out)),
    Slot::Dashboard(|cx, out| screens::check_unshown(cx.config, out)),
    Slot::Dashboard(|cx, out| selection::check_unfilled(cx.config, cx.file, out)),
    Slot::Cycles,
    Slot::Entry(Check::Growing),
    Slot::Dashboard(|cx, out| bindings::check_bound_components(cx.config, cx.file, out)),
    Slot::Dashboard(|cx, out| screens::check_window_fields(cx.config, out)),
    Slot::Entry(Check::MappedColumns),
    Slot::Entry(Check::Consumed),
    Slot::Entry(Check::WindowedPipe),
    Slot::Dashboard(|cx, out| params::check_component_params(cx.config, cx.file, out)),
    Slot::Entry(Check::Unbound),
    Slot::Entry(Check::Params),
    Slot::Entry(Check::Operators),
    Slot::Entry(Check::Ineffective),
    Slot::Entry(Check::Passed),
    Slot::Entry(Check::SharedTypes),
    Slot::Entry(Check::LookupValues),
    Slot::Entry(Check::DataRefs),
    Slot::Entry(Check::DataGrowing),
    Slot::Entry(Check::FailingRows),
    Slot::Entry(Check::LookupRows),
    Slot::Dashboard(|cx, out| data_paths::check_components(cx.config, cx.shapes, out)),
];

/// What the checks that read other entries take from the previous version: the facts it kept
/// and what the edit changed (made by [`crate::reuse`]).
pub(crate) struct Edit {
    /// What they kept.
    pub previous: Facts,
    /// The entries decoded again (ascending): every other one is the previous version's.
    pub fresh: Vec<usize>,
    /// When the edit lay inside one entry of `data.sources` (or the text did not change): the
    /// offset in the previous text from which the text moved, and by how much. `None`: anything
    /// may have changed.
    pub local: Option<(usize, isize)>,
}

/// What the editor's analysis of one version keeps of these checks for the next.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    /// Per entry of `data.sources`, in order (empty: nothing is kept).
    entries: Vec<EntryFacts>,
    /// Every entry's shapes.
    shapes: Shapes,
    /// The front end's shape inputs they were computed with.
    inputs: ShapeInputs,
    /// How many entries the analysis that kept them did not check again.
    reused: usize,
}

impl Facts {
    /// How many entries the analysis that kept these facts did not check again (nor compute the
    /// shapes of).
    pub(crate) fn reused(&self) -> usize {
        self.reused
    }
}

/// What is kept of one entry.
#[derive(Debug)]
struct EntryFacts {
    /// The entry's model (shared with the version's `Config`).
    source: Placed,
    /// The entries its references name, by index, and whether a chain follows each.
    edges: Vec<Edge>,
    /// How deep the chain it starts is (1: it reads nothing).
    depth: u32,
    /// What the entry slots found for it, each with its slot, in slot order.
    found: Vec<(u8, Diagnostic)>,
}

/// A reference that names an entry.
#[derive(Clone, Copy, Debug)]
struct Edge {
    to: u32,
    /// Whether it counts toward a chain's depth (a growing condition's does not).
    followed: bool,
}

/// Runs every check that reads other entries and gives the shapes: over everything, or, with
/// the editor's `edit` (what the analysis of the previous version kept and how the text changed),
/// over the entries the edit can change, giving then what this version keeps for the next.
pub(crate) fn check(
    config: &Config,
    text: &str,
    inputs: &ShapeInputs,
    out: &mut Collector,
    edit: Option<Edit>,
) -> (Shapes, Option<Facts>) {
    let Some(edit) = edit else {
        let shapes = Shapes::of(config, text, inputs);
        direct(config, &shapes, text, inputs, out);
        return (shapes, None);
    };
    let Edit {
        mut previous,
        fresh,
        local,
    } = edit;
    let (shapes, facts) = match plan(config, inputs, &mut previous, &fresh, local) {
        Some(plan) => changed(config, text, inputs, out, previous, plan),
        None => whole(config, text, inputs, out, previous),
    };
    (shapes, Some(facts))
}

/// Every slot over every entry, straight into `out` (no version follows).
fn direct(config: &Config, shapes: &Shapes, file: &str, inputs: &ShapeInputs, out: &mut Collector) {
    let cx = Cx {
        config,
        shapes,
        file,
        language: inputs.language,
        runs: rows::Runs::new(inputs.language),
    };
    let references = References::of(config);
    for slot in SLOTS {
        match slot {
            Slot::Entry(check) => check.run(&cx, references.with_entries(config), out),
            Slot::Dashboard(check) => check(&cx, out),
            Slot::Cycles => {
                references::check_cycles(config, &references, out);
            }
        }
    }
}

/// Every slot over every entry, as [`direct`], keeping each entry's facts.
fn whole(
    config: &Config,
    file: &str,
    inputs: &ShapeInputs,
    out: &mut Collector,
    previous: Facts,
) -> (Shapes, Facts) {
    let shapes = Shapes::of(config, file, inputs);
    let cx = Cx {
        config,
        shapes: &shapes,
        file,
        language: inputs.language,
        runs: rows::Runs::new(inputs.language),
    };
    let references = References::of(config);
    let mut entries: Vec<EntryFacts> = config
        .entries
        .iter()
        .enumerate()
        .map(|(index, source)| EntryFacts {
            source: source.clone(),
            edges: edges(config, references.of_entry(index)),
            depth: 1,
            found: Vec::new(),
        })
        .collect();
    let mut clean = false;
    for (at, slot) in SLOTS.iter().enumerate() {
        match slot {
            Slot::Entry(check) => {
                for (index, source) in config.entries.iter().enumerate() {
                    let found = check.found(&cx, index, source, references.of_entry(index));
                    out.extend(found.iter().cloned());
                    entries[index]
                        .found
                        .extend(found.into_iter().map(|found| (at as u8, found)));
                }
            }
            Slot::Dashboard(check) => check(&cx, out),
            Slot::Cycles => {
                if let Some(depths) = references::check_cycles(config, &references, out) {
                    for (entry, depth) in entries.iter_mut().zip(depths) {
                        entry.depth = depth;
                    }
                    clean = true;
                }
            }
        }
    }
    let inputs = if previous.inputs == *inputs {
        previous.inputs
    } else {
        inputs.clone()
    };
    // A graph with a cycle or a chain too deep is checked whole on every version.
    let kept = clean && entries.iter().map(|entry| entry.found.len()).sum::<usize>() <= MAX_KEPT;
    let facts = kept_facts(kept, entries, &shapes, inputs, 0);
    (shapes, facts)
}

/// The entries an edit can change, and what the checks of the others keep.
struct Plan {
    /// The entries whose checks run again, ascending.
    dirty: Vec<usize>,
    /// Per entry, whether it is in `dirty`.
    is_dirty: Vec<bool>,
    /// The next version's facts, `found` empty for the dirty entries.
    entries: Vec<EntryFacts>,
    /// Where the previous text moved: from this offset on, by `delta`.
    at: usize,
    delta: isize,
}

/// Which entries the edit can change, when the `previous` version's facts tell it (taking its
/// entries' facts); `None` to check everything. `fresh` and `local` are [`Edit`]'s.
fn plan(
    config: &Config,
    inputs: &ShapeInputs,
    previous: &mut Facts,
    fresh: &[usize],
    local: Option<(usize, isize)>,
) -> Option<Plan> {
    let count = config.entries.len();
    let (at, delta) = local?;
    if previous.entries.len() != count || previous.inputs != *inputs {
        return None;
    }
    // The names stay: an entry kept from the previous version has its name, and one decoded
    // again must have the name it had.
    if fresh.iter().any(|&index| {
        previous.entries.get(index).map(|kept| kept.source.name())
            != config.entries.get(index).map(Placed::name)
    }) {
        return None;
    }
    let mut entries = std::mem::take(&mut previous.entries);
    for (entry, source) in entries.iter_mut().zip(&config.entries) {
        entry.source = source.clone();
    }
    for &index in fresh {
        entries[index].edges = edges(config, &config.entries[index].references());
    }
    let is_dirty = readers(&entries, fresh);
    let dirty: Vec<usize> = (0..count).filter(|&index| is_dirty[index]).collect();
    if !measure(&mut entries, &dirty, &is_dirty) {
        return None;
    }
    Some(Plan {
        dirty,
        is_dirty,
        entries,
        at,
        delta,
    })
}

/// The entries that read one of `changed` (themselves included), directly or not.
fn readers(entries: &[EntryFacts], changed: &[usize]) -> Vec<bool> {
    let count = entries.len();
    // The reversed graph, flat: the readers of entry `e` are `read_by[starts[e]..starts[e + 1]]`.
    let mut starts = vec![0usize; count + 1];
    for entry in entries {
        for edge in &entry.edges {
            if let Some(start) = starts.get_mut(edge.to as usize + 1) {
                *start += 1;
            }
        }
    }
    for index in 0..count {
        starts[index + 1] += starts[index];
    }
    let mut filled = starts.clone();
    let mut read_by = vec![0usize; starts[count]];
    for (reader, entry) in entries.iter().enumerate() {
        for edge in &entry.edges {
            let slot = &mut filled[edge.to as usize];
            read_by[*slot] = reader;
            *slot += 1;
        }
    }
    let mut dirty = vec![false; count];
    let mut queue: Vec<usize> = Vec::new();
    for &index in changed {
        if index < count && !dirty[index] {
            dirty[index] = true;
            queue.push(index);
        }
    }
    while let Some(at) = queue.pop() {
        for &reader in &read_by[starts[at]..starts[at + 1]] {
            if !dirty[reader] {
                dirty[reader] = true;
                queue.push(reader);
            }
        }
    }
    dirty
}

/// Measures again how deep the `dirty` entries are, in dependency order, reading the kept depths
/// of the others; `false` when they hold a cycle or a chain too deep (a cycle the edit made goes
/// through a changed entry, so all its members read one and are dirty).
fn measure(entries: &mut [EntryFacts], dirty: &[usize], is_dirty: &[bool]) -> bool {
    const WAITING: u8 = 0;
    const ACTIVE: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![WAITING; entries.len()];
    for &first in dirty {
        if state[first] != WAITING {
            continue;
        }
        let mut stack = vec![(first, false)];
        while let Some((at, expanded)) = stack.pop() {
            if !expanded {
                if state[at] == DONE {
                    continue;
                }
                state[at] = ACTIVE;
                stack.push((at, true));
                for edge in &entries[at].edges {
                    let to = edge.to as usize;
                    if !is_dirty[to] {
                        continue;
                    }
                    match state[to] {
                        ACTIVE => return false,
                        WAITING => stack.push((to, false)),
                        _ => {}
                    }
                }
                continue;
            }
            if state[at] == DONE {
                continue;
            }
            let deepest = entries[at]
                .edges
                .iter()
                .filter(|edge| edge.followed)
                .map(|edge| entries[edge.to as usize].depth)
                .max()
                .unwrap_or(0);
            let depth = deepest.saturating_add(1);
            if depth as usize > MAX_CHAIN_DEPTH {
                return false;
            }
            entries[at].depth = depth;
            state[at] = DONE;
        }
    }
    true
}

/// The checks over the entries the edit can change; the others' results taken from `plan`.
fn changed(
    config: &Config,
    file: &str,
    inputs: &ShapeInputs,
    out: &mut Collector,
    previous: Facts,
    plan: Plan,
) -> (Shapes, Facts) {
    let Plan {
        dirty,
        is_dirty,
        mut entries,
        at,
        delta,
    } = plan;
    let shapes = previous.shapes.updated(config, file, inputs, &dirty);
    let cx = Cx {
        config,
        shapes: &shapes,
        file,
        language: inputs.language,
        runs: rows::Runs::new(inputs.language),
    };
    // What the clean entries found, moved with the text, by slot then entry.
    let mut reused: Vec<(u8, usize, Diagnostic)> = Vec::new();
    for (index, entry) in entries.iter_mut().enumerate() {
        if is_dirty[index] {
            entry.found.clear();
            continue;
        }
        for (slot, found) in &mut entry.found {
            moved(found, at, delta);
            reused.push((*slot, index, found.clone()));
        }
    }
    reused.sort_by_key(|(slot, _, _)| *slot);
    let references: Vec<Vec<SourceRef>> = dirty
        .iter()
        .map(|&index| config.entries[index].references())
        .collect();
    let mut reused = reused.into_iter().peekable();
    for (position, slot) in SLOTS.iter().enumerate() {
        let check = match slot {
            Slot::Entry(check) => check,
            Slot::Dashboard(check) => {
                check(&cx, out);
                continue;
            }
            // The plan found no cycle and no chain too deep.
            Slot::Cycles => continue,
        };
        let slot = position as u8;
        for (&index, refs) in dirty.iter().zip(&references) {
            while let Some((_, _, found)) =
                reused.next_if(|(kept, before, _)| *kept == slot && *before < index)
            {
                out.push(found);
            }
            let source = &config.entries[index];
            let found = check.found(&cx, index, source, refs);
            out.extend(found.iter().cloned());
            entries[index]
                .found
                .extend(found.into_iter().map(|found| (slot, found)));
        }
        while let Some((_, _, found)) = reused.next_if(|(kept, _, _)| *kept == slot) {
            out.push(found);
        }
    }
    let kept = entries.iter().map(|entry| entry.found.len()).sum::<usize>() <= MAX_KEPT;
    let reused = config.entries.len() - dirty.len();
    let facts = kept_facts(kept, entries, &shapes, previous.inputs, reused);
    (shapes, facts)
}

/// The facts a version keeps: its entries' and a copy of its shapes when `kept`, else neither
/// (the next version then checks everything and reads neither).
fn kept_facts(
    kept: bool,
    entries: Vec<EntryFacts>,
    shapes: &Shapes,
    inputs: ShapeInputs,
    reused: usize,
) -> Facts {
    let (entries, shapes) = if kept {
        (entries, shapes.clone())
    } else {
        (Vec::new(), Shapes::default())
    };
    Facts {
        entries,
        shapes,
        inputs,
        reused,
    }
}

/// The entries `refs` name, by index.
fn edges(config: &Config, refs: &[SourceRef]) -> Vec<Edge> {
    refs.iter()
        .filter_map(|reference| {
            let to = config.position(&reference.name.value)?;
            Some(Edge {
                to: u32::try_from(to).ok()?,
                followed: reference.field != ReferenceField::Growing,
            })
        })
        .collect()
}

/// Moves the spans of `diagnostic` that lie at or after `at` in the previous text by `delta`.
fn moved(diagnostic: &mut Diagnostic, at: usize, delta: isize) {
    if delta == 0 {
        return;
    }
    diagnostic.move_spans(|span| {
        if span.start() >= at {
            span.shifted(delta)
        } else {
            span
        }
    });
}
