//! TOML front end: spans, order, styles, recovered errors.

use sources_syntax::{Node, Parse, ScalarStyle, Syntax, Value, parse};

fn toml(text: &str) -> Parse {
    parse(text, Syntax::Toml)
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
fn keys_and_values_have_byte_spans_in_source_order() {
    let text = "[data.sources.zeta]\ntype = \"http\"\nurl = 'https://é.example'\n\n[data.sources.alpha]\ntype = \"static\"\ndata = [1, 2.5, true]\n";
    let parse = toml(text);
    assert!(parse.errors.is_empty(), "{:?}", parse.errors);
    let root = parse.root.expect("root");
    let sources = at(&root, &["data", "sources"]).as_map().expect("map");
    let names: Vec<&str> = sources.iter().map(|e| e.key.name.as_str()).collect();
    assert_eq!(names, ["zeta", "alpha"]);
    let zeta = &sources.entries[0];
    assert_eq!(&text[zeta.key.span.range()], "zeta");
    let url = at(&zeta.value, &["url"]);
    assert_eq!(written(text, url), "'https://é.example'");
    let url_key = &zeta.value.as_map().expect("map").entries[1].key;
    assert_eq!(&text[url_key.span.range()], "url");
    let data = at(&sources.entries[1].value, &["data"]);
    assert_eq!(written(text, data), "[1, 2.5, true]");
    let items = data.as_seq().expect("seq");
    assert_eq!(items[0].value, Value::Int(1));
    assert_eq!(items[1].value, Value::Float(2.5));
    assert_eq!(written(text, &items[2]), "true");
}

#[test]
fn string_styles_are_kept() {
    let text = "a = \"basic\"\nb = 'literal'\nc = \"\"\"\nmulti\"\"\"\nd = '''\nraw'''\n";
    let root = toml(text).root.expect("root");
    let style = |key: &str| match &at(&root, &[key]).value {
        Value::Str(s) => s.style,
        other => panic!("expected a string, found {other:?}"),
    };
    assert_eq!(style("a"), ScalarStyle::DoubleQuoted);
    assert_eq!(style("b"), ScalarStyle::SingleQuoted);
    assert_eq!(style("c"), ScalarStyle::MultilineBasic);
    assert_eq!(style("d"), ScalarStyle::MultilineLiteral);
    assert_eq!(at(&root, &["c"]).as_str(), Some("multi"));
}

#[test]
fn two_independent_errors_give_two_errors() {
    let text = "a = \"unterminated\nb = 1\nc = = 2\nd = 3\n";
    let parse = toml(text);
    assert_eq!(parse.errors.len(), 2, "{:?}", parse.errors);
    let lines: Vec<usize> = parse
        .errors
        .iter()
        .map(|e| text[..e.span.start()].matches('\n').count() + 1)
        .collect();
    assert!(lines.contains(&1), "{lines:?}");
    assert!(lines.contains(&3), "{lines:?}");
    let root = parse.root.expect("recovered root");
    assert_eq!(at(&root, &["d"]).as_int(), Some(3));
}

#[test]
fn duplicate_keys_name_the_key() {
    let text = "a = 1\na = 2\n";
    let parse = toml(text);
    assert_eq!(parse.errors.len(), 1, "{:?}", parse.errors);
    assert_eq!(
        parse.errors[0].message,
        "duplicate key `a`; the first is at line 1"
    );
    assert_eq!(parse.errors[0].span.start(), 6);
}

#[test]
fn duplicate_keys_name_the_line_of_the_first() {
    let text = "[x]\nb = 1\n\n[y]\nb = 1\nc = 2\nb = 3\n";
    let parse = toml(text);
    assert_eq!(parse.errors.len(), 1, "{:?}", parse.errors);
    assert_eq!(
        parse.errors[0].message,
        "duplicate key `b`; the first is at line 5"
    );
    assert_eq!(parse.errors[0].span.start(), text.rfind('b').expect("b"));
    let headers = toml("[x]\na = 1\n[x]\nb = 2\n");
    assert_eq!(headers.errors.len(), 1, "{:?}", headers.errors);
    assert_eq!(
        headers.errors[0].message,
        "table `[x]` is written twice; the first is at line 1: move these keys there"
    );
}

#[test]
fn a_table_written_twice_is_one_error_even_when_its_keys_repeat() {
    let text = "[a]\ntype = 1\ndata = 2\n\n[a] # again\ntype = 1\ndata = 2\n\n[b]\nx = 1\nx = 2\n";
    let parse = toml(text);
    let messages: Vec<&str> = parse.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "table `[a]` is written twice; the first is at line 1: move these keys there",
            "duplicate key `x`; the first is at line 10",
        ],
        "{:?}",
        parse.errors
    );
}

#[test]
fn empty_documents_have_no_root_and_no_error() {
    for text in ["", "\n  \n", "# comment only\n"] {
        let parse = toml(text);
        assert!(parse.errors.is_empty(), "{text:?}: {:?}", parse.errors);
        assert!(parse.root.is_none(), "{text:?}");
    }
}

#[test]
fn deep_nesting_is_a_clear_error() {
    let text = format!("a = {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    let parse = toml(&text);
    assert!(!parse.errors.is_empty());
    assert!(
        parse
            .errors
            .iter()
            .any(|e| e.message.starts_with("nesting deeper than 80 levels")),
        "{:?}",
        parse.errors.first()
    );
    let inline = format!("a = {}{}\n", "{b = ".repeat(10_000), "}".repeat(10_000));
    assert!(!toml(&inline).errors.is_empty());
}

#[test]
fn binary_junk_is_one_clear_error() {
    let parse = toml("a = 1\n\u{7f}\u{0}");
    assert_eq!(parse.errors.len(), 1);
    assert!(parse.errors[0].message.contains("U+007F (DEL)"));
}

#[test]
fn datetimes_become_plain_strings() {
    let root = toml("when = 1979-05-27T07:32:00Z\n").root.expect("root");
    assert_eq!(at(&root, &["when"]).as_str(), Some("1979-05-27T07:32:00Z"));
}

#[test]
fn tables_span_their_header_and_contents() {
    let text = "[data.sources.zeta]\ntype = \"http\"\nwin.size = 3\n\n[[data.list]]\na = 1\n";
    let root = toml(text).root.expect("root");
    let zeta = at(&root, &["data", "sources", "zeta"]);
    assert_eq!(
        written(text, zeta),
        "[data.sources.zeta]\ntype = \"http\"\nwin.size = 3"
    );
    assert_eq!(written(text, at(zeta, &["win"])), "win.size = 3");
    assert_eq!(
        written(text, at(&root, &["data", "list"])),
        "[[data.list]]\na = 1"
    );
}
