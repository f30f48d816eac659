//! Go-style durations (`250ms`, `1m30s`, `2h`, `1.5s`, `0`), as Go's `time.ParseDuration` reads
//! them: a sequence of decimal numbers, each with an optional fraction and a unit (`ns`, `us`,
//! `µs`, `μs`, `ms`, `s`, `m`, `h`). `0` alone needs no unit. Negative durations are rejected: no
//! duration the configuration or the demo backend reads means anything below zero.
//!
//! This crate owns the parser and its errors, and nothing else, so that the demo backend can read
//! the same durations as the configuration without depending on the checker's crates.

use std::time::Duration;

/// The grammar [`parse_duration`] accepts, as a regular expression (for the JSON Schema).
pub const PATTERN: &str = "^[+]?(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$";

/// Why a duration does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// The text is empty.
    #[error("the duration is empty")]
    Empty,
    /// A leading `-`.
    #[error("a duration cannot be negative")]
    Negative,
    /// A number without a unit (`5`).
    #[error(
        "`{number}` has no unit: write it with one of ns, us, ms, s, m, h (for example `{number}s`)"
    )]
    MissingUnit {
        /// The number written.
        number: String,
    },
    /// A space inside the duration (`5 s`).
    #[error("a duration is written without spaces, e.g. `1m30s`")]
    Space,
    /// A unit that is not one of Go's.
    #[error("unknown unit `{unit}`: use ns, us, ms, s, m or h")]
    UnknownUnit {
        /// The unit written.
        unit: String,
    },
    /// A character where a number was expected.
    #[error("expected a number at `{rest}`")]
    ExpectedNumber {
        /// The text from the offending character on.
        rest: String,
    },
    /// Too large to represent.
    #[error("the duration is too large")]
    Overflow,
}

const UNITS: &[(&str, u128)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000),
    ("μs", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// Parses a Go-style duration. `+` may lead; `-` is rejected with [`DurationError::Negative`].
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let mut rest = text.trim();
    if let Some(stripped) = rest.strip_prefix('+') {
        rest = stripped;
    } else if rest.starts_with('-') {
        return Err(DurationError::Negative);
    }
    if rest.is_empty() {
        return Err(DurationError::Empty);
    }
    if rest.contains(char::is_whitespace) {
        return Err(DurationError::Space);
    }
    if rest == "0" {
        return Ok(Duration::ZERO);
    }
    let mut total: u128 = 0;
    while !rest.is_empty() {
        let integer_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (integer, after) = rest.split_at(integer_len);
        let (fraction, after) = match after.strip_prefix('.') {
            Some(after_dot) => {
                let len = after_dot.bytes().take_while(u8::is_ascii_digit).count();
                after_dot.split_at(len)
            }
            None => ("", after),
        };
        if integer.is_empty() && fraction.is_empty() {
            return Err(DurationError::ExpectedNumber {
                rest: rest.to_string(),
            });
        }
        let unit_len = after
            .char_indices()
            .find(|(_, c)| c.is_ascii_digit() || *c == '.')
            .map_or(after.len(), |(index, _)| index);
        let (unit, next) = after.split_at(unit_len);
        if unit.is_empty() {
            let number = &rest[..rest.len() - after.len()];
            return Err(DurationError::MissingUnit {
                number: number.to_string(),
            });
        }
        let Some(&(_, scale)) = UNITS.iter().find(|(name, _)| *name == unit) else {
            return Err(DurationError::UnknownUnit {
                unit: unit.to_string(),
            });
        };
        let whole: u128 = if integer.is_empty() {
            0
        } else {
            integer.parse().map_err(|_| DurationError::Overflow)?
        };
        let mut nanos = whole.checked_mul(scale).ok_or(DurationError::Overflow)?;
        let mut place = scale;
        for digit in fraction.bytes() {
            place /= 10;
            if place == 0 {
                break;
            }
            nanos += u128::from(digit - b'0') * place;
        }
        total = total.checked_add(nanos).ok_or(DurationError::Overflow)?;
        rest = next;
    }
    let secs = u64::try_from(total / 1_000_000_000).map_err(|_| DurationError::Overflow)?;
    let subsec = u32::try_from(total % 1_000_000_000).map_err(|_| DurationError::Overflow)?;
    Ok(Duration::new(secs, subsec))
}

#[cfg(test)]
mod tests {
    use super::{DurationError, parse_duration};
    use std::time::Duration;

    #[test]
    fn parses_go_forms() {
        let cases = [
            ("250ms", Duration::from_millis(250)),
            ("1m30s", Duration::from_secs(90)),
            ("2h", Duration::from_secs(7200)),
            ("1.5s", Duration::from_millis(1500)),
            (".5s", Duration::from_millis(500)),
            ("1.s", Duration::from_secs(1)),
            ("0", Duration::ZERO),
            ("0s", Duration::ZERO),
            ("+5s", Duration::from_secs(5)),
            ("1h2m3s4ms5us6ns", Duration::new(3723, 4_005_006)),
            ("3µs", Duration::from_micros(3)),
            ("3μs", Duration::from_micros(3)),
            ("1.25h", Duration::from_secs(4500)),
            ("100ns", Duration::from_nanos(100)),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_duration(text), Ok(expected), "{text}");
        }
    }

    #[test]
    fn rejects_what_go_rejects() {
        assert_eq!(parse_duration(""), Err(DurationError::Empty));
        assert_eq!(parse_duration("-1s"), Err(DurationError::Negative));
        assert_eq!(
            parse_duration("5"),
            Err(DurationError::MissingUnit { number: "5".into() })
        );
        assert_eq!(
            parse_duration("1m5"),
            Err(DurationError::MissingUnit { number: "5".into() })
        );
        assert_eq!(parse_duration("5 s"), Err(DurationError::Space));
        assert_eq!(
            parse_duration("5sec"),
            Err(DurationError::UnknownUnit { unit: "sec".into() })
        );
        assert_eq!(
            parse_duration("1d"),
            Err(DurationError::UnknownUnit { unit: "d".into() })
        );
        assert_eq!(
            parse_duration("s"),
            Err(DurationError::ExpectedNumber { rest: "s".into() })
        );
        assert_eq!(
            parse_duration("."),
            Err(DurationError::ExpectedNumber { rest: ".".into() })
        );
        assert_eq!(
            parse_duration("99999999999999999999999h"),
            Err(DurationError::Overflow)
        );
    }

    #[test]
    fn the_pattern_accepts_what_the_parser_accepts() {
        let pattern = regex::Regex::new(super::PATTERN).expect("the pattern compiles");
        for text in [
            "250ms",
            "1m30s",
            ".5s",
            "1.s",
            "0",
            "+5s",
            "3µs",
            "1h2m3s4ms5us6ns",
            "",
            "-1s",
            "5",
            "1m5",
            "5 s",
            "5sec",
            "1d",
            "s",
            ".",
            "1.2.3s",
        ] {
            assert_eq!(
                pattern.is_match(text),
                parse_duration(text).is_ok(),
                "{text:?}"
            );
        }
    }
}
