//! Parameter values: the one parser of a value against its declared `type`, for the checker
//! (defaults) and `try` (supplied values, and what CEL sees under `params`).
//!
//! Surrounding whitespace is ignored for `int`, `bool` and `duration` (as the duration parser
//! always did); an `int` may carry a sign; a `bool` is `true` or `false` exactly (lowercase).

use std::time::Duration;

use crate::duration::{DurationError, parse_duration};
use crate::enums::ParamType;

/// A parameter value parsed as its type.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A `string`: the text as written.
    String(String),
    /// An `int`.
    Int(i64),
    /// A `bool`.
    Bool(bool),
    /// A `duration`.
    Duration(Duration),
}

/// Why a value does not parse as its type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamValueError {
    /// Not a whole number.
    #[error("expected an integer such as `42`")]
    NotInt,
    /// Neither `true` nor `false`.
    #[error("expected `true` or `false`")]
    NotBool,
    /// Not a Go duration.
    #[error("expected a duration such as `30s` ({0})")]
    NotDuration(DurationError),
}

/// Parses `text` as a value of type `kind`.
pub fn parse_param_value(kind: ParamType, text: &str) -> Result<ParamValue, ParamValueError> {
    let trimmed = text.trim();
    match kind {
        ParamType::String => Ok(ParamValue::String(text.to_owned())),
        ParamType::Int => trimmed
            .parse::<i64>()
            .map(ParamValue::Int)
            .map_err(|_| ParamValueError::NotInt),
        ParamType::Bool => match trimmed {
            "true" => Ok(ParamValue::Bool(true)),
            "false" => Ok(ParamValue::Bool(false)),
            _ => Err(ParamValueError::NotBool),
        },
        ParamType::Duration => parse_duration(text)
            .map(ParamValue::Duration)
            .map_err(ParamValueError::NotDuration),
    }
}

/// A bound value of type `kind` as an expression sees it under `params`: an `int` is a number, a
/// `bool` a boolean, a `string` or `duration` the text; an empty value (an optional parameter
/// nobody supplied) is `null` unless the type is `string`. The evaluator binds with this, and
/// lint judges the parts of an expression over parameters with it.
pub fn expression_value(kind: ParamType, text: &str) -> serde_json::Value {
    use serde_json::Value;
    match (kind, parse_param_value(kind, text)) {
        (ParamType::String | ParamType::Duration, _) if !text.is_empty() => {
            Value::String(text.to_owned())
        }
        (ParamType::String, _) => Value::String(String::new()),
        (_, Ok(ParamValue::Int(number))) => Value::from(number),
        (_, Ok(ParamValue::Bool(flag))) => Value::Bool(flag),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(kind: ParamType, text: &str) -> Result<ParamValue, String> {
        parse_param_value(kind, text).map_err(|error| error.to_string())
    }

    #[test]
    fn integers_take_signs_and_surrounding_whitespace_only() {
        assert_eq!(parse(ParamType::Int, "42"), Ok(ParamValue::Int(42)));
        assert_eq!(parse(ParamType::Int, " -7\t"), Ok(ParamValue::Int(-7)));
        assert_eq!(parse(ParamType::Int, "+3"), Ok(ParamValue::Int(3)));
        assert_eq!(
            parse(ParamType::Int, "4 2"),
            Err("expected an integer such as `42`".to_owned())
        );
        for refused in ["", "1.5", "--1", "99999999999999999999"] {
            assert_eq!(
                parse(ParamType::Int, refused),
                Err("expected an integer such as `42`".to_owned()),
                "{refused:?}"
            );
        }
    }

    #[test]
    fn booleans_are_lowercase_true_or_false() {
        assert_eq!(parse(ParamType::Bool, " true "), Ok(ParamValue::Bool(true)));
        assert_eq!(parse(ParamType::Bool, "false"), Ok(ParamValue::Bool(false)));
        assert_eq!(
            parse(ParamType::Bool, "True"),
            Err("expected `true` or `false`".to_owned())
        );
        for refused in ["1", ""] {
            assert_eq!(
                parse(ParamType::Bool, refused),
                Err("expected `true` or `false`".to_owned()),
                "{refused:?}"
            );
        }
    }

    #[test]
    fn durations_are_go_durations() {
        assert_eq!(
            parse(ParamType::Duration, " 1m30s "),
            Ok(ParamValue::Duration(Duration::from_secs(90)))
        );
        assert_eq!(
            parse(ParamType::Duration, "+250ms"),
            Ok(ParamValue::Duration(Duration::from_millis(250)))
        );
        let negative = parse(ParamType::Duration, "-5s").expect_err("negative");
        assert!(
            negative.starts_with("expected a duration such as `30s` ("),
            "{negative}"
        );
        assert_eq!(
            parse(ParamType::Duration, "5"),
            Err(
                "expected a duration such as `30s` (`5` has no unit: write it with one of ns, us, \
                 ms, s, m, h (for example `5s`))"
                    .to_owned()
            )
        );
    }

    #[test]
    fn strings_are_kept_as_written() {
        assert_eq!(
            parse(ParamType::String, "  a b "),
            Ok(ParamValue::String("  a b ".to_owned()))
        );
    }
}
