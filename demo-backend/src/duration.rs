//! Go-style durations (`250ms`, `1.5s`, `1m30s`, `2h`), as used by the per-request `latency`, the
//! held refresh's `takes` and the binary's `--schedule`.

use std::time::Duration;

/// Why a duration did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid duration {text:?}: expected a number with a unit (ns, us, ms, s, m, h), such as 250ms, 1.5s or 1m30s"
)]
pub struct DurationError {
    /// The text that did not parse.
    pub text: String,
}

/// Parses a Go-style duration: one or more `<number><unit>` parts (the number may have a fraction),
/// or a bare `0`. Negative durations are refused.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let error = || DurationError {
        text: text.to_owned(),
    };
    let trimmed = text.trim();
    if trimmed == "0" {
        return Ok(Duration::ZERO);
    }
    if trimmed.is_empty() {
        return Err(error());
    }
    let mut rest = trimmed;
    let mut total_nanos: u128 = 0;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(error)?;
        let (number, after) = rest.split_at(number_len);
        let unit_len = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let (unit, after) = after.split_at(unit_len);
        let unit_nanos: u128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(error()),
        };
        total_nanos = total_nanos
            .checked_add(part_nanos(number, unit_nanos).ok_or_else(error)?)
            .ok_or_else(error)?;
        rest = after;
    }
    let secs = u64::try_from(total_nanos / 1_000_000_000).map_err(|_| error())?;
    Ok(Duration::new(secs, (total_nanos % 1_000_000_000) as u32))
}

/// `number` (digits with an optional fraction) times `unit_nanos`, truncated to whole nanoseconds.
fn part_nanos(number: &str, unit_nanos: u128) -> Option<u128> {
    let (whole, fraction) = match number.split_once('.') {
        Some((whole, fraction)) => (whole, fraction),
        None => (number, ""),
    };
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    if fraction.contains('.') {
        return None;
    }
    let whole: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut nanos = whole.checked_mul(unit_nanos)?;
    let mut scale = unit_nanos;
    for digit in fraction.chars() {
        scale /= 10;
        nanos = nanos.checked_add(u128::from(digit.to_digit(10)?) * scale)?;
    }
    Some(nanos)
}

/// Formats a duration the way [`parse_duration`] reads it back, in whole milliseconds (`1500ms`).
pub fn format_millis(duration: Duration) -> String {
    format!("{}ms", duration.as_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_forms_parse() {
        let cases = [
            ("0", 0),
            ("250ms", 250),
            ("1.5s", 1_500),
            ("1m30s", 90_000),
            ("2h", 7_200_000),
            ("1h2m3s4ms", 3_723_004),
            (".5s", 500),
            ("1500us", 1),
            ("2000000ns", 2),
        ];
        for (text, millis) in cases {
            assert_eq!(
                parse_duration(text).map(|d| d.as_millis()),
                Ok(millis),
                "{text}"
            );
        }
    }

    #[test]
    fn malformed_forms_are_refused() {
        for text in [
            "",
            "5",
            "ms",
            "1.2.3s",
            "-1s",
            "1x",
            "1s ms",
            "1 s",
            ".s",
            "99999999999999999999h",
        ] {
            assert_eq!(
                parse_duration(text),
                Err(DurationError {
                    text: text.to_owned()
                }),
                "{text:?}"
            );
        }
    }

    #[test]
    fn formatted_millis_read_back() {
        let d = Duration::from_millis(1_234);
        assert_eq!(parse_duration(&format_millis(d)), Ok(d));
    }
}
