//! The `_search` request body, read strictly: every field the corner models, each refusal a 400
//! in Elasticsearch's wording, and every field it does not model refused by name.

use serde_json::{Map, Value};

use super::query_string::{self, Term};
use super::timeline::SortKey;
use crate::error::ApiError;

/// The deepest `from + size` a search may reach.
pub const MAX_RESULT_WINDOW: u64 = 10_000;
/// `hits.total` is exact up to this many hits unless `track_total_hits` is true.
pub const TOTAL_HITS_THRESHOLD: u64 = 10_000;
/// Hits returned when the body names no `size`.
pub const DEFAULT_SIZE: u64 = 10;

/// The direction of the sort, shared by every sort entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Oldest first.
    Asc,
    /// Newest first.
    Desc,
}

/// How `hits.total` is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TotalHits {
    /// Exact up to this many, then `gte` this many (10,000 by default; an integer
    /// `track_total_hits` sets it).
    UpTo(u64),
    /// Always exact (`track_total_hits: true`).
    Exact,
    /// Not reported (`track_total_hits: false`).
    Absent,
}

/// A checked search request.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// Hits to return.
    pub size: u64,
    /// Matches to skip.
    pub from: u64,
    /// The sort direction.
    pub direction: Direction,
    /// Whether the sort (and so each hit's `sort`) has the `@timestamp` entry before `_shard_doc`.
    pub sort_by_timestamp: bool,
    /// Where to continue from.
    pub search_after: Option<SearchAfter>,
    /// The terms of the query, joined by AND; empty matches every document.
    pub terms: Vec<Term>,
    /// How to report the total.
    pub total: TotalHits,
}

impl SearchRequest {
    /// Reads a request body (empty means `{}`).
    pub fn parse(body: &[u8]) -> Result<SearchRequest, ApiError> {
        let value: Value = if body.iter().all(u8::is_ascii_whitespace) {
            Value::Object(Map::new())
        } else {
            serde_json::from_slice(body).map_err(|error| {
                ApiError::bad_request(format!("request body is not valid JSON: {error}"))
            })?
        };
        let Value::Object(fields) = value else {
            return Err(ApiError::bad_request(format!(
                "request body must be a JSON object, found {}",
                token_name(&value)
            )));
        };
        let mut request = SearchRequest {
            size: DEFAULT_SIZE,
            from: 0,
            direction: Direction::Asc,
            sort_by_timestamp: true,
            search_after: None,
            terms: Vec::new(),
            total: TotalHits::UpTo(TOTAL_HITS_THRESHOLD),
        };
        let mut search_after = None;
        for (name, value) in &fields {
            match name.as_str() {
                "size" => request.size = non_negative(name, value)?,
                "from" => request.from = non_negative(name, value)?,
                "sort" => (request.direction, request.sort_by_timestamp) = sort(value)?,
                "search_after" => search_after = Some(value),
                "query" => request.terms = query(value)?,
                "track_total_hits" => {
                    request.total = match value {
                        Value::Bool(true) => TotalHits::Exact,
                        Value::Bool(false) => TotalHits::Absent,
                        Value::Number(n) if n.as_u64().is_some() => {
                            TotalHits::UpTo(n.as_u64().unwrap_or(TOTAL_HITS_THRESHOLD))
                        }
                        other => {
                            return Err(ApiError::bad_request(format!(
                                "[track_total_hits] must be true, false or a non-negative integer, found [{other}]"
                            )));
                        }
                    }
                }
                "pit" => {
                    return Err(not_modelled("point in time (`pit`)"));
                }
                "aggs" | "aggregations" => {
                    return Err(not_modelled(&format!("aggregations (`{name}`)")));
                }
                "scroll" => return Err(not_modelled("scroll")),
                _ => {
                    return Err(ApiError::bad_request(format!(
                        "Unknown key for a {} in [{name}].",
                        token_name(value)
                    )));
                }
            }
        }
        if let Some(values) = search_after {
            if request.from > 0 {
                return Err(ApiError::bad_request(
                    "`from` parameter must be set to 0 when `search_after` is used.",
                ));
            }
            request.search_after = Some(request.after(values)?);
        }
        let window = request.from.saturating_add(request.size);
        if window > MAX_RESULT_WINDOW {
            return Err(ApiError::bad_request(format!(
                "Result window is too large, from + size must be less than or equal to: [{MAX_RESULT_WINDOW}] but was [{window}]"
            )));
        }
        Ok(request)
    }

    /// Reads `search_after`: the sort values of a hit, one per sort entry.
    fn after(&self, values: &Value) -> Result<SearchAfter, ApiError> {
        let Value::Array(values) = values else {
            return Err(ApiError::bad_request(format!(
                "[search_after] must be an array of sort values, found {}",
                token_name(values)
            )));
        };
        let fields: &[&str] = if self.sort_by_timestamp {
            &["@timestamp", "_shard_doc"]
        } else {
            &["_shard_doc"]
        };
        if values.len() != fields.len() {
            return Err(ApiError::bad_request(format!(
                "search_after has {} value(s) but sort has {}.",
                values.len(),
                fields.len()
            )));
        }
        let numbers = values
            .iter()
            .zip(fields)
            .map(|(value, field)| {
                value.as_i64().ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "Failed to parse search_after value for field [{field}]."
                    ))
                })
            })
            .collect::<Result<Vec<i64>, ApiError>>()?;
        Ok(match numbers.as_slice() {
            [timestamp, doc] => SearchAfter::Key((*timestamp, *doc)),
            [doc] => SearchAfter::ShardDoc(*doc),
            _ => SearchAfter::ShardDoc(-1),
        })
    }
}

/// Where a `search_after` request continues from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchAfter {
    /// After (or, descending, before) this `[@timestamp, _shard_doc]`.
    Key(SortKey),
    /// After (or before) this `_shard_doc`, when the sort has no `@timestamp` entry.
    ShardDoc(i64),
}

/// Which direction a sort entry's value names.
fn direction(field: &str, value: &Value) -> Result<Direction, ApiError> {
    let order = match value {
        Value::String(order) => order.as_str(),
        Value::Object(options) => {
            if let Some(option) = options.keys().find(|option| *option != "order") {
                return Err(ApiError::bad_request(format!(
                    "sort option [{option}] on [{field}] is not modelled: only [order] is"
                )));
            }
            options
                .get("order")
                .and_then(Value::as_str)
                .unwrap_or("asc")
        }
        other => {
            return Err(ApiError::bad_request(format!(
                "[sort] value for [{field}] must be \"asc\", \"desc\" or {{\"order\": ...}}, found {}",
                token_name(other)
            )));
        }
    };
    match order.to_ascii_lowercase().as_str() {
        "asc" => Ok(Direction::Asc),
        "desc" => Ok(Direction::Desc),
        _ => Err(ApiError::bad_request(format!(
            "Unknown SortOrder [{order}]"
        ))),
    }
}

/// Reads `sort`: `[{"@timestamp": dir}, {"_shard_doc": dir}]` or `[{"_shard_doc": dir}]`, both in
/// one direction. Returns the direction and whether `@timestamp` is part of it.
fn sort(value: &Value) -> Result<(Direction, bool), ApiError> {
    let entries = match value {
        Value::Array(entries) => entries.as_slice(),
        single => std::slice::from_ref(single),
    };
    let mut fields: Vec<(String, Direction)> = Vec::with_capacity(entries.len());
    for entry in entries {
        let (field, direction) = match entry {
            Value::String(field) => (field.clone(), Direction::Asc),
            Value::Object(map) if map.len() == 1 => {
                let (field, value) = map
                    .iter()
                    .next()
                    .map(|(field, value)| (field.clone(), value))
                    .ok_or_else(|| ApiError::bad_request("a [sort] entry must name one field"))?;
                let direction = direction(&field, value)?;
                (field, direction)
            }
            other => {
                return Err(ApiError::bad_request(format!(
                    "a [sort] entry must name one field, found {}",
                    token_name(other)
                )));
            }
        };
        if field != "@timestamp" && field != "_shard_doc" {
            return Err(ApiError::bad_request(format!(
                "No mapping found for [{field}] in order to sort on"
            )));
        }
        if fields.iter().any(|(seen, _)| *seen == field) {
            return Err(ApiError::bad_request(format!(
                "[sort] names [{field}] twice"
            )));
        }
        fields.push((field, direction));
    }
    let Some((last, direction)) = fields.last().cloned() else {
        return Err(ApiError::bad_request(must_end_with_shard_doc()));
    };
    if last != "_shard_doc" {
        return Err(ApiError::bad_request(must_end_with_shard_doc()));
    }
    if let Some((field, other)) = fields.iter().find(|(_, other)| *other != direction) {
        return Err(ApiError::bad_request(format!(
            "[sort] mixes directions: [{field}] is [{}] but [_shard_doc] is [{}]; use one direction for every entry",
            name_of(*other),
            name_of(direction)
        )));
    }
    Ok((direction, fields.len() == 2))
}

fn must_end_with_shard_doc() -> String {
    "[sort] must end with [_shard_doc]: paging on [@timestamp] alone loses documents that share a timestamp at page edges"
        .into()
}

fn name_of(direction: Direction) -> &'static str {
    match direction {
        Direction::Asc => "asc",
        Direction::Desc => "desc",
    }
}

/// Reads `query`: `{"match_all": {}}` or `{"query_string": {"query": "..."}}`.
fn query(value: &Value) -> Result<Vec<Term>, ApiError> {
    let Value::Object(query) = value else {
        return Err(ApiError::bad_request(format!(
            "[query] must be an object, found {}",
            token_name(value)
        )));
    };
    let mut kinds = query.iter();
    let (Some((kind, options)), None) = (kinds.next(), kinds.next()) else {
        return Err(ApiError::bad_request(format!(
            "[query] must hold exactly one query, found [{}]",
            query.len()
        )));
    };
    let Value::Object(options) = options else {
        return Err(ApiError::bad_request(format!(
            "[{kind}] query malformed, no start_object after query name"
        )));
    };
    match kind.as_str() {
        "match_all" => match options.keys().next() {
            Some(option) => Err(ApiError::bad_request(format!(
                "[match_all] query does not support [{option}]"
            ))),
            None => Ok(Vec::new()),
        },
        "query_string" => {
            if let Some(option) = options
                .keys()
                .find(|option| !matches!(option.as_str(), "query" | "default_operator"))
            {
                return Err(ApiError::bad_request(format!(
                    "[query_string] query does not support [{option}]"
                )));
            }
            if let Some(operator) = options.get("default_operator") {
                if !operator
                    .as_str()
                    .is_some_and(|operator| operator.eq_ignore_ascii_case("and"))
                {
                    return Err(ApiError::bad_request(format!(
                        "[query_string] default_operator {operator} is not modelled: terms are joined by AND"
                    )));
                }
            }
            let Some(text) = options.get("query").and_then(Value::as_str) else {
                return Err(ApiError::bad_request(
                    "[query_string] must be provided with a [query] string",
                ));
            };
            query_string::parse(text).map_err(|reason| {
                ApiError::bad_request(format!("Failed to parse query [{text}]: {reason}"))
            })
        }
        "bool"
        | "match"
        | "term"
        | "terms"
        | "range"
        | "match_phrase"
        | "multi_match"
        | "exists"
        | "prefix"
        | "wildcard"
        | "regexp"
        | "simple_query_string" => Err(ApiError::bad_request(format!(
            "[{kind}] query is not modelled: use match_all or query_string"
        ))),
        other => Err(ApiError::bad_request(format!("unknown query [{other}]"))),
    }
}

/// A non-negative integer field.
fn non_negative(name: &str, value: &Value) -> Result<u64, ApiError> {
    match value.as_i64() {
        Some(number) if number < 0 => Err(ApiError::bad_request(format!(
            "[{name}] parameter cannot be negative, found [{number}]"
        ))),
        Some(number) => Ok(number.unsigned_abs()),
        None => Err(ApiError::bad_request(format!(
            "[{name}] must be an integer, found {}",
            token_name(value)
        ))),
    }
}

/// A 400 saying that a feature of Elasticsearch is not part of the fixture.
pub fn not_modelled(feature: &str) -> ApiError {
    ApiError::bad_request(format!(
        "{feature} is not modelled by this fixture: page with sort [@timestamp, _shard_doc] and search_after"
    ))
}

/// The name Elasticsearch's parser gives the JSON token that starts `value`.
fn token_name(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "START_OBJECT",
        Value::Array(_) => "START_ARRAY",
        Value::String(_) => "VALUE_STRING",
        Value::Number(_) => "VALUE_NUMBER",
        Value::Bool(_) => "VALUE_BOOLEAN",
        Value::Null => "VALUE_NULL",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn any_body_is_read_or_refused_with_a_400(body in proptest::collection::vec(proptest::num::u8::ANY, 0..64)) {
            if let Err(error) = SearchRequest::parse(&body) {
                proptest::prop_assert_eq!(error.status, axum::http::StatusCode::BAD_REQUEST);
            }
        }

        #[test]
        fn any_small_json_body_is_read_or_refused_with_a_400(
            size in -3_i64..12_000,
            from in -3_i64..12_000,
            direction in proptest::sample::select(vec!["asc", "desc", "up"]),
            field in proptest::sample::select(vec!["@timestamp", "_shard_doc", "level"]),
            after in proptest::collection::vec(-5_i64..5, 0..3),
            total in proptest::sample::select(vec![serde_json::json!(true), serde_json::json!(false), serde_json::json!(3)]),
        ) {
            let body = serde_json::json!({
                "size": size,
                "from": from,
                "sort": [{ field: direction }, { "_shard_doc": direction }],
                "search_after": after,
                "track_total_hits": total,
            });
            match SearchRequest::parse(body.to_string().as_bytes()) {
                Ok(request) => proptest::prop_assert!(request.from + request.size <= MAX_RESULT_WINDOW),
                Err(error) => proptest::prop_assert_eq!(error.status, axum::http::StatusCode::BAD_REQUEST),
            }
        }
    }
}
