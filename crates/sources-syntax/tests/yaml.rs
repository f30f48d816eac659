//! YAML front end: spans, saphyr's quirks, errors and hostile input.

use sources_syntax::{Node, Parse, ScalarStyle, Syntax, Value, parse};

fn yaml(text: &str) -> Parse {
    parse(text, Syntax::Yaml)
}

fn root(text: &str) -> Node {
    let parse = yaml(text);
    assert!(
        parse.errors.is_empty(),
        "unexpected errors: {:?}",
        parse.errors
    );
    parse.root.expect("a root")
}

fn at<'n>(node: &'n Node, path: &[&str]) -> &'n Node {
    path.iter().fold(node, |node, key| {
        node.as_map().and_then(|m| m.value(key)).expect(key)
    })
}

fn written<'t>(text: &'t str, node: &Node) -> &'t str {
    &text[node.span.range()]
}

#[test]
fn spans_are_bytes_not_characters() {
    let text = "é😀: ünïcödé\nnext: vålue\n";
    let root = root(text);
    let map = root.as_map().expect("map");
    assert_eq!(&text[map.entries[0].key.span.range()], "é😀");
    assert_eq!(written(text, &map.entries[0].value), "ünïcödé");
    assert_eq!(&text[map.entries[1].key.span.range()], "next");
    assert_eq!(written(text, at(&root, &["next"])), "vålue");
}

#[test]
fn flow_collections_span_through_their_closing_bracket() {
    let text = "a: {b: [1, 2], c: x}\nd: [x]\n";
    let root = root(text);
    assert_eq!(written(text, at(&root, &["a"])), "{b: [1, 2], c: x}");
    assert_eq!(written(text, at(&root, &["a", "b"])), "[1, 2]");
    assert_eq!(written(text, at(&root, &["d"])), "[x]");
}

#[test]
fn tags_and_anchors_do_not_move_spans() {
    let text = "a: !!str 5\nb: &anchor \"q\"\nc: !custom [1]\nd: !!int \"7\"\n";
    let root = root(text);
    let a = at(&root, &["a"]);
    assert_eq!(written(text, a), "5");
    assert_eq!(a.as_str(), Some("5"));
    assert_eq!(written(text, at(&root, &["b"])), "\"q\"");
    assert_eq!(written(text, at(&root, &["c"])), "[1]");
    assert_eq!(at(&root, &["d"]).as_int(), Some(7));
}

#[test]
fn quoted_scalars_do_not_span_the_blanks_after_them() {
    let text = "h: {'X-Key' : 1, \"b\"  : 2}\n'c' : 3\n";
    let root = root(text);
    let h = at(&root, &["h"]).as_map().expect("map");
    let key = |span: sources_syntax::Span| &text[span.range()];
    assert_eq!(key(h.entries[0].key.span), "'X-Key'");
    assert_eq!(key(h.entries[1].key.span), "\"b\"");
    assert_eq!(key(root.as_map().expect("map").entries[1].key.span), "'c'");
}

#[test]
fn quoted_scalars_do_not_span_the_comment_after_them() {
    let text =
        "a: \"x # y\"   # note\nb: 'it''s'  # c\nc: \"q\\\" #\"  #\nd: \"two\n  lines\"  # e\n";
    let root = root(text);
    assert_eq!(written(text, at(&root, &["a"])), "\"x # y\"");
    assert_eq!(written(text, at(&root, &["b"])), "'it''s'");
    assert_eq!(written(text, at(&root, &["c"])), "\"q\\\" #\"");
    assert_eq!(written(text, at(&root, &["d"])), "\"two\n  lines\"");
}

#[test]
fn block_collections_span_their_entries() {
    let text = "outer:\n  inner: 1\n  list:\n    - a\n    - b\nnext: 2\n";
    let root = root(text);
    assert_eq!(
        written(text, at(&root, &["outer"])),
        "inner: 1\n  list:\n    - a\n    - b"
    );
    assert_eq!(written(text, at(&root, &["outer", "list"])), "- a\n    - b");
}

#[test]
fn block_scalars_span_from_their_indicator() {
    let text = "a: |\n  line one\n  line two\nb: >-\n  folded\n  text\n\nc: 1\n";
    let root = root(text);
    let a = at(&root, &["a"]);
    assert_eq!(written(text, a), "|\n  line one\n  line two");
    assert_eq!(a.as_str(), Some("line one\nline two\n"));
    let b = at(&root, &["b"]);
    assert_eq!(written(text, b), ">-\n  folded\n  text");
    assert_eq!(b.as_str(), Some("folded text"));
}

#[test]
fn anchored_block_scalars_and_empty_values() {
    let text = "a:\nb: &x |\n  text\nc: *x\n";
    let root = root(text);
    let a = at(&root, &["a"]);
    assert_eq!(a.value, Value::Null);
    assert_eq!(a.span, sources_syntax::Span::empty(1));
    assert_eq!(written(text, at(&root, &["b"])), "|\n  text");
    assert_eq!(at(&root, &["c"]).as_str(), Some("text\n"));
}

#[test]
fn scalars_resolve_with_the_core_schema() {
    let text = "n: ~\nt: true\ni: -12\nh: 0x1F\nf: 1.5e3\ns: 1.2.3\nq: \"12\"\ne:\nw: yes\n";
    let root = root(text);
    assert_eq!(at(&root, &["n"]).value, Value::Null);
    assert_eq!(at(&root, &["t"]).as_bool(), Some(true));
    assert_eq!(at(&root, &["i"]).as_int(), Some(-12));
    assert_eq!(at(&root, &["h"]).as_int(), Some(31));
    assert_eq!(at(&root, &["f"]).value, Value::Float(1500.0));
    assert_eq!(at(&root, &["s"]).as_str(), Some("1.2.3"));
    assert_eq!(at(&root, &["q"]).as_str(), Some("12"));
    assert_eq!(at(&root, &["e"]).value, Value::Null);
    assert_eq!(at(&root, &["w"]).as_str(), Some("yes"));
    match &at(&root, &["q"]).value {
        Value::Str(s) => assert_eq!(s.style, ScalarStyle::DoubleQuoted),
        other => panic!("expected a string, found {other:?}"),
    }
}

#[test]
fn too_large_integers_are_errors() {
    let parse = yaml("a: 99999999999999999999\n");
    assert_eq!(parse.errors.len(), 1);
    assert!(parse.errors[0].message.contains("does not fit in 64 bits"));
    assert_eq!(parse.errors[0].span.start(), 3);
}

#[test]
fn merge_keys_copy_entries_not_written_keeping_their_anchor_spans() {
    let text = "base: &base\n  a: 1\n  b: 1\nthing:\n  <<: *base\n  b: 2\n";
    let root = root(text);
    let thing = at(&root, &["thing"]).as_map().expect("map");
    let names: Vec<&str> = thing.entries.iter().map(|e| e.key.name.as_str()).collect();
    assert_eq!(names, ["b", "a"], "written keys win and come first");
    assert_eq!(at(&root, &["thing", "b"]).as_int(), Some(2));
    assert_eq!(at(&root, &["thing", "a"]).as_int(), Some(1));
    let inherited = thing.entries[1].key.span;
    assert_eq!(
        inherited.start(),
        text.find("a: 1").expect("a"),
        "points into the anchor"
    );
}

#[test]
fn merge_lists_give_earlier_mappings_precedence() {
    let text = "x: &x {a: 1, b: 1}\ny: &y {b: 2, c: 2}\nz:\n  <<: [*x, *y]\n  c: 3\n";
    let root = root(text);
    assert_eq!(at(&root, &["z", "a"]).as_int(), Some(1));
    assert_eq!(at(&root, &["z", "b"]).as_int(), Some(1));
    assert_eq!(at(&root, &["z", "c"]).as_int(), Some(3));
    assert_eq!(at(&root, &["z"]).as_map().expect("map").len(), 3);
}

#[test]
fn merging_something_other_than_a_mapping_is_an_error_at_the_merge_key() {
    let text = "x: &x [1]\nz:\n  <<: *x\n  c: 3\n";
    let parse = yaml(text);
    assert_eq!(parse.errors.len(), 1, "{:?}", parse.errors);
    assert_eq!(&text[parse.errors[0].span.range()], "<<");
    assert!(
        parse.errors[0]
            .message
            .starts_with("`<<` merges a mapping into this one, found a list"),
        "{}",
        parse.errors[0].message
    );
    let root = parse.root.expect("root");
    assert_eq!(at(&root, &["z"]).as_map().expect("map").len(), 1);
}

#[test]
fn merged_aliases_count_against_the_expansion_limit() {
    let mut text = String::from("a0: &a0 {k: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}\n");
    for level in 1..10 {
        let previous = level - 1;
        text.push_str(&format!(
            "a{level}: &a{level}\n  <<: *a{previous}\n  l: [*a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}]\n"
        ));
    }
    let parse = yaml(&text);
    assert!(
        parse
            .errors
            .iter()
            .any(|error| error.message.starts_with("aliases expand to more than")),
        "{:?}",
        parse.errors
    );
}

#[test]
fn a_quoted_merge_key_is_an_ordinary_key() {
    let root = root("'<<': 1\n");
    assert_eq!(
        root.as_map()
            .and_then(|m| m.value("<<"))
            .and_then(Node::as_int),
        Some(1)
    );
}

#[test]
fn aliases_copy_the_anchored_value_spanning_the_alias() {
    let text = "headers: &h {Accept: json}\nother: *h\n";
    let root = root(text);
    let other = at(&root, &["other"]);
    assert_eq!(written(text, other), "*h");
    assert_eq!(
        other
            .as_map()
            .and_then(|m| m.value("Accept"))
            .and_then(Node::as_str),
        Some("json")
    );
    assert_eq!(written(text, at(&root, &["headers"])), "{Accept: json}");
}

#[test]
fn alias_bombs_are_refused() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let previous = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}]\n"
        ));
    }
    let parse = yaml(&text);
    assert!(
        parse
            .errors
            .iter()
            .any(|e| e.message.contains("aliases expand to more than")),
        "{:?}",
        parse.errors
    );
}

#[test]
fn duplicate_keys_are_reported_at_the_second_with_the_first_line() {
    let text = "a: 1\nb: 2\na: 3\n";
    let parse = yaml(text);
    assert_eq!(parse.errors.len(), 1);
    assert_eq!(
        parse.errors[0].message,
        "duplicate key `a`; the first is at line 1"
    );
    assert_eq!(parse.errors[0].span.start(), text.rfind('a').expect("a"));
    let root = parse.root.expect("root");
    assert_eq!(root.as_map().map(|m| m.len()), Some(2));
    assert_eq!(at(&root, &["a"]).as_int(), Some(1));
}

#[test]
fn duplicate_keys_are_found_in_large_maps() {
    let mut text: String = (0..100).map(|i| format!("k{i}: {i}\n")).collect();
    text.push_str("k42: again\n");
    let parse = yaml(&text);
    assert_eq!(parse.errors.len(), 1);
    assert_eq!(
        parse.errors[0].message,
        "duplicate key `k42`; the first is at line 43"
    );
}

#[test]
fn non_string_keys_become_text_or_errors() {
    let text = "1: x\ntrue: y\n? [a]\n: z\nok: 1\n";
    let parse = yaml(text);
    assert_eq!(parse.errors.len(), 1, "{:?}", parse.errors);
    assert!(
        parse.errors[0]
            .message
            .contains("a key must be a string, not a list")
    );
    let root = parse.root.expect("root");
    let names: Vec<&str> = root
        .as_map()
        .expect("map")
        .iter()
        .map(|e| e.key.name.as_str())
        .collect();
    assert_eq!(names, ["1", "true", "ok"]);
}

#[test]
fn a_second_document_is_reported_at_its_marker() {
    let text = "a: 1\n---\nb: 2\n";
    let parse = yaml(text);
    assert_eq!(parse.errors.len(), 1);
    assert!(parse.errors[0].message.contains("a second YAML document"));
    assert_eq!(&text[parse.errors[0].span.range()], "---");
    let root = parse.root.expect("root");
    assert!(root.as_map().and_then(|m| m.get("b")).is_none());
}

#[test]
fn empty_documents_have_no_root_and_no_error() {
    for text in ["", "   \n\n", "# only a comment\n"] {
        let parse = yaml(text);
        assert!(parse.root.is_none(), "{text:?}");
        assert!(parse.errors.is_empty(), "{text:?}");
    }
}

#[test]
fn syntax_errors_point_at_the_parser_position_and_keep_what_came_before() {
    let text = "first: ok\nsecond: a: b\n";
    let parse = yaml(text);
    assert_eq!(parse.errors.len(), 1);
    let error = &parse.errors[0];
    assert!(
        error.message.contains("must be quoted"),
        "{}",
        error.message
    );
    assert_eq!(error.span.start(), text.find("a: b").expect("pos") + 1);
    let root = parse.root.expect("partial root");
    assert_eq!(at(&root, &["first"]).as_str(), Some("ok"));
}

#[test]
fn a_value_cut_off_by_a_syntax_error_is_unreadable_not_empty() {
    for text in [
        "data:\n  sources:\n    a:\n\ttype: static\n",
        "data:\n  sources:\n    a: *nothing\n",
        "data:\n  sources:\n    a: [\n",
        "data:\n  sources:\n    a: {type: http, url: x\n    b: 1\n",
    ] {
        let parse = yaml(text);
        assert_eq!(parse.errors.len(), 1, "{text:?}: {:?}", parse.errors);
        let root = parse.root.expect("partial root");
        assert_eq!(
            at(&root, &["data", "sources", "a"]).value,
            Value::Invalid,
            "{text:?}"
        );
    }
    let unknown = yaml("a: *nothing\n");
    assert!(
        unknown.errors[0]
            .message
            .ends_with("an alias `*name` must name an anchor `&name` written above it"),
        "{:?}",
        unknown.errors
    );
}

#[test]
fn syntax_error_positions_are_bytes() {
    let text = "ü: [1, 2\nb: é\n";
    let parse = yaml(text);
    assert_eq!(parse.errors.len(), 1);
    assert!(text.is_char_boundary(parse.errors[0].span.start()));
    assert!(parse.errors[0].span.start() > text.find('b').expect("b") - 1);
}

#[test]
fn deep_flow_nesting_is_a_clear_error() {
    let text = format!("a: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    let parse = yaml(&text);
    assert_eq!(parse.errors.len(), 1);
    assert!(
        parse.errors[0]
            .message
            .starts_with("nesting deeper than 128 levels")
    );
}

#[test]
fn deep_block_nesting_is_a_clear_error() {
    let text = format!("{}x\n", "- ".repeat(10_000));
    let parse = yaml(&text);
    assert_eq!(parse.errors.len(), 1, "{:?}", parse.errors.first());
    assert!(
        parse.errors[0]
            .message
            .starts_with("nesting deeper than 128 levels")
    );
    let indented: String = (0..300)
        .map(|depth| format!("{}k:\n", " ".repeat(depth)))
        .collect();
    let parse = yaml(&indented);
    assert_eq!(parse.errors.len(), 1);
    assert!(
        parse.errors[0]
            .message
            .starts_with("nesting deeper than 128 levels")
    );
}

#[test]
fn binary_junk_is_one_clear_error() {
    let parse = yaml("a: 1\n\u{0}\u{1}\u{2}garbage");
    assert_eq!(parse.errors.len(), 1);
    assert!(parse.errors[0].message.contains("U+0000 (NUL)"));
    assert_eq!(parse.errors[0].span.start(), 5);
    assert!(parse.root.is_none());
}

#[test]
fn the_first_control_character_is_found_anywhere_in_a_long_text() {
    // The scan tests the text in chunks: a character at a chunk's first or last byte, or deep into
    // the text, is found at its own offset, and the first of several is the one reported.
    for at in [0, 63, 64, 127, 1000, 4095] {
        let mut text = "a: 1\n".repeat(at / 5 + 1);
        text.truncate(at);
        text.push('\u{7}');
        text.push_str("\nb: 2\n\u{7f}\n");
        let parse = yaml(&text);
        assert_eq!(parse.errors.len(), 1, "at {at}");
        assert_eq!(parse.errors[0].span.start(), at, "at {at}");
        assert!(parse.errors[0].message.contains("U+0007"), "at {at}");
    }
    let clean: String = (0..20)
        .map(|i| format!("key{i}: value\t# tab, CR and LF are allowed\r\n"))
        .collect();
    assert!(yaml(&clean).errors.is_empty());
}

#[test]
fn tabs_in_indentation_get_a_hint() {
    let parse = yaml("a:\n\tb: 1\n");
    assert_eq!(parse.errors.len(), 1);
    assert!(
        parse.errors[0].message.contains("tab"),
        "{}",
        parse.errors[0].message
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a 50 MB parse: run with `cargo test --release`"
)]
fn a_fifty_megabyte_file_parses_in_reasonable_time() {
    let entry = "  src_N:\n    type: http\n    url: \"https://example.com/é/${params.id}\"\n    headers: {Accept: application/json}\n    command: [a, b, c]\n";
    let mut text = String::from("data:\n sources:\n");
    let mut n = 0;
    while text.len() < 50 * 1024 * 1024 {
        text.push_str(&entry.replace("src_N", &format!("src_{n}")));
        n += 1;
    }
    let started = std::time::Instant::now();
    let parse = yaml(&text);
    let elapsed = started.elapsed();
    assert!(parse.errors.is_empty(), "{:?}", parse.errors.first());
    let sources = at(parse.root.as_ref().expect("root"), &["data", "sources"]);
    assert_eq!(sources.as_map().map(|m| m.len()), Some(n));
    assert!(elapsed.as_secs() < 60, "took {elapsed:?}");
}
