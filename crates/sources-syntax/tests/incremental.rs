//! `Tree::update` splices an entry only where that is sound, and otherwise reparses a parent
//! entry or the whole text: one case per condition, each checked against `parse` of the new text.

use sources_syntax::{Reparse, Syntax, Tree, parse};

const SOURCES: &str = "data:\n  sources:\n    apps:\n      type: http\n      url: https://e.invalid\n    view:\n      type: filter\n      from: apps\n";

/// Updates a tree of `old` to `new`, checks it equals the whole parse, and says how it was made.
fn update(old: &str, new: &str, syntax: Syntax) -> Reparse {
    let mut tree = Tree::new(old, syntax);
    let how = tree.update(old, new);
    assert_eq!(
        format!("{:?}", tree.parse()),
        format!("{:?}", parse(new, syntax)),
        "{how:?} update of\n{old}\nto\n{new}"
    );
    how
}

fn edited(from: &str, to: &str) -> String {
    assert!(SOURCES.contains(from), "{from}");
    SOURCES.replacen(from, to, 1)
}

fn spliced(depth: usize) -> Reparse {
    Reparse::Spliced { depth }
}

#[test]
fn an_edit_inside_one_entry_reparses_the_deepest_entry_holding_it() {
    for (from, to, depth) in [
        ("from: apps", "from: appz", 4),
        ("type: filter", "type: filter # a comment", 4),
        ("type: http", "type: http\n      refresh: 5s", 3),
        ("from: apps\n", "from: apps\n      where: '[1, 2]'\n", 3),
        ("    view:", "    renamed:", 3),
    ] {
        assert_eq!(
            update(SOURCES, &edited(from, to), Syntax::Yaml),
            spliced(depth),
            "{to}"
        );
    }
    assert_eq!(update(SOURCES, SOURCES, Syntax::Yaml), Reparse::Unchanged);
}

#[test]
fn an_empty_value_placed_at_the_end_of_an_entry_reparses_its_parent() {
    // `!limit` alone is a tagged empty value, which the parser places at the next token: the
    // next line's key in the document, but the end of the text when `limit_param` is parsed alone.
    // (Found by the fuzz harness's long run, seed 9, input 527364.)
    let old = "data:\n  sources:\n    apps:\n      type: http\n      window:\n        limit_param: limit\n        search_param: q\n";
    let new = old.replacen(": limit", ": !limit", 1);
    assert_eq!(update(old, &new, Syntax::Yaml), spliced(4));
}

#[test]
fn an_edit_that_reaches_out_of_an_entry_reparses_its_parent() {
    // A line at the entry's column or less belongs to the mapping or a parent.
    for (to, depth) in [("    other: 1", 2), ("  top: 1", 1)] {
        let new = edited("      from: apps", &format!("      from: apps\n{to}"));
        assert_eq!(update(SOURCES, &new, Syntax::Yaml), spliced(depth), "{to}");
    }
    // A line dedented below the entry's column inside it (a comment) is not sound at its level.
    let new = edited("      type: filter", "      type: filter\n  # note");
    assert_eq!(update(SOURCES, &new, Syntax::Yaml), spliced(1));
}

#[test]
fn an_edit_that_no_entry_can_hold_parses_everything() {
    for (from, to) in [
        // The key moves to another column.
        ("    view:", "     view:"),
        // A key a sibling has: a duplicate.
        ("    view:", "    apps:"),
        // A tab, an anchor, an alias, a syntax error.
        ("from: apps", "from:\tapps"),
        ("type: filter", "type: &t filter"),
        ("from: apps", "from: *t"),
        ("from: apps", "from: [apps"),
    ] {
        assert_eq!(
            update(SOURCES, &edited(from, to), Syntax::Yaml),
            Reparse::Full,
            "{to}"
        );
    }
}

#[test]
fn a_deep_edit_that_fails_level_after_level_stops_trying_and_parses_whole() {
    // Forty nested entries; the new line at column 1 fits only the outermost entry. Trying each
    // enclosing entry in turn would parse forty texts: after a few the whole text is parsed.
    let mut old = String::new();
    for level in 0..40 {
        old.push_str(&format!("{}k{level}:\n", " ".repeat(level)));
    }
    old.push_str(&format!("{}leaf: 1\n", " ".repeat(40)));
    let new = format!("{old} x: 1\n");
    assert_eq!(update(&old, &new, Syntax::Yaml), Reparse::Full);
    // Shallow, the same kind of edit is still spliced at the entry that holds it.
    let shallow = "k0:\n k1:\n  leaf: 1\n";
    assert_eq!(
        update(shallow, &format!("{shallow} x: 1\n"), Syntax::Yaml),
        spliced(1)
    );
}

#[test]
fn documents_the_splice_cannot_follow_are_parsed_whole() {
    // Anchors anywhere: a value may come from elsewhere in the text.
    let anchored = format!("{SOURCES}    copy:\n      base: &b {{type: http}}\n");
    let edit = anchored.replacen("from: apps", "from: appz", 1);
    assert_eq!(update(&anchored, &edit, Syntax::Yaml), Reparse::Full);
    // A previous version with a syntax error.
    let broken = SOURCES.replacen("from: apps", "from: [apps", 1);
    assert_eq!(update(&broken, SOURCES, Syntax::Yaml), Reparse::Full);
    // A flow mapping is not entered: the block entry holding it is reparsed.
    let flow = "data: {sources: {apps: {type: http}}}\n";
    assert_eq!(
        update(flow, &flow.replace("http", "exec"), Syntax::Yaml),
        spliced(1)
    );
    // TOML.
    let toml = "[data.sources.apps]\ntype = \"http\"\n";
    assert_eq!(
        update(toml, &toml.replace("http", "exec"), Syntax::Toml),
        Reparse::Full
    );
}

#[test]
fn an_old_text_shorter_than_the_trees_parses_the_new_text_whole() {
    // The caller's `old` is not the text the tree was built from: the key `bbbbbbbbbb` starts at
    // byte 5, past the end of the 4-byte `old`, where finding its line sliced out of range.
    let mut tree = Tree::new("a: 1\nbbbbbbbbbb: 2\n", Syntax::Yaml);
    assert_eq!(tree.update("a: 1", "a: 2"), Reparse::Full);
    assert_eq!(
        format!("{:?}", tree.parse()),
        format!("{:?}", parse("a: 2", Syntax::Yaml))
    );
}
