//! The published response shapes (`sources_inputs::demo::published`) against the backend's real answers:
//! every published route is requested, in the states that change its answer (an application with
//! and without an operation and history, running and finished jobs, searches with and without a
//! total), and each answer must have exactly the described keys with the described types.

mod common;

use common::Demo;
use serde_json::{Value, json};
use sources_inputs::demo::published::{PublishedRoute, routes};

/// Why `value` is not described by `shape`, at `path`.
fn conforms(value: &Value, shape: &Value, path: &str) -> Result<(), String> {
    match shape {
        Value::String(kinds) => {
            let kind = match value {
                Value::Null => "null",
                Value::Bool(_) => "boolean",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                Value::Array(_) => "list",
                Value::Object(_) => "object",
            };
            if kinds.split('|').any(|allowed| allowed == kind) {
                Ok(())
            } else {
                Err(format!("{path}: {kind}, described as {kinds}"))
            }
        }
        Value::Array(choices) if choices.len() == 1 => match value {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .try_for_each(|(at, item)| conforms(item, &choices[0], &format!("{path}.{at}"))),
            other => Err(format!("{path}: {other}, described as a list")),
        },
        Value::Array(choices) => {
            let errors: Vec<String> = choices
                .iter()
                .filter_map(|choice| conforms(value, choice, path).err())
                .collect();
            if errors.len() < choices.len() {
                Ok(())
            } else {
                Err(errors.join("; "))
            }
        }
        Value::Object(keys) => {
            let Value::Object(fields) = value else {
                return Err(format!("{path}: {value}, described as an object"));
            };
            for (key, described) in keys {
                let (name, optional) = match key.strip_suffix('?') {
                    Some(name) => (name, true),
                    None => (key.as_str(), false),
                };
                match fields.get(name) {
                    Some(field) => conforms(field, described, &format!("{path}.{name}"))?,
                    None if optional => {}
                    None => return Err(format!("{path}: no key `{name}`")),
                }
            }
            for name in fields.keys() {
                if !keys.contains_key(name) && !keys.contains_key(&format!("{name}?")) {
                    return Err(format!("{path}: key `{name}` is not described"));
                }
            }
            Ok(())
        }
        other => Err(format!("{path}: the description {other} is not one")),
    }
}

fn route<'r>(all: &'r [PublishedRoute], method: &str, path: &str) -> &'r PublishedRoute {
    all.iter()
        .find(|route| route.method == method && route.path == path)
        .unwrap_or_else(|| panic!("{method} {path} is not published"))
}

#[tokio::test]
async fn every_published_route_describes_the_real_answers_exactly() {
    let all = routes();
    assert!(all.len() >= 12, "the document parses: {} routes", all.len());
    let demo = Demo::quiet();
    let mut checked: Vec<(String, String)> = Vec::new();
    let mut check = |method: &str, pattern: &str, value: &Value| {
        let published = route(&all, method, pattern);
        if let Err(error) = conforms(value, &published.shape, "") {
            panic!("{method} {pattern}: {error}\n{value}");
        }
        checked.push((method.to_owned(), pattern.to_owned()));
    };
    check("GET", "/apps", &demo.get("/apps?limit=20", 200).await);
    check(
        "GET",
        "/apps/facets",
        &demo.get("/apps/facets?field=region", 200).await,
    );
    check("GET", "/apps/{id}", &demo.get("/apps/app-0001", 200).await);
    let sync = demo.post("/apps/app-0002/sync", 202).await;
    check("POST", "/apps/{id}/sync", &sync);
    let refresh = demo.post("/apps/app-0003/refresh", 202).await;
    check("POST", "/apps/{id}/refresh", &refresh);
    let job = sync["job"].as_str().expect("a job id").to_owned();
    // While the sync runs, then once it has finished.
    for wait in [0, 600_000] {
        demo.advance(wait);
        check("GET", "/apps/{id}", &demo.get("/apps/app-0002", 200).await);
        check("GET", "/jobs", &demo.get("/jobs", 200).await);
        check(
            "GET",
            "/jobs/{id}",
            &demo.get(&format!("/jobs/{job}"), 200).await,
        );
    }
    check(
        "GET",
        "/api/v2/jobs/",
        &demo.get("/api/v2/jobs/", 200).await,
    );
    for id in [1, 2] {
        check(
            "GET",
            "/api/v2/jobs/{id}/",
            &demo.get(&format!("/api/v2/jobs/{id}/"), 200).await,
        );
        check(
            "GET",
            "/api/v2/jobs/{id}/job_events/",
            &demo
                .get(&format!("/api/v2/jobs/{id}/job_events/?page_size=200"), 200)
                .await,
        );
    }
    for body in [
        json!({"size": 5}),
        json!({"size": 5, "track_total_hits": false}),
    ] {
        check(
            "POST",
            "/logs-app/_search",
            &demo.post_json("/logs-app/_search", body).await,
        );
    }
    check(
        "GET",
        "/logs-app/_search",
        &demo.get("/logs-app/_search", 200).await,
    );
    check(
        "POST",
        "/logs-app/_count",
        &demo.post_json("/logs-app/_count", json!({})).await,
    );
    check(
        "GET",
        "/logs-app/_count",
        &demo.get("/logs-app/_count", 200).await,
    );
    for published in &all {
        assert!(
            checked.contains(&(published.method.clone(), published.path.clone())),
            "{} {} is published but never compared with a real answer",
            published.method,
            published.path
        );
    }
}

#[test]
fn a_description_that_does_not_match_is_told_where() {
    let shape = json!({"rows": [{"id": "string", "tag?": "string"}], "next": "string|null"});
    assert_eq!(
        conforms(&json!({"rows": [{"id": 1}], "next": null}), &shape, ""),
        Err(".rows.0.id: number, described as string".to_owned())
    );
    assert_eq!(
        conforms(&json!({"rows": [], "next": null, "x": 1}), &shape, ""),
        Err(": key `x` is not described".to_owned())
    );
    assert_eq!(
        conforms(&json!({"rows": [{"id": "a", "tag": "t"}]}), &shape, ""),
        Err(": no key `next`".to_owned())
    );
    assert!(conforms(&json!({"rows": [{"id": "a"}], "next": "p"}), &shape, "").is_ok());
}
