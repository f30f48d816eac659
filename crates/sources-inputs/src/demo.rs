//! The demo backend's published response shapes ([`published`]) as the checker's
//! [`RouteShape`]s: entries whose URL is the demo address get exact shapes without a sample. The
//! checker itself knows nothing of the demo.

pub mod published;

use std::sync::OnceLock;

use serde_json::Value;
use sources_check::shape::{Field, Fields, Shape};
use sources_check::shapes::{RouteShape, ShapeInputs};

/// The addresses the demo backend answers on in configurations (what `--demo` serves).
pub const DEMO_ORIGINS: &[&str] = &["http://127.0.0.1:8099", "http://localhost:8099"];

/// Every published route of the demo backend, read once.
pub fn routes() -> &'static [RouteShape] {
    static ROUTES: OnceLock<Vec<RouteShape>> = OnceLock::new();
    ROUTES.get_or_init(|| {
        published::routes()
            .into_iter()
            .map(|route| RouteShape {
                origins: DEMO_ORIGINS
                    .iter()
                    .map(|origin| (*origin).to_owned())
                    .collect(),
                method: route.method,
                path: route.path,
                shape: described(&route.shape),
            })
            .collect()
    })
}

/// The demo backend's routes alone (what [`crate::for_config`] starts from).
pub fn inputs() -> ShapeInputs {
    ShapeInputs {
        routes: routes().to_vec(),
        ..ShapeInputs::default()
    }
}

/// The shape a published description stands for.
fn described(description: &Value) -> Shape {
    match description {
        Value::String(kinds) => kinds
            .split('|')
            .map(|kind| match kind {
                "string" => Shape::String,
                "number" => Shape::Number,
                "boolean" => Shape::Bool,
                "null" => Shape::Null,
                _ => Shape::Unknown,
            })
            .reduce(Shape::join)
            .unwrap_or(Shape::Unknown),
        Value::Array(items) if items.len() == 1 => Shape::Array(Box::new(described(&items[0]))),
        Value::Array(choices) => choices
            .iter()
            .map(described)
            .reduce(Shape::join)
            .unwrap_or(Shape::Unknown),
        Value::Object(keys) => {
            let mut fields = Fields::new();
            for (key, value) in keys {
                let (name, optional) = match key.strip_suffix('?') {
                    Some(name) => (name, true),
                    None => (key.as_str(), false),
                };
                fields.insert(
                    name.to_owned(),
                    Field {
                        shape: described(value),
                        optional,
                    },
                );
            }
            Shape::Object(fields)
        }
        _ => Shape::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_routes_become_shapes() {
        let apps = routes()
            .iter()
            .find(|route| route.method == "GET" && route.path == "/apps")
            .expect("published");
        assert_eq!(
            apps.shape.render(3),
            "{offset: number, rows: [{health: string, id: string, name: string, phase: string, \
             region: string, rev: number, sync: string}], total: number}"
        );
        let search = routes()
            .iter()
            .find(|route| route.method == "GET" && route.path == "/logs-app/_search")
            .expect("an alias");
        assert_eq!(
            search.shape.render(1),
            "{_shards: {…}, hits: {…}, timed_out: bool, took: number}"
        );
        assert_eq!(
            described(&serde_json::json!(["null", {"a": "string|null"}])).render(2),
            "{a: string}"
        );
    }
}
