//! `color_rules` as `try` draws them where it colours (a terminal, or `--color always`): a table
//! column's rules colour its cells, a list's its items and a log view's its lines, each text by
//! the first rule whose `when` matches it (components.md "Color rules"). `when` is exact text
//! (ignoring case), `~` and a regular expression (Go's syntax, ignoring case: compiled by
//! `sources_config::go_regexp`, as lint checks it; one that does not compile never matches), a
//! comparison of numbers (`> 5`, `<= 10K`, `== 0`, `!= 0`; a K, M, B, G or T suffix multiplies),
//! or empty (always). A named colour and a palette index are drawn; a `theme:` token is the
//! dashboard's palette's to say, so its text stays plain.

use sources_config::{ColorRule, go_regexp};

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
        return go_regexp::compile(pattern).is_ok_and(|regex| regex.is_match(text));
    }
    if let Some((operator, number)) = comparison(when) {
        return match (number, self::number(text)) {
            (Some(wanted), Some(value)) => match operator {
                ">" => value > wanted,
                ">=" => value >= wanted,
                "<" => value < wanted,
                "<=" => value <= wanted,
                "==" => value == wanted,
                _ => value != wanted,
            },
            _ => false,
        };
    }
    when.to_lowercase() == text.trim().to_lowercase()
}

/// The operator of a comparison and its number (`None` when it does not parse).
fn comparison(when: &str) -> Option<(&'static str, Option<f64>)> {
    [">=", "<=", "==", "!=", ">", "<"]
        .into_iter()
        .find_map(|operator| {
            let rest = when.strip_prefix(operator)?;
            Some((operator, number(rest)))
        })
}

/// A number as a rule or a cell writes it: commas ignored, an optional K, M, B, G or T suffix.
fn number(text: &str) -> Option<f64> {
    let text: String = text.trim().chars().filter(|c| *c != ',').collect();
    let (digits, scale) = match text.chars().last()?.to_ascii_uppercase() {
        'K' => (&text[..text.len() - 1], 1e3),
        'M' => (&text[..text.len() - 1], 1e6),
        'B' | 'G' => (&text[..text.len() - 1], 1e9),
        'T' => (&text[..text.len() - 1], 1e12),
        _ => (text.as_str(), 1.0),
    };
    let value: f64 = digits.trim().parse().ok()?;
    value.is_finite().then_some(value * scale)
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
        assert!(matches(">= 1.5K", "1,500"));
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
}
