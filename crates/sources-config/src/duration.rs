//! Durations in the model: [`GoDuration`] with its JSON Schema, and [`format_duration`] for
//! messages. The parser and its errors are `sources-duration`'s, re-exported here.

use std::borrow::Cow;
use std::time::Duration;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
pub use sources_duration::{DurationError, parse_duration};

/// A duration decoded from Go-style text (`1m30s`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GoDuration(pub Duration);

impl JsonSchema for GoDuration {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "GoDuration".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": sources_duration::PATTERN
        })
    }
}

/// A duration as a short human string (`1.5s`, `250ms`, `2m`).
pub fn format_duration(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis == 0 {
        return "0s".to_owned();
    }
    if millis.is_multiple_of(60_000) {
        return format!("{}m", millis / 60_000);
    }
    if millis.is_multiple_of(1000) {
        return format!("{}s", millis / 1000);
    }
    if millis < 1000 {
        return format!("{millis}ms");
    }
    format!("{}s", duration.as_secs_f64())
}
