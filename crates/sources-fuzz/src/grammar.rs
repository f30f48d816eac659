//! Configurations generated from the one declaration of the format: the JSON Schema that
//! `sources_config::schema::document_schema` derives from the model. Every kind, field, nested
//! section, enum value and type comes from that schema, so a field added to the model is generated
//! without a change here; only the values are chosen by what a field is used for, from the
//! adversarial dictionary (`dictionary`). Each configuration has its own adversity: how often a
//! value is drawn from a pool's adversarial half, a type or enum value the schema refuses is
//! written, or a reference goes back up the list of entries (so most configurations are a few
//! deliberate mistakes away from valid, and a fair share lint clean). References name the
//! configuration's own entries, and parameter names come from a small shared pool, so operators
//! pass parameters to the entries they read and expressions and templates use them. Each configuration is written as YAML or TOML
//! (`emit`), deterministically for a (run seed, index) pair.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};
use sources_config::enums::{Enumeration, Kind};
use sources_syntax::Syntax;

use crate::dictionary as dict;
use crate::emit;
use crate::mutate::Input;

/// The schema's definitions, and the kinds an entry can be (with the definition of each).
pub struct Grammar {
    defs: Map<String, Value>,
    kinds: Vec<(String, Value)>,
}

impl Default for Grammar {
    fn default() -> Grammar {
        Grammar::new()
    }
}

/// Parameter names: a small pool, so that entries and the operators over them share names.
const PARAM_NAMES: &[&str] = &["id", "q", "n", "host", "é"];

impl Grammar {
    /// The grammar of the format's JSON Schema.
    pub fn new() -> Grammar {
        let schema = sources_config::schema::document_schema();
        let defs = schema
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let kinds = defs
            .get("Entry")
            .map(|entry| dispatch(entry, &defs))
            .unwrap_or_default();
        Grammar { defs, kinds }
    }

    /// The kinds the schema declares, in its order.
    pub fn kinds(&self) -> impl Iterator<Item = &str> {
        self.kinds.iter().map(|(kind, _)| kind.as_str())
    }

    /// Input `index` of the run `seed`: a whole configuration.
    pub fn input(&self, seed: u64, index: u64) -> Input {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let document = self.document(&mut rng);
        let syntax = if rng.random_bool(0.25) {
            Syntax::Toml
        } else {
            Syntax::Yaml
        };
        let text = match syntax {
            Syntax::Yaml => emit::yaml(&document, &mut rng),
            Syntax::Toml => emit::toml(&document, &mut rng),
        };
        // The editor's previous version: the configuration with one mutation across its entries
        // (a reference pointed elsewhere, an entry renamed, deleted or duplicated).
        let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
        let edit = crate::references::mutate(&mut rng, syntax, &mut lines);
        Input {
            bytes: text.into_bytes(),
            syntax,
            origin: format!("the grammar (seed {seed}, index {index}; edited from it by: {edit})"),
            before: lines.join("\n"),
        }
    }

    /// A document: `data.sources` with one to five entries, sometimes components binding them.
    pub fn document(&self, rng: &mut ChaCha8Rng) -> Value {
        let adversity = *[0.0, 0.02, 0.05, 0.1, 0.3].choose(rng).unwrap_or(&0.05);
        let count = rng.random_range(1..=5);
        let mut names: Vec<String> = Vec::new();
        while names.len() < count {
            let name = if rng.random_bool(0.7) {
                format!("e{}", names.len())
            } else if rng.random_bool(adversity) {
                pick(rng, dict::NAMES.adversarial).to_owned()
            } else {
                pick(rng, dict::NAMES.ordinary).to_owned()
            };
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let mut sources = Map::new();
        for (index, name) in names.iter().enumerate() {
            // Mostly the entries after this one: references form no cycle.
            let below = if rng.random_bool(adversity) {
                &names[..]
            } else {
                &names[index + 1..]
            };
            let entry = self.entry(rng, below, adversity);
            sources.insert(name.clone(), entry);
        }
        let mut document = json!({"data": {"sources": sources}});
        if rng.random_bool(0.1)
            && let Some(component) = self.defs.get("Component")
        {
            let mut generator = Generator::new(rng, &self.defs, &names, "component", adversity);
            let component = generator.value(component, &["component"]);
            document["tui"] = json!({"components": {"main": component}});
        }
        document
    }

    /// One entry of a kind drawn from the schema.
    fn entry(&self, rng: &mut ChaCha8Rng, names: &[String], adversity: f64) -> Value {
        // With no entry to read, a kind that reads none.
        let kinds: Vec<&(String, Value)> = self
            .kinds
            .iter()
            .filter(|(kind, _)| !names.is_empty() || reads_no_entry(kind))
            .collect();
        let Some((kind, def)) = kinds.choose(rng).copied() else {
            return Value::Null;
        };
        let mut generator = Generator::new(rng, &self.defs, names, kind, adversity);
        generator.object(def, &[])
    }
}

/// Whether entries of `kind` read no other entry (a leaf kind other than `merge`).
fn reads_no_entry(kind: &str) -> bool {
    Kind::from_name(kind).is_some_and(|kind| kind.is_leaf() && kind != Kind::Merge)
}

/// The branches of an `allOf` of `if {type: const}` / `then {$ref}` (how the schema dispatches an
/// entry or a stage on its `type`), each with its resolved definition.
fn dispatch(schema: &Value, defs: &Map<String, Value>) -> Vec<(String, Value)> {
    schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|branch| {
            let kind = branch.pointer("/if/properties/type/const")?.as_str()?;
            let then = resolve(branch.get("then")?, defs)?;
            Some((kind.to_owned(), then.clone()))
        })
        .collect()
}

/// Whether `object` meets `condition` (the parts of JSON Schema the format's rules use: `required`,
/// `allOf`, and per property `const`, `minLength` and `required`).
fn holds(condition: &Value, object: &Map<String, Value>) -> bool {
    let all = condition
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .all(|part| holds(part, object));
    let present = required(condition)
        .iter()
        .all(|name| object.contains_key(*name));
    let properties = condition
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .all(|(name, rule)| {
            let Some(value) = object.get(name) else {
                return true;
            };
            rule.get("const").is_none_or(|constant| constant == value)
                && rule
                    .get("minLength")
                    .is_none_or(|_| value.as_str().is_none_or(|text| !text.is_empty()))
                && required(rule).iter().all(|inner| {
                    value
                        .as_object()
                        .is_some_and(|map| map.contains_key(*inner))
                })
        });
    all && present && properties
}

/// The fields `condition` requires, its own and its `allOf` parts'.
fn required(condition: &Value) -> Vec<&str> {
    let own = condition
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    let parts = condition
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(required);
    own.chain(parts).collect()
}

fn resolve<'a>(schema: &'a Value, defs: &'a Map<String, Value>) -> Option<&'a Value> {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => defs.get(reference.strip_prefix("#/$defs/")?),
        None => Some(schema),
    }
}

fn pick<'a>(rng: &mut ChaCha8Rng, list: &[&'a str]) -> &'a str {
    list.choose(rng).copied().unwrap_or_default()
}

/// Fields only an entry has, never a `pipe` stage.
const ENTRY_ONLY: &[&str] = &["from", "pipe", "parameters"];

/// The state of one entry's generation: its kind, the entry names it may reference and the
/// parameters it declares (for tokens and expressions).
struct Generator<'g> {
    rng: &'g mut ChaCha8Rng,
    defs: &'g Map<String, Value>,
    names: &'g [String],
    kind: &'g str,
    params: Vec<String>,
    /// How often a value is adversarial or of a type the schema refuses.
    adversity: f64,
}

impl<'g> Generator<'g> {
    fn new(
        rng: &'g mut ChaCha8Rng,
        defs: &'g Map<String, Value>,
        names: &'g [String],
        kind: &'g str,
        adversity: f64,
    ) -> Generator<'g> {
        Generator {
            rng,
            defs,
            names,
            kind,
            params: Vec::new(),
            adversity,
        }
    }

    /// A value from `pool`: an adversarial one with the configuration's adversity.
    fn draw(&mut self, pool: &dict::Pool) -> &'static str {
        let list = if self.rng.random_bool(self.adversity) || pool.ordinary.is_empty() {
            pool.adversarial
        } else {
            pool.ordinary
        };
        pick(self.rng, list)
    }

    /// A value for `schema` at `path` (property names; `*` for a map's value, `[]` for an item).
    fn value(&mut self, schema: &Value, path: &[&str]) -> Value {
        let Some(schema) = resolve(schema, self.defs) else {
            return Value::Null;
        };
        if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
            // The first branch is the usual spelling (`10s` before `0`).
            let branch = if self.rng.random_bool(0.7) {
                branches.first()
            } else {
                branches.choose(self.rng)
            };
            if let Some(branch) = branch {
                return self.value(branch, path);
            }
        }
        let branches = dispatch(schema, self.defs);
        if let Some((_, def)) = branches.choose(self.rng) {
            return self.object(def, path);
        }
        if let Some(constant) = schema.get("const") {
            return constant.clone();
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array)
            && let Some(value) = values.choose(self.rng)
            && !self.rng.random_bool(self.adversity / 4.0)
        {
            return value.clone();
        }
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        // Mostly the first type the schema allows; now and then another, or one it refuses.
        let chosen = match types.as_slice() {
            [] => return self.free(path),
            [first, ..] if self.rng.random_bool(0.85) => *first,
            _ if self.rng.random_bool(self.adversity / 2.0) => {
                *["string", "integer", "boolean", "array", "object", "null"]
                    .choose(self.rng)
                    .unwrap_or(&"null")
            }
            _ => *types.choose(self.rng).unwrap_or(&"null"),
        };
        match chosen {
            "object" => self.object(schema, path),
            "array" => {
                let items = schema.get("items").cloned().unwrap_or(json!({}));
                let count = self.count();
                let mut item_path = path.to_vec();
                item_path.push("[]");
                let mut out: Vec<Value> =
                    (0..count).map(|_| self.value(&items, &item_path)).collect();
                if path.last() == Some(&"command") && !out.is_empty() && self.rng.random_bool(0.6) {
                    out[0] = json!("echo");
                }
                Value::Array(out)
            }
            "integer" | "number" => self.integer(),
            "boolean" => Value::Bool(self.rng.random_bool(0.5)),
            "null" => Value::Null,
            _ => Value::String(self.string(path)),
        }
    }

    /// An object: every property of `schema` (required ones nearly always, others now and then,
    /// `parameters` first so the rest can use them), and keys of its `additionalProperties`.
    fn object(&mut self, schema: &Value, path: &[&str]) -> Value {
        let mut out = Map::new();
        let properties = schema.get("properties").and_then(Value::as_object);
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        if let Some(properties) = properties {
            let mut order: Vec<(&String, &Value)> = properties.iter().collect();
            order.sort_by_key(|(name, _)| name.as_str() != "parameters");
            let stage = path.contains(&"pipe");
            for (name, property) in order {
                let wanted = if stage && ENTRY_ONLY.contains(&name.as_str()) {
                    self.adversity / 4.0
                } else if required.contains(&name.as_str()) || name == "type" || name == "from" {
                    1.0 - self.adversity / 4.0
                } else if name == "parameters" {
                    0.5
                } else {
                    0.25
                };
                if !self.rng.random_bool(wanted) {
                    continue;
                }
                let mut inner = path.to_vec();
                inner.push(name);
                let value = if name == "parameters" {
                    self.parameters(property)
                } else {
                    self.value(property, &inner)
                };
                out.insert(name.clone(), value);
            }
        }
        match schema.get("additionalProperties") {
            Some(Value::Bool(true)) => {
                for _ in 0..self.rng.random_range(0..=2) {
                    let key = self.draw(&dict::STRINGS).to_owned();
                    let value = if self.rng.random_bool(0.7) {
                        json!("${window.cursor}")
                    } else {
                        self.free(path)
                    };
                    out.insert(key, value);
                }
            }
            Some(additional @ Value::Object(_)) => {
                let mut inner = path.to_vec();
                inner.push("*");
                for _ in 0..self.count() {
                    let key = self.key(path);
                    let value = self.value(additional, &inner);
                    out.insert(key, value);
                }
            }
            _ => {}
        }
        if !self.rng.random_bool(self.adversity) {
            self.repair(schema, &mut out, path);
        }
        Value::Object(out)
    }

    /// How many items a list or map gets: one to three, none with the configuration's adversity.
    fn count(&mut self) -> usize {
        if self.rng.random_bool(self.adversity) {
            0
        } else {
            self.rng.random_range(1..=3)
        }
    }

    /// Makes `object` keep the rules `schema` states across its fields (its `allOf`): one of the
    /// fields an `anyOf` of `required` asks for is added, a combination a `not` forbids loses its
    /// last field, and a field whose `dependentRequired` is missing is removed.
    fn repair(&mut self, schema: &Value, object: &mut Map<String, Value>, path: &[&str]) {
        let rules = schema.get("allOf").and_then(Value::as_array);
        for rule in rules.into_iter().flatten() {
            if let Some(branches) = rule.get("anyOf").and_then(Value::as_array) {
                let wanted: Vec<&str> = branches
                    .iter()
                    .filter_map(|branch| branch.pointer("/required/0")?.as_str())
                    .collect();
                if !wanted.is_empty()
                    && !wanted.iter().any(|name| object.contains_key(*name))
                    && let Some(name) = wanted.choose(self.rng)
                    && let Some(property) = schema.pointer(&format!("/properties/{name}"))
                {
                    let mut inner = path.to_vec();
                    inner.push(name);
                    let value = self.value(property, &inner);
                    object.insert((*name).to_owned(), value);
                }
            }
            if let Some(forbidden) = rule.get("not")
                && holds(forbidden, object)
                && let Some(last) = required(forbidden).last()
            {
                object.remove(*last);
            }
            if let Some(dependent) = rule.get("dependentRequired").and_then(Value::as_object) {
                for (field, needs) in dependent {
                    let needs = needs
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str);
                    if object.contains_key(field)
                        && needs.clone().any(|need| !object.contains_key(need))
                    {
                        object.remove(field);
                    }
                }
            }
        }
    }

    /// An entry's `parameters`: names from the shared pool, each declaration generated from the
    /// schema with a default of (mostly) its declared type.
    fn parameters(&mut self, schema: &Value) -> Value {
        let declaration = schema
            .get("additionalProperties")
            .cloned()
            .unwrap_or(json!({}));
        let mut out = Map::new();
        for _ in 0..self.rng.random_range(1..=3) {
            let name = if self.rng.random_bool(0.9) {
                pick(self.rng, PARAM_NAMES)
            } else {
                self.draw(&dict::NAMES)
            }
            .to_owned();
            let Some(def) = resolve(&declaration, self.defs) else {
                continue;
            };
            let mut value = self.object(def, &["parameter"]);
            // The default is drawn for the type the generator chose, whichever order it came in.
            if let Some(object) = value.as_object_mut()
                && object.contains_key("default")
            {
                let kind = object
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("string");
                let default = self.default_of(kind);
                object.insert("default".to_owned(), default);
            }
            out.insert(name.clone(), value);
            self.params.push(name);
        }
        Value::Object(out)
    }

    /// A default for a parameter of type `kind`: mostly text of that type, sometimes a typed YAML
    /// scalar, sometimes one of another type.
    fn default_of(&mut self, kind: &str) -> Value {
        let pool = match kind {
            "int" => &dict::INT_DEFAULTS,
            "bool" => &dict::BOOL_DEFAULTS,
            "duration" => &dict::DURATIONS,
            _ => &dict::STRING_DEFAULTS,
        };
        let text = self.draw(pool);
        if self.rng.random_bool(0.3) {
            if let Ok(number) = text.parse::<i64>() {
                return json!(number);
            }
            if let Ok(flag) = text.parse::<bool>() {
                return json!(flag);
            }
        }
        json!(text)
    }

    /// A key of a map at `path`.
    fn key(&mut self, path: &[&str]) -> String {
        match path.last().copied() {
            Some("headers") => self.draw(&dict::HEADER_NAMES).to_owned(),
            Some("env") => self
                .draw(&dict::Pool {
                    ordinary: &["K", "HOME", "A B"],
                    adversarial: &["", "K\u{0}", "K=V"],
                })
                .to_owned(),
            Some("parts" | "lookups" | "compute" | "keep" | "sorts" | "filters" | "tags") => self
                .draw(&dict::Pool {
                    ordinary: &["a", "id", "name", "é"],
                    adversarial: &["", " "],
                })
                .to_owned(),
            Some("on") => pick(self.rng, PARAM_NAMES).to_owned(),
            _ => self.draw(&dict::NAMES).to_owned(),
        }
    }

    /// An integer, at a bound with the configuration's adversity.
    fn integer(&mut self) -> Value {
        let adversarial = self.rng.random_bool(self.adversity);
        if adversarial && self.rng.random_bool(0.1) {
            return json!(1.5);
        }
        let list = if adversarial {
            dict::BOUND_INTEGERS
        } else {
            dict::INTEGERS
        };
        let number = list.choose(self.rng).copied().unwrap_or(0);
        match (i64::try_from(number), u64::try_from(number)) {
            (Ok(small), _) => json!(small),
            (_, Ok(large)) => json!(large),
            _ => json!(0),
        }
    }

    /// A value where the schema says nothing (a `static` entry's `data`): rows, or a scalar.
    fn free(&mut self, path: &[&str]) -> Value {
        match self.rng.random_range(0..4) {
            0 => json!([{"id": 1, "name": "a", "size": 3}, {"id": 2, "name": "é", "size": -1}]),
            1 => json!({"items": [{"id": 1}], "next": null}),
            2 => json!(self.string(path)),
            _ => json!([]),
        }
    }

    /// A string for the field at `path`, from the part of the dictionary for what it is used for.
    fn string(&mut self, path: &[&str]) -> String {
        let field = path
            .iter()
            .rev()
            .find(|step| !matches!(**step, "*" | "[]"))
            .copied()
            .unwrap_or_default();
        let pool = match field {
            "url" if self.kind == "websocket" => &dict::WS_URLS,
            "url" => &dict::HTTP_URLS,
            "headers" => &dict::HEADER_VALUES,
            "command" | "env" => &dict::ARGS,
            "path" => &dict::PATHS,
            "method" => &dict::METHODS,
            "body" | "initial_messages" => &dict::BODIES,
            "timeout" | "refresh" | "ttl" | "follow_every" => &dict::DURATIONS,
            "where" | "while" | "by" | "compute" | "keep" | "on" => &dict::EXPRESSIONS,
            "from" | "source" | "sources" | "parts" => return self.reference(),
            "root" | "next_path" | "total_path" | "cursor" => &dict::DOT_PATHS,
            "default" | "options" => &dict::STRING_DEFAULTS,
            _ => &dict::STRINGS,
        };
        let template = self.draw(pool);
        self.fill(template)
    }

    /// The name of an entry this one may read, now and then of none.
    fn reference(&mut self) -> String {
        if !self.rng.random_bool(self.adversity / 4.0)
            && let Some(name) = self.names.choose(self.rng)
        {
            return name.clone();
        }
        self.draw(&dict::NAMES).to_owned()
    }

    /// `template` with `{p}` replaced by a `${params.NAME}` token and `{q}` by a `params.NAME`
    /// of this entry (of an undeclared name now and then, or a literal when it declares none).
    fn fill(&mut self, template: &str) -> String {
        if !template.contains("{p}") && !template.contains("{q}") {
            return template.to_owned();
        }
        let name = match self.params.choose(self.rng) {
            Some(name) if self.rng.random_bool(0.9) => Some(name.clone()),
            _ if self.rng.random_bool(0.5) => Some(pick(self.rng, PARAM_NAMES).to_owned()),
            _ => None,
        };
        let (token, reference) = match &name {
            Some(name) => (format!("${{params.{name}}}"), format!("params.{name}")),
            None => ("x".to_owned(), "1".to_owned()),
        };
        template.replace("{p}", &token).replace("{q}", &reference)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_the_schema_is_generated() {
        let grammar = Grammar::new();
        let kinds: Vec<&str> = grammar.kinds().collect();
        assert!(
            kinds.contains(&"http") && kinds.contains(&"join"),
            "{kinds:?}"
        );
        let mut seen = std::collections::BTreeSet::new();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..500 {
            let document = grammar.document(&mut rng);
            for entry in document["data"]["sources"]
                .as_object()
                .into_iter()
                .flatten()
            {
                if let Some(kind) = entry.1["type"].as_str() {
                    seen.insert(kind.to_owned());
                }
            }
        }
        let missing: Vec<&str> = kinds
            .iter()
            .filter(|k| !seen.contains(**k))
            .copied()
            .collect();
        assert!(missing.is_empty(), "kinds never generated: {missing:?}");
    }

    #[test]
    fn an_input_is_a_function_of_the_seed_and_index() {
        let grammar = Grammar::new();
        assert_eq!(grammar.input(3, 41).bytes, grammar.input(3, 41).bytes);
        assert_ne!(grammar.input(3, 41).bytes, grammar.input(3, 42).bytes);
    }
}
