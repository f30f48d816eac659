//! Dot-paths into JSON values (`root`, `next_path`, `total_path`, `cursor`): `a.b.0.c`, where a
//! number indexes an array.

use serde_json::Value;

/// Why a dot-path does not lead anywhere: where the walk stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathMiss(pub String);

/// Follows `path` into `value`. An empty path is the value itself.
pub fn lookup<'v>(value: &'v Value, path: &str) -> Result<&'v Value, PathMiss> {
    let mut current = value;
    let mut walked = String::new();
    for step in path.split('.').filter(|step| !step.is_empty()) {
        let next = match current {
            Value::Object(map) => map.get(step).ok_or_else(|| {
                let keys: Vec<&str> = map.keys().map(String::as_str).take(8).collect();
                let suggestion = sources_diagnostics::did_you_mean(step, keys.iter().copied());
                let hint = match suggestion.first() {
                    Some(best) => format!(" (did you mean `{best}`?)"),
                    None if keys.is_empty() => " (the object is empty)".to_owned(),
                    None => format!(" (keys: {})", keys.join(", ")),
                };
                PathMiss(format!("no key `{step}` {}{hint}", location(&walked)))
            })?,
            Value::Array(items) => {
                let index: usize = step.parse().map_err(|_| {
                    PathMiss(format!(
                        "`{step}` is not an index, but {} is an array of {} items",
                        location_noun(&walked),
                        items.len()
                    ))
                })?;
                items.get(index).ok_or_else(|| {
                    PathMiss(format!(
                        "index {index} is past the end of {} ({} items)",
                        location_noun(&walked),
                        items.len()
                    ))
                })?
            }
            other => {
                return Err(PathMiss(format!(
                    "{} is {}, not an object",
                    location_noun(&walked),
                    kind(other)
                )));
            }
        };
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(step);
        current = next;
    }
    Ok(current)
}

fn location(walked: &str) -> String {
    if walked.is_empty() {
        "at the top level".to_owned()
    } else {
        format!("under `{walked}`")
    }
}

fn location_noun(walked: &str) -> String {
    if walked.is_empty() {
        "the value".to_owned()
    } else {
        format!("`{walked}`")
    }
}

/// A JSON value's kind, for messages.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn walks_objects_and_array_indexes() {
        let value = json!({"hits": {"hits": [{"_id": "a"}, {"_id": "b"}]}});
        assert_eq!(
            lookup(&value, "hits.hits.1._id").expect("found"),
            &json!("b")
        );
        assert_eq!(lookup(&value, "").expect("whole"), &value);
    }

    #[test]
    fn says_where_the_walk_stopped() {
        let value = json!({"data": {"items": [1]}});
        assert_eq!(
            lookup(&value, "data.itemz").expect_err("missing").0,
            "no key `itemz` under `data` (did you mean `items`?)"
        );
        assert_eq!(
            lookup(&value, "rows").expect_err("missing").0,
            "no key `rows` at the top level (keys: data)"
        );
        assert_eq!(
            lookup(&value, "data.items.3").expect_err("past").0,
            "index 3 is past the end of `data.items` (1 items)"
        );
        assert_eq!(
            lookup(&value, "data.items.0.x").expect_err("scalar").0,
            "`data.items.0` is a number, not an object"
        );
    }
}
