//! Mutations across entries, on the text's lines: an entry renamed, deleted or duplicated, a
//! reference (`from`, a `sources` item, `growing.source`, a component's `source`, a mention in a
//! template) pointed at another entry or at an unknown name, and a key of a data row that an
//! expression reads renamed. They change the reference graph, which the editor's reusing analysis
//! must follow.

use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use sources_syntax::Syntax;

use crate::corpus::key_value;

/// The keys whose values name an entry.
const REFERENCE_KEYS: &[&str] = &["from", "source", "sources"];

/// The keys whose values are expressions or paths reading a row.
const READING_KEYS: &[&str] = &["where", "value", "by", "key", "expression", "when", "path"];

/// Applies one mutation across entries to `lines`, returning its name: a reference pointed
/// elsewhere when the one picked finds nothing to change.
pub fn mutate(rng: &mut ChaCha8Rng, syntax: Syntax, lines: &mut Vec<String>) -> &'static str {
    let name = match rng.random_range(0..5) {
        0 => rename_entry(rng, syntax, lines),
        1 => delete_entry(rng, syntax, lines),
        2 => duplicate_entry(rng, syntax, lines),
        3 => rename_row_key(rng, lines),
        _ => return repoint(rng, lines),
    };
    if name.contains(" no ") {
        return repoint(rng, lines);
    }
    name
}

/// The names the text's references read (`from: a`, `source = "a"`, `sources: [a, b]`, and `- a`
/// under a `sources:` line), in block or inline maps.
fn read_names(lines: &[String]) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_list = false;
    for line in lines {
        let trimmed = line.trim_start();
        if let Some(item) = trimmed.strip_prefix("- ")
            && in_list
        {
            names.extend(words(item));
            continue;
        }
        in_list = false;
        for key in REFERENCE_KEYS {
            for (start, _) in line.match_indices(key) {
                let before = line[..start].chars().next_back();
                if before.is_some_and(|c| !matches!(c, ' ' | '{' | ',' | '\t')) {
                    continue;
                }
                let rest = line[start + key.len()..].trim_start();
                let Some(value) = rest.strip_prefix([':', '=']).map(str::trim_start) else {
                    continue;
                };
                if value.is_empty() {
                    in_list = *key == "sources";
                } else if let Some(list) = value.strip_prefix('[') {
                    names.extend(words(list.split(']').next().unwrap_or_default()));
                } else {
                    names.extend(words(value).into_iter().take(1));
                }
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The identifier-like words of `text`.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|word| !word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_owned)
        .collect()
}

/// The line defining entry `name`: `name:` (YAML), `[data.sources.name]` or `name = ` (TOML).
fn definition(lines: &[String], syntax: Syntax, name: &str) -> Option<usize> {
    lines.iter().position(|line| {
        let trimmed = line.trim_start();
        match syntax {
            Syntax::Yaml => trimmed
                .strip_prefix(name)
                .is_some_and(|rest| rest.starts_with(':')),
            Syntax::Toml => {
                trimmed.ends_with(&format!(".{name}]"))
                    || trimmed
                        .strip_prefix(name)
                        .is_some_and(|rest| rest.trim_start().starts_with('='))
            }
        }
    })
}

/// The lines of the entry defined at `start`: for YAML, those indented deeper after it; for a
/// TOML table, those up to the next table header.
fn block(lines: &[String], syntax: Syntax, start: usize) -> std::ops::Range<usize> {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let header = lines[start].trim_start().starts_with('[');
    let end = lines[start + 1..]
        .iter()
        .position(|line| match (syntax, header) {
            (Syntax::Toml, true) => line.trim_start().starts_with('['),
            (Syntax::Toml, false) => true,
            (Syntax::Yaml, _) => !line.trim().is_empty() && indent(line) <= indent(&lines[start]),
        })
        .map_or(lines.len(), |length| start + 1 + length);
    start..end
}

/// A name no entry has, or a near miss of `name` (for a did-you-mean).
fn other_name(rng: &mut ChaCha8Rng, name: &str) -> String {
    match rng.random_range(0..3) {
        0 => "nowhere".to_owned(),
        1 => format!("{name}_2"),
        _ => {
            let mut chars: Vec<char> = name.chars().collect();
            chars.pop();
            chars.into_iter().collect()
        }
    }
}

/// A read entry and the line defining it.
fn pick_defined(rng: &mut ChaCha8Rng, syntax: Syntax, lines: &[String]) -> Option<(String, usize)> {
    let names = read_names(lines);
    let name = names.choose(rng)?;
    Some((name.clone(), definition(lines, syntax, name)?))
}

fn rename_entry(rng: &mut ChaCha8Rng, syntax: Syntax, lines: &mut [String]) -> &'static str {
    let Some((name, at)) = pick_defined(rng, syntax, lines) else {
        return "rename no entry";
    };
    let names = read_names(lines);
    let new = match names.choose(rng) {
        Some(other) if *other != name && rng.random_bool(0.3) => other.clone(),
        _ => other_name(rng, &name),
    };
    lines[at] = lines[at].replacen(&name, &new, 1);
    "rename a read entry"
}

fn delete_entry(rng: &mut ChaCha8Rng, syntax: Syntax, lines: &mut Vec<String>) -> &'static str {
    let Some((_, at)) = pick_defined(rng, syntax, lines) else {
        return "delete no entry";
    };
    let range = block(lines, syntax, at);
    lines.drain(range);
    "delete a read entry"
}

fn duplicate_entry(rng: &mut ChaCha8Rng, syntax: Syntax, lines: &mut Vec<String>) -> &'static str {
    let Some((name, at)) = pick_defined(rng, syntax, lines) else {
        return "duplicate no entry";
    };
    let range = block(lines, syntax, at);
    let mut copy: Vec<String> = lines[range.clone()].to_vec();
    if rng.random_bool(0.5) {
        copy[0] = copy[0].replacen(&name, &format!("{name}_copy"), 1);
    }
    lines.splice(range.end..range.end, copy);
    "duplicate a read entry"
}

/// One whole-word occurrence of a read name outside its definition, pointed elsewhere.
fn repoint(rng: &mut ChaCha8Rng, lines: &mut [String]) -> &'static str {
    let names = read_names(lines);
    let mut sites = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        for name in &names {
            for (start, _) in line.match_indices(name.as_str()) {
                let end = start + name.len();
                let boundary = |c: Option<char>| {
                    c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                };
                let defines = line[end..].starts_with(':') || line[end..].starts_with(']');
                if boundary(line[..start].chars().next_back())
                    && boundary(line[end..].chars().next())
                    && !defines
                {
                    sites.push((at, start, end));
                }
            }
        }
    }
    let Some(&(at, start, end)) = sites.choose(rng) else {
        return "repoint no reference";
    };
    let old = lines[at][start..end].to_owned();
    let new = match names.choose(rng) {
        Some(other) if *other != old && rng.random_bool(0.6) => other.clone(),
        _ => other_name(rng, &old),
    };
    lines[at].replace_range(start..end, &new);
    "repoint a reference"
}

/// A key of a row (`name: x` in a static entry's `data`) that an expression or path reads,
/// renamed where it is written as a key.
fn rename_row_key(rng: &mut ChaCha8Rng, lines: &mut [String]) -> &'static str {
    let mut read: Vec<String> = lines
        .iter()
        .filter_map(|line| key_value(line))
        .filter(|(key, _)| READING_KEYS.contains(key))
        .flat_map(|(_, value)| words(value))
        .collect();
    read.sort();
    read.dedup();
    let Some(word) = read.choose(rng).cloned() else {
        return "rename no row key";
    };
    let sites: Vec<(usize, usize)> = lines
        .iter()
        .enumerate()
        .flat_map(|(at, line)| {
            line.match_indices(&format!("{word}:"))
                .chain(line.match_indices(&format!("{word} =")))
                .filter(|(start, _)| {
                    line[..*start]
                        .chars()
                        .next_back()
                        .is_none_or(|c| matches!(c, ' ' | '{' | ',' | '"' | '\''))
                })
                .map(|(start, _)| (at, start))
                .collect::<Vec<_>>()
        })
        .collect();
    let Some(&(at, start)) = sites.choose(rng) else {
        return "rename no row key";
    };
    let new = other_name(rng, &word);
    lines[at].replace_range(start..start + word.len(), &new);
    "rename a row key an expression reads"
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.split('\n').map(str::to_owned).collect()
    }

    const YAML: &str = "data:\n  sources:\n    apps:\n      type: static\n      data:\n        - {name: api, restarts: 1}\n    busy:\n      type: filter\n      from: apps\n      where: restarts > 0\n    all: {type: merge, sources: [apps, busy]}\n";

    #[test]
    fn the_read_names_are_the_references_values() {
        assert_eq!(read_names(&lines(YAML)), ["apps", "busy"]);
        let toml = "[data.sources.a]\ntype = \"sort\"\nfrom = \"b\"\n[data.sources.b]\ntype = \"static\"\n";
        assert_eq!(read_names(&lines(toml)), ["b"]);
        assert_eq!(definition(&lines(toml), Syntax::Toml, "b"), Some(3));
        assert_eq!(block(&lines(toml), Syntax::Toml, 0), 0..3);
    }

    #[test]
    fn a_deleted_entry_takes_its_block_and_nothing_else() {
        let mut yaml = lines(YAML);
        let at = definition(&yaml, Syntax::Yaml, "apps").expect("defined");
        assert_eq!(block(&yaml, Syntax::Yaml, at), 2..6);
        yaml.drain(2..6);
        assert!(yaml[2].trim_start().starts_with("busy:"));
    }

    #[test]
    fn every_mutation_changes_the_reference_graph_or_a_read_key() {
        for index in 0..40 {
            let mut rng = ChaCha8Rng::seed_from_u64(index);
            let mut mutated = lines(YAML);
            let name = mutate(&mut rng, Syntax::Yaml, &mut mutated);
            assert!(!name.contains(" no "), "{name}");
            assert_ne!(mutated, lines(YAML), "{name}");
        }
    }
}
