//! The fast YAML reader gives saphyr's tree or declines: over every YAML file of `testdata/` and
//! the entries the editor reparses alone, a generated corpus of many shapes of scalars, quotes,
//! escapes, comments, flow collections and indentation, and mutations of both. Each comparison
//! is `compare_yaml_readers` (values, spans, styles, no errors, a local tree); the counts of
//! texts the fast reader took keep the comparison from passing by declining everything.

use std::path::{Path, PathBuf};

use sources_syntax::{Node, Syntax, Value, compare_yaml_readers, parse};
use sources_testkit::random::Random;

/// Compares the readers on `text`; whether the fast reader took it.
fn agree(text: &str, what: &str) -> bool {
    match compare_yaml_readers(text) {
        Ok(taken) => taken,
        Err(difference) => panic!("the readers differ on {what}:\n{text}\n---\n{difference}"),
    }
}

fn yaml_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("testdata is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            yaml_files(&path, found);
        } else if Syntax::from_path(&path) == Some(Syntax::Yaml) {
            found.push(path);
        }
    }
}

fn testdata() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut paths = Vec::new();
    yaml_files(&root, &mut paths);
    assert!(
        paths.len() > 100,
        "testdata/ holds {} YAML files",
        paths.len()
    );
    paths
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            Some((path, text))
        })
        .collect()
}

/// The start of the line holding `at`.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |newline| newline + 1)
}

/// The text of every entry of every block mapping, as the editor parses an edited entry alone:
/// from its key's line to the next key's line (or the end of its parent's text).
fn regions(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let Some(root) = parse(text, Syntax::Yaml).root else {
        return found;
    };
    let mut pending: Vec<(&Node, usize)> = vec![(&root, text.len())];
    let mut seen = 0;
    while let Some((node, end)) = pending.pop() {
        let Value::Map(map) = &node.value else {
            continue;
        };
        if text.as_bytes().get(node.span.start()) == Some(&b'{') {
            continue;
        }
        let entries = map.entries.iter().collect::<Vec<_>>();
        for (i, entry) in entries.iter().enumerate() {
            let start = line_start(text, entry.key.span.start());
            let stop = entries
                .get(i + 1)
                .map_or(end, |next| line_start(text, next.key.span.start()));
            if start < stop && entry.key.span.start() < text.len() {
                found.push(&text[start..stop]);
                pending.push((&entry.value, stop));
            }
            seen += 1;
            if seen > 400 {
                return found;
            }
        }
    }
    found
}

#[test]
fn testdata_and_its_entries_read_alike() {
    let (mut files, mut taken, mut entries, mut entries_taken) = (0, 0, 0, 0);
    for (path, text) in testdata() {
        let name = path.display().to_string();
        files += 1;
        taken += usize::from(agree(&text, &name));
        for region in regions(&text) {
            entries += 1;
            entries_taken += usize::from(agree(region, &format!("an entry of {name}")));
        }
    }
    assert!(
        taken * 10 > files * 8,
        "the fast reader took {taken} of {files} files of testdata/"
    );
    assert!(
        entries_taken * 10 > entries * 8,
        "the fast reader took {entries_taken} of {entries} entries of testdata/"
    );
}

/// The shared seeded generator, so that every run checks the same texts, with the picks the
/// generated documents are made of.
struct Rng(Random);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    /// Mostly one of `usual`, one in `odds` times one of `odd`.
    fn usually<'a>(&mut self, usual: &[&'a str], odd: &[&'a str], odds: usize) -> &'a str {
        if self.below(odds) == 0 {
            self.pick(odd)
        } else {
            self.pick(usual)
        }
    }

    fn scalar(&mut self) -> &'static str {
        self.usually(SCALARS, ODD_SCALARS, 40)
    }
}

/// Scalars as they are written, of every kind the fast reader takes.
const SCALARS: &[&str] = &[
    "plain",
    "two words",
    "x",
    "-x",
    "-1",
    "+1",
    "0",
    "012",
    "0x1F",
    "0o17",
    "0xZZ",
    "1.5",
    ".5",
    "1.",
    "1e5",
    "-2.5E-3",
    ".inf",
    "-.Inf",
    ".nan",
    "true",
    "False",
    "TRUE",
    "yes",
    "null",
    "Null",
    "~",
    "a#b",
    "a #b",
    "a:b",
    "https://example.invalid/apps/${params.region}?page=${params.page}",
    "${env.HOME}",
    "health == \"Healthy\"",
    "it's",
    "a, b",
    "[a]",
    "{a: 1}",
    "é café",
    "日本",
    "🙂",
    "''",
    "'single'",
    "'it''s'",
    "'a: b # c'",
    "\"\"",
    "\"double\"",
    "\"tab\\there\"",
    "\"nl\\n\"",
    "\"\\x41\\u00e9\\U0001F642\"",
    "\"\\N\\_\\L\\P\\e\\0\\a\\b\\v\\f\\r\\ \\/\\\\\\\"\"",
    "\"a: b # c\"",
    "[]",
    "[a, b]",
    "[ a , b ]",
    "[\"a\", 'b', 1, true, ~]",
    "[{title: Name, value: name}, {title: Health}]",
    "{source: list, bind: {region: \"${cursor.1}\"}}",
    "[[a, b], [], {}]",
    "{url: http://127.0.0.1:8099/apps?field=region, root: values}",
    "[a:b, c:d]",
    "[http://x, 'y']",
    "{a: [1, 2], b: {c: [d]}}",
    "[a,b]",
    "[-1, -x]",
    "{}",
    "{a: 1, b: \"two\"}",
    "{ a: 1 }",
    "{\"a\": 1}",
    "[a] # c",
    "\"q\" # c",
];

/// Scalars and collections the fast reader declines (or that are errors), written now and then.
const ODD_SCALARS: &[&str] = &[
    "[a:, b]",
    "{a: {b: c}",
    "[a, {b}]",
    "{a: b:c}",
    "[[[[[[[[[[[[[[[[[[a]]]]]]]]]]]]]]]]]]",
    "{[a]: b}",
    "-",
    "99999999999999999999",
    "-99999999999999999999",
    "a: b",
    "a]",
    "a}",
    "---",
    "...",
    "--- x",
    "%x",
    "@x",
    "`x`",
    "&a x",
    "*a",
    "!tag x",
    "!!str 1",
    "|",
    ">",
    "? x",
    ":x",
    "x:",
    "'unclosed",
    "\"\\uD800\"",
    "\"bad \\q\"",
    "\"\\x4\"",
    "\"unclosed",
    "\"ends\\\"",
    "[a, [b]]",
    "[a, ]",
    "[a,, b]",
    "[a: b]",
    "[a #b]",
    "[- x]",
    "[\"a\": b]",
    "[a",
    "{a: 1, a: 2}",
    "{a:1}",
    "{a : 1}",
    "{a: [b]}",
    "{a}",
    "{a: }",
    "{<<: x}",
    "[a]x",
    "\"q\"x",
    "'q'# c",
];

const KEYS: &[&str] = &[
    "key",
    "type",
    "two words",
    "with-dash",
    "dotted.key",
    "a:b",
    "-lead",
    "1",
    "1.5",
    "true",
    "null",
    "~",
    "\"quoted\"",
    "\"esc\\tape\"",
    "'single'",
    "'it''s'",
    "\"<<\"",
    "\"\"",
    "é",
    "key#x",
];

/// Keys the fast reader declines (or that are errors).
const ODD_KEYS: &[&str] = &[
    "99999999999999999999",
    "<<",
    "key ",
    "? key",
    "&a key",
    "!t key",
    "[a]",
];

/// A generated document: nested block mappings and sequences with scalars from [`SCALARS`],
/// keys from [`KEYS`], comments, blank lines and indentation of several widths.
fn document(rng: &mut Rng) -> String {
    let mut out = String::new();
    if rng.below(4) == 0 {
        out.push_str("# leading comment\n");
    }
    let step = [2, 2, 4, 1, 3][rng.below(5)];
    let seq = rng.below(3) == 0;
    block(rng, &mut out, 0, step, 0, seq);
    if rng.below(3) == 0 {
        out.pop();
    }
    out
}

fn block(rng: &mut Rng, out: &mut String, indent: usize, step: usize, depth: usize, seq: bool) {
    let count = 1 + rng.below(4);
    for i in 0..count {
        let pad = " ".repeat(indent);
        match rng.below(12) {
            0 => out.push('\n'),
            1 => {
                let deeper = [0, 0, step, indent.max(1) - 1][rng.below(4)];
                out.push_str(&" ".repeat(indent.min(deeper + indent)));
                out.push_str("# comment: with - and 'quotes'\n");
            }
            _ => {}
        }
        let key = if i % 3 == 2 && rng.below(6) == 0 {
            "key"
        } else {
            rng.usually(KEYS, ODD_KEYS, 40)
        };
        let unique = format!("{key}{i}");
        let key = if key.starts_with(['"', '\'', '?', '&', '!', '[', '~']) || rng.below(8) == 0 {
            key.to_owned()
        } else {
            unique
        };
        let nested = depth < 4 && rng.below(3) == 0;
        if seq {
            out.push_str(&format!("{pad}-"));
            if nested && rng.below(2) == 0 {
                // A mapping that starts on the item's line.
                out.push_str(&format!(" {key}: {}\n", rng.scalar()));
                let inner = indent + 2;
                out.push_str(&format!("{}{key}x: {}\n", " ".repeat(inner), rng.scalar()));
            } else if nested {
                out.push('\n');
                let sub_seq = rng.below(2) == 0;
                block(rng, out, indent + step, step, depth + 1, sub_seq);
            } else if rng.below(8) == 0 {
                let inner = " ".repeat(indent + 2);
                out.push_str(&format!(" |\n{inner}{}\n\n{inner}x\n", rng.scalar()));
            } else {
                out.push_str(&format!(" {}\n", rng.scalar()));
            }
        } else if nested {
            out.push_str(&format!("{pad}{key}:"));
            if rng.below(5) == 0 {
                out.push_str(" # about it");
            }
            out.push('\n');
            let sub_seq = rng.below(3) == 0;
            // A sequence may sit at its key's indentation.
            let inner = if sub_seq && rng.below(2) == 0 {
                indent
            } else {
                indent + step
            };
            block(rng, out, inner, step, depth + 1, sub_seq);
        } else {
            if rng.below(6) == 0 {
                // A literal block scalar, its lines at several indentations.
                let header = [
                    "|", "|-", "| # note", "|+", "|2", ">", "|  ", ">-", "> # n", ">+",
                ][rng.below(10)];
                out.push_str(&format!("{pad}{key}: {header}\n"));
                let inner = " ".repeat(indent + [step, step, 1, 4][rng.below(4)]);
                for _ in 0..1 + rng.below(3) {
                    let line = match rng.below(8) {
                        0 => String::new(),
                        1 => " ".repeat(indent + rng.below(6)),
                        2 => format!("{inner}  deeper: # not a comment"),
                        3 if rng.below(2) == 0 => format!("{inner}trailing blanks  "),
                        3 => format!("{pad}# back out"),
                        _ => format!("{inner}{}", rng.scalar()),
                    };
                    out.push_str(&line);
                    out.push('\n');
                }
                continue;
            }
            let gap = [" ", " ", "  ", ""][rng.below(4)];
            out.push_str(&format!("{pad}{key}:{gap}{}", rng.scalar()));
            match rng.below(6) {
                0 => out.push_str(" # trailing"),
                1 => out.push_str("   "),
                _ => {}
            }
            out.push('\n');
        }
    }
}

/// Inserts, deletes or replaces a few bytes with characters YAML gives meaning to.
fn mutate(rng: &mut Rng, text: &str) -> String {
    const PIECES: &[&str] = &[
        " ", "  ", "\n", ":", ": ", "-", "- ", "#", " #", "'", "\"", "\\", "[", "]", "{", "}", ",",
        "\t", "\r", "&", "*", "!", "|", ">", "?", "x", "1", "é", "\\u", "---\n", "~", "\u{feff}",
    ];
    let mut text = text.to_owned();
    for _ in 0..1 + rng.below(3) {
        let mut at = rng.below(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        match rng.below(3) {
            0 => text.insert_str(at, rng.pick(PIECES)),
            1 => {
                let mut end = (at + 1 + rng.below(3)).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                text.replace_range(at..end, "");
            }
            _ => {
                let mut end = (at + 1).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                text.replace_range(at..end, rng.pick(PIECES));
            }
        }
    }
    text
}

#[test]
fn a_generated_corpus_and_its_mutations_read_alike() {
    let mut rng = Rng(Random::new(0x9e37_79b9_7f4a_7c15));
    let (mut documents, mut taken, mut mutated, mut mutated_taken) = (0, 0, 0, 0);
    for _ in 0..10_000 {
        let text = document(&mut rng);
        documents += 1;
        taken += usize::from(agree(&text, "a generated document"));
        for _ in 0..3 {
            let changed = mutate(&mut rng, &text);
            mutated += 1;
            mutated_taken += usize::from(agree(&changed, "a mutated document"));
        }
    }
    assert!(
        taken * 5 > documents,
        "the fast reader took {taken} of {documents} generated documents"
    );
    assert!(
        mutated_taken * 10 > mutated,
        "the fast reader took {mutated_taken} of {mutated} mutated documents"
    );
}

#[test]
fn mutated_testdata_reads_alike() {
    let mut rng = Rng(Random::new(0x2545_f491_4f6c_dd1d));
    let files = testdata();
    let (mut checked, mut taken) = (0, 0);
    for (path, text) in &files {
        for _ in 0..30 {
            let changed = mutate(&mut rng, text);
            checked += 1;
            taken += usize::from(agree(
                &changed,
                &format!("a mutation of {}", path.display()),
            ));
        }
    }
    assert!(
        taken * 5 > checked,
        "the fast reader took {taken} of {checked} mutated files"
    );
}

#[test]
fn the_configurations_people_write_take_the_fast_path() {
    // The shape of an entry of the benchmarks' generated configuration, and the shapes around it.
    let text = "app:\n  name: bench\ndata:\n  sources:\n    apps_0:\n      type: http\n      \
                url: https://example.invalid/apps/${params.region}?page=${params.page}\n      \
                refresh: 30s\n      parameters:\n        region:\n          type: string\n          \
                default: eu\n    run_0:\n      type: exec\n      command: [\"list-jobs\", \"--app\", \
                \"${params.app}\"]\n      timeout: 5s\n    healthy_0:\n      type: filter\n      \
                from: apps_0\n      where: health == \"Healthy\" # the healthy ones\n\n    \
                list:\n      type: static\n      rows:\n      - {name: a, n: 1}\n      - name: 'b'\n        \
                n: -2.5\n    script:\n      type: exec\n      command:\n      - sh\n      - |\n        \
                set -e\n\n        echo \"${params.app}\"  # not a comment\n      body: |-\n        \
                {\"q\": 1}\n";
    assert_eq!(compare_yaml_readers(text), Ok(true));
}
