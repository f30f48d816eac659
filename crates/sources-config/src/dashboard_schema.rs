//! The JSON Schema of the dashboard's side (`tui`, `app`, `actions`), generated from its
//! vocabulary ([`crate::vocabulary`]): one closed definition per block, the fields of each kind
//! (a component's or an action's `type`) stated with `if`/`then`, and the rules of one map a
//! schema can state (required fields, fields that exclude each other, exactly one layout node).

use serde_json::{Map, Value, json};

use crate::vocabulary::{
    ACTION_KINDS, Block, COLOR_NAMES, COMPONENT_KINDS, Field, THEME_TOKENS, Ty,
};

/// The blocks that can be written as a list item named by `name` or `id`, and the name of that
/// item's definition.
const LIST_ITEMS: &[(Block, &str)] = &[
    (Block::Component, "ComponentItem"),
    (Block::Screen, "ScreenItem"),
    (Block::Action, "ActionItem"),
];

/// The definitions of every block (and of the list items that name themselves), by name.
pub(crate) fn definitions(duration: &Value) -> Map<String, Value> {
    let mut defs = Map::new();
    for block in Block::ALL {
        defs.insert(
            block.schema_name().into(),
            definition(*block, duration, false),
        );
    }
    for (block, name) in LIST_ITEMS {
        defs.insert((*name).into(), definition(*block, duration, true));
    }
    defs
}

/// The schema of the value of `tui`, `app` or `actions`.
pub(crate) fn top_level(ty: Ty, description: &str, duration: &Value) -> Value {
    let mut schema = value_schema(ty, duration);
    if let Value::Object(object) = &mut schema {
        object.insert("description".into(), Value::from(description));
    }
    schema
}

fn reference(block: Block) -> Value {
    json!({ "$ref": format!("#/$defs/{}", block.schema_name()) })
}

fn item_reference(block: Block) -> Value {
    LIST_ITEMS
        .iter()
        .find(|(listed, _)| *listed == block)
        .map_or_else(
            || reference(block),
            |(_, name)| json!({ "$ref": format!("#/$defs/{name}") }),
        )
}

fn template() -> Value {
    json!({ "type": ["string", "number", "boolean"] })
}

fn color() -> Value {
    let names = COLOR_NAMES.join("|");
    let tokens = THEME_TOKENS.join("|");
    json!({
        "anyOf": [
            {
                "type": "string",
                "pattern": format!("^(theme:({tokens})|#[0-9a-fA-F]{{6}}|[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5]|(bright_)?({names}))$")
            },
            { "type": "integer", "minimum": 0, "maximum": 255 }
        ]
    })
}

/// The schema of a value of type `ty`.
fn value_schema(ty: Ty, duration: &Value) -> Value {
    match ty {
        Ty::Str => json!({ "type": "string" }),
        Ty::Template => template(),
        Ty::Path => json!({
            "anyOf": [{ "type": "string" }, { "type": "array", "items": { "type": "string" } }]
        }),
        Ty::Bool => json!({ "type": "boolean" }),
        Ty::Int(i64::MIN) => json!({ "type": "integer" }),
        Ty::Int(min) => json!({ "type": "integer", "minimum": min }),
        Ty::Duration => json!({
            "anyOf": [{ "type": "string", "pattern": duration }, { "const": 0 }]
        }),
        Ty::Color => color(),
        Ty::Glyph => json!({ "type": "string", "minLength": 1, "maxLength": 1 }),
        Ty::OneOf(names) => json!({ "enum": names }),
        Ty::Map(block) => reference(block),
        Ty::List(block) => json!({ "type": "array", "items": reference(block) }),
        Ty::Named(block) => json!({
            "type": ["object", "array"],
            "additionalProperties": reference(block),
            "items": item_reference(block)
        }),
        Ty::Templates => json!({ "type": "array", "items": template() }),
        Ty::Strings => json!({ "type": "array", "items": { "type": "string" } }),
        Ty::TemplateMap => json!({ "type": "object", "additionalProperties": template() }),
        Ty::Rows => json!({ "type": "array", "items": { "type": "array" } }),
    }
}

fn property(field: &Field, duration: &Value) -> Value {
    let mut schema = value_schema(field.ty, duration);
    let description = match field.on {
        [] => field.doc.to_owned(),
        kinds => format!("{} (On {}.)", field.doc, kinds.join(", ")),
    };
    match &mut schema {
        Value::Object(object) if object.contains_key("$ref") => {
            schema = json!({ "allOf": [schema], "description": description });
        }
        Value::Object(object) => {
            object.insert("description".into(), Value::from(description));
        }
        _ => {}
    }
    schema
}

fn not_both(a: &str, b: &str) -> Value {
    json!({ "not": { "required": [a, b] } })
}

/// `type` (or, on a component, `kind`) is `kind`.
fn is_kind(block: Block, kind: &str) -> Value {
    let mut forms =
        vec![json!({ "properties": { "type": { "const": kind } }, "required": ["type"] })];
    if block == Block::Component {
        forms.push(json!({ "properties": { "kind": { "const": kind } }, "required": ["kind"] }));
    }
    if matches!(block, Block::Action | Block::Binding) {
        let default = match kind {
            "exec" => Some(
                json!({ "not": { "anyOf": [{ "required": ["type"] }, { "required": ["push"] }] } }),
            ),
            "push" => Some(json!({ "not": { "required": ["type"] }, "required": ["push"] })),
            _ => None,
        };
        forms.extend(default);
    }
    json!({ "anyOf": forms })
}

/// What a map of `block` of `kind` must hold, as a schema.
fn kind_requirements(block: Block, kind: &str) -> Vec<Value> {
    match (block, kind) {
        (Block::Component, "list") => vec![json!({ "dependentRequired": { "source": ["item"] } })],
        (Block::Component, "table") => vec![
            json!({ "required": ["columns"] }),
            json!({
                "if": { "required": ["source"] },
                "then": { "properties": { "columns": { "items": { "required": ["value"] } } } }
            }),
            json!({
                "if": { "required": ["source", "markable"], "properties": { "markable": { "const": true } } },
                "then": { "required": ["mark_key"] }
            }),
            json!({ "dependentRequired": { "mark_key": ["source"] } }),
            json!({
                "if": { "required": ["mark_key"] },
                "then": { "required": ["markable"], "properties": { "markable": { "const": true } } }
            }),
        ],
        (Block::Component, "tree") => vec![
            json!({ "dependentRequired": { "source": ["label"] } }),
            json!({
                "if": { "not": { "anyOf": [{ "required": ["source"] }, { "required": ["on_cursor"] }] } },
                "then": { "required": ["root"] }
            }),
        ],
        (Block::Component, "eventlog") => vec![json!({ "required": ["source", "key", "text"] })],
        (Block::Action | Block::Binding, "exec") => vec![json!({ "required": ["run"] })],
        (Block::Action | Block::Binding, "http") => vec![json!({ "required": ["url"] })],
        (Block::Action | Block::Binding, "push") => vec![json!({ "required": ["push"] })],
        _ => Vec::new(),
    }
}

/// The `if`/`then` of each kind of a block whose fields depend on its kind: the fields of other
/// kinds are refused, and what the kind requires is required.
fn kind_rules(block: Block) -> Vec<Value> {
    let kinds: &[&str] = match block {
        Block::Component => COMPONENT_KINDS,
        Block::Action | Block::Binding => ACTION_KINDS,
        _ => return Vec::new(),
    };
    kinds
        .iter()
        .map(|kind| {
            let refused: Map<String, Value> = block
                .fields()
                .iter()
                .filter(|field| !field.applies_to(Some(kind)))
                .map(|field| (field.name.to_owned(), Value::Bool(false)))
                .collect();
            let mut then = vec![json!({ "properties": refused })];
            then.extend(kind_requirements(block, kind));
            json!({ "if": is_kind(block, kind), "then": { "allOf": then } })
        })
        .collect()
}

/// The rules of one map of `block` that a schema can state.
fn block_rules(block: Block) -> Vec<Value> {
    let mut rules: Vec<Value> = match block {
        Block::Tui => vec![
            not_both("screen", "screens"),
            json!({ "dependentRequired": { "screens": ["initial"] } }),
        ],
        Block::Component => vec![
            json!({ "anyOf": [{ "required": ["type"] }, { "required": ["kind"] }] }),
            not_both("type", "kind"),
            not_both("children", "group_by"),
            not_both("fields", "auto"),
            json!({ "dependentRequired": { "on_cursor": ["source"] } }),
        ],
        Block::Prompt => vec![
            json!({ "required": ["key"] }),
            not_both("required", "default"),
            not_both("mask", "options"),
        ],
        Block::Input => vec![not_both("required", "default"), not_both("mask", "options")],
        Block::EnvVar => vec![
            json!({ "required": ["name"] }),
            not_both("required", "default"),
        ],
        Block::Column => vec![json!({ "required": ["title"] })],
        Block::ColorRule => vec![json!({ "required": ["color"] })],
        Block::OnCursor => vec![json!({ "required": ["source"] })],
        Block::TreeNode | Block::InspectorField => vec![json!({ "required": ["label"] })],
        Block::Screen => vec![json!({ "required": ["layout"] })],
        Block::Zstack => vec![json!({ "required": ["base", "overlay"] })],
        Block::LayoutNode | Block::StackItem => {
            let one =
                ["vstack", "hstack", "zstack", "component"].map(|key| json!({ "required": [key] }));
            let mut rules = vec![json!({ "oneOf": one })];
            if block == Block::StackItem {
                rules.push(not_both("flex", "fixed"));
            }
            rules
        }
        Block::Binding => vec![
            json!({ "anyOf": [{ "required": ["action"] }, { "required": ["name"] }, { "required": ["push"] }] }),
            not_both("action", "name"),
        ],
        _ => Vec::new(),
    };
    match block {
        Block::Binding => rules.push(json!({
            "if": { "not": { "required": ["action"] } },
            "then": { "allOf": kind_rules(block) }
        })),
        _ => rules.extend(kind_rules(block)),
    }
    rules
}

fn definition(block: Block, duration: &Value, list_item: bool) -> Value {
    let mut properties: Map<String, Value> = block
        .fields()
        .iter()
        .map(|field| (field.name.to_owned(), property(field, duration)))
        .collect();
    if list_item {
        for name in ["name", "id"] {
            properties.entry(name).or_insert_with(|| {
                json!({ "type": "string", "description": "The item's name, as the key of the map form." })
            });
        }
    }
    let mut definition = json!({
        "description": format!("The fields of {}.", block.describe()),
        "type": "object",
        "properties": properties,
        "additionalProperties": false
    });
    let rules = block_rules(block);
    if !rules.is_empty()
        && let Value::Object(object) = &mut definition
    {
        object.insert("allOf".into(), Value::Array(rules));
    }
    definition
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_has_a_closed_definition() {
        let defs = definitions(&Value::from("^[0-9]+s$"));
        for block in Block::ALL {
            let def = &defs[block.schema_name()];
            assert_eq!(def["additionalProperties"], Value::Bool(false), "{block:?}");
            for field in block.fields() {
                assert!(
                    def["properties"].get(field.name).is_some(),
                    "{block:?}.{}",
                    field.name
                );
            }
        }
    }
}
