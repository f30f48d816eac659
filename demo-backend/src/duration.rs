//! Go-style durations (`250ms`, `1.5s`, `1m30s`, `2h`), as used by the per-request `latency`, the
//! held refresh's `takes` and the binary's `--schedule`: read by `sources-duration`'s parser (the
//! one the configuration uses), formatted back here.

use std::time::Duration;

/// Why a duration did not parse: the text, and what `sources-duration` found wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid duration {text:?}: {cause}")]
pub struct DurationError {
    /// The text that did not parse.
    pub text: String,
    /// What is wrong with it.
    pub cause: sources_duration::DurationError,
}

/// Parses a Go-style duration (`sources-duration`'s parser), naming the text when it is refused.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    sources_duration::parse_duration(text).map_err(|cause| DurationError {
        text: text.to_owned(),
        cause,
    })
}

/// Formats a duration the way [`parse_duration`] reads it back, in whole milliseconds (`1500ms`).
pub fn format_millis(duration: Duration) -> String {
    format!("{}ms", duration.as_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_duration_names_its_text_and_the_cause() {
        assert_eq!(
            parse_duration("5").map_err(|error| error.to_string()),
            Err("invalid duration \"5\": `5` has no unit: write it with one of ns, us, ms, s, m, h (for example `5s`)".to_owned())
        );
    }

    #[test]
    fn formatted_millis_read_back() {
        let d = Duration::from_millis(1_234);
        assert_eq!(parse_duration(&format_millis(d)), Ok(d));
    }
}
