//! The JSON Schema (draft 2020-12) of a whole configuration file, for the YAML and TOML tools that
//! are not ours (yaml-language-server, Taplo, ajv, check-jsonschema): `sources schema` prints it and
//! `schema/sources.schema.json` is a copy of it.
//!
//! schemars generates the entry kinds and their sections from the model's types and doc comments;
//! this module shapes the result so that independent validators agree with the linter:
//! - an entry is dispatched on `type` with one `if`/`then` per kind, so a wrong field is reported
//!   against that kind's fields only, and every kind's map is closed (`additionalProperties`);
//! - templates and expressions accept a number or boolean (kept as its text, as the decoder does),
//!   except `method` and a websocket `url`, whose text must name a method or a scheme; durations
//!   are Go durations (a pattern, or the number `0`);
//! - the rules a schema can state are stated: exclusive pairs (`not: {required: [a, b]}`), fields
//!   that need another (`dependentRequired`), non-negative counts, non-empty maps, a parameter
//!   default that parses as its type, the http-only fields of a window, pipe stage kinds;
//! - every field has a `description` and a `markdownDescription` (the [`Docs`] transform), and a
//!   `default` where its doc comment states one.
//!
//! Rules over several entries (references, cycles, bindings) and expressions are the linter's
//! alone. `app`, `tui` and `actions` come from the dashboard's vocabulary (`dashboard_schema`).

use schemars::generate::SchemaSettings;
use schemars::transform::{RecursiveTransform, Transform};
use schemars::{JsonSchema, Schema, json_schema};
use serde_json::{Map, Value, json};

use crate::duration::GoDuration;
use crate::enums::{Enumeration, Kind, Method};
use crate::model::{Body, WINDOW_FIELD_USES};
use crate::url_scheme;
use crate::vocabulary::{Block, Ty};

/// The JSON Schema dialect of the document schema.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The kinds whose entries read one other entry through a required `from` (not in a pipe stage).
const FROM_KINDS: [Kind; 6] = [
    Kind::Passthrough,
    Kind::Filter,
    Kind::Project,
    Kind::Derive,
    Kind::Sort,
    Kind::Cache,
];

/// The JSON Schema of a configuration file, as a JSON value.
pub fn document_schema() -> Value {
    let generated = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<Body>()
        .to_value();
    let duration = duration_pattern();
    let mut defs = generated
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for def in defs.values_mut() {
        shape_values(def, &duration);
    }
    let variants = generated
        .get("oneOf")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut dispatch = Vec::new();
    let mut kinds_seen = Vec::new();
    for variant in &variants {
        let Some(kind) = variant_kind(variant) else {
            continue;
        };
        let Some(def_name) = variant
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|reference| reference.strip_prefix("#/$defs/"))
            .map(str::to_owned)
        else {
            continue;
        };
        let summary = variant
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if let Some(def) = defs.get_mut(&def_name) {
            shape_kind(def, kind, &summary);
        }
        dispatch.push(json!({
            "if": { "properties": { "type": { "const": kind.as_str() } }, "required": ["type"] },
            "then": { "$ref": format!("#/$defs/{def_name}") }
        }));
        kinds_seen.push(kind);
    }
    shape_sections(&mut defs);
    defs.remove("Stage");
    defs.remove("Growing");

    let stage_kinds: Vec<Kind> = kinds_seen
        .iter()
        .copied()
        .filter(|kind| kind.is_stage())
        .collect();
    let stage_dispatch: Vec<Value> = dispatch
        .iter()
        .filter(|rule| {
            rule.pointer("/if/properties/type/const")
                .and_then(Value::as_str)
                .and_then(Kind::from_name)
                .is_some_and(Kind::is_stage)
        })
        .cloned()
        .collect();
    let mut entry_rules = dispatch;
    entry_rules.push(json!({
        "if": {
            "properties": { "type": { "enum": FROM_KINDS.map(Kind::as_str) } },
            "required": ["type"]
        },
        "then": { "required": ["from"] }
    }));
    defs.insert(
        "Entry".into(),
        json!({
            "title": "Entry",
            "description": "One entry of `data.sources`: a leaf source or an operator, chosen by `type`. Leaves fetch from outside the program; operators transform other entries, named by `from`, `sources`, `parts`, `driver` or `lookups`.",
            "type": "object",
            "required": ["type"],
            "properties": {
                "type": {
                    "description": format!("The entry's kind: a leaf ({}) or an operator ({}).", names(kinds_seen.iter().copied().filter(|kind| kind.is_leaf())), names(kinds_seen.iter().copied().filter(|kind| kind.is_operator()))),
                    "enum": kinds_seen.iter().map(|kind| kind.as_str()).collect::<Vec<_>>()
                }
            },
            "allOf": entry_rules
        }),
    );
    let mut stage_rules = stage_dispatch;
    stage_rules.push(json!({ "not": { "required": ["from"] } }));
    stage_rules.push(json!({ "not": { "required": ["pipe"] } }));
    defs.insert(
        "Stage".into(),
        json!({
            "title": "Stage",
            "description": "One `pipe` stage: a `filter`, `project`, `derive`, `sort` or `cache` operator without `from` (it reads the output of the stage before it) and without `pipe`.",
            "type": "object",
            "required": ["type"],
            "properties": {
                "type": {
                    "description": format!("The stage's kind: {}.", names(stage_kinds.iter().copied())),
                    "enum": stage_kinds.iter().map(|kind| kind.as_str()).collect::<Vec<_>>()
                }
            },
            "allOf": stage_rules
        }),
    );
    defs.extend(crate::dashboard_schema::definitions(&duration));

    let mut document = json_schema!({
        "$schema": DIALECT,
        "title": "sources configuration",
        "description": "A terminal-UI configuration file (YAML or TOML): `data.sources` declares the sources its screens read from. Checked by `sources lint`; this schema states the rules of single fields and entries.",
        "properties": {
            "data": {
                "description": "The data the screens read.",
                "properties": {
                    "sources": {
                        "description": "Every source and operator, by name. Components and other entries address them by that name.",
                        "type": ["object", "null"],
                        "additionalProperties": { "$ref": "#/$defs/Entry" }
                    }
                }
            },
            "app": crate::dashboard_schema::top_level(Ty::Map(Block::App), "The dashboard's application settings: title, theme, glyphs, borders, its own keys, boot prompts and environment.", &duration),
            "tui": crate::dashboard_schema::top_level(Ty::Map(Block::Tui), "The dashboard's components and screens.", &duration),
            "actions": crate::dashboard_schema::top_level(Ty::Named(Block::Action), "The dashboard's actions, by name: what a screen's bindings run or open.", &duration)
        },
        "$defs": Value::Object(defs)
    });
    RecursiveTransform(Docs).transform(&mut document);
    let mut value = document.to_value();
    // Keys in name order, so the checked-in schema does not depend on how it was assembled
    // (serde_json keeps insertion order).
    value.sort_all_objects();
    value
}

/// The document schema as checked in: pretty JSON with a final newline.
pub fn document_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&document_schema()).unwrap_or_default();
    text.push('\n');
    text
}

/// Adds `markdownDescription` (the doc comment, which is Markdown) beside every `description`, and
/// joins a doc comment's lines into one paragraph in both.
#[derive(Clone, Copy, Debug)]
pub struct Docs;

impl Transform for Docs {
    fn transform(&mut self, schema: &mut Schema) {
        if let Some(Value::String(description)) = schema.get("description") {
            let paragraph = description.split_whitespace().collect::<Vec<_>>().join(" ");
            schema.insert("description".into(), Value::from(paragraph.clone()));
            schema.insert("markdownDescription".into(), Value::from(paragraph));
        }
    }
}

/// The `pattern` of the Go duration schema, as [`GoDuration`] declares it.
fn duration_pattern() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    GoDuration::json_schema(&mut generator)
        .get("pattern")
        .cloned()
        .unwrap_or(Value::Null)
}

/// `` `a`, `b` or `c` ``.
fn names(kinds: impl Iterator<Item = Kind>) -> String {
    let quoted: Vec<String> = kinds.map(|kind| format!("`{kind}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

fn variant_kind(variant: &Value) -> Option<Kind> {
    variant
        .pointer("/properties/type/const")
        .and_then(Value::as_str)
        .and_then(Kind::from_name)
}

/// Value shapes, everywhere in a generated definition: optional fields are absent, never `null`;
/// integers carry no `format`; durations take the decoder's forms; every map of the model is
/// closed; a `default` where the doc comment states one.
fn shape_values(value: &mut Value, duration: &Value) {
    let Value::Object(object) = value else {
        if let Value::Array(items) = value {
            items
                .iter_mut()
                .for_each(|item| shape_values(item, duration));
        }
        return;
    };
    drop_null(object);
    if object.get("format").and_then(Value::as_str) == Some("int64") {
        object.remove("format");
    }
    if object.get("pattern") == Some(duration) && object.get("type") == Some(&json!("string")) {
        object.remove("type");
        let pattern = object.remove("pattern").unwrap_or(Value::Null);
        object.insert(
            "anyOf".into(),
            json!([{ "type": "string", "pattern": pattern }, { "const": 0 }]),
        );
        return;
    }
    if object.contains_key("properties") && object.get("type") == Some(&json!("object")) {
        object.insert("additionalProperties".into(), Value::Bool(false));
        if let Some(Value::Object(properties)) = object.get_mut("properties") {
            for property in properties.values_mut() {
                add_default(property);
            }
        }
    }
    for child in object.values_mut() {
        shape_values(child, duration);
    }
}

/// Removes the `null` alternative schemars gives an `Option`.
pub(crate) fn drop_null(object: &mut Map<String, Value>) {
    let is_null = |choice: &Value| choice.get("type") == Some(&Value::from("null"));
    if let Some(Value::Array(choices)) = object.get("anyOf")
        && choices.len() == 2
        && choices.iter().any(is_null)
        && let Some(Value::Object(kept)) = choices.iter().find(|c| !is_null(c)).cloned()
    {
        object.remove("anyOf");
        for (key, value) in kept {
            object.entry(key).or_insert(value);
        }
    }
    if let Some(Value::Array(types)) = object.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        let replacement = match kept.as_slice() {
            [single] => single.clone(),
            _ => Value::Array(kept),
        };
        object.insert("type".into(), replacement);
    }
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.retain(|value| !value.is_null());
    }
}

/// Adds the `default` a field's doc comment states (see [`stated_default`]).
fn add_default(property: &mut Value) {
    if let Some(default) = stated_default(property)
        && let Value::Object(object) = property
    {
        object.insert("default".into(), default);
    }
}

/// The `default` a field's doc comment states (`Default: `json`.`, `Default: 100.`), typed as the
/// field is; the schema, hover and inlay hints all read it from here.
pub(crate) fn stated_default(property: &Value) -> Option<Value> {
    let description = property.get("description").and_then(Value::as_str)?;
    let stated = description
        .split("Default: ")
        .nth(1)
        .map(|rest| rest.split_whitespace().collect::<Vec<_>>().join(" "))?;
    let types = |name: &str| {
        property.get("type").is_some_and(|t| {
            t == name
                || t.as_array()
                    .is_some_and(|all| all.iter().any(|t| t == name))
        })
    };
    if let Some(quoted) = stated
        .strip_prefix('`')
        .and_then(|rest| rest.split_once('`'))
        .map(|(value, _)| value)
    {
        match quoted {
            "true" | "false" if types("boolean") => Some(Value::Bool(quoted == "true")),
            _ if types("string") || property.get("enum").is_some() => Some(Value::from(quoted)),
            _ if property.get("anyOf").is_some() => Some(Value::from(quoted)),
            _ => None,
        }
    } else {
        let number: String = stated.chars().take_while(char::is_ascii_digit).collect();
        match number.parse::<i64>() {
            Ok(number) if types("integer") => Some(Value::from(number)),
            _ => None,
        }
    }
}

/// One kind's definition: its `type` constant, no `from` requirement of its own (pipe stages have
/// none), and the rules of its fields that a schema can state.
fn shape_kind(def: &mut Value, kind: Kind, summary: &str) {
    let Value::Object(object) = def else {
        return;
    };
    object.insert("description".into(), Value::from(summary));
    if let Some(Value::Array(required)) = object.get_mut("required") {
        required.retain(|name| name != "from");
        if required.is_empty() {
            object.remove("required");
        }
    }
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        properties.insert(
            "type".into(),
            json!({
                "description": format!("The entry's kind: `{kind}`. {summary}"),
                "const": kind.as_str()
            }),
        );
        match kind {
            Kind::Http => {
                properties.insert("window".into(), window_ref("HttpWindow", properties));
                if let Some(Value::Object(method)) = properties.get_mut("method") {
                    method.insert("type".into(), Value::from("string"));
                    method.insert("pattern".into(), Value::from(method_pattern()));
                    method.insert("examples".into(), json!(Method::names()));
                }
            }
            Kind::Exec => {
                properties.insert("window".into(), window_ref("ExecWindow", properties));
            }
            _ => {}
        }
        let schemes = match kind {
            Kind::Http => Some(url_scheme::HTTP),
            Kind::Websocket => Some(url_scheme::WEBSOCKET),
            _ => None,
        };
        if let (Some(schemes), Some(Value::Object(url))) = (schemes, properties.get_mut("url")) {
            url.insert("type".into(), Value::from("string"));
            url.insert("pattern".into(), Value::from(url_scheme::pattern(schemes)));
        }
        if matches!(
            kind,
            Kind::Http | Kind::Exec | Kind::Websocket | Kind::Merge
        ) && let Some(Value::Object(timeout)) = properties.get_mut("timeout")
        {
            timeout.insert("not".into(), zero_duration());
        }
        for map in ["keep", "compute", "parts", "lookups"] {
            if let Some(Value::Object(property)) = properties.get_mut(map) {
                property.insert("minProperties".into(), Value::from(1));
                property.insert("propertyNames".into(), json!({ "pattern": "\\S" }));
            }
        }
    }
    let mut rules = kind_rules(kind);
    let has = |field: &str| {
        object
            .get("properties")
            .is_some_and(|properties| properties.get(field).is_some())
    };
    if has("root") && has("format") {
        rules.push(json!({
            "not": {
                "required": ["root", "format"],
                "properties": { "format": { "const": "text" }, "root": { "minLength": 1 } }
            }
        }));
    }
    if !rules.is_empty() {
        object.insert("allOf".into(), Value::Array(rules));
    }
}

/// `{"$ref": …}` for a kind's `window`, keeping the field's description.
fn window_ref(def: &str, properties: &Map<String, Value>) -> Value {
    let mut reference = json!({ "$ref": format!("#/$defs/{def}") });
    if let (Some(description), Value::Object(object)) = (
        properties
            .get("window")
            .and_then(|window| window.get("description"))
            .cloned(),
        &mut reference,
    ) {
        object.insert("description".into(), description);
    }
    reference
}

/// `^(?:GET|post|…)$` case-insensitively, or any text with a `${` token.
fn method_pattern() -> String {
    let methods: Vec<String> = Method::names()
        .iter()
        .map(|name| {
            name.chars()
                .map(|c| format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase()))
                .collect()
        })
        .collect();
    format!("^(?:{})$|\\$\\{{", methods.join("|"))
}

/// A duration of zero, in any of the forms a duration may take (`0`, `0s`, `0.0ms`, …).
fn zero_duration() -> Value {
    json!({
        "anyOf": [
            { "const": 0 },
            { "type": "string", "pattern": r"^[+]?(0|((0+(\.0*)?|\.0+)(ns|us|µs|μs|ms|s|m|h))+)$" }
        ]
    })
}

/// `follow: true`, as a condition.
fn following() -> Value {
    json!({ "properties": { "follow": { "const": true } }, "required": ["follow"] })
}

/// `a` and `b` both written.
fn not_both(a: &str, b: &str) -> Value {
    json!({ "not": { "required": [a, b] } })
}

fn kind_rules(kind: Kind) -> Vec<Value> {
    let refresh_follow = json!({ "not": { "allOf": [following(), { "required": ["refresh"] }] } });
    let with_follow =
        |field: &str| json!({ "not": { "allOf": [following(), { "required": [field] }] } });
    let growing_refresh = json!({
        "not": { "required": ["refresh", "window"], "properties": { "window": { "required": ["growing"] } } }
    });
    let text_format = |field: &str| {
        json!({
            "not": { "required": [field, "format"], "properties": { "format": { "const": "text" } } }
        })
    };
    match kind {
        Kind::Http => vec![
            refresh_follow,
            not_both("window", "paginate"),
            with_follow("window"),
            with_follow("paginate"),
            growing_refresh,
            text_format("window"),
            text_format("paginate"),
        ],
        Kind::Exec => vec![
            refresh_follow,
            with_follow("window"),
            growing_refresh,
            text_format("window"),
        ],
        Kind::Websocket => vec![refresh_follow],
        Kind::Merge | Kind::Union => vec![
            json!({ "anyOf": [{ "required": ["sources"] }, { "required": ["children"] }] }),
            not_both("sources", "children"),
            json!({ "dependentRequired": { "tag_field": ["sources"] } }),
        ],
        _ => Vec::new(),
    }
}

/// Sections: parameter defaults typed by the parameter's `type`, text-or-scalar values, the two
/// windows, counts that cannot be negative, `growing` as `true` or a map.
fn shape_sections(defs: &mut Map<String, Value>) {
    let scalar = || json!({ "type": ["string", "number", "boolean"] });
    if let Some(Value::Object(parameter)) = defs.get_mut("Parameter") {
        if let Some(Value::Object(properties)) = parameter.get_mut("properties") {
            if let Some(Value::Object(default)) = properties.get_mut("default") {
                default.insert("type".into(), scalar()["type"].clone());
            }
            if let Some(Value::Object(options)) = properties.get_mut("options") {
                options.insert("items".into(), scalar());
            }
        }
        let typed_default = |name: &str, default: Value| {
            json!({
                "if": { "properties": { "type": { "const": name } }, "required": ["type"] },
                "then": { "properties": { "default": default } }
            })
        };
        parameter.insert(
            "allOf".into(),
            json!([
                { "not": { "required": ["required", "default"], "properties": { "required": { "const": true } } } },
                typed_default("int", json!({ "anyOf": [{ "type": "integer" }, { "type": "string", "pattern": "^[+-]?[0-9]+$" }] })),
                typed_default("bool", json!({ "enum": [true, false, "true", "false"] })),
                typed_default("duration", json!({ "anyOf": [{ "type": "string", "pattern": duration_pattern() }, { "const": 0 }] })),
            ]),
        );
    }
    if let Some(Value::Object(tags)) = defs
        .get_mut("MergeChild")
        .and_then(|child| child.pointer_mut("/properties/tags"))
    {
        tags.insert("additionalProperties".into(), scalar());
    }
    if let Some(paginate) = defs.get_mut("Paginate") {
        if let Some(Value::Object(max_pages)) = paginate.pointer_mut("/properties/max_pages") {
            max_pages.insert("minimum".into(), Value::from(0));
        }
        if let Some(Value::Array(required)) = paginate.get_mut("required")
            && !required.iter().any(|name| name == "next_path")
        {
            required.push(Value::from("next_path"));
        }
    }
    let Some(Value::Object(mut window)) = defs.remove("Window") else {
        return;
    };
    if let Some(Value::Object(properties)) = window.get_mut("properties") {
        for count in ["page_size", "prefetch"] {
            if let Some(Value::Object(field)) = properties.get_mut(count) {
                field.insert("minimum".into(), Value::from(0));
            }
        }
        if let Some(Value::Object(growing)) = properties.get_mut("growing") {
            growing.remove("$ref");
            growing.insert(
                "anyOf".into(),
                json!([{ "const": true }, { "$ref": "#/$defs/GrowingWhile" }]),
            );
        }
    }
    let mut anchored: Vec<Value> =
        vec![json!({ "dependentRequired": { "anchor": ["cursor"], "follow_every": ["growing"] } })];
    anchored.extend(
        WINDOW_FIELD_USES
            .iter()
            .filter(|field| field.unanchored_only)
            .map(|field| not_both("cursor", field.name)),
    );
    let mut exec = window.clone();
    if let Some(Value::Object(properties)) = exec.get_mut("properties") {
        for field in WINDOW_FIELD_USES.iter().filter(|field| field.http_only) {
            properties.remove(field.name);
        }
    }
    exec.insert(
        "description".into(),
        Value::from("`window` on `exec`: one command per window, with offset, limit, filter and sort templated into the argv as `${window.*}` tokens. The query-parameter fields of an `http` window do not apply."),
    );
    exec.insert("allOf".into(), Value::Array(anchored.clone()));
    let mut http = window;
    http.insert(
        "description".into(),
        Value::from("`window` on `http`: fetches only the rows on screen, with the request in the query string (or, anchored, in `older`/`newer`)."),
    );
    let mut http_rules = anchored;
    http_rules.push(json!({ "dependentRequired": {
        "older": ["cursor"],
        "newer": ["cursor"],
        "sorts": ["sort_param"],
        "sort_desc_prefix": ["sort_param"]
    } }));
    http_rules.push(json!({
        "if": { "required": ["cursor"] },
        "then": { "required": ["older", "newer"] },
        "else": {
            "required": ["offset_param", "limit_param"],
            "anyOf": [
                { "required": ["search_param"] },
                { "required": ["filters"], "properties": { "filters": { "minProperties": 1 } } }
            ]
        }
    }));
    http.insert("allOf".into(), Value::Array(http_rules));
    defs.insert("HttpWindow".into(), Value::Object(http));
    defs.insert("ExecWindow".into(), Value::Object(exec));
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::document_schema;
    use crate::enums::{Enumeration, Kind};

    fn refs(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(object) => {
                if let Some(Value::String(target)) = object.get("$ref") {
                    found.push(target.clone());
                }
                object.values().for_each(|child| refs(child, found));
            }
            Value::Array(items) => items.iter().for_each(|child| refs(child, found)),
            _ => {}
        }
    }

    /// Every field schema (a value of `properties`, outside conditions and alternatives) with
    /// where it is.
    fn fields<'a>(value: &'a Value, at: String, found: &mut Vec<(String, &'a Value)>) {
        let Value::Object(object) = value else {
            if let Value::Array(items) = value {
                for (index, item) in items.iter().enumerate() {
                    fields(item, format!("{at}/{index}"), found);
                }
            }
            return;
        };
        for (key, child) in object {
            match key.as_str() {
                "allOf" | "anyOf" | "if" | "then" | "else" | "not" | "dependentRequired" => {}
                "properties" => {
                    for (name, field) in child.as_object().into_iter().flatten() {
                        found.push((format!("{at}/properties/{name}"), field));
                        fields(field, format!("{at}/properties/{name}"), found);
                    }
                }
                _ => fields(child, format!("{at}/{key}"), found),
            }
        }
    }

    #[test]
    fn references_resolve() {
        let schema = document_schema();
        let mut found = Vec::new();
        refs(&schema, &mut found);
        assert!(found.len() > 20);
        for target in found {
            let name = target.strip_prefix("#/$defs/").expect("a $defs reference");
            assert!(schema["$defs"].get(name).is_some(), "{target} resolves");
        }
    }

    #[test]
    fn every_field_has_both_descriptions() {
        let schema = document_schema();
        let mut found = Vec::new();
        fields(&schema, String::new(), &mut found);
        assert!(found.len() > 100, "{}", found.len());
        for (at, field) in found {
            let description = field["description"].as_str();
            assert!(
                description.is_some_and(|d| !d.is_empty()),
                "{at} has no description"
            );
            assert_eq!(
                field["markdownDescription"].as_str(),
                description,
                "{at} has no markdownDescription"
            );
            assert!(!description.unwrap_or_default().contains('\n'), "{at}");
        }
    }

    #[test]
    fn entries_dispatch_on_type_to_closed_kinds() {
        let schema = document_schema();
        let entry = &schema["$defs"]["Entry"];
        assert_eq!(entry["required"], serde_json::json!(["type"]));
        assert_eq!(
            entry["properties"]["type"]["enum"],
            serde_json::json!(Kind::names())
        );
        for kind in Kind::ALL {
            let rule = entry["allOf"]
                .as_array()
                .expect("allOf")
                .iter()
                .find(|rule| rule["if"]["properties"]["type"]["const"] == kind.as_str())
                .unwrap_or_else(|| panic!("no dispatch for {kind}"));
            let target = rule["then"]["$ref"].as_str().expect("then $ref");
            let def = &schema["$defs"][target.trim_start_matches("#/$defs/")];
            assert_eq!(def["additionalProperties"], false, "{kind} is closed");
            assert_eq!(def["properties"]["type"]["const"], kind.as_str());
        }
        assert!(schema["$defs"]["Merge"]["properties"].get("pipe").is_some());
        assert_eq!(
            schema["$defs"]["Stage"]["properties"]["type"]["enum"],
            serde_json::json!(["filter", "project", "derive", "sort", "cache"])
        );
    }

    #[test]
    fn values_take_the_decoders_forms() {
        let schema = document_schema();
        let defs = &schema["$defs"];
        let refresh = &defs["Http"]["properties"]["refresh"];
        assert_eq!(refresh["anyOf"][1]["const"], 0);
        assert!(refresh["anyOf"][0]["pattern"].is_string());
        assert_eq!(defs["Http"]["properties"]["timeout"]["default"], "10s");
        assert_eq!(defs["Http"]["properties"]["format"]["default"], "json");
        assert_eq!(defs["Http"]["properties"]["follow"]["default"], false);
        assert_eq!(
            defs["HttpWindow"]["properties"]["page_size"]["default"],
            100
        );
        assert_eq!(defs["HttpWindow"]["properties"]["page_size"]["minimum"], 0);
        assert_eq!(
            defs["Http"]["properties"]["body"]["type"],
            serde_json::json!(["string", "number", "boolean"])
        );
        assert_eq!(defs["Http"]["properties"]["url"]["type"], "string");
        assert_eq!(
            defs["Http"]["properties"]["url"]["pattern"],
            crate::url_scheme::pattern(crate::url_scheme::HTTP)
        );
        assert_eq!(
            defs["Http"]["properties"]["timeout"]["not"]["anyOf"][0]["const"],
            0
        );
        assert!(
            defs["ExecWindow"]["properties"]
                .get("offset_param")
                .is_none()
        );
        let growing = &defs["HttpWindow"]["properties"]["growing"]["anyOf"];
        assert_eq!(growing[0]["const"], true);
        assert_eq!(growing[1]["$ref"], "#/$defs/GrowingWhile");
        let text = schema["$defs"].to_string();
        assert!(!text.contains("\"null\""), "optional fields are absent");
        assert!(!text.contains("int64"));
    }

    #[test]
    fn the_method_pattern_reads_methods_in_any_case_and_templates() {
        let pattern = super::method_pattern();
        assert!(
            pattern.starts_with("^(?:[Gg][Ee][Tt]|[Pp][Oo][Ss][Tt]|"),
            "{pattern}"
        );
        assert!(pattern.ends_with(")$|\\$\\{"), "{pattern}");
    }
}
