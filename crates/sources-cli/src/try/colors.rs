//! `color_rules` as `try` draws them where it colours (a terminal, or `--color always`): a table
//! column's rules colour its cells, a list's its items and a log view's its lines, each text by
//! the first rule whose `when` matches it (components.md "Color rules"). `when` is exact text
//! (ignoring case), `~` and a regular expression (Go's syntax, ignoring case: compiled by
//! `sources_config::go_regexp`, as lint checks it; one that does not compile never matches), a
//! comparison of numbers (`> 5`, `<= 10K`, `== 0`, `!= 0`; a K, M, B, G or T suffix multiplies,
//! and a text that is no number reads as 0, as the dashboard reads it), or empty (always). A named
//! colour and a palette index are drawn; a `theme:` token is the dashboard's palette's to say, so
//! its text stays plain.

use std::cell::RefCell;
use std::collections::HashMap;

use sources_config::ColorRule;
use sources_config::go_regexp::{self, Regex};

/// The most compiled patterns kept per thread; past it the memo starts again (a file has few).
const MEMO: usize = 256;

thread_local! {
    /// Each pattern compiled once however many cells it colours (`None`: it does not compile).
    static COMPILED: RefCell<HashMap<String, Option<Regex>>> = RefCell::new(HashMap::new());
}

/// `text` coloured by the first of `rules` that matches it, or as it is.
pub fn paint(rules: &[ColorRule], matched: &str, text: &str) -> String {
    match rules
        .iter()
        .find(|rule| matches(&rule.when, matched))
        .and_then(|rule| sgr(&rule.color))
    {
        Some(code) => format!("\u{1b}[{code}m{text}\u{1b}[0m"),
        None => text.to_owned(),
    }
}

/// Whether `when` matches `text`.
pub fn matches(when: &str, text: &str) -> bool {
    let when = when.trim();
    if when.is_empty() {
        return true;
    }
    if let Some(pattern) = ColorRule::pattern_of(when) {
        return COMPILED.with_borrow_mut(|compiled| {
            if compiled.len() >= MEMO && !compiled.contains_key(pattern) {
                compiled.clear();
            }
            compiled
                .entry(pattern.to_owned())
                .or_insert_with(|| go_regexp::compile(pattern).ok())
                .as_ref()
                .is_some_and(|regex| regex.is_match(text))
        });
    }
    if let Some((operator, wanted)) = comparison(when) {
        let value = number(text);
        return match operator {
            ">" => value > wanted,
            ">=" => value >= wanted,
            "<" => value < wanted,
            "<=" => value <= wanted,
            "==" => value == wanted,
            _ => value != wanted,
        };
    }
    when.to_lowercase() == text.trim().to_lowercase()
}

/// The operator of a comparison and its number.
fn comparison(when: &str) -> Option<(&'static str, f64)> {
    [">=", "<=", "==", "!=", ">", "<"]
        .into_iter()
        .find_map(|operator| {
            let rest = when.strip_prefix(operator)?;
            Some((operator, number(rest)))
        })
}

/// A number as the dashboard reads one in a rule or a cell: blanks trimmed, an optional K, M, B or
/// G (both 1e9) or T suffix in either case; a text that is no number (`many`, `1,500`, empty) is 0.
fn number(text: &str) -> f64 {
    let text = text.trim();
    let (digits, scale) = match text.as_bytes().last().map(u8::to_ascii_uppercase) {
        Some(b'K') => (&text[..text.len() - 1], 1e3),
        Some(b'M') => (&text[..text.len() - 1], 1e6),
        Some(b'B' | b'G') => (&text[..text.len() - 1], 1e9),
        Some(b'T') => (&text[..text.len() - 1], 1e12),
        _ => (text, 1.0),
    };
    digits.trim().parse::<f64>().unwrap_or(0.0) * scale
}

/// The SGR parameters of a colour: a named one (`red`, `bright_red`, `gray`) or a palette index
/// (`"160"`); `None` for a `theme:` token, a hex colour (not valid in a rule) or anything else.
pub fn sgr(color: &str) -> Option<String> {
    const NAMED: [&str; 8] = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
    ];
    let (bright, base) = match color.strip_prefix("bright_") {
        Some(base) => (true, base),
        None => (false, color),
    };
    if let Some(index) = NAMED.iter().position(|name| *name == base) {
        let first = if bright { 90 } else { 30 };
        return Some((first + index).to_string());
    }
    match (base, bright) {
        ("gray" | "grey", false) => return Some("90".to_owned()),
        ("gray" | "grey", true) => return Some("37".to_owned()),
        _ => {}
    }
    color
        .parse::<u8>()
        .ok()
        .map(|index| format!("38;5;{index}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(when: &str, color: &str) -> ColorRule {
        ColorRule {
            when: when.to_owned(),
            color: color.to_owned(),
        }
    }

    #[test]
    fn a_rule_matches_text_patterns_and_numbers() {
        assert!(matches("Running", "running"));
        assert!(!matches("Running", "Running2"));
        assert!(matches("~crash|err", "CrashLoopBackOff"));
        assert!(!matches("~(", "("));
        // Go's syntax: a `{` that starts no count is itself, `\d` is ASCII.
        assert!(matches("~{id}", "{ID}"));
        assert!(!matches("~^\\d$", "٣"));
        assert!(matches("> 5", "12"));
        assert!(matches(">= 1.5K", "1500"));
        // As the dashboard reads them: no number is 0, and a comma makes no number.
        assert!(matches("== 0", "many"));
        assert!(matches("< 5", ""));
        assert!(!matches(">= 1.5K", "1,500"));
        assert!(matches("< 1", "1,500"));
        assert!(
            matches("== x", "0"),
            "a rule's text that is no number is 0 too"
        );
        assert!(matches("< 2M", "1.9M"));
        assert!(matches("== 0", "0"));
        assert!(matches("!= 0", "3"));
        assert!(!matches("> 5", "many"));
        assert!(matches("", "anything"));
    }

    #[test]
    fn the_first_matching_rule_colours_and_a_theme_token_stays_plain() {
        let rules = [rule("~err", "red"), rule("", "bright_green")];
        assert_eq!(
            paint(&rules, "ERROR x", "ERROR x  "),
            "\u{1b}[31mERROR x  \u{1b}[0m"
        );
        assert_eq!(paint(&rules, "ok", "ok"), "\u{1b}[92mok\u{1b}[0m");
        assert_eq!(paint(&[rule("", "theme:accent")], "ok", "ok"), "ok");
        assert_eq!(sgr("160").as_deref(), Some("38;5;160"));
        assert_eq!(sgr("grey").as_deref(), Some("90"));
        assert_eq!(sgr("#ff8800"), None);
    }

    #[test]
    fn each_pattern_is_compiled_once_and_the_memo_stays_bounded() {
        for round in 0..2 {
            for index in 0..MEMO + 44 {
                let pattern = format!("~^x{index}$");
                assert!(
                    matches(&pattern, &format!("X{index}")),
                    "{pattern}, round {round}"
                );
                assert!(!matches(&pattern, "y"), "{pattern}");
            }
        }
        assert!(
            !matches("~(", "("),
            "a pattern that does not compile never matches"
        );
        assert!(!matches("~(", "("), "nor when it is remembered");
        COMPILED.with_borrow(|compiled| {
            assert!(compiled.len() <= MEMO, "{}", compiled.len());
            assert!(compiled.get("(").is_some_and(Option::is_none));
        });
    }
}
