//! Property tests: no input makes `parse` panic, every span is sound, and every offset inside a
//! string maps back to the file (`str_offset`) in range and on a character boundary.

use proptest::prelude::*;
use sources_syntax::{Node, Parse, Syntax, Value, parse, str_offset};

const VALID_YAML: &str = r#"app:
  title: demo
data:
  sources:
    apps:
      type: http
      url: "https://api.example.com/apps?q=${params.q}"
      headers: {Accept: application/json, 'X-Key': 'k''1'}
      parameters:
        q: {type: string, default: ""}
      window:
        page_size: 100
        offset_param: offset
        limit_param: limit
        filters:
          Region: region
    logs:
      type: exec
      command: [tail, -f, "/var/log/${params.name}"]
      script: |
        echo one
        echo two
      follow: true
    all:
      type: merge
      sources: [apps, logs]
      tag_field: origin
"#;

const VALID_TOML: &str = r#"[app]
title = "demo"

[data.sources.apps]
type = "http"
url = "https://api.example.com/apps?q=${params.q}"
headers = { Accept = "application/json", 'X-Key' = 'k1' }

[data.sources.apps.window]
page_size = 100
offset_param = "offset"

[data.sources.all]
type = "merge"
sources = ["apps", "logs"]
body = """
multi ${params.q}
"""
"#;

fn check_span(text: &str, start: usize, end: usize) {
    assert!(
        start <= end && end <= text.len(),
        "span {start}..{end} outside 0..{}",
        text.len()
    );
    assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "span {start}..{end} splits a character"
    );
}

/// Maps every character boundary of a string node's decoded text back to the file: each answer
/// is inside the text and on a character boundary (a recovered bare value once sent this off a
/// boundary and panicked).
fn check_offsets(text: &str, node: &Node) {
    let Some(decoded) = node.as_str() else {
        return;
    };
    for offset in (0..=decoded.len()).filter(|&offset| decoded.is_char_boundary(offset)) {
        if let Some(at) = str_offset(text, node, offset) {
            assert!(
                at <= text.len() && text.is_char_boundary(at),
                "offset {offset} of {decoded:?} maps to {at}, outside the {}-byte text or inside a character",
                text.len()
            );
        }
    }
}

fn check_node(text: &str, node: &Node, exact_keys: bool) {
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        check_span(text, node.span.start(), node.span.end());
        check_offsets(text, node);
        match &node.value {
            Value::Seq(items) => pending.extend(items),
            Value::Map(map) => {
                for entry in map.iter() {
                    let key = &entry.key;
                    check_span(text, key.span.start(), key.span.end());
                    let written = &text[key.span.range()];
                    if !exact_keys {
                        pending.push(&entry.value);
                        continue;
                    }
                    if let Some(inner) = written
                        .strip_prefix('"')
                        .and_then(|w| w.strip_suffix('"'))
                        .or_else(|| {
                            written
                                .strip_prefix('\'')
                                .and_then(|w| w.strip_suffix('\''))
                        })
                    {
                        if !inner.contains(['\\', '\'', '\n']) {
                            assert_eq!(inner, key.name, "quoted key");
                        }
                    } else if !written.is_empty()
                        && !written.starts_with(['!', '&', '*', '?', '|', '>', '[', '{'])
                        && !written.contains('\n')
                    {
                        assert_eq!(written, key.name, "plain key");
                    }
                    pending.push(&entry.value);
                }
            }
            _ => {}
        }
    }
}

fn check(text: &str, syntax: Syntax) {
    let Parse { root, errors } = parse(text, syntax);
    if let Some(root) = &root {
        check_node(text, root, errors.is_empty());
    }
    for error in &errors {
        check_span(text, error.span.start(), error.span.end());
        assert!(!error.message.is_empty());
    }
}

/// Applies `(position, operation, character)` edits to `text`.
fn mutate(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(position, operation, ch) in edits {
        if chars.is_empty() {
            chars.push(ch);
            continue;
        }
        let at = position % chars.len();
        match operation % 4 {
            0 => chars.insert(at, ch),
            1 => {
                chars.remove(at);
            }
            2 => chars[at] = ch,
            _ => {
                let end = (at + 1 + position % 40).min(chars.len());
                let copy: Vec<char> = chars[at..end].to_vec();
                chars.splice(at..at, copy);
            }
        }
    }
    chars.into_iter().collect()
}

fn yamlish() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[-:{}\\[\\],&*!|>'\"#?<. \\n\\ta-cé😀0-9\\\\]{0,80}")
        .expect("regex")
}

fn edit() -> impl Strategy<Value = (usize, u8, char)> {
    (
        any::<usize>(),
        any::<u8>(),
        prop_oneof![
            Just(':'),
            Just('-'),
            Just(' '),
            Just('\n'),
            Just('"'),
            Just('\''),
            Just('['),
            Just('{'),
            Just(']'),
            Just('}'),
            Just('&'),
            Just('*'),
            Just('!'),
            Just('|'),
            Just('='),
            Just('é'),
            Just('#'),
            Just('\\'),
            Just('\t'),
            Just('x'),
        ],
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(text in any::<String>()) {
        check(&text, Syntax::Yaml);
        check(&text, Syntax::Toml);
    }

    #[test]
    fn yaml_like_strings_never_panic(text in yamlish()) {
        check(&text, Syntax::Yaml);
        check(&text, Syntax::Toml);
    }

    #[test]
    fn mutated_yaml_configs_never_panic(edits in proptest::collection::vec(edit(), 1..8)) {
        check(&mutate(VALID_YAML, &edits), Syntax::Yaml);
    }

    #[test]
    fn mutated_toml_configs_never_panic(edits in proptest::collection::vec(edit(), 1..8)) {
        check(&mutate(VALID_TOML, &edits), Syntax::Toml);
    }
}

#[test]
fn the_unmutated_configs_parse_cleanly() {
    for (text, syntax) in [(VALID_YAML, Syntax::Yaml), (VALID_TOML, Syntax::Toml)] {
        let parse = parse(text, syntax);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        check_node(text, &parse.root.expect("root"), true);
    }
}

/// The inputs that once panicked: bare TOML values starting with a multibyte character, which the
/// parser recovers as strings.
#[test]
fn recovered_bare_values_with_multibyte_text_map_back_inside_the_text() {
    for text in [
        "[data.sources.s]\ntype = \"sort\"\nfrom = \"a\"\nby = éa\n",
        "[data.sources.f]\ntype = \"filter\"\nfrom = \"a\"\nwhere = é +\n",
    ] {
        check(text, Syntax::Toml);
    }
}
