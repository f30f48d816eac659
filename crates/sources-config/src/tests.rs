//! Decoder tests over parsed YAML and TOML text.

use sources_diagnostics::{Diagnostic, Rule, Severity};
use sources_syntax::{LineIndex, Map, Syntax};

use crate::decode::{Decoder, Fields};
use crate::enums::{Enumeration, Kind};
use crate::fields::{self, Section};
use crate::model::Body;
use crate::{Config, ReferenceField, decode};

fn run(text: &str, syntax: Syntax) -> (Config, Vec<Diagnostic>) {
    let parse = sources_syntax::parse(text, syntax);
    assert!(parse.errors.is_empty(), "{:?}", parse.errors);
    let root = parse.root.expect("a root");
    decode(root)
}

fn yaml(text: &str) -> (Config, Vec<Diagnostic>) {
    run(text, Syntax::Yaml)
}

fn codes(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    diagnostics.iter().map(|d| d.rule.code()).collect()
}

fn position(text: &str, diagnostic: &Diagnostic) -> (u32, u32) {
    let at = LineIndex::new(text).line_col(diagnostic.span.start());
    (at.line, at.column)
}

#[test]
fn decoder_accepts_exactly_the_schema_fields_of_each_kind() {
    for kind in Kind::ALL {
        let mut decoder = Decoder {
            diagnostics: Default::default(),
            key_span: Default::default(),
            stand_ins: Vec::new(),
        };
        let mut reader = Fields::new(Map::default(), Default::default());
        reader.take_type_for_test();
        decoder.body(*kind, &mut reader);
        let mut asked: Vec<&str> = reader.asked.clone();
        asked.sort_unstable();
        let mut schema: Vec<&str> = fields::for_kind(*kind)
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        schema.sort_unstable();
        assert_eq!(asked, schema, "fields of `{kind}`");
        assert!(
            !fields::kind_summary(*kind).is_empty(),
            "summary of `{kind}`"
        );
        assert!(
            fields::for_kind(*kind).iter().all(|f| !f.doc.is_empty()),
            "docs of `{kind}`"
        );
    }
    type Read = fn(&mut Decoder, &mut Fields);
    let sections: [(Section, Read); 8] = [
        (Section::Parameter, |d, f| {
            let _ = d.parameter(f);
        }),
        (Section::Paginate, |d, f| {
            let _ = d.paginate(f);
        }),
        (Section::Window, |d, f| {
            let _ = d.window(f);
        }),
        (Section::Growing, |d, f| {
            let _ = d.growing_while(f);
        }),
        (Section::Cache, |d, f| {
            let _ = d.cache_spec(f);
        }),
        (Section::MergeChild, |d, f| {
            let _ = d.merge_child(f);
        }),
        (Section::JoinDriver, |d, f| {
            let _ = d.join_driver(f);
        }),
        (Section::JoinLookup, |d, f| {
            let _ = d.join_lookup(f);
        }),
    ];
    assert_eq!(sections.len(), Section::ALL.len());
    for (section, read) in sections {
        let mut decoder = Decoder {
            diagnostics: Default::default(),
            key_span: Default::default(),
            stand_ins: Vec::new(),
        };
        let mut reader = Fields::new(Map::default(), Default::default());
        read(&mut decoder, &mut reader);
        let mut asked: Vec<&str> = reader.asked.clone();
        asked.sort_unstable();
        let mut schema: Vec<&str> = fields::for_section(section)
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        schema.sort_unstable();
        assert_eq!(asked, schema, "fields of {section:?}");
    }
}

#[test]
fn no_data_sources_is_not_ours() {
    for text in [
        "app: {name: x}\n",
        "- 1\n- 2\n",
        "data: 5\n",
        "data:\n  other: 1\n",
        "just a scalar\n",
    ] {
        let (config, diagnostics) = yaml(text);
        assert!(!config.has_sources(), "{text}");
        assert!(diagnostics.is_empty(), "{text}");
    }
    let (config, diagnostics) = yaml("data:\n  sources: [a, b]\n");
    assert!(config.has_sources());
    assert_eq!(codes(&diagnostics), ["invalid-value"]);
    let (config, diagnostics) = yaml("data:\n  sources:\n");
    assert!(config.has_sources() && config.entries.is_empty() && diagnostics.is_empty());
}

#[test]
fn unknown_field_points_at_the_key_with_a_rename_fix() {
    let text = "app:\n  title: demo\ndata:\n  sources:\n    users:\n      type: http\n      urll: http://x\n";
    let (_, mut diagnostics) = yaml(text);
    sources_diagnostics::sort(&mut diagnostics);
    let kinds = codes(&diagnostics);
    // One mistake, one diagnostic: the rename proposed at `urll` covers the missing `url`.
    assert_eq!(kinds, ["unknown-field"]);
    let unknown = &diagnostics[0];
    assert_eq!(position(text, unknown), (7, 7));
    assert_eq!(unknown.help.as_deref(), Some("did you mean `url`?"));
    let edit = &unknown.fixes[0].edits[0];
    assert_eq!(&text[edit.span.range()], "urll");
    assert_eq!(edit.replacement, "url");
    // Without the misspelling, the missing `url` points at the entry's name.
    let text = "data:\n  sources:\n    users:\n      type: http\n";
    let (_, diagnostics) = yaml(text);
    assert_eq!(codes(&diagnostics), ["missing-field"]);
    assert_eq!(position(text, &diagnostics[0]), (3, 5));
    assert_eq!(
        diagnostics[0].message,
        "`http` source `users` is missing `url`"
    );
}

#[test]
fn a_misspelled_kind_checks_the_fields_against_the_kind_it_likely_means() {
    let text =
        "data:\n  sources:\n    a:\n      type: htpp\n      urll: http://x\n      headers: {}\n";
    let (config, mut diagnostics) = yaml(text);
    sources_diagnostics::sort(&mut diagnostics);
    assert_eq!(codes(&diagnostics), ["unknown-kind", "unknown-field"]);
    assert_eq!(
        diagnostics[1].message,
        "unknown field `urll` in source `a` (read as `http`, the closest kind to `htpp`)"
    );
    assert_eq!(diagnostics[1].fixes[0].edits[0].replacement, "url");
    assert!(config.entries[0].kind.is_none());
    let (_, diagnostics) = yaml("data:\n  sources:\n    a:\n      type: zzzzzz\n      urll: x\n");
    assert_eq!(codes(&diagnostics), ["unknown-kind"]);
}

#[test]
fn a_field_of_another_kind_says_so() {
    let text = "data:\n  sources:\n    s:\n      type: exec\n      command: [ls]\n      paginate: {strategy: link, next_path: next}\n";
    let (_, diagnostics) = yaml(text);
    assert_eq!(codes(&diagnostics), ["unknown-field"]);
    assert_eq!(
        diagnostics[0].message,
        "`paginate` applies to `http`, not `exec`"
    );
    assert!(diagnostics[0].fixes.is_empty());
    let text = "data:\n  sources:\n    s:\n      type: http\n      url: u\n      page_size: 10\n";
    let (_, diagnostics) = yaml(text);
    assert!(
        diagnostics[0].fixes.is_empty(),
        "no rename for a misplaced field"
    );
    assert!(
        diagnostics[0].message.contains("belongs under `window`"),
        "{}",
        diagnostics[0].message
    );
}

#[test]
fn every_mistake_is_reported() {
    let text = r#"data:
  sources:
    a:
      type: htp
      url: x
    b:
      type: http
      url: x
      format: jsn
      refresh: 5
      timeout: 1x
      follow: "maybe"
      method: GTE
      cache: {ttl: 1d, sise: 3}
      window:
        page_size: many
        anchor: middle
        growing: {source: a, while: "true"}
        follow_every: soon
    c:
      type: merge
      on_error: ignore
      children:
        - tags: {x: y}
    d:
      type: sort
      from: b
      order: up
    e:
      type: join
      driver: {}
      lookups:
        l: {from: b}
      emit: both
    f: [1]
    g:
      url: x
tui:
  components:
    t: {kind: eventlog, source: b, key: id, text: message, start: middle, anything: 1}
"#;
    let (config, diagnostics) = yaml(text);
    let expected = [
        "unknown-kind",
        "invalid-value",
        "invalid-duration",
        "invalid-duration",
        "invalid-value",
        "invalid-value",
        "invalid-duration",
        "unknown-field",
        "invalid-value",
        "invalid-value",
        "invalid-duration",
        "invalid-value",
        "missing-field",
        "missing-field",
        "invalid-value",
        "missing-field",
        "missing-field",
        "invalid-value",
        "invalid-value",
        "missing-field",
        "invalid-value",
        "unknown-field",
    ];
    let mut sorted = diagnostics.clone();
    sources_diagnostics::sort(&mut sorted);
    let got: Vec<String> = sorted
        .iter()
        .map(|d| format!("{} {}", d.rule.code(), d.message))
        .collect();
    assert_eq!(codes(&sorted), expected, "{got:#?}");
    assert_eq!(config.entries.len(), 7);
    assert_eq!(config.components.len(), 1);
    let format = sorted
        .iter()
        .find(|d| d.message.starts_with("`format`"))
        .expect("format");
    assert_eq!(
        format.message,
        "`format` must be `json` or `text`, found `jsn`"
    );
    assert_eq!(format.fixes[0].edits[0].replacement, "json");
    let follow = sorted
        .iter()
        .find(|d| d.message.starts_with("`follow`"))
        .expect("follow");
    assert_eq!(
        follow.message,
        "`follow`: expected `true` or `false`, found a string"
    );
}

#[test]
fn toml_decodes_the_same() {
    let text = r#"[data.sources.users]
type = "http"
url = "http://localhost/users"
refresh = "30s"
headres = { Accept = "application/json" }

[data.sources.names]
type = "project"
from = "users"
keep = { name = "name" }

[[tui.components]]
kind = "table"
source = "names"
columns = [{ title = "Name", value = "name", sortable = true }]
"#;
    let (config, diagnostics) = run(text, Syntax::Toml);
    assert_eq!(codes(&diagnostics), ["unknown-field"]);
    assert_eq!(position(text, &diagnostics[0]), (5, 1));
    assert_eq!(diagnostics[0].fixes[0].edits[0].replacement, "headers");
    let users = config.get("users").expect("users");
    let Body::Http(http) = &users.body else {
        panic!("http")
    };
    assert_eq!(
        http.leaf.refresh.as_ref().map(|r| r.value.0.as_secs()),
        Some(30)
    );
    assert_eq!(
        config.components[0].columns[0]
            .sortable
            .as_ref()
            .map(|s| s.value),
        Some(true)
    );
    let refs = config.references();
    assert_eq!(refs.len(), 1);
    assert_eq!(refs[0].1.name.value, "users");
    assert_eq!(refs[0].1.field, ReferenceField::From);
}

#[test]
fn references_cover_every_reference_field() {
    let text = r#"data:
  sources:
    a: {type: static, data: [1]}
    m: {type: merge, sources: [a], children: [{source: b}]}
    c: {type: compose, parts: {x: a, y: m}}
    j: {type: join, driver: {from: c}, lookups: {l: {from: a, on: {id: x}}}}
    w:
      type: http
      url: u
      window: {offset_param: o, limit_param: l, search_param: q, growing: {source: g, while: "true"}}
    f: {type: filter, from: w, where: "true"}
tui:
  components:
    - {type: table, source: f, columns: [{title: Id, value: id}]}
"#;
    let (config, diagnostics) = yaml(text);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    let fields: Vec<(String, ReferenceField)> = config
        .references()
        .into_iter()
        .map(|(_, r)| (r.name.value, r.field))
        .collect();
    let expected = [
        ("a", ReferenceField::Sources),
        ("b", ReferenceField::Child),
        ("a", ReferenceField::Part),
        ("m", ReferenceField::Part),
        ("c", ReferenceField::Driver),
        ("a", ReferenceField::Lookup),
        ("g", ReferenceField::Growing),
        ("w", ReferenceField::From),
    ];
    let expected: Vec<(String, ReferenceField)> =
        expected.iter().map(|(n, f)| (n.to_string(), *f)).collect();
    assert_eq!(fields, expected);
    let offset = text.find("offset_param").expect("offset_param");
    let entry = config.entry_at(offset).expect("an entry");
    assert_eq!(entry.name.value, "w");
    assert_eq!(
        entry
            .key_at(text.find("window:").expect("window"))
            .map(|k| k.name.as_str()),
        Some("window")
    );
    assert_eq!(
        config.components[0]
            .source
            .as_ref()
            .map(|s| s.value.as_str()),
        Some("f")
    );
}

#[test]
fn keys_outside_the_data_layer_are_checked_as_the_dashboard_checks_them() {
    let text = "app: {whatever: 1}\nactions: [{x: 1}]\ntui:\n  theme: dark\n  components:\n    t: {type: chart, source: s, colour: red}\ndata:\n  sources:\n    s: {type: static, data: 1}\n";
    let (_, mut diagnostics) = yaml(text);
    sources_diagnostics::sort(&mut diagnostics);
    let found: Vec<(&str, &str)> = diagnostics
        .iter()
        .map(|d| (d.rule.code(), &text[d.span.range()]))
        .collect();
    assert_eq!(
        found,
        [
            ("unknown-field", "whatever"),
            ("missing-field", "{x: 1}"),
            ("unknown-field", "x"),
            ("unknown-field", "theme"),
            ("invalid-value", "chart"),
            ("unknown-field", "colour"),
        ]
    );
    let colour = diagnostics.last().expect("colour");
    assert_eq!(
        colour.help.as_deref(),
        Some("did you mean `colors`, `color_rules` or `columns`?")
    );
    assert_eq!(colour.fixes[0].edits[0].replacement, "colors");
}

#[test]
fn a_color_rule_pattern_go_does_not_compile_is_a_warning_on_the_pattern() {
    let text = "tui:\n  components:\n    logs:\n      type: logview\n      color_rules:\n        - {when: \"~(err\", color: red}\n        - {when: ' ~a** ', color: red}\n        - when: ~{id}|\\Qa.b\\E|[[:alpha:]]\n          color: red\n        - {when: \"(err\", color: red}\n  screen: {layout: {component: logs}}\ndata:\n  sources:\n    s: {type: static, data: []}\n";
    let (_, mut diagnostics) = yaml(text);
    sources_diagnostics::sort(&mut diagnostics);
    let found: Vec<(&str, Severity, &str)> = diagnostics
        .iter()
        .map(|d| (d.rule.code(), d.severity, &text[d.span.range()]))
        .collect();
    assert_eq!(
        found,
        [
            ("invalid-value", Severity::Warning, "~(err"),
            ("invalid-value", Severity::Warning, "~a**"),
        ]
    );
    assert_eq!(
        diagnostics[0].message,
        "`tui.components.logs.color_rules[0].when`: `~(err` is not a pattern Go's regexp compiles (unclosed group): the rule never matches"
    );
    assert_eq!(
        diagnostics[1].label,
        "invalid nested repetition operator `**`"
    );

    let toml = "[tui.components.logs]\ntype = \"logview\"\ncolor_rules = [{when = \"~[z-a]\", color = \"red\"}]\n[data.sources.s]\ntype = \"static\"\ndata = []\n";
    let (_, diagnostics) = run(toml, Syntax::Toml);
    assert_eq!(codes(&diagnostics), ["invalid-value"]);
    assert_eq!(&toml[diagnostics[0].span.range()], "~[z-a]");
}

#[test]
fn stages_decode_as_operators() {
    let text = "data:\n  sources:\n    s:\n      type: static\n      data: []\n      pipe:\n        - {type: filter, where: \"x > 1\"}\n        - {type: sort, by: x, ordr: desc}\n";
    let (config, diagnostics) = yaml(text);
    assert_eq!(codes(&diagnostics), ["unknown-field"]);
    assert_eq!(position(text, &diagnostics[0]), (8, 31));
    let pipe = config.entries[0]
        .body
        .common()
        .and_then(|c| c.pipe.as_ref())
        .expect("pipe");
    assert_eq!(pipe.value.len(), 2);
    assert_eq!(
        pipe.value[0].value.kind.as_ref().map(|k| k.value),
        Some(Kind::Filter)
    );
}

#[test]
fn template_offsets_map_back_to_the_file() {
    let text =
        "data:\n  sources:\n    s:\n      type: http\n      url: \"http://h/${params.id}\"\n";
    let (config, _) = yaml(text);
    let Body::Http(http) = &config.entries[0].body else {
        panic!("http")
    };
    let url = http.url.as_ref().expect("url").to_spanned();
    let inside = url.value.text.find("${").expect("token");
    let at = url.file_offset(text, inside).expect("mapped");
    assert_eq!(&text[at..at + 2], "${");
    assert_eq!(Rule::InvalidValue.code(), "invalid-value");
}

#[test]
fn the_entry_schema_resolves_and_carries_the_docs() {
    fn refs(value: &serde_json::Value, found: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(object) => {
                if let Some(serde_json::Value::String(target)) = object.get("$ref") {
                    found.push(target.clone());
                }
                object.values().for_each(|child| refs(child, found));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|child| refs(child, found)),
            _ => {}
        }
    }
    let schema = fields::entry_schema();
    let mut found = Vec::new();
    refs(schema, &mut found);
    assert!(!found.is_empty());
    for target in found {
        if target == "#" {
            continue;
        }
        let name = target.strip_prefix("#/$defs/").expect("a $defs reference");
        assert!(schema["$defs"].get(name).is_some(), "{target} resolves");
    }
    let window = &schema["$defs"]["Window"];
    assert_eq!(window["additionalProperties"], false);
    let growing = &window["properties"]["growing"];
    assert!(
        growing.get("anyOf").is_none(),
        "no null alternative: {growing}"
    );
    assert!(
        growing["description"]
            .as_str()
            .is_some_and(|d| d.starts_with("Event-log sources only"))
    );
    let text = schema.to_string();
    assert!(!text.contains("\\n"));
    assert!(
        !text.contains("\"null\""),
        "optional fields are absent, never null"
    );
}

#[test]
fn lookup_follows_sections() {
    let doc = |kind, path: &[&str]| fields::lookup(kind, path).map(|info| info.name.clone());
    assert_eq!(doc(Kind::Http, &["url"]).as_deref(), Some("url"));
    assert_eq!(
        doc(Kind::Http, &["window", "page_size"]).as_deref(),
        Some("page_size")
    );
    assert_eq!(
        doc(Kind::Exec, &["parameters", "id", "default"]).as_deref(),
        Some("default")
    );
    assert_eq!(
        doc(Kind::Exec, &["parameters", "id"]).as_deref(),
        Some("parameters")
    );
    assert_eq!(
        doc(Kind::Union, &["children", "0", "tags"]).as_deref(),
        Some("tags")
    );
    assert_eq!(
        doc(Kind::Join, &["lookups", "detail", "on"]).as_deref(),
        Some("on")
    );
    assert_eq!(
        doc(Kind::Join, &["driver", "from"]).as_deref(),
        Some("from")
    );
    assert_eq!(
        doc(Kind::Http, &["window", "growing", "while"]).as_deref(),
        Some("while")
    );
    assert_eq!(doc(Kind::Cache, &["ttl"]).as_deref(), Some("ttl"));
    assert_eq!(doc(Kind::Http, &["cache", "size"]).as_deref(), Some("size"));
    assert_eq!(doc(Kind::Exec, &["paginate"]), None);
    assert_eq!(doc(Kind::Http, &["window", "nope"]), None);
    assert!(
        fields::lookup(Kind::Http, &["window", "page_size"])
            .is_some_and(|info| info.doc.contains("100"))
    );
}

#[test]
fn static_data_converts_to_json() {
    let text = "data:\n  sources:\n    s:\n      type: static\n      data: [{name: a, n: 1, ok: true, x: 1.5, none: null}]\n";
    let (config, _) = yaml(text);
    let Body::Static(data) = &config.entries[0].body else {
        panic!("static")
    };
    let json = data.data.as_ref().expect("data").value.to_json();
    assert_eq!(
        json,
        serde_json::json!([{"name": "a", "n": 1, "ok": true, "x": 1.5, "none": null}])
    );
}

#[test]
fn entry_at_finds_toml_tables_by_their_keys() {
    let text = "[data.sources.apps]\ntype = \"http\"\nurl = \"u\"\n\n[data.sources.apps.window]\npage_size = 5\n\n[data.sources.other]\ntype = \"static\"\ndata = 1\n";
    let (config, _) = run(text, Syntax::Toml);
    let name = |offset: usize| {
        config
            .entry_at(offset)
            .map(|source| source.name.value.clone())
    };
    assert_eq!(
        name(text.find("url").expect("url")).as_deref(),
        Some("apps")
    );
    assert_eq!(
        name(text.find("page_size").expect("page_size")).as_deref(),
        Some("apps")
    );
    assert_eq!(
        name(text.find("data = 1").expect("data")).as_deref(),
        Some("other")
    );
}

#[test]
fn pipe_stages_in_the_schema_have_no_from() {
    let schema = fields::entry_schema();
    let stages = schema["$defs"]["Stage"]["oneOf"]
        .as_array()
        .expect("stage variants");
    assert_eq!(stages.len(), 5);
    for stage in stages {
        assert!(stage["properties"].get("from").is_none(), "{stage}");
        let required = stage["required"].as_array().expect("required");
        assert!(required.iter().all(|name| name != "from"), "{stage}");
        assert!(required.iter().any(|name| name == "type"), "{stage}");
    }
}

#[test]
fn a_whole_float_is_echoed_as_written_not_as_an_integer() {
    let text =
        "data:\n  sources:\n    a:\n      type: static\n      data: [1]\n      timeout: 5.0\n";
    let (_, diagnostics) = yaml(text);
    assert_eq!(codes(&diagnostics), ["invalid-duration"]);
    assert!(
        diagnostics[0]
            .message
            .starts_with("`timeout`: `5.0` is not a duration"),
        "{}",
        diagnostics[0].message
    );
    assert_eq!(crate::decode::float_text(2.5), "2.5");
    assert_eq!(crate::decode::float_text(-3.0), "-3.0");
    assert_eq!(crate::decode::float_text(f64::INFINITY), "inf");
}

#[test]
fn an_entry_is_found_by_name_and_a_repeated_name_finds_its_first_entry() {
    let text = "data:\n  sources:\n    b: {type: static, data: 1}\n    a: {type: static, data: 2}\n    \
                ab: {type: static, data: 3}\n    a: {type: file, path: x}\n    c: {type: static, data: 4}\n";
    let parse = sources_syntax::parse(text, Syntax::Yaml);
    let (config, _) = decode(parse.root.expect("a root"));
    let names: Vec<&str> = config.names().collect();
    assert_eq!(names, ["b", "a", "ab", "c"]);
    for (name, position) in [("a", 1), ("ab", 2), ("b", 0), ("c", 3)] {
        assert_eq!(config.position(name), Some(position), "{name}");
        assert_eq!(
            config.get(name).map(|source| source.span),
            Some(config.entries[position].span),
            "{name}"
        );
    }
    for missing in ["", "0", "aa", "abc", "bb", "d", "A"] {
        assert_eq!(config.position(missing), None, "{missing}");
    }
    assert!(matches!(
        config.get("a").map(|s| &s.body),
        Some(Body::Static(_))
    ));
}

#[test]
fn every_entry_of_a_large_document_is_found_by_name_and_no_other_name_is() {
    // Enough names that many share a slot of the name table and probe past each other.
    let mut text = String::from("data:\n  sources:\n");
    for n in 0..3_000 {
        text.push_str(&format!("    s{n}: {{type: static, data: 1}}\n"));
    }
    let parse = sources_syntax::parse(&text, Syntax::Yaml);
    let (config, _) = decode(parse.root.expect("a root"));
    assert_eq!(config.entries.len(), 3_000);
    for (position, source) in config.entries.iter().enumerate() {
        assert_eq!(config.position(&source.name.value), Some(position));
    }
    for n in 3_000..6_000 {
        assert_eq!(config.position(&format!("s{n}")), None, "s{n}");
    }
    assert_eq!(Config::default().position("s0"), None);
}

#[test]
fn an_unknown_field_without_a_likely_name_lists_the_fields_of_its_kind() {
    let (_, diagnostics) =
        yaml("data:\n  sources:\n    s: {type: static, data: 1, x_0000001: 1}\n");
    assert_eq!(codes(&diagnostics), ["unknown-field"]);
    assert_eq!(
        diagnostics[0].message,
        "unknown field `x_0000001` in `static` source `s`"
    );
    assert_eq!(
        diagnostics[0].help.as_deref(),
        Some(
            "the fields of `static` source `s` are `cache`, `data`, `format`, `parameters`, \
             `pipe`, `refresh`, `root`, `timeout`, `type`"
        )
    );
}

#[test]
fn the_kinds_with_a_field_are_every_kind_that_has_it_in_kind_order() {
    let mut names: Vec<&str> = Kind::ALL
        .iter()
        .flat_map(|kind| {
            fields::for_kind(*kind)
                .iter()
                .map(|info| info.name.as_str())
        })
        .collect();
    names.extend(["", "x_0000001", "Url", "page_size", "ttl"]);
    for name in names {
        let expected: Vec<Kind> = Kind::ALL
            .iter()
            .copied()
            .filter(|kind| fields::field(*kind, name).is_some())
            .collect();
        assert_eq!(fields::kinds_with_field(name), expected, "{name}");
    }
    assert_eq!(
        fields::kinds_with_field("url"),
        [Kind::Http, Kind::Websocket]
    );
    assert!(fields::kinds_with_field("page_size").is_empty());
}
