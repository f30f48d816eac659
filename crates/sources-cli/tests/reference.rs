//! `docs/reference.md`, the format reference: its field tables are generated from the field
//! catalog of `sources-config` (`UPDATE_EXPECT=1 cargo test -p sources-cli --test reference`
//! rewrites them), it lists every field the JSON Schema has, and each rule links a section of it
//! that exists. Its examples lint as their annotations say (`doc_examples.rs`).

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn reference_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/reference.md")
}

fn reference() -> String {
    fs::read_to_string(reference_path()).expect("docs/reference.md at the repository root")
}

#[test]
fn the_field_tables_are_generated_from_the_field_catalog() {
    let text = reference();
    let regenerated = sources_config::reference::regenerate(&text)
        .unwrap_or_else(|error| panic!("docs/reference.md: {error}"));
    sources_testkit::assert_file(
        &reference_path(),
        &regenerated,
        "UPDATE_EXPECT=1 cargo test -p sources-cli --test reference",
    );
}

/// The generated table between `<!-- fields:NAME:start -->` and its end marker.
fn block<'a>(text: &'a str, name: &str) -> &'a str {
    let start_marker = format!("<!-- fields:{name}:start -->");
    let end_marker = format!("<!-- fields:{name}:end -->");
    let start = text
        .find(&start_marker)
        .unwrap_or_else(|| panic!("docs/reference.md has no `{start_marker}`"));
    let end = text[start..]
        .find(&end_marker)
        .unwrap_or_else(|| panic!("docs/reference.md has no `{end_marker}`"))
        + start;
    &text[start..end]
}

/// The property names of an object schema, following `$ref` and `allOf`.
fn properties(schema: &Value, defs: &serde_json::Map<String, Value>, names: &mut Vec<String>) {
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix("#/$defs/"))
        .and_then(|name| defs.get(name))
    {
        properties(target, defs, names);
    }
    for part in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        properties(part, defs, names);
    }
    if let Some(object) = schema.get("properties").and_then(Value::as_object) {
        names.extend(object.keys().cloned());
    }
}

/// The reference table each object of the schema's `$defs` is listed in, or `None` for the
/// definitions that are not part of the format's entries.
fn table_of(def: &str) -> Option<&'static str> {
    Some(match def {
        "Http" => "http",
        "Exec" => "exec",
        "File" => "file",
        "Websocket" => "websocket",
        "Static" => "static",
        "Merge" => "merge",
        "Passthrough" => "passthrough",
        "Filter" => "filter",
        "Project" => "project",
        "Derive" => "derive",
        "Sort" => "sort",
        "Union" => "union",
        "Compose" => "compose",
        "Join" => "join",
        "CacheOperator" => "cache",
        "Parameter" => "section-parameters",
        "Paginate" => "section-paginate",
        "HttpWindow" | "ExecWindow" => "section-window",
        "GrowingWhile" => "section-growing",
        "CacheSpec" => "section-cache",
        "MergeChild" => "section-children",
        "JoinLookup" => "section-lookups",
        // The entry's `type` switch and a `pipe` stage (an operator without `from`, listed under
        // its operator): not tables of their own. The dashboard's maps are listed by the
        // dashboard's section (`the_reference_names_every_field_of_the_dashboard`).
        "Entry" | "Stage" | "ComponentItem" | "ScreenItem" | "ActionItem" => return None,
        dashboard
            if sources_config::vocabulary::Block::ALL
                .iter()
                .any(|block| block.schema_name() == dashboard) =>
        {
            return None;
        }
        other => panic!(
            "the JSON Schema has a definition `{other}` that docs/reference.md does not place: \
             add its table to the reference and to this mapping"
        ),
    })
}

#[test]
fn the_reference_lists_every_field_of_the_json_schema() {
    let text = reference();
    let schema = sources_config::schema::document_schema();
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .expect("the schema has $defs");
    let mut missing = Vec::new();
    let mut checked = 0;
    for (name, def) in defs {
        let Some(table) = table_of(name) else {
            continue;
        };
        let mut names = Vec::new();
        properties(def, defs, &mut names);
        assert!(
            !names.is_empty(),
            "`{name}` has no properties in the schema"
        );
        let listed = block(&text, table);
        for field in names {
            checked += 1;
            if !listed.contains(&format!("| `{field}` |")) {
                missing.push(format!("{field} ({name}, table `{table}`)"));
            }
        }
        if name == "Join" {
            let driver = def
                .pointer("/properties/driver")
                .expect("a join has a driver");
            let mut names = Vec::new();
            properties(driver, defs, &mut names);
            let listed = block(&text, "section-driver");
            for field in names {
                checked += 1;
                if !listed.contains(&format!("| `{field}` |")) {
                    missing.push(format!("{field} (join driver, table `section-driver`)"));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} fields found in the schema");
    assert!(
        missing.is_empty(),
        "docs/reference.md does not list these schema fields: {missing:?}"
    );
}

#[test]
fn the_reference_names_every_field_of_the_dashboard() {
    let text = reference();
    let start = text
        .find("## The dashboard: tui, app, actions")
        .expect("docs/reference.md has the dashboard's section");
    let end = text[start + 3..]
        .find("\n## ")
        .map_or(text.len(), |end| end + start + 3);
    let section = &text[start..end];
    let missing: Vec<String> = sources_config::vocabulary::Block::ALL
        .iter()
        .flat_map(|block| block.fields().iter().map(move |field| (block, field.name)))
        .filter(|(_, name)| !section.contains(&format!("`{name}`")))
        .map(|(block, name)| format!("{name} ({block:?})"))
        .collect();
    assert!(
        missing.is_empty(),
        "the dashboard's section of docs/reference.md does not name: {missing:?}"
    );
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

#[test]
fn every_rule_links_a_section_of_the_reference_that_exists() {
    let text = reference();
    let anchors: Vec<String> = text
        .lines()
        .filter_map(|line| {
            line.trim_start_matches('#')
                .strip_prefix(' ')
                .filter(|_| line.starts_with('#'))
        })
        .map(anchor)
        .collect();
    assert!(
        anchors.contains(&"the-datasources-format".to_owned()),
        "{anchors:?}"
    );
    assert!(
        anchors.contains(&"cache-operator".to_owned()),
        "{anchors:?}"
    );
    let mut broken = Vec::new();
    for rule in sources_diagnostics::Rule::ALL {
        let links = rule.spec_reference();
        let targets: Vec<&str> = links
            .split("](docs/reference.md#")
            .skip(1)
            .filter_map(|rest| rest.split_once(')').map(|(target, _)| target))
            .collect();
        if targets.is_empty() && !links.contains("](#") {
            broken.push(format!("{}: links no section: {links}", rule.code()));
        }
        for target in targets {
            if !anchors.iter().any(|anchor| anchor == target) {
                broken.push(format!("{}: no heading for #{target}", rule.code()));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
