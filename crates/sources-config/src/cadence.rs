//! How an entry delivers over time (its cadence), the entries it reads, and the one limit on
//! how deep a chain of entries may go. The checker, `try` and `sources list` all use these, so
//! "does this entry stream" has one answer.

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
    cadence_at(config, source, 0)
}

fn input_cadences(config: &Config, names: &[String], depth: usize) -> Vec<Cadence> {
    names
        .iter()
        .filter_map(|name| config.get(name))
        .map(|input| cadence_at(config, input, depth + 1))
        .collect()
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

fn cadence_at(config: &Config, source: &Source, depth: usize) -> Cadence {
    if depth > MAX_CHAIN_DEPTH {
        return Cadence::OneShot;
    }
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
        Body::Merge(_) | Body::Union(_) | Body::Compose(_) | Body::Join(_) => {
            let inputs = input_cadences(config, &upstream(source), depth);
            match &source.body {
                Body::Merge(_) | Body::Union(_) => combine(&inputs, refresh),
                _ => {
                    let snapshots: Vec<Cadence> = inputs
                        .into_iter()
                        .filter(|cadence| !cadence.is_streamed())
                        .collect();
                    combine(&snapshots, refresh)
                }
            }
        }
        body if body.from().is_some() => {
            let inputs = input_cadences(config, &upstream(source), depth);
            inputs.first().copied().unwrap_or(Cadence::OneShot)
        }
        _ => polled_or_once,
    }
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
