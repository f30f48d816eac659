//! `str_offset`: offsets inside decoded strings mapped back to the file, for every style.

use sources_syntax::{Node, Syntax, parse, str_offset};

/// Parses `text`, takes the string at `key` and checks that the token `needle` in its decoded text
/// maps to the same token in the file (the first occurrence of `needle` after the key).
fn check(text: &str, syntax: Syntax, key: &str) {
    let parse = parse(text, syntax);
    assert!(parse.errors.is_empty(), "{:?}", parse.errors);
    let root = parse.root.expect("root");
    let node: &Node = root.as_map().and_then(|m| m.value(key)).expect("key");
    let decoded = node.as_str().expect("a string");
    let needle = "${params.X}";
    let in_value = decoded.find(needle).expect("token in decoded text");
    let key_at = text
        .find(&format!("{key} "))
        .or_else(|| text.find(&format!("{key}:")))
        .expect("key in text");
    let expected = key_at + text[key_at..].find(needle).expect("token in file");
    assert_eq!(
        str_offset(text, node, in_value),
        Some(expected),
        "{key}: {decoded:?}"
    );
    let after = in_value + needle.len();
    assert_eq!(
        str_offset(text, node, after),
        Some(expected + needle.len()),
        "{key} end"
    );
}

#[test]
fn yaml_plain_single_and_multi_line() {
    let text = "plain: see ${params.X} here\nfolded: first line\n  second ${params.X}\n";
    check(text, Syntax::Yaml, "plain");
    check(text, Syntax::Yaml, "folded");
}

#[test]
fn yaml_single_quoted_with_doubled_quotes_and_breaks() {
    let text = "single: 'it''s ''x''\n  then ${params.X}'\n";
    check(text, Syntax::Yaml, "single");
}

#[test]
fn yaml_double_quoted_with_escapes() {
    let text = "double: \"a\\n\\\"q\\\" \\u00e9\\t\\x41 \\\n    ${params.X}\"\n";
    check(text, Syntax::Yaml, "double");
}

#[test]
fn yaml_literal_and_folded_blocks() {
    let text = "literal: |\n    line one\n      indented\n    ${params.X} end\nfolded: >-\n  one\n  two\n\n  three ${params.X}\n";
    check(text, Syntax::Yaml, "literal");
    check(text, Syntax::Yaml, "folded");
}

#[test]
fn yaml_block_with_comment_on_the_header() {
    let text = "run: | # the script\n  echo é ${params.X}\n";
    check(text, Syntax::Yaml, "run");
}

#[test]
fn toml_basic_and_literal() {
    let text = "basic = \"é\\t\\\"${params.X}\\u00e9\"\nliteral = 'C:\\path ${params.X}'\n";
    check(text, Syntax::Toml, "basic");
    check(text, Syntax::Toml, "literal");
}

#[test]
fn toml_multiline_basic_and_literal() {
    let text = "mb = \"\"\"\nfirst \\\n    continued\n${params.X}\"\"\"\nml = '''\nraw \\n\n  ${params.X}'''\n";
    check(text, Syntax::Toml, "mb");
    check(text, Syntax::Toml, "ml");
}

#[test]
fn offsets_outside_or_inside_a_character_or_on_non_strings_are_none() {
    let text = "a: é\nb: 1\n";
    let root = parse(text, Syntax::Yaml).root.expect("root");
    let a = root.as_map().and_then(|m| m.value("a")).expect("a");
    assert_eq!(str_offset(text, a, 0), Some(3));
    assert_eq!(str_offset(text, a, 1), None);
    assert_eq!(str_offset(text, a, 2), Some(5));
    assert_eq!(str_offset(text, a, 3), None);
    let b = root.as_map().and_then(|m| m.value("b")).expect("b");
    assert_eq!(str_offset(text, b, 0), None);
}
