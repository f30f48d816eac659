//! Scalars resolved with the YAML 1.2 core schema: plain scalars to null, booleans and numbers, and
//! the values a core tag (`!!int`, `!!float`, `!!bool`, `!!null`) accepts.

use crate::Value;

pub(super) fn tag_accepts(kind: &str, value: &Value) -> bool {
    matches!(
        (kind, value),
        ("int", Value::Int(_))
            | ("float", Value::Float(_) | Value::Int(_))
            | ("bool", Value::Bool(_))
            | ("null", Value::Null)
    )
}

/// Resolves a plain scalar with the YAML 1.2 core schema; `None` for a string (or an integer too
/// large for 64 bits).
pub(super) fn resolve_plain(text: &str) -> Option<Value> {
    let first = *text.as_bytes().first().unwrap_or(&b'~');
    match first {
        b'~' | b'n' | b'N' => match text {
            "" | "~" | "null" | "Null" | "NULL" => Some(Value::Null),
            ".nan" | ".NaN" | ".NAN" => Some(Value::Float(f64::NAN)),
            _ => None,
        },
        b't' | b'T' => matches!(text, "true" | "True" | "TRUE").then_some(Value::Bool(true)),
        b'f' | b'F' => matches!(text, "false" | "False" | "FALSE").then_some(Value::Bool(false)),
        b'0'..=b'9' | b'-' | b'+' | b'.' => resolve_number(text),
        _ => None,
    }
}

fn resolve_number(text: &str) -> Option<Value> {
    if let Some(hex) = text.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16)
            .ok()
            .filter(|_| !hex.starts_with(['+', '-']))
            .map(Value::Int);
    }
    if let Some(octal) = text.strip_prefix("0o") {
        return i64::from_str_radix(octal, 8)
            .ok()
            .filter(|_| !octal.starts_with(['+', '-']))
            .map(Value::Int);
    }
    if looks_like_int(text) {
        return text.parse::<i64>().ok().map(Value::Int);
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        let inf = if text.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        return Some(Value::Float(inf));
    }
    if is_core_float(unsigned) {
        return text.parse::<f64>().ok().map(Value::Float);
    }
    None
}

/// `[-+]?[0-9]+`.
pub(super) fn looks_like_int(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` without its sign.
fn is_core_float(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match fraction {
        Some(fraction) => {
            digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty())
        }
        None => !whole.is_empty() && digits(whole),
    };
    let exponent_ok = exponent.is_none_or(looks_like_int);
    mantissa_ok && exponent_ok && (fraction.is_some() || exponent.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_schema_floats() {
        for yes in ["1.5", ".5", "1.", "1e5", "-2.5E-3", "+1.0"] {
            assert!(matches!(resolve_plain(yes), Some(Value::Float(_))), "{yes}");
        }
        for no in ["1.2.3", "e5", ".", "1e", "inf", "nan", "0x", "1_000"] {
            assert!(!matches!(resolve_plain(no), Some(Value::Float(_))), "{no}");
        }
        assert!(matches!(resolve_plain("-.inf"), Some(Value::Float(f)) if f == f64::NEG_INFINITY));
        assert!(matches!(resolve_plain("0o17"), Some(Value::Int(15))));
    }
}
