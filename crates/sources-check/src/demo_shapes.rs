//! Published response shapes ([`RouteShape`]: the demo backend's, handed in by the front ends)
//! matched against an `http` entry's literal URL and method. A `${…}` token in the URL's path
//! stands for one segment, as a `{name}` does in the route; a query string is ignored.

use sources_config::model::{Body, Source};

use crate::shaped::{Certainty, Origin, RouteShape, ShapeInputs, Shaped};

/// The published shape of the route `source` requests, if any.
pub(crate) fn route(source: &Source, inputs: &ShapeInputs) -> Option<Shaped> {
    let Body::Http(http) = &source.body else {
        return None;
    };
    if inputs.routes.is_empty() {
        return None;
    }
    let url = http.url.as_ref()?.value.as_str();
    let method = match &http.method {
        Some(method) => method.value.as_str().to_ascii_uppercase(),
        None => "GET".to_owned(),
    };
    let found = inputs
        .routes
        .iter()
        .find(|route| route.method == method && matches(route, url))?;
    Some(Shaped {
        shape: std::sync::Arc::new(found.shape.clone()),
        certainty: Certainty::Exact,
        origin: std::sync::Arc::new(Origin::Demo(format!("{} {}", found.method, found.path))),
    })
}

/// Whether `url` is a request to `route`.
fn matches(route: &RouteShape, url: &str) -> bool {
    let Some(path) = route
        .origins
        .iter()
        .find_map(|origin| url.strip_prefix(origin.as_str()))
    else {
        return false;
    };
    if !(path.is_empty() || path.starts_with('/')) {
        return false;
    }
    let path = path.split(['?', '#']).next().unwrap_or("");
    let written: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let pattern: Vec<&str> = route.path.trim_end_matches('/').split('/').collect();
    written.len() == pattern.len()
        && written.iter().zip(&pattern).all(|(written, pattern)| {
            written == pattern
                || (pattern.starts_with('{') && pattern.ends_with('}') && !written.is_empty())
        })
        && written.iter().zip(&pattern).all(|(written, pattern)| {
            // A token stands for a whole segment, and only where the route has a parameter.
            !written.contains("${") || pattern.starts_with('{')
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    fn route(path: &str) -> RouteShape {
        RouteShape {
            origins: vec!["http://127.0.0.1:8099".to_owned()],
            method: "GET".to_owned(),
            path: path.to_owned(),
            shape: Shape::Unknown,
        }
    }

    #[test]
    fn segments_tokens_and_queries() {
        assert!(matches(
            &route("/apps"),
            "http://127.0.0.1:8099/apps?limit=5"
        ));
        assert!(matches(
            &route("/apps/{id}"),
            "http://127.0.0.1:8099/apps/${params.id}"
        ));
        assert!(matches(
            &route("/apps/{id}"),
            "http://127.0.0.1:8099/apps/app-0001/"
        ));
        assert!(!matches(&route("/apps"), "http://127.0.0.1:8099/apps/x"));
        assert!(!matches(&route("/apps"), "http://127.0.0.1:80990/apps"));
        assert!(!matches(
            &route("/apps/{id}/logs"),
            "http://127.0.0.1:8099/apps/${params.id}/log"
        ));
        assert!(!matches(
            &route("/apps/sync"),
            "http://127.0.0.1:8099/apps/${params.x}"
        ));
        assert!(!matches(&route("/apps"), "https://example.com/apps"));
    }
}
