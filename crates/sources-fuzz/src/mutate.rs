//! Mutations of a seed, deterministic for a (run seed, index) pair: byte-level (flips, inserts,
//! deletions, splices, truncation) and structure-aware (values, keys, kinds, templates, CEL,
//! durations, anchors, aliases and merge keys, indentation, multibyte text, and across entries:
//! `references`).

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sources_syntax::Syntax;

use crate::corpus::{Corpus, key_value};

/// One generated input.
#[derive(Clone, Debug)]
pub struct Input {
    /// The bytes to analyse (not always UTF-8).
    pub bytes: Vec<u8>,
    /// The syntax it is read as (its seed's).
    pub syntax: Syntax,
    /// The seed it came from and the mutations applied, for the failure report.
    pub origin: String,
    /// The version before the edit, for the editor's incremental reparse and reusing analysis: the
    /// seed's text (for a generated configuration, the configuration with one edit across entries).
    pub before: String,
}

/// Values that stress the checker: templates, CEL, durations, numbers, quoting, multibyte text.
const VALUES: &[&str] = &[
    "${params.id}",
    "${params.}",
    "${",
    "${}",
    "${params.id",
    "$${params.id}",
    "${window.cursor}",
    "${window.offset}",
    "${window.limit}",
    "${window.search}",
    "${env.HOME}",
    "${env.}",
    "${selection}",
    "${selection.name}",
    "${parms.id}",
    "${params.é}",
    "https://api.example.com/${params.id}?q=${params.q}",
    "size > 1",
    "row.size > params.min",
    "has(row.name) && row.name.startsWith(\"a\")",
    "1 + ",
    "((((((((((1))))))))))",
    "a.b.c.d.e.f.g",
    "'é' == 'é'",
    "[1, 2, 3].map(x, x * 2)",
    "{\"a\": 1}",
    "10s",
    "0s",
    "-1s",
    "1h30m",
    "1.5h",
    "1000h",
    "999999999999999999h",
    "5ms",
    "10",
    "0",
    "-1",
    "5.0",
    "1e309",
    "0x10",
    "true",
    "false",
    "null",
    "~",
    "\"\"",
    "''",
    "[]",
    "{}",
    "[\"\"]",
    "éa",
    "日本語",
    "🎉",
    "a\u{2028}b",
    "\u{feff}x",
    "text",
    "json",
    "ndjson",
    "lines",
    "oldest",
    "newest",
    "older",
    "newer",
    "skip",
    "fail",
];

/// Bytes that matter to YAML and TOML parsers.
const PUNCTUATION: &[u8] = b"{}[]:,\"'#&*!|>-=\n\t$ .%@`\\";

/// Multibyte and unusual text to insert.
const MULTIBYTE: &[&str] = &[
    "é", "日本", "🎉", "\u{2028}", "\u{feff}", "\u{0}", "\r\n", "\t",
];

/// Generates input `index` of the run seeded with `run_seed`.
pub fn generate(corpus: &Corpus, run_seed: u64, index: u64) -> Input {
    let mut rng = ChaCha8Rng::seed_from_u64(run_seed);
    rng.set_stream(index);
    let seed = &corpus.seeds[rng.random_range(0..corpus.seeds.len())];
    let mut text = seed.text.clone().into_bytes();
    let mut steps = Vec::new();
    for _ in 0..rng.random_range(1..=4) {
        let step = mutate(&mut rng, corpus, seed.syntax, &mut text);
        steps.push(step);
    }
    Input {
        bytes: text,
        syntax: seed.syntax,
        origin: format!("{} ({})", seed.name, steps.join(", ")),
        before: seed.text.clone(),
    }
}

/// Applies one mutation to `bytes`, returning its name.
fn mutate(
    rng: &mut ChaCha8Rng,
    corpus: &Corpus,
    syntax: Syntax,
    bytes: &mut Vec<u8>,
) -> &'static str {
    // Structure-aware mutations need text; byte mutations may have made it invalid UTF-8.
    let Ok(text) = std::str::from_utf8(bytes) else {
        return byte_mutation(rng, corpus, bytes);
    };
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let name = match rng.random_range(0..17) {
        0 | 1 => replace_value(rng, syntax, &mut lines),
        2 => replace_key(rng, corpus, &mut lines),
        3 => insert_field(rng, corpus, syntax, &mut lines),
        4 => swap_kind(rng, corpus, syntax, &mut lines),
        5 => anchor_and_alias(rng, syntax, &mut lines),
        6 => reindent(rng, &mut lines),
        7 => duplicate_block(rng, &mut lines),
        8 => delete_lines(rng, &mut lines),
        9 => insert_multibyte(rng, &mut lines),
        10 => typo_key(rng, &mut lines),
        11..=13 => crate::references::mutate(rng, syntax, &mut lines),
        _ => {
            *bytes = lines.join("\n").into_bytes();
            return byte_mutation(rng, corpus, bytes);
        }
    };
    *bytes = lines.join("\n").into_bytes();
    name
}

/// A byte-level mutation.
fn byte_mutation(rng: &mut ChaCha8Rng, corpus: &Corpus, bytes: &mut Vec<u8>) -> &'static str {
    let len = bytes.len();
    match rng.random_range(0..6) {
        0 if len > 0 => {
            let at = rng.random_range(0..len);
            bytes[at] ^= 1 << rng.random_range(0..8);
            "flip a bit"
        }
        1 => {
            let at = rng.random_range(0..=len);
            let count = rng.random_range(1..=4);
            let inserted: Vec<u8> = (0..count)
                .map(|_| *PUNCTUATION.choose(rng).unwrap_or(&b' '))
                .collect();
            bytes.splice(at..at, inserted);
            "insert punctuation"
        }
        2 if len > 0 => {
            let start = rng.random_range(0..len);
            let end = (start + rng.random_range(1..=32)).min(len);
            bytes.drain(start..end);
            "delete bytes"
        }
        3 => {
            let other = &corpus.seeds[rng.random_range(0..corpus.seeds.len())].text;
            let other = other.as_bytes();
            if other.is_empty() {
                return "splice nothing";
            }
            let start = rng.random_range(0..other.len());
            let end = (start + rng.random_range(1..=200)).min(other.len());
            let at = rng.random_range(0..=len);
            bytes.splice(at..at, other[start..end].iter().copied());
            "splice from another seed"
        }
        4 if len > 0 => {
            bytes.truncate(rng.random_range(0..len));
            "truncate"
        }
        _ => {
            let at = rng.random_range(0..=len);
            let byte = rng.random_range(0x80..=0xFFu8);
            bytes.insert(at, byte);
            "insert a non-ASCII byte"
        }
    }
}

/// A random line index, if there are lines.
fn pick_line(rng: &mut ChaCha8Rng, lines: &[String]) -> Option<usize> {
    (!lines.is_empty()).then(|| rng.random_range(0..lines.len()))
}

/// A random line that holds `key: value` or `key = value` (a few tries).
fn pick_field_line(rng: &mut ChaCha8Rng, lines: &[String]) -> Option<usize> {
    (0..8)
        .filter_map(|_| pick_line(rng, lines))
        .find(|&at| key_value(&lines[at]).is_some())
}

/// `value` written for `syntax`: YAML plain or quoted; TOML mostly quoted, sometimes bare (which
/// exercises the TOML parser's recovery).
fn written(rng: &mut ChaCha8Rng, syntax: Syntax, value: &str) -> String {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    match (syntax, rng.random_range(0..4)) {
        (Syntax::Yaml, 0) => format!("\"{escaped}\""),
        (Syntax::Yaml, 1) => format!("'{}'", value.replace('\'', "''")),
        (Syntax::Yaml, 2) => format!("|\n      {value}"),
        (Syntax::Yaml, _) => value.to_owned(),
        (Syntax::Toml, 0) => value.to_owned(),
        (Syntax::Toml, 1) => format!("'''{value}'''"),
        (Syntax::Toml, _) => format!("\"{escaped}\""),
    }
}

/// The line's indentation.
fn indent(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

fn replace_value(rng: &mut ChaCha8Rng, syntax: Syntax, lines: &mut [String]) -> &'static str {
    let Some(at) = pick_field_line(rng, lines) else {
        return "replace no value";
    };
    let line = &lines[at];
    let Some(separator) = line.find([':', '=']) else {
        return "replace no value";
    };
    let value = VALUES.choose(rng).copied().unwrap_or("x");
    let value = written(rng, syntax, value);
    let head = &line[..=separator];
    lines[at] = format!("{head} {value}");
    "replace a value"
}

fn replace_key(rng: &mut ChaCha8Rng, corpus: &Corpus, lines: &mut [String]) -> &'static str {
    let Some(at) = pick_field_line(rng, lines) else {
        return "replace no key";
    };
    let Some(key) = corpus.keys.choose(rng) else {
        return "replace no key";
    };
    let line = &lines[at];
    let Some((old, _)) = key_value(line) else {
        return "replace no key";
    };
    lines[at] = line.replacen(old, key, 1);
    "replace a key"
}

fn typo_key(rng: &mut ChaCha8Rng, lines: &mut [String]) -> &'static str {
    let Some(at) = pick_field_line(rng, lines) else {
        return "misspell no key";
    };
    let line = &lines[at];
    let Some((old, _)) = key_value(line) else {
        return "misspell no key";
    };
    let mut chars: Vec<char> = old.chars().collect();
    if chars.len() < 2 {
        return "misspell no key";
    }
    let i = rng.random_range(0..chars.len() - 1);
    match rng.random_range(0..3) {
        0 => chars.swap(i, i + 1),
        1 => {
            chars.remove(i);
        }
        _ => chars.insert(i, chars[i]),
    }
    let typo: String = chars.into_iter().collect();
    lines[at] = line.replacen(old, &typo, 1);
    "misspell a key"
}

fn insert_field(
    rng: &mut ChaCha8Rng,
    corpus: &Corpus,
    syntax: Syntax,
    lines: &mut Vec<String>,
) -> &'static str {
    let Some(at) = pick_field_line(rng, lines) else {
        return "insert no field";
    };
    let key = corpus
        .keys
        .choose(rng)
        .cloned()
        .unwrap_or_else(|| "x".to_owned());
    let value = VALUES.choose(rng).copied().unwrap_or("x");
    let value = written(rng, syntax, value);
    let prefix = indent(&lines[at]).to_owned();
    let line = match syntax {
        Syntax::Yaml => format!("{prefix}{key}: {value}"),
        Syntax::Toml => format!("{prefix}{key} = {value}"),
    };
    lines.insert(at + 1, line);
    "insert a field"
}

fn swap_kind(
    rng: &mut ChaCha8Rng,
    corpus: &Corpus,
    syntax: Syntax,
    lines: &mut [String],
) -> &'static str {
    let candidates: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| key_value(line).is_some_and(|(key, _)| key == "type"))
        .map(|(at, _)| at)
        .collect();
    let (Some(&at), Some(kind)) = (candidates.choose(rng), corpus.kinds.choose(rng)) else {
        return "swap no kind";
    };
    let prefix = indent(&lines[at]).to_owned();
    lines[at] = match syntax {
        Syntax::Yaml => format!("{prefix}type: {kind}"),
        Syntax::Toml => format!("{prefix}type = \"{kind}\""),
    };
    "swap a kind"
}

fn anchor_and_alias(rng: &mut ChaCha8Rng, syntax: Syntax, lines: &mut Vec<String>) -> &'static str {
    if syntax == Syntax::Toml {
        // TOML has no anchors; an inline table duplicated under another key is its nearest kin.
        return duplicate_block(rng, lines);
    }
    let openers: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.trim_end().ends_with(':') && !line.trim_start().starts_with('#'))
        .map(|(at, _)| at)
        .collect();
    let Some(&at) = openers.choose(rng) else {
        return "anchor nothing";
    };
    let name = format!("a{}", rng.random_range(0..3));
    lines[at] = format!("{} &{name}", lines[at].trim_end());
    let Some(target) = pick_line(rng, lines) else {
        return "anchor without alias";
    };
    let prefix = indent(&lines[target]).to_owned();
    let alias = match rng.random_range(0..4) {
        0 => format!("{prefix}<<: *{name}"),
        1 => format!("{prefix}<<: [*{name}, *undefined]"),
        2 => format!("{prefix}copy: *{name}"),
        _ => format!("{prefix}missing: *nowhere"),
    };
    lines.insert(target + 1, alias);
    "anchor and alias"
}

fn reindent(rng: &mut ChaCha8Rng, lines: &mut [String]) -> &'static str {
    let Some(at) = pick_line(rng, lines) else {
        return "reindent nothing";
    };
    let line = &lines[at];
    lines[at] = match rng.random_range(0..3) {
        0 => format!("  {line}"),
        1 => line.strip_prefix("  ").unwrap_or(line).to_owned(),
        _ => format!("\t{}", line.trim_start()),
    };
    "reindent a line"
}

fn duplicate_block(rng: &mut ChaCha8Rng, lines: &mut Vec<String>) -> &'static str {
    let Some(start) = pick_line(rng, lines) else {
        return "duplicate nothing";
    };
    let end = (start + rng.random_range(1..=12)).min(lines.len());
    let block: Vec<String> = lines[start..end].to_vec();
    let at = rng.random_range(end..=lines.len());
    lines.splice(at..at, block);
    "duplicate a block"
}

fn delete_lines(rng: &mut ChaCha8Rng, lines: &mut Vec<String>) -> &'static str {
    let Some(start) = pick_line(rng, lines) else {
        return "delete nothing";
    };
    let end = (start + rng.random_range(1..=3)).min(lines.len());
    lines.drain(start..end);
    "delete lines"
}

fn insert_multibyte(rng: &mut ChaCha8Rng, lines: &mut [String]) -> &'static str {
    let Some(at) = pick_line(rng, lines) else {
        return "insert no text";
    };
    let line = &lines[at];
    let boundaries: Vec<usize> = line
        .char_indices()
        .map(|(i, _)| i)
        .chain([line.len()])
        .collect();
    let position = boundaries.choose(rng).copied().unwrap_or(0);
    let inserted = MULTIBYTE.choose(rng).copied().unwrap_or("é");
    lines[at] = format!("{}{inserted}{}", &line[..position], &line[position..]);
    "insert multibyte text"
}

#[cfg(test)]
mod tests {
    use super::generate;
    use crate::corpus::{Corpus, Seed};
    use sources_syntax::Syntax;

    fn corpus() -> Corpus {
        Corpus::from_seeds(vec![
            Seed {
                name: "a.yaml".into(),
                text: "data:\n  sources:\n    apps:\n      type: http\n      url: https://x/${params.id}\n".into(),
                syntax: Syntax::Yaml,
            },
            Seed {
                name: "b.toml".into(),
                text: "[data.sources.apps]\ntype = \"exec\"\ncommand = [\"ls\"]\n".into(),
                syntax: Syntax::Toml,
            },
        ])
    }

    #[test]
    fn an_input_is_a_function_of_the_run_seed_and_its_index() {
        let corpus = corpus();
        for index in 0..50 {
            let first = generate(&corpus, 7, index);
            let again = generate(&corpus, 7, index);
            assert_eq!(first.bytes, again.bytes);
            assert_eq!(first.origin, again.origin);
        }
        let differ = (0..50)
            .filter(|&index| generate(&corpus, 7, index).bytes != generate(&corpus, 8, index).bytes)
            .count();
        assert!(
            differ > 40,
            "another run seed gives other inputs ({differ} of 50 differ)"
        );
    }

    #[test]
    fn the_vocabulary_comes_from_the_seeds() {
        let corpus = corpus();
        assert_eq!(corpus.kinds, ["exec", "http"]);
        assert!(corpus.keys.iter().any(|key| key == "command"));
        assert!(corpus.keys.iter().any(|key| key == "url"));
    }
}
