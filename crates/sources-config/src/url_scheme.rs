//! The URL schemes each fetching kind accepts: one list per kind, read by the checker (which
//! judges a url's literal start) and by the JSON Schema (which turns the same rule into a pattern).

use crate::template::{Segment, Template};

/// The schemes an `http` entry fetches.
pub const HTTP: &[&str] = &["http://", "https://"];

/// The schemes a `websocket` entry connects to.
pub const WEBSOCKET: &[&str] = &["ws://", "wss://"];

/// Whether url template `text` starts with one of `schemes` (any case), or could still render to
/// one: it starts with a `${…}` token, or with the start of a scheme followed by a token
/// (`ht${rest}`). An empty url fits none.
pub fn fits(text: &str, schemes: &[&str]) -> bool {
    let template = Template::parse(text);
    let literal = match template.segments.first() {
        Some(Segment::Literal(literal)) => *literal,
        Some(_) => return true,
        None => return false,
    };
    let lower = literal.to_ascii_lowercase();
    schemes.iter().any(|scheme| {
        lower.starts_with(scheme)
            || (scheme.starts_with(lower.as_str()) && literal.len() < text.len())
    })
}

/// The ECMAScript pattern a JSON Schema gives for [`fits`]: each scheme in any case, or any start
/// of a scheme (the empty one included) followed by `${`.
pub fn pattern(schemes: &[&str]) -> String {
    let any_case = |text: &str| -> String {
        text.chars()
            .map(|c| match c {
                c if c.is_ascii_alphabetic() => {
                    format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase())
                }
                '/' => "/".to_owned(),
                c => regex_escape(c),
            })
            .collect()
    };
    let mut alternatives: Vec<String> = schemes.iter().map(|scheme| any_case(scheme)).collect();
    let mut starts: Vec<&str> = schemes
        .iter()
        .flat_map(|scheme| scheme.char_indices().map(|(end, _)| &scheme[..end]))
        .collect();
    starts.sort_unstable();
    starts.dedup();
    alternatives.extend(
        starts
            .iter()
            .map(|start| format!("{}\\$\\{{", any_case(start))),
    );
    format!("^(?:{})", alternatives.join("|"))
}

/// `c` escaped for a regular expression when it has a meaning there.
fn regex_escape(c: char) -> String {
    if "\\^$.|?*+()[]{}".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{HTTP, WEBSOCKET, fits, pattern};

    #[test]
    fn a_url_fits_by_its_literal_start() {
        for fitting in [
            "https://x",
            "HTTP://x",
            "${env.BASE}/x",
            "ht${env.REST}",
            "http:/${env.X}",
        ] {
            assert!(fits(fitting, HTTP), "{fitting}");
        }
        for not_fitting in [
            "",
            " ",
            "x",
            "0",
            "/api",
            "ftp://x",
            "ws://x",
            "ht",
            " https://x",
        ] {
            assert!(!fits(not_fitting, HTTP), "{not_fitting}");
        }
        assert!(fits("wss://x", WEBSOCKET));
        assert!(!fits("https://x", WEBSOCKET));
    }

    #[test]
    fn the_pattern_spells_each_scheme_in_any_case_and_each_start_before_a_token() {
        let http = pattern(HTTP);
        assert!(
            http.starts_with("^(?:[Hh][Tt][Tt][Pp]://|[Hh][Tt][Tt][Pp][Ss]://|\\$\\{|"),
            "{http}"
        );
        assert!(http.contains("|[Hh][Tt][Tt][Pp][Ss]:/\\$\\{"), "{http}");
    }

    #[test]
    fn the_starts_of_a_scheme_end_on_character_boundaries() {
        // Each start was cut at every byte offset, which panicked inside `é`.
        let starts = pattern(&["é:"]);
        assert_eq!(starts, "^(?:é:|\\$\\{|é\\$\\{)");
    }
}
