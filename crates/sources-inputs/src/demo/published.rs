//! The shapes of the demo backend's JSON responses, published as data (`shapes.json`) for the
//! analysis to check configurations against the routes they read, without linking or running the
//! backend (its server is not a dependency of this crate).
//!
//! Each key of the document is a route, `METHOD /path` with `{name}` for one path segment, and
//! its value describes the response body:
//!
//! - `"string"`, `"number"`, `"boolean"`, `"null"`; `"string|null"` is either;
//! - an object describes an object with those keys; a key ending in `?` is not in every
//!   response;
//! - a list of one item describes a list of such items; a list of several is any one of them;
//! - `"=METHOD /path"` answers as that route does.
//!
//! The demo backend's `tests/published.rs` holds these descriptions against its real responses.

/// The published document.
pub const SHAPES: &str = include_str!("shapes.json");

/// One route and the description of its response.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedRoute {
    /// `GET`, `POST`.
    pub method: String,
    /// The path, `{name}` standing for one segment.
    pub path: String,
    /// The description of the response body.
    pub shape: serde_json::Value,
}

/// Every published route, aliases resolved. The document is part of the program, so a document
/// that does not parse is a bug the tests catch; it gives no routes rather than a panic.
pub fn routes() -> Vec<PublishedRoute> {
    let Ok(serde_json::Value::Object(document)) = serde_json::from_str::<serde_json::Value>(SHAPES)
    else {
        return Vec::new();
    };
    document
        .iter()
        .filter_map(|(route, shape)| {
            let shape = match shape.as_str().and_then(|alias| alias.strip_prefix('=')) {
                Some(alias) => document.get(alias)?,
                None => shape,
            };
            let (method, path) = route.split_once(' ')?;
            Some(PublishedRoute {
                method: method.to_owned(),
                path: path.to_owned(),
                shape: shape.clone(),
            })
        })
        .collect()
}
