//! How an entry delivers over time (its cadence), the entries it reads, and the one limit on
//! how deep a chain of entries may go. The checker, `try` and `sources list` all use these, so
//! "does this entry stream" has one answer.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::{Body, Config, Field, ReferenceField, Source};

/// The most entries one chain of reads may hold (`a` reads `b` reads `c` … counts each entry).
/// The checker reports a longer chain (`reference-depth`); `try` never walks deeper.
pub const MAX_CHAIN_DEPTH: usize = 64;

/// How an entry delivers over time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cadence {
    /// Fetched once (and again on a manual refresh).
    OneShot,
    /// Fetched again every `refresh`.
    Polled(Duration),
    /// Events arrive as they happen; `follow` says it is an `http`/`exec` with `follow: true`.
    Streamed {
        /// Whether the stream comes from `follow: true`.
        follow: bool,
    },
}

impl Cadence {
    /// Whether events stream.
    pub fn is_streamed(self) -> bool {
        matches!(self, Cadence::Streamed { .. })
    }
}

impl std::fmt::Display for Cadence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cadence::OneShot => f.write_str("one-shot"),
            Cadence::Polled(every) => {
                write!(
                    f,
                    "polled (refresh: {})",
                    crate::duration::format_duration(*every)
                )
            }
            Cadence::Streamed { follow: false } => f.write_str("streamed"),
            Cadence::Streamed { follow: true } => f.write_str("streamed (follow)"),
        }
    }
}

fn is_true(field: Option<&Field<bool>>) -> bool {
    field.is_some_and(|field| field.value)
}

/// How an entry delivers, from its fields and (for `merge`, `union` and operators) its inputs: a
/// `websocket` or an `http`/`exec` with `follow: true` streams; a `merge`/`union` streams when every
/// child streams and otherwise polls at its fastest child (or its own `refresh`); `compose` and
/// `join` read snapshots of their inputs; a single-input operator delivers as its input does.
pub fn cadence(config: &Config, source: &Source) -> Cadence {
    Walk {
        config,
        known: HashMap::new(),
        open: HashSet::new(),
    }
    .cadence_at(source, 0)
}

fn combine(cadences: &[Cadence], refresh: Option<Duration>) -> Cadence {
    if !cadences.is_empty() && cadences.iter().all(|cadence| cadence.is_streamed()) {
        return Cadence::Streamed { follow: false };
    }
    let fastest = cadences
        .iter()
        .filter_map(|cadence| match cadence {
            Cadence::Polled(every) => Some(*every),
            _ => None,
        })
        .chain(refresh)
        .min();
    fastest.map_or(Cadence::OneShot, Cadence::Polled)
}

/// One walk over the entries a cadence depends on. Each entry is worked out once, however many
/// paths read it (a `merge` of one entry three times, 64 deep, would otherwise take 3^64 steps),
/// and an entry on the path being walked (a cycle, which lint reports) is not read again.
struct Walk<'c> {
    config: &'c Config,
    /// Entries already worked out.
    known: HashMap<&'c str, Cadence>,
    /// Entries on the path being walked.
    open: HashSet<&'c str>,
}

impl<'c> Walk<'c> {
    fn inputs(&mut self, source: &Source, depth: usize) -> Vec<Cadence> {
        let mut cadences = Vec::new();
        for name in upstream(source) {
            let Some(input) = self.config.get(&name) else {
                continue;
            };
            if self.open.contains(input.name.value.as_str()) {
                continue;
            }
            cadences.push(self.cadence_at(input, depth + 1));
        }
        cadences
    }

    fn cadence_at(&mut self, source: &'c Source, depth: usize) -> Cadence {
        if depth > MAX_CHAIN_DEPTH {
            return Cadence::OneShot;
        }
        // An entry that reads no other entry delivers as its own fields say: nothing to remember.
        if !reads_inputs(&source.body) {
            return self.work_out(source, depth);
        }
        let name = source.name.value.as_str();
        if let Some(known) = self.known.get(name) {
            return *known;
        }
        self.open.insert(name);
        let cadence = self.work_out(source, depth);
        self.open.remove(name);
        self.known.insert(name, cadence);
        cadence
    }

    fn work_out(&mut self, source: &Source, depth: usize) -> Cadence {
        let refresh = source
            .body
            .leaf()
            .and_then(|leaf| leaf.refresh.as_ref())
            .map(|refresh| refresh.value.0);
        let polled_or_once = refresh.map_or(Cadence::OneShot, Cadence::Polled);
        match &source.body {
            Body::Http(http) if is_true(http.follow.as_ref()) => Cadence::Streamed { follow: true },
            Body::Exec(exec) if is_true(exec.follow.as_ref()) => Cadence::Streamed { follow: true },
            Body::Websocket(_) => Cadence::Streamed { follow: false },
            Body::Merge(_) | Body::Union(_) => combine(&self.inputs(source, depth), refresh),
            Body::Compose(_) | Body::Join(_) => {
                let snapshots: Vec<Cadence> = self
                    .inputs(source, depth)
                    .into_iter()
                    .filter(|cadence| !cadence.is_streamed())
                    .collect();
                combine(&snapshots, refresh)
            }
            body if body.from().is_some() => self
                .inputs(source, depth)
                .first()
                .copied()
                .unwrap_or(Cadence::OneShot),
            _ => polled_or_once,
        }
    }
}

/// Whether [`Walk::work_out`] reads the entry's inputs for a body: `merge`, `union`, `compose`,
/// `join` and single-input operators do.
fn reads_inputs(body: &Body) -> bool {
    matches!(
        body,
        Body::Merge(_) | Body::Union(_) | Body::Compose(_) | Body::Join(_)
    ) || body.from().is_some()
}

/// Whether the entry streams its events (see [`cadence`]).
pub fn streams(config: &Config, source: &Source) -> bool {
    cadence(config, source).is_streamed()
}

/// The entries `source` reads from, in the order they are written (no `growing.source`, which
/// only the dashboard reads).
pub fn upstream(source: &Source) -> Vec<String> {
    source
        .references()
        .into_iter()
        .filter(|reference| reference.field != ReferenceField::Growing)
        .map(|reference| reference.name.value)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        let parse = sources_syntax::parse(text, sources_syntax::Syntax::Yaml);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        crate::decode(parse.root.expect("a root")).0
    }

    fn of(config: &Config, name: &str) -> Cadence {
        cadence(config, config.get(name).expect("the entry"))
    }

    #[test]
    fn an_entry_read_along_many_paths_is_worked_out_once() {
        // Each merge reads the one below three times: walked path by path, 3^63 steps.
        let mut text = String::from(
            "data:\n  sources:\n    s0: {type: websocket, url: wss://example.invalid}\n",
        );
        for level in 1..MAX_CHAIN_DEPTH {
            let below = format!("s{}", level - 1);
            text.push_str(&format!(
                "    s{level}: {{type: merge, children: [{{source: {below}}}, {{source: {below}}}, {{source: {below}}}]}}\n"
            ));
        }
        let config = config(&text);
        let top = format!("s{}", MAX_CHAIN_DEPTH - 1);
        assert_eq!(of(&config, &top), Cadence::Streamed { follow: false });
    }

    #[test]
    fn a_cycle_is_not_read_again() {
        let config = config(
            "data:\n  sources:\n    ticks: {type: http, url: https://example.invalid, refresh: 5s}\n    \
             a: {type: merge, children: [{source: a}, {source: b}, {source: ticks}]}\n    \
             b: {type: filter, from: a, where: \"true\"}\n",
        );
        let every = Cadence::Polled(Duration::from_secs(5));
        assert_eq!(of(&config, "a"), every);
        assert_eq!(of(&config, "b"), every);
    }
}
