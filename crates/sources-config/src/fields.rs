//! Field knowledge for the other crates (unknown-field suggestions, hover, completion), built once
//! from the JSON Schema that schemars generates from the model's doc comments: the doc comment on
//! a model field is the only place its meaning is written.

use std::collections::HashMap;
use std::sync::LazyLock;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::{Map, Value};

use crate::enums::{Enumeration, Kind};
use crate::model::{
    Body, CacheSpec, GrowingWhile, JoinDriver, JoinLookup, MergeChild, Paginate, Parameter, Window,
};

/// One field of a kind or section: its name, documentation and whether it is required.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// The key users write.
    pub name: String,
    /// The field's documentation (from its doc comment): meaning, type, default.
    pub doc: String,
    /// Whether the schema marks it required.
    pub required: bool,
    /// The value's type as users would describe it (`string`, `list of string`, `duration`).
    pub ty: String,
    /// The value that applies when the field is not written, as users would write it (the
    /// schema's `default`), when there is one.
    pub default: Option<String>,
}

impl FieldInfo {
    /// The first sentence of the documentation.
    pub fn summary(&self) -> &str {
        first_sentence(&self.doc)
    }
}

/// Doc comment lines joined into one paragraph.
fn normalize(doc: &str) -> String {
    doc.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn first_sentence(doc: &str) -> &str {
    doc.find(". ")
        .map_or(doc.trim_end_matches('.'), |end| &doc[..end])
}

/// The nested maps that have fields of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// One declaration under `parameters`.
    Parameter,
    /// `paginate`.
    Paginate,
    /// `window`.
    Window,
    /// `window.growing` as a map.
    Growing,
    /// `cache` on a leaf.
    Cache,
    /// One item of `children`.
    MergeChild,
    /// A join's `driver`.
    JoinDriver,
    /// One of a join's `lookups`.
    JoinLookup,
}

impl Section {
    /// Every section.
    pub const ALL: &'static [Section] = &[
        Section::Parameter,
        Section::Paginate,
        Section::Window,
        Section::Growing,
        Section::Cache,
        Section::MergeChild,
        Section::JoinDriver,
        Section::JoinLookup,
    ];

    /// The key the section is written under (for the ones that have a fixed key).
    pub fn key(self) -> &'static str {
        match self {
            Section::Parameter => "parameters",
            Section::Paginate => "paginate",
            Section::Window => "window",
            Section::Growing => "growing",
            Section::Cache => "cache",
            Section::MergeChild => "children",
            Section::JoinDriver => "driver",
            Section::JoinLookup => "lookups",
        }
    }
}

struct Knowledge {
    entry_schema: Value,
    kinds: HashMap<Kind, (String, Vec<FieldInfo>)>,
    sections: HashMap<Section, Vec<FieldInfo>>,
    /// Each field name of an entry kind, with the kinds that have it in [`Kind::ALL`]'s order: the
    /// decoder asks for every unknown field, and a document can have one in every entry.
    kinds_by_field: HashMap<String, Vec<Kind>>,
}

fn settings() -> SchemaSettings {
    SchemaSettings::draft2020_12()
}

fn schema_value<T: JsonSchema>() -> Value {
    let mut value = settings()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    tidy(&mut value);
    // Fields in name order, as the reference lists them (serde_json keeps insertion order).
    value.sort_all_objects();
    value
}

/// Makes the generated schema say what the decoder accepts: optional fields are absent, never
/// `null`; doc comment lines become one paragraph.
fn tidy(value: &mut Value) {
    match value {
        Value::Object(object) => {
            crate::schema::drop_null(object);
            if let Some(Value::String(description)) = object.get_mut("description") {
                *description = normalize(description);
            }
            object.values_mut().for_each(tidy);
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// A `pipe` stage: one of the stage kinds, with that operator's fields but no `from` (a stage reads
/// the stage before it).
fn stage_schema(defs: &Map<String, Value>) -> Value {
    let kinds = [
        (Kind::Filter, "Filter"),
        (Kind::Project, "Project"),
        (Kind::Derive, "Derive"),
        (Kind::Sort, "Sort"),
        (Kind::Cache, "CacheOperator"),
    ];
    let variants: Vec<Value> = kinds
        .iter()
        .filter_map(|(kind, def)| {
            let mut variant = defs.get(*def)?.as_object()?.clone();
            if let Some(Value::Object(properties)) = variant.get_mut("properties") {
                properties.remove("from");
                properties.insert(
                    "type".into(),
                    serde_json::json!({ "type": "string", "const": kind.as_str() }),
                );
            }
            let mut required: Vec<Value> = variant
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|name| *name != "from")
                .cloned()
                .collect();
            required.push(Value::from("type"));
            variant.insert("required".into(), Value::Array(required));
            variant.insert("additionalProperties".into(), Value::Bool(false));
            Some(Value::Object(variant))
        })
        .collect();
    serde_json::json!({
        "description": "A transform stage: `filter`, `project`, `derive`, `sort` or `cache`, without `from` (it reads the stage before it).",
        "oneOf": variants
    })
}

/// Closes the section maps and the entry variants, so that editors flag unknown keys as the
/// linter does.
fn close_objects(schema: &mut Value) {
    let sections = [
        "Parameter",
        "Paginate",
        "Window",
        "GrowingWhile",
        "CacheSpec",
        "MergeChild",
        "JoinDriver",
        "JoinLookup",
    ];
    if let Some(Value::Object(defs)) = schema.get_mut("$defs") {
        for name in sections {
            if let Some(Value::Object(def)) = defs.get_mut(name) {
                def.insert("additionalProperties".into(), Value::Bool(false));
            }
        }
    }
    if let Some(Value::Object(defs)) = schema.get_mut("$defs") {
        let stage = stage_schema(defs);
        defs.insert("Stage".into(), stage);
    }
    if let Some(Value::Array(variants)) = schema.get_mut("oneOf") {
        for variant in variants.iter_mut() {
            if let Value::Object(variant) = variant {
                variant.insert("unevaluatedProperties".into(), Value::Bool(false));
            }
        }
    }
}

static KNOWLEDGE: LazyLock<Knowledge> = LazyLock::new(|| {
    let mut entry_schema = schema_value::<Body>();
    close_objects(&mut entry_schema);
    let defs = entry_schema
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut kinds = HashMap::new();
    let variants = entry_schema
        .get("oneOf")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for variant in &variants {
        let mut object = ObjectInfo::default();
        object.collect(variant, &defs);
        object.defs = defs.clone();
        let kind_name = object
            .properties
            .get("type")
            .and_then(|schema| schema.get("const"))
            .and_then(Value::as_str)
            .and_then(Kind::from_name);
        if let Some(kind) = kind_name {
            let summary = normalize(
                variant
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            );
            let mut fields = object.into_fields();
            for field in fields.iter_mut().filter(|field| field.name == "type") {
                field.doc = format!("The entry's kind: `{kind}`. {summary}");
            }
            kinds.insert(kind, (summary, fields));
        }
    }
    let mut sections = HashMap::new();
    for section in Section::ALL {
        let schema = match section {
            Section::Parameter => schema_value::<Parameter>(),
            Section::Paginate => schema_value::<Paginate>(),
            Section::Window => schema_value::<Window>(),
            Section::Growing => schema_value::<GrowingWhile>(),
            Section::Cache => schema_value::<CacheSpec>(),
            Section::MergeChild => schema_value::<MergeChild>(),
            Section::JoinDriver => schema_value::<JoinDriver>(),
            Section::JoinLookup => schema_value::<JoinLookup>(),
        };
        let defs = schema
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let mut object = ObjectInfo::default();
        object.collect(&schema, &defs);
        object.defs = defs;
        sections.insert(*section, object.into_fields());
    }
    let mut kinds_by_field: HashMap<String, Vec<Kind>> = HashMap::new();
    for kind in Kind::ALL {
        for field in kinds
            .get(kind)
            .map_or(&[][..], |(_, fields)| fields.as_slice())
        {
            let with = kinds_by_field.entry(field.name.clone()).or_default();
            if !with.contains(kind) {
                with.push(*kind);
            }
        }
    }
    Knowledge {
        entry_schema,
        kinds,
        sections,
        kinds_by_field,
    }
});

/// The properties of an object schema, following `$ref` and `allOf`.
#[derive(Default)]
struct ObjectInfo {
    order: Vec<String>,
    properties: HashMap<String, Value>,
    required: Vec<String>,
    defs: Map<String, Value>,
}

impl ObjectInfo {
    fn collect(&mut self, schema: &Value, defs: &Map<String, Value>) {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str)
            && let Some(target) = reference
                .strip_prefix("#/$defs/")
                .and_then(|name| defs.get(name))
        {
            self.collect(target, defs);
        }
        for part in schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.collect(part, defs);
        }
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            for (name, property) in properties {
                if !self.properties.contains_key(name) {
                    self.order.push(name.clone());
                }
                self.properties.insert(name.clone(), property.clone());
            }
        }
        for name in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(name) = name.as_str() {
                self.required.push(name.to_string());
            }
        }
    }

    fn into_fields(self) -> Vec<FieldInfo> {
        self.order
            .iter()
            .map(|name| FieldInfo {
                name: name.clone(),
                doc: normalize(
                    self.properties
                        .get(name)
                        .and_then(|schema| schema.get("description"))
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                ),
                required: self.required.contains(name),
                ty: self
                    .properties
                    .get(name)
                    .map_or_else(|| "any".to_owned(), |schema| type_label(schema, &self.defs)),
                default: self
                    .properties
                    .get(name)
                    .and_then(crate::schema::stated_default)
                    .map(|default| match default {
                        Value::String(text) => text,
                        other => other.to_string(),
                    }),
            })
            .collect()
    }
}

/// A short description of the values `schema` accepts: `string`, `integer`, `list of string`,
/// `map of string to string`, `duration`, `` `fail` or `skip` ``, `paginate map`.
fn type_label(schema: &Value, defs: &Map<String, Value>) -> String {
    if let Some(constant) = schema.get("const") {
        return match constant {
            Value::String(text) => format!("`{text}`"),
            other => format!("`{other}`"),
        };
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let names: Vec<String> = values
            .iter()
            .map(|value| format!("`{}`", value.as_str().unwrap_or_default()))
            .collect();
        return names.join(" or ");
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.strip_prefix("#/$defs/").unwrap_or(reference);
        return match name {
            "CacheSpec" => "cache map".to_owned(),
            "Paginate" => "paginate map".to_owned(),
            "HttpWindow" | "ExecWindow" | "Window" => "window map".to_owned(),
            "GrowingWhile" => "growing map".to_owned(),
            "Parameter" => "parameter map".to_owned(),
            "MergeChild" => "child map".to_owned(),
            "JoinLookup" => "lookup map".to_owned(),
            "Stage" => "stage map".to_owned(),
            other => defs
                .get(other)
                .map_or_else(|| "map".to_owned(), |target| type_label(target, defs)),
        };
    }
    if let Some(options) = schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))
        .and_then(Value::as_array)
    {
        let labels: Vec<String> = options
            .iter()
            .map(|option| type_label(option, defs))
            .collect();
        return labels.join(" or ");
    }
    if schema
        .get("pattern")
        .and_then(Value::as_str)
        .is_some_and(|pattern| pattern.contains("ms|s|m|h"))
    {
        return "duration".to_owned();
    }
    match schema.get("type") {
        Some(Value::Array(_)) => "string".to_owned(),
        Some(Value::String(name)) => match name.as_str() {
            "array" => match schema.get("items") {
                Some(items) => format!("list of {}", type_label(items, defs)),
                None => "list".to_owned(),
            },
            "object" => match schema.get("additionalProperties") {
                Some(Value::Object(_)) => format!(
                    "map of string to {}",
                    type_label(&schema["additionalProperties"], defs)
                ),
                Some(Value::Bool(false)) if schema.get("properties").is_some() => "map".to_owned(),
                _ => "map".to_owned(),
            },
            other => other.to_owned(),
        },
        _ => "any".to_owned(),
    }
}

/// The fields an entry of `kind` accepts (including `type`); `type` comes last.
pub fn for_kind(kind: Kind) -> &'static [FieldInfo] {
    KNOWLEDGE
        .kinds
        .get(&kind)
        .map_or(&[], |(_, fields)| fields.as_slice())
}

/// One paragraph on what an entry of `kind` does.
pub fn kind_summary(kind: Kind) -> &'static str {
    KNOWLEDGE
        .kinds
        .get(&kind)
        .map_or("", |(summary, _)| summary.as_str())
}

/// The fields of a nested section.
pub fn for_section(section: Section) -> &'static [FieldInfo] {
    KNOWLEDGE.sections.get(&section).map_or(&[], Vec::as_slice)
}

/// The field `name` of `kind`, if it has one.
pub fn field(kind: Kind, name: &str) -> Option<&'static FieldInfo> {
    for_kind(kind).iter().find(|info| info.name == name)
}

/// The kinds that have a field `name`, in kind order.
pub fn kinds_with_field(name: &str) -> Vec<Kind> {
    KNOWLEDGE
        .kinds_by_field
        .get(name)
        .cloned()
        .unwrap_or_default()
}

/// A section (window, paginate, cache) that has a field `name` no entry kind has.
pub fn section_with_field(name: &str) -> Option<Section> {
    if !kinds_with_field(name).is_empty() {
        return None;
    }
    [Section::Window, Section::Paginate, Section::Cache]
        .into_iter()
        .find(|section| for_section(*section).iter().any(|info| info.name == name))
}

/// The JSON Schema (draft 2020-12) of one `data.sources` entry, with its `$defs`.
pub fn entry_schema() -> &'static Value {
    &KNOWLEDGE.entry_schema
}

/// The JSON Schema of one entry as a [`Schema`].
pub fn entry_schema_object() -> Schema {
    Schema::try_from(KNOWLEDGE.entry_schema.clone()).unwrap_or_default()
}

/// The documentation of the field at `path` inside an entry of `kind`: `["url"]`,
/// `["window", "page_size"]`, `["parameters", "id", "default"]`, `["children", "0", "tags"]`,
/// `["lookups", "detail", "on"]`, `["window", "growing", "while"]`. Map keys and list indices
/// that are names (a parameter's name, a lookup's name, a child's index) are skipped over.
pub fn lookup(kind: Kind, path: &[&str]) -> Option<&'static FieldInfo> {
    let (first, rest) = path.split_first()?;
    let field = self::field(kind, first)?;
    let section = match *first {
        "window" => Section::Window,
        "paginate" => Section::Paginate,
        "cache" if kind.is_leaf() => Section::Cache,
        "driver" => Section::JoinDriver,
        "parameters" => Section::Parameter,
        "children" => Section::MergeChild,
        "lookups" => Section::JoinLookup,
        _ => return rest.is_empty().then_some(field),
    };
    let rest = match section {
        Section::Parameter | Section::MergeChild | Section::JoinLookup => {
            match rest.split_first() {
                Some((_, inner)) => inner,
                None => return Some(field),
            }
        }
        _ => rest,
    };
    let Some((name, deeper)) = rest.split_first() else {
        return Some(field);
    };
    let inner = for_section(section)
        .iter()
        .find(|info| info.name == *name)?;
    if section == Section::Window && *name == "growing" && !deeper.is_empty() {
        return for_section(Section::Growing)
            .iter()
            .find(|info| Some(&info.name.as_str()) == deeper.first());
    }
    deeper.is_empty().then_some(inner)
}
