//! Writes a generated document as YAML or TOML text, choosing among the ways each syntax can spell
//! the same value (plain, single- and double-quoted scalars; block and flow collections; TOML
//! basic and literal strings, tables and inline tables) and adding the documents' oddities now and
//! then (a byte order mark, a `%YAML` directive, `---` and `...`, comments, CRLF line ends). A plain
//! scalar is written only where YAML reads it back as a string, except for the dictionary's
//! deliberate look-alikes (`yes`, `~`, `0x10`), which YAML may read as something else.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};

/// `document` as YAML.
pub fn yaml(document: &Value, rng: &mut ChaCha8Rng) -> String {
    let mut out = String::new();
    if rng.random_bool(0.02) {
        out.push('\u{feff}');
    }
    match rng.random_range(0..20) {
        0 => out.push_str("%YAML 1.2\n---\n"),
        1 | 2 => out.push_str("---\n"),
        3 => out.push_str("# generated\n"),
        _ => {}
    }
    match document {
        Value::Object(map) => yaml_block(map, 0, rng, &mut out),
        other => yaml_flow(other, rng, &mut out),
    }
    if rng.random_bool(0.03) {
        out.push_str("...\n");
    }
    if rng.random_bool(0.05) {
        out = out.replace('\n', "\r\n");
    }
    out
}

fn yaml_block(map: &Map<String, Value>, indent: usize, rng: &mut ChaCha8Rng, out: &mut String) {
    for (key, value) in map {
        out.push_str(&" ".repeat(indent));
        yaml_key(key, rng, out);
        out.push(':');
        match value {
            Value::Object(inner) if !inner.is_empty() && rng.random_bool(0.9) => {
                out.push('\n');
                yaml_block(inner, indent + 2, rng, out);
            }
            Value::Array(items) if !items.is_empty() && rng.random_bool(0.5) => {
                out.push('\n');
                for item in items {
                    out.push_str(&" ".repeat(indent + 2));
                    out.push_str("- ");
                    yaml_flow(item, rng, out);
                    out.push('\n');
                }
            }
            _ => {
                out.push(' ');
                yaml_flow(value, rng, out);
                out.push('\n');
            }
        }
    }
}

fn yaml_flow(value: &Value, rng: &mut ChaCha8Rng, out: &mut String) {
    match value {
        Value::Null => out.push_str(if rng.random_bool(0.5) { "null" } else { "~" }),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Number(number) => out.push_str(&number.to_string()),
        Value::String(text) => yaml_string(text, rng, out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                yaml_flow(item, rng, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (index, (key, item)) in map.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                yaml_key(key, rng, out);
                out.push_str(": ");
                yaml_flow(item, rng, out);
            }
            out.push('}');
        }
    }
}

fn yaml_key(key: &str, rng: &mut ChaCha8Rng, out: &mut String) {
    if plain(key) && rng.random_bool(0.8) {
        out.push_str(key);
    } else {
        double_quoted(key, out);
    }
}

fn yaml_string(text: &str, rng: &mut ChaCha8Rng, out: &mut String) {
    if plain(text) && rng.random_bool(0.5) {
        out.push_str(text);
    } else if !text.chars().any(needs_escape) && rng.random_bool(0.4) {
        out.push('\'');
        out.push_str(&text.replace('\'', "''"));
        out.push('\'');
    } else {
        double_quoted(text, out);
    }
}

/// Whether YAML reads `text` written plain (in flow or block context) as that text, or as one of
/// the dictionary's look-alikes of another type.
fn plain(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    !"-?:,[]{}#&*!|>'\"%@` ".contains(first)
        && !text.ends_with(' ')
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.ends_with(':')
        && !text.chars().any(|c| needs_escape(c) || ",[]{}".contains(c))
}

/// Characters a YAML or TOML string writes as an escape: controls, DEL, C1 controls, the line and
/// paragraph separators and the byte order mark.
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
}

/// A double-quoted string, valid in YAML and TOML alike (`\uXXXX` escapes).
fn double_quoted(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `document` as TOML: each entry of `data.sources` (and each component) a table, the values
/// inside inline. TOML has no null: a null is left out.
pub fn toml(document: &Value, rng: &mut ChaCha8Rng) -> String {
    let mut out = String::new();
    if rng.random_bool(0.05) {
        out.push_str("# generated\n");
    }
    for (section, path) in [("data", "sources"), ("tui", "components")] {
        let Some(tables) = document
            .get(section)
            .and_then(|value| value.get(path))
            .and_then(Value::as_object)
        else {
            continue;
        };
        for (name, table) in tables {
            out.push_str(&format!("\n[{section}.{path}."));
            toml_key(name, rng, &mut out);
            out.push_str("]\n");
            for (key, value) in table.as_object().into_iter().flatten() {
                if value.is_null() {
                    continue;
                }
                toml_key(key, rng, &mut out);
                out.push_str(" = ");
                toml_value(value, rng, &mut out);
                out.push('\n');
            }
        }
    }
    if rng.random_bool(0.05) {
        out = out.replace('\n', "\r\n");
    }
    out
}

fn toml_key(key: &str, rng: &mut ChaCha8Rng, out: &mut String) {
    let bare = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if bare && rng.random_bool(0.9) {
        out.push_str(key);
    } else {
        double_quoted(key, out);
    }
}

fn toml_value(value: &Value, rng: &mut ChaCha8Rng, out: &mut String) {
    match value {
        Value::Null => out.push_str("\"\""),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Number(number) => out.push_str(&number.to_string()),
        Value::String(text) => {
            if !text.contains('\'') && !text.chars().any(needs_escape) && rng.random_bool(0.3) {
                out.push('\'');
                out.push_str(text);
                out.push('\'');
            } else {
                double_quoted(text, out);
            }
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                toml_value(item, rng, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            let mut first = true;
            for (key, item) in map {
                if item.is_null() {
                    continue;
                }
                if !first {
                    out.push_str(", ");
                }
                first = false;
                toml_key(key, rng, out);
                out.push_str(" = ");
                toml_value(item, rng, out);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use serde_json::json;
    use sources_syntax::Syntax;

    use super::*;

    /// Whatever spelling is chosen, the text reads back as the document.
    #[test]
    fn both_syntaxes_read_back_as_the_document() {
        let document = json!({"data": {"sources": {"é x": {
            "type": "http",
            "url": "https://x/a b",
            "headers": {"X-A": "a\r\nb\u{0}\u{7f}", "'q'": "it's"},
            "command": ["echo", "", "a: b", "#"],
            "page": {"n": -1, "ok": true}
        }}}});
        for seed in 0..40 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for (text, syntax) in [
                (yaml(&document, &mut rng), Syntax::Yaml),
                (toml(&document, &mut rng), Syntax::Toml),
            ] {
                let parse = sources_syntax::parse(&text, syntax);
                let root = parse.root.expect("a root");
                assert_eq!(
                    sources_config::AnyValue(root).to_json(),
                    document,
                    "{syntax:?}:\n{text}"
                );
            }
        }
    }
}
