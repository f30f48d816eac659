//! What is known of an entry's data and how sure it is ([`Shaped`]: a shape, its certainty and
//! where it comes from), and what the front ends hand in beyond the text ([`ShapeInputs`]:
//! recorded samples, published response shapes, the expression language). Read by `shapes`,
//! which computes every entry's shape, and by `demo_shapes`, which matches published routes.

use std::collections::HashMap;
use std::sync::Arc;

use sources_config::model::Source;

use crate::settings::Language;
use crate::shape::Shape;

/// What the front end knows beyond the text: recorded samples, published response shapes, and
/// the expression language the project's settings select. Empty by default (lint without samples
/// or settings, or a front end that reads none): CEL.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShapeInputs {
    /// A recorded response per entry name (the value before `root`).
    pub samples: HashMap<String, Sample>,
    /// Response shapes a known server publishes (the demo backend), matched by an `http`
    /// entry's literal URL.
    pub routes: Vec<RouteShape>,
    /// The language the document's expressions are written in (`[expressions] language`).
    pub language: Language,
}

/// What `sources try NAME --record` recorded of an entry, as its shape: the entry's value as
/// `try` gives it (after `root` and `pipe`).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The shape of the recorded value (every recorded parameter set joined).
    pub shape: Shape,
    /// When it was recorded (RFC 3339), for hover.
    pub recorded: String,
    /// [`fingerprint`] of the entry when it was recorded: a sample of an entry written
    /// differently since is stale, and ignored.
    pub fingerprint: u64,
}

/// A fingerprint of how an entry is written (its name and the text of its definition): a sample
/// recorded under another fingerprint no longer describes it. FNV-1a, stable across runs.
pub fn fingerprint(text: &str, source: &Source) -> u64 {
    let written = text.get(source.span.range()).unwrap_or("");
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in source.name.value.bytes().chain([0]).chain(written.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The shape of one route's response, published by a server the tool knows.
#[derive(Clone, Debug, PartialEq)]
pub struct RouteShape {
    /// The origins it answers on (`http://127.0.0.1:8099`).
    pub origins: Vec<String>,
    /// The HTTP method (`GET`).
    pub method: String,
    /// The path, `{name}` standing for one segment (`/apps/{id}`).
    pub path: String,
    /// Its response's shape.
    pub shape: Shape,
}

/// How far a shape can be trusted: references that miss an exact shape are errors, a sampled
/// one only warnings (the sample may lack rows that have the key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Certainty {
    /// From a recorded sample: what some rows looked like once.
    Sampled,
    /// From the configuration itself or a published server shape.
    Exact,
}

/// Where an entry's data comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Inline `static` data.
    Static,
    /// A route of the demo backend (`GET /apps`).
    Demo(String),
    /// A sample recorded at this time.
    Sample(String),
    /// The keys an operator writes itself (`project`'s `keep`).
    Operator,
}

impl Origin {
    /// How hover and `graph` say it: `static data`, `the demo backend's GET /apps`, `a sample
    /// recorded 2026-…`.
    pub fn describe(&self) -> String {
        match self {
            Origin::Static => "static data".to_owned(),
            Origin::Demo(route) => format!("the demo backend's `{route}`"),
            Origin::Sample(recorded) => format!("a sample recorded {recorded}"),
            Origin::Operator => "the keys the operator writes".to_owned(),
        }
    }
}

/// A shape with how sure it is and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Shaped {
    /// The shape (shared: operators that keep it pass it on).
    pub shape: Arc<Shape>,
    /// Error or warning when a reference misses it.
    pub certainty: Certainty,
    /// Where the data behind it comes from.
    pub origin: Arc<Origin>,
}

impl Shaped {
    pub(crate) fn new(shape: Shape, certainty: Certainty, origin: Origin) -> Shaped {
        Shaped {
            shape: Arc::new(shape),
            certainty,
            origin: Arc::new(origin),
        }
    }

    /// The same certainty and origin, another shape.
    pub(crate) fn with(&self, shape: Shape) -> Shaped {
        Shaped {
            shape: Arc::new(shape),
            certainty: self.certainty,
            origin: Arc::clone(&self.origin),
        }
    }

    /// `None` when the shape is unknown: nothing to check against.
    pub(crate) fn known(self) -> Option<Shaped> {
        (!self.shape.is_unknown()).then_some(self)
    }
}
