//! Tests of the whole-model checks through [`crate::analyze`].

use std::sync::Arc;

use sources_diagnostics::{Diagnostic, Rule};
use sources_syntax::Syntax;

use crate::{Bounded, analyze, analyze_bounded};

fn yaml(text: &str) -> Vec<Diagnostic> {
    analyze(text, Syntax::Yaml).diagnostics
}

fn codes(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    diagnostics.iter().map(|d| d.rule.code()).collect()
}

#[test]
fn unknown_sources_get_a_suggestion_and_a_fix() {
    let text = "data:\n  sources:\n    users: {type: static, data: []}\n    f: {type: filter, from: usres, where: \"true\"}\ntui:\n  components:\n    t: {kind: table, source: \"userz\", columns: [{title: Id, value: id}]}\n";
    let diagnostics = yaml(text);
    assert_eq!(codes(&diagnostics), ["unknown-source", "unknown-source"]);
    assert_eq!(
        diagnostics[0].message,
        "source `f` reads unknown source `usres` in `from`"
    );
    let edit = &diagnostics[0].fixes[0].edits[0];
    assert_eq!(
        (&text[edit.span.range()], edit.replacement.as_str()),
        ("usres", "users")
    );
    assert_eq!(
        diagnostics[1].message,
        "component `t` binds unknown source `userz`"
    );
    let edit = &diagnostics[1].fixes[0].edits[0];
    assert_eq!(&text[edit.span.range()], "userz");
}

#[test]
fn a_cycle_is_named_once_with_every_edge() {
    let text = "data:\n  sources:\n    a: {type: passthrough, from: b}\n    b: {type: filter, from: c, where: \"true\"}\n    c: {type: union, sources: [a]}\n    d: {type: passthrough, from: d}\n    e: {type: passthrough, from: a}\n";
    let diagnostics = yaml(text);
    assert_eq!(codes(&diagnostics), ["reference-cycle", "reference-cycle"]);
    assert_eq!(diagnostics[0].message, "reference cycle: a → b → c → a");
    assert_eq!(diagnostics[0].labels.len(), 2);
    assert_eq!(diagnostics[0].labels[1].message, "`c` reads `a` here");
    assert_eq!(diagnostics[1].message, "reference cycle: d → d");
}

#[test]
fn a_long_chain_does_not_overflow() {
    let mut text = String::from("data:\n  sources:\n    s0: {type: static, data: 1}\n");
    for index in 1..20_000 {
        text.push_str(&format!(
            "    s{index}: {{type: passthrough, from: s{}}}\n",
            index - 1
        ));
    }
    text.push_str("    s0x: {type: passthrough, from: s19999}\n");
    let diagnostics = yaml(&text);
    assert_eq!(codes(&diagnostics), ["reference-depth"]);
    assert_eq!(
        diagnostics[0].message,
        "`s0x` starts a chain of 20001 entries (s0x → s19999 → … → s0): deeper than the limit of 64"
    );
}

#[test]
fn cycles_and_chains_are_found_among_entries_without_references() {
    let mut text = String::from(
        "data:\n  sources:\n    pad: {type: static, data: 1}\n    a: {type: passthrough, from: z}\n    c0: {type: static, data: 1}\n",
    );
    for index in 1..=65 {
        text.push_str(&format!(
            "    pad{index}: {{type: static, data: 1}}\n    c{index}: {{type: passthrough, from: c{}}}\n",
            index - 1
        ));
    }
    text.push_str(
        "    z: {type: filter, from: a, where: \"true\"}\n    last: {type: static, data: 1}\n",
    );
    let diagnostics = yaml(&text);
    assert_eq!(codes(&diagnostics), ["reference-cycle", "reference-depth"]);
    assert_eq!(diagnostics[0].message, "reference cycle: a → z → a");
    assert_eq!(diagnostics[0].labels[0].message, "`z` reads `a` here");
    assert_eq!(
        diagnostics[1].message,
        "`c65` starts a chain of 66 entries (c65 → c64 → … → c0): deeper than the limit of 64"
    );
    assert_eq!(diagnostics[1].labels[0].message, "`c65` reads `c64` here");
}

#[test]
fn merge_needs_exactly_one_of_sources_and_children() {
    let text = "data:\n  sources:\n    a: {type: static, data: []}\n    m1: {type: merge, sources: [a], children: [{source: a}]}\n    m2: {type: union}\n    m3: {type: union, children: [{source: a}], tag_field: src}\n    m4: {type: merge, sources: [a], tag_field: src}\n";
    let diagnostics = yaml(text);
    assert_eq!(
        codes(&diagnostics),
        ["conflicting-fields", "missing-field", "conflicting-fields"]
    );
    assert_eq!(
        diagnostics[0].message,
        "`merge` source `m1` sets both `sources` and `children`"
    );
    assert_eq!(diagnostics[0].labels[0].message, "`sources` here");
}

#[test]
fn documents_without_sources_are_not_ours() {
    for text in ["", "- a\n", "app: {x: 1}\n", "data: {other: 1}\n"] {
        let analysis = analyze(text, Syntax::Yaml);
        assert!(!analysis.has_sources, "{text:?}");
        assert!(analysis.diagnostics.is_empty(), "{text:?}");
    }
    let analysis = analyze("data:\n  sources: 3\n", Syntax::Yaml);
    assert!(analysis.has_sources);
    assert_eq!(codes(&analysis.diagnostics), ["invalid-value"]);
}

#[test]
fn damaged_valid_configs_never_panic() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/valid");
    let mut cases = 0;
    for entry in std::fs::read_dir(root).expect("testdata/valid") {
        let path = entry.expect("entry").path();
        let Some(syntax) = Syntax::from_path(&path) else {
            continue;
        };
        let text = std::fs::read_to_string(&path).expect("readable");
        assert!(
            analyze(&text, syntax).diagnostics.is_empty(),
            "{} is valid",
            path.display()
        );
        let boundaries: Vec<usize> = (0..text.len())
            .filter(|at| text.is_char_boundary(*at))
            .step_by(11)
            .collect();
        for at in boundaries {
            let mut cut = text.clone();
            cut.truncate(at);
            let rest = &text[at..];
            for damaged in [
                format!("{cut}{}", rest.get(1..).unwrap_or("")),
                format!("{cut}: [{rest}"),
                format!("{cut}\n  x: 1\n{rest}"),
            ] {
                let analysis = analyze(&damaged, syntax);
                assert!(
                    analysis
                        .diagnostics
                        .iter()
                        .all(|d| d.span.end() <= damaged.len())
                );
                cases += 1;
            }
        }
    }
    assert!(cases > 500);
}

#[test]
fn merged_keys_are_checked_at_the_anchor_naming_the_entry_that_inherits_them() {
    let text = "x: &d\n  type: http\n  timout: 1s\n  headers: {Accept: a}\ndata:\n  sources:\n    apps:\n      <<: *d\n      url: https://x/\n      headers: {Accept: b}\n    plain:\n      type: static\n      data: [1]\n";
    let diagnostics = yaml(text);
    assert_eq!(codes(&diagnostics), ["unknown-field"]);
    let found = &diagnostics[0];
    assert_eq!(&text[found.span.range()], "timout");
    assert_eq!(
        found.message,
        "unknown field `timout` in `http` source `apps` (in an anchor inherited by `apps`)"
    );
    let label = found.labels.last().expect("a label at the heir");
    assert_eq!(&text[label.span.range()], "apps");
    assert_eq!(label.message, "`apps` inherits this from the anchor");
    // A written key overrides the merged one and is the one checked.
    let broken = text.replace("headers: {Accept: b}", "headers: 5");
    let diagnostics = yaml(&broken);
    let wrong = diagnostics
        .iter()
        .find(|d| d.rule.code() == "invalid-value")
        .expect("the written headers are checked");
    assert_eq!(&broken[wrong.span.range()], "5");
}

#[test]
fn an_on_cursor_component_that_is_not_defined_gets_a_suggestion_and_a_fix() {
    let text = "tui:\n  components:\n    apps: {type: table, source: apps, columns: [{title: Id, value: id}]}\n    jobs: {type: table, source: jobs, columns: [{title: Id, value: id}], on_cursor: {source: app, bind: {id: '${cursor.1}'}}}\ndata:\n  sources:\n    apps: {type: static, data: []}\n    jobs:\n      type: http\n      url: https://api.example.com/${params.id}\n      parameters: {id: {required: true}}\n";
    let diagnostics = yaml(text);
    assert_eq!(codes(&diagnostics), ["unknown-component"]);
    assert_eq!(
        diagnostics[0].message,
        "component `jobs` takes its parameters from the cursor of unknown component `app`"
    );
    assert_eq!(diagnostics[0].help.as_deref(), Some("did you mean `apps`?"));
    let edit = &diagnostics[0].fixes[0].edits[0];
    assert_eq!(
        (&text[edit.span.range()], edit.replacement.as_str()),
        ("app", "apps")
    );
}

#[test]
fn a_component_that_leaves_a_required_parameter_unsupplied_is_reported() {
    let text = "tui:\n  components:\n    jobs: {type: table, source: jobs, columns: [{title: Id, value: id}]}\ndata:\n  sources:\n    jobs:\n      type: http\n      url: https://api.example.com/${params.id}?page=${params.page}\n      parameters: {id: {required: true}, page: {default: \"1\"}}\n";
    let diagnostics = yaml(text);
    assert_eq!(codes(&diagnostics), ["unbound-param"]);
    assert_eq!(
        diagnostics[0].message,
        "table `jobs` shows `jobs`, whose required parameter `id` no binding supplies; looked at: `jobs` has no `on_cursor`"
    );
    assert_eq!(&text[diagnostics[0].span.range()], "jobs");
}

#[test]
fn an_anchored_body_that_is_not_a_json_object_is_reported() {
    let text = "data:\n  sources:\n    hits:\n      type: http\n      url: http://127.0.0.1:8099/search\n      body: '[1]'\n      window:\n        cursor: sort\n        search_param: q\n        older: {a: \"${window.cursor}\"}\n        newer: {b: \"${window.cursor}\"}\n        limit_param: size\n";
    let diagnostics = yaml(text);
    assert_eq!(codes(&diagnostics), ["invalid-value"]);
    assert_eq!(
        diagnostics[0].message,
        "an anchored window merges `older`/`newer` into `body`, which must be a JSON object: it is an array"
    );
    let broken = yaml(&text.replace("'[1]'", "'{oops'"));
    assert_eq!(codes(&broken), ["invalid-value"]);
    assert!(
        broken[0].message.ends_with(
            "which must be a JSON object: it is not JSON (key must be a string at line 1 column 2)"
        ),
        "{}",
        broken[0].message
    );
}

/// A document with many problems of several rules at ties of position, inherited ones, used and
/// unused suppressions and a malformed one.
fn many_problems() -> String {
    let mut text = String::from(
        "x-common: &common\n  bogus: 1\n  timeout: 5s\n# sources: nonsense\ndata:\n  sources:\n",
    );
    for i in 0..60 {
        let suppression = match i % 5 {
            0 => "  # sources: ignore[unknown-source]",
            1 => "  # sources: ignore[unknown-field]",
            _ => "",
        };
        text.push_str(&format!(
            "    e{i}:\n      <<: *common\n      type: filter\n      from: missing{i}{suppression}\n      where: \"true\"\n      extra{i}: 1\n      other{i}: 2\n"
        ));
    }
    text
}

#[test]
fn a_bounded_analysis_keeps_the_first_of_the_whole_after_suppressions_and_the_filter() {
    let text = Arc::new(many_problems());
    let whole = analyze(&text, Syntax::Yaml).diagnostics;
    let rules: std::collections::BTreeSet<&str> = codes(&whole).into_iter().collect();
    assert!(
        rules.len() >= 3 && whole.len() > 150,
        "{} diagnostics of {rules:?}",
        whole.len()
    );
    assert!(
        whole.iter().any(|d| d.message.contains("inherited by")),
        "an inherited one"
    );
    assert!(rules.contains("unused-suppression"));
    type Keep = fn(&Diagnostic) -> bool;
    let filters: [Keep; 3] = [
        |_| true,
        |d| d.rule != Rule::UnknownField,
        |d| d.rule != Rule::UnknownSource && d.rule != Rule::UnusedSuppression,
    ];
    for keep in filters {
        let expected: Vec<Diagnostic> = whole.iter().filter(|d| keep(d)).cloned().collect();
        for limit in [0, 1, 7, 100, expected.len() - 1, expected.len(), 5000] {
            let bounded = analyze_bounded(
                &text,
                Syntax::Yaml,
                sources_syntax::parse(&text, Syntax::Yaml),
                Bounded {
                    limit,
                    keep: Box::new(keep),
                },
            );
            let kept = limit.min(expected.len());
            assert_eq!(bounded.diagnostics, expected[..kept], "limit {limit}");
            assert_eq!(bounded.omitted, expected.len() - kept, "limit {limit}");
            let errors = expected[kept..]
                .iter()
                .filter(|d| d.severity == sources_diagnostics::Severity::Error)
                .count();
            assert_eq!(bounded.omitted_errors, errors, "limit {limit}");
        }
    }
}

#[test]
fn a_bounded_analysis_drops_values_the_parser_recovered_before_the_bound() {
    let mut text = String::from("[data.sources.s]\ntype = \"sort\"\nfrom = \"a\"\nby = éa\n");
    for i in 0..30 {
        text.push_str(&format!(
            "[data.sources.t{i}]\ntype = \"filter\"\nfrom = \"nope{i}\"\nwhere = é +\n"
        ));
    }
    let text = Arc::new(text);
    let whole = analyze(&text, Syntax::Toml).diagnostics;
    assert!(codes(&whole).contains(&"syntax"));
    for limit in [1, 10, 40] {
        let bounded = analyze_bounded(
            &text,
            Syntax::Toml,
            sources_syntax::parse(&text, Syntax::Toml),
            Bounded {
                limit,
                keep: Box::new(|_| true),
            },
        );
        let kept = limit.min(whole.len());
        assert_eq!(bounded.diagnostics, whole[..kept], "limit {limit}");
        assert_eq!(bounded.omitted, whole.len() - kept);
        assert!(!bounded.parsed);
    }
}

#[test]
fn an_unknown_cursor_column_gets_a_suggestion_and_a_fix_on_the_name() {
    let text = "tui:\n  components:\n    apps:\n      type: table\n      source: apps\n      columns: [{title: Name, value: name}, {title: Ident, value: id}]\n    jobs:\n      type: table\n      source: jobs\n      columns: [{title: Id, value: id}]\n      on_cursor: {source: apps, bind: {id: \"${cursor.Idnet}\"}}\ndata:\n  sources:\n    apps: {type: static, data: []}\n    jobs:\n      type: http\n      url: https://api.example.com/${params.id}\n      parameters: {id: {required: true}}\n";
    let diagnostics = yaml(text);
    assert_eq!(codes(&diagnostics), ["unknown-column"]);
    assert_eq!(
        diagnostics[0].message,
        "`${cursor.Idnet}` names no column of `apps`: it renders empty"
    );
    assert_eq!(&text[diagnostics[0].span.range()], "${cursor.Idnet}");
    assert_eq!(
        diagnostics[0].help.as_deref(),
        Some("did you mean `${cursor.Ident}`?")
    );
    let edit = &diagnostics[0].fixes[0].edits[0];
    assert_eq!(
        (&text[edit.span.range()], edit.replacement.as_str()),
        ("Idnet", "Ident")
    );
}

/// The help of the first diagnostic of `rule`.
fn found_help(diagnostics: &[sources_diagnostics::Diagnostic], rule: Rule) -> &str {
    diagnostics
        .iter()
        .find(|d| d.rule == rule)
        .and_then(|d| d.help.as_deref())
        .unwrap_or("")
}

/// Samples of every entry of `text`, each the shape of `values[name]`, with the fingerprints
/// of the entries as written.
fn sampled(text: &str, values: &[(&str, serde_json::Value)]) -> crate::shapes::ShapeInputs {
    let config = analyze(text, Syntax::Yaml).config;
    let mut inputs = crate::shapes::ShapeInputs::default();
    for (name, value) in values {
        let source = &config.entries[config.position(name).expect("an entry")];
        inputs.samples.insert(
            (*name).to_owned(),
            crate::shapes::Sample {
                shape: crate::shape::Shape::of_json(value),
                recorded: "2026-11-26T10:00:00Z".to_owned(),
                fingerprint: crate::shapes::fingerprint(text, source),
            },
        );
    }
    inputs
}

#[test]
fn a_sample_makes_growing_misses_warnings_and_leaves_window_mappings_and_types_unjudged() {
    let text = r#"data:
  sources:
    job:
      type: http
      url: https://ci.example.com/job
    events:
      type: http
      url: https://ci.example.com/events
      root: items
      window:
        offset_param: offset
        limit_param: limit
        sort_param: sort
        sorts: {Time: craeted}
        filters: {Host: host__icontains}
        growing: {source: job, while: "statuss == 'running' && !state"}
"#;
    let before = analyze(text, Syntax::Yaml).diagnostics;
    assert!(
        !codes(&before).contains(&"unknown-data-field"),
        "nothing is known without samples: {before:?}"
    );
    let inputs = sampled(
        text,
        &[
            (
                "job",
                serde_json::json!({"status": "running", "state": "x"}),
            ),
            ("events", serde_json::json!([{"created": "t", "host": "a"}])),
        ],
    );
    let after = crate::analyze_with(text, Syntax::Yaml, &inputs).diagnostics;
    let found: Vec<(&str, sources_diagnostics::Severity, &str)> = after
        .iter()
        .filter(|d| d.rule == Rule::UnknownDataField || d.rule == Rule::OperandType)
        .map(|d| (d.rule.code(), d.severity, d.message.as_str()))
        .collect();
    use sources_diagnostics::Severity::Warning;
    assert_eq!(
        found,
        [(
            "unknown-data-field",
            Warning,
            "`growing.while` reads `statuss`, but the value of `job` has no such key (keys: `state`, `status`)"
        )],
        "a sort field and a filter parameter are the server's names, not keys of the rows; \
         `!state` over a sampled string is not judged: {after:?}"
    );
    let help = found_help(&after, Rule::UnknownDataField);
    assert!(help.starts_with("did you mean `status`?"), "{help}");
}
