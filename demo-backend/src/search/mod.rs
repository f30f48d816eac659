//! The search-index corner (`POST /logs-app/_search`): a log index shaped like an Elasticsearch
//! data stream, searched with `query_string` and paged with `search_after`.
//!
//! The index holds 20,000 documents when the service is built and gains 5 per second, two per
//! `@timestamp`; a new document is searchable from the next 1-second refresh, and every
//! seventeenth new one is ingested 3 seconds after its own timestamp, behind documents that are
//! already searchable. Documents are generated from the seed and their number; only a compact
//! token index of the documents seen so far is kept, so a `query_string` scan stays fast.

mod documents;
mod query_string;
mod request;
mod timeline;

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Serialize;

use crate::CornerContext;
use crate::clock::{Clock, Millis};
use crate::error::ApiError;
use documents::{DocumentSource, GrowingIndex, LEVELS, SERVICES, TokenIndex};
use query_string::Matcher;
use request::{Direction, SearchAfter, SearchRequest, TotalHits, not_modelled};
use timeline::{IndexView, Timeline};

pub use request::{DEFAULT_SIZE, MAX_RESULT_WINDOW, TOTAL_HITS_THRESHOLD};
pub use timeline::{
    DOCS_PER_SECOND, DOCS_PER_TIMESTAMP, INITIAL_DOCS, LATE_DOC_DELAY, LATE_DOC_EVERY,
    REFRESH_INTERVAL,
};

/// The index name in the path and in every hit.
const INDEX_NAME: &str = "logs-app";

/// The per-request controls, read by the layer the whole service shares.
const CONTROL_PARAMS: [&str; 3] = ["latency", "fail", "flaky"];

/// The corner's state: the clock, the timeline, the document generator and the token index.
#[derive(Debug)]
struct LogIndex {
    clock: Arc<dyn Clock>,
    timeline: Timeline,
    source: DocumentSource,
    tokens: GrowingIndex,
}

/// The corner's routes, with their state applied.
pub fn router(ctx: CornerContext) -> Router {
    let index = Arc::new(LogIndex {
        clock: ctx.clock,
        timeline: Timeline::new(ctx.built_at),
        source: DocumentSource::new(ctx.seed),
        tokens: GrowingIndex::default(),
    });
    Router::new()
        .route("/", get(info))
        .route("/logs-app/_search", get(search).post(search))
        .route("/logs-app/_count", get(count).post(count))
        .route("/logs-app/_pit", post(point_in_time))
        .route("/_pit", delete(point_in_time))
        .route("/_search/scroll", post(scroll).delete(scroll))
        .with_state(index)
        .layer(axum::middleware::map_response(product_header))
}

/// Every answer of the corner says it is Elasticsearch, as the official client requires.
async fn product_header(mut response: axum::response::Response) -> axum::response::Response {
    response.headers_mut().insert(
        "x-elastic-product",
        axum::http::HeaderValue::from_static("Elasticsearch"),
    );
    response
}

/// `GET /` (and `HEAD /`): the cluster information clients read to check what they talk to.
async fn info() -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "name": "demo-backend",
        "cluster_name": "demo-backend",
        "cluster_uuid": "ZGVtby1iYWNrZW5kLTAx",
        "version": {
            "number": "8.13.0",
            "build_flavor": "default",
            "build_type": "docker",
            "build_hash": "demo",
            "build_date": "2026-03-02T09:00:00.000Z",
            "build_snapshot": false,
            "lucene_version": "9.10.0",
            "minimum_wire_compatibility_version": "7.17.0",
            "minimum_index_compatibility_version": "7.0.0",
        },
        "tagline": "You Know, for Search (a demo fixture: only logs-app/_search and _count are modelled)",
    }))
}

/// The `_count` answer.
#[derive(Debug, Serialize)]
struct CountResponse {
    count: u64,
    #[serde(rename = "_shards")]
    shards: Shards,
}

/// `POST /logs-app/_count`: how many searchable documents match the body's `query` (exactly).
async fn count(
    State(index): State<Arc<LogIndex>>,
    Query(pairs): Query<Vec<(String, String)>>,
    body: Bytes,
) -> Result<Json<CountResponse>, ApiError> {
    check_params("_count", &pairs, &[])?;
    let mut fields = body_fields(&body)?;
    if let Some(name) = fields.keys().find(|name| *name != "query") {
        return Err(ApiError::bad_request(format!(
            "request does not support [{name}]"
        )));
    }
    fields.insert("size".into(), 0.into());
    fields.insert("track_total_hits".into(), true.into());
    let request = SearchRequest::parse(&serde_json::to_vec(&fields).unwrap_or_default())?;
    let response = index.search(&request, index.clock.now());
    Ok(Json(CountResponse {
        count: response.hits.total.map_or(0, |total| total.value),
        shards: response.shards,
    }))
}

/// The URL parameters `_search` reads like its body fields.
const URL_FIELDS: [&str; 4] = ["size", "from", "sort", "track_total_hits"];

/// Refuses parameters other than the controls (and `fields`), in Elasticsearch's wording.
fn check_params(
    endpoint: &str,
    pairs: &[(String, String)],
    fields: &[&str],
) -> Result<(), ApiError> {
    for (name, _) in pairs {
        match name.as_str() {
            "scroll" => return Err(not_modelled("scroll")),
            known if CONTROL_PARAMS.contains(&known) || fields.contains(&known) => {}
            other => {
                return Err(ApiError::bad_request(format!(
                    "request [/{INDEX_NAME}/{endpoint}] contains unrecognized parameter: [{other}]"
                )));
            }
        }
    }
    Ok(())
}

/// The body as a JSON object (empty means `{}`).
fn body_fields(body: &[u8]) -> Result<serde_json::Map<String, serde_json::Value>, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(serde_json::Map::new());
    }
    match serde_json::from_slice(body) {
        Ok(serde_json::Value::Object(fields)) => Ok(fields),
        Ok(_) => Err(ApiError::bad_request("request body must be a JSON object")),
        Err(error) => Err(ApiError::bad_request(format!(
            "request body is not valid JSON: {error}"
        ))),
    }
}

/// A URL parameter of `_search` as the body field it stands for: `size=5`, `from=10`,
/// `track_total_hits=true|false|N`, `sort=@timestamp:desc,_shard_doc:desc`.
fn url_field(name: &str, value: &str) -> Result<serde_json::Value, ApiError> {
    let integer = || {
        value
            .parse::<u64>()
            .map(serde_json::Value::from)
            .map_err(|_| {
                ApiError::bad_request(format!(
                    "Failed to parse int parameter [{name}] with value [{value}]"
                ))
            })
    };
    match name {
        "track_total_hits" => match value {
            "true" | "" => Ok(true.into()),
            "false" => Ok(false.into()),
            _ => integer(),
        },
        "sort" => Ok(value
            .split(',')
            .filter(|entry| !entry.is_empty())
            .map(|entry| match entry.rsplit_once(':') {
                Some((field, order)) => serde_json::json!({ field: order }),
                None => serde_json::json!({ entry: "asc" }),
            })
            .collect()),
        _ => integer(),
    }
}

/// `POST /logs-app/_search` (and `GET` with a body, as Elasticsearch allows).
async fn search(
    State(index): State<Arc<LogIndex>>,
    Query(pairs): Query<Vec<(String, String)>>,
    body: Bytes,
) -> Result<Json<SearchResponse>, ApiError> {
    check_params("_search", &pairs, &URL_FIELDS)?;
    let request = if pairs
        .iter()
        .any(|(name, _)| URL_FIELDS.contains(&name.as_str()))
    {
        let mut fields = body_fields(&body)?;
        for (name, value) in &pairs {
            if URL_FIELDS.contains(&name.as_str()) {
                fields.insert(name.clone(), url_field(name, value)?);
            }
        }
        SearchRequest::parse(&serde_json::to_vec(&fields).unwrap_or_default())?
    } else {
        SearchRequest::parse(&body)?
    };
    Ok(Json(index.search(&request, index.clock.now())))
}

/// Opening or closing a point in time: not modelled.
async fn point_in_time() -> ApiError {
    not_modelled("point in time (`_pit`)")
}

/// Continuing or clearing a scroll: not modelled.
async fn scroll() -> ApiError {
    not_modelled("scroll")
}

impl LogIndex {
    /// Answers a checked request against the documents searchable at `now`.
    fn search(&self, request: &SearchRequest, now: Millis) -> SearchResponse {
        let view = self.timeline.view(now);
        let (hits, total) = if request.terms.is_empty() {
            let total = total_hits(request.total, view.searchable_count());
            (page(&view, request, |_| true), total)
        } else {
            let end = view.end();
            self.tokens.read(&self.source, end, |tokens| {
                query_string_search(&view, request, tokens)
            })
        };
        SearchResponse {
            took: 0,
            timed_out: false,
            shards: Shards {
                total: 1,
                successful: 1,
                skipped: 0,
                failed: 0,
            },
            hits: Hits {
                total,
                max_score: None,
                hits: hits.into_iter().map(|doc| self.hit(doc, request)).collect(),
            },
        }
    }

    /// One hit: `_id`, `_source` and the sort values of the request's sort.
    fn hit(&self, doc: u64, request: &SearchRequest) -> Hit {
        let document = self.source.document(doc);
        let timestamp = self.timeline.timestamp(doc);
        let doc_value = i64::try_from(doc).unwrap_or(i64::MAX);
        let sort = if request.sort_by_timestamp {
            vec![timestamp, doc_value]
        } else {
            vec![doc_value]
        };
        Hit {
            index: INDEX_NAME,
            id: self.source.id(doc),
            score: None,
            source: Source {
                timestamp: rfc3339(timestamp),
                log: Log {
                    level: LEVELS[usize::from(document.level)],
                },
                service: Service {
                    name: SERVICES[usize::from(document.service)],
                },
                message: document.message,
            },
            sort,
        }
    }
}

/// The response body: `{took, timed_out, _shards, hits: {total, max_score, hits}}`.
#[derive(Debug, Serialize)]
struct SearchResponse {
    took: u64,
    timed_out: bool,
    #[serde(rename = "_shards")]
    shards: Shards,
    hits: Hits,
}

/// The shard summary of a one-shard index.
#[derive(Debug, Serialize)]
struct Shards {
    total: u32,
    successful: u32,
    skipped: u32,
    failed: u32,
}

/// The hits part of the response.
#[derive(Debug, Serialize)]
struct Hits {
    /// Absent with `track_total_hits: false`.
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<Total>,
    /// Always `null`: hits are sorted, not scored.
    max_score: Option<f64>,
    hits: Vec<Hit>,
}

/// `hits.total`.
#[derive(Debug, Serialize)]
struct Total {
    value: u64,
    /// `eq` for an exact count, `gte` for a lower bound.
    relation: &'static str,
}

/// One hit.
#[derive(Debug, Serialize)]
struct Hit {
    #[serde(rename = "_index")]
    index: &'static str,
    #[serde(rename = "_id")]
    id: String,
    #[serde(rename = "_score")]
    score: Option<f64>,
    #[serde(rename = "_source")]
    source: Source,
    /// `[@timestamp in epoch millis, _shard_doc]`, or `[_shard_doc]` when sorting by it alone.
    sort: Vec<i64>,
}

/// A document's `_source`.
#[derive(Debug, Serialize)]
struct Source {
    #[serde(rename = "@timestamp")]
    timestamp: String,
    log: Log,
    service: Service,
    message: String,
}

/// `_source.log`.
#[derive(Debug, Serialize)]
struct Log {
    level: &'static str,
}

/// `_source.service`.
#[derive(Debug, Serialize)]
struct Service {
    name: &'static str,
}

/// The page and the total of a `query_string` search over the token index.
fn query_string_search(
    view: &IndexView,
    request: &SearchRequest,
    tokens: &TokenIndex,
) -> (Vec<u64>, Option<Total>) {
    let matcher = Matcher::new(&request.terms, tokens);
    let hits = page(view, request, |doc| matcher.matches(tokens, doc));
    let limit = match request.total {
        TotalHits::Absent => 0,
        TotalHits::UpTo(threshold) => threshold.saturating_add(1),
        TotalHits::Exact => u64::MAX,
    };
    let found = tokens
        .codes_below(view.end())
        .iter()
        .enumerate()
        .filter(|&(doc, &code)| {
            matcher.matches_code(tokens, doc, code) && view.is_searchable(doc as u64)
        });
    let count = found
        .take(usize::try_from(limit).unwrap_or(usize::MAX))
        .count() as u64;
    (hits, total_hits(request.total, count))
}

/// The documents of the requested page: searchable, matching, in the sort order from the
/// `search_after` position, `from` skipped, at most `size`.
fn page(view: &IndexView, request: &SearchRequest, matches: impl Fn(u64) -> bool) -> Vec<u64> {
    let end = view.end();
    let clamp = |doc: i64| u64::try_from(doc).unwrap_or(0).min(end);
    let wanted = |doc: &u64| view.is_searchable(*doc) && matches(*doc);
    let (from, size) = (request.from as usize, request.size as usize);
    match request.direction {
        Direction::Asc => {
            let start = match request.search_after {
                None => 0,
                Some(SearchAfter::Key(key)) => view.first_after(key),
                Some(SearchAfter::ShardDoc(doc)) => clamp(doc.saturating_add(1)),
            };
            (start..end).filter(wanted).skip(from).take(size).collect()
        }
        Direction::Desc => {
            let stop = match request.search_after {
                None => end,
                Some(SearchAfter::Key(key)) => view.first_not_before(key),
                Some(SearchAfter::ShardDoc(doc)) => clamp(doc),
            };
            (0..stop)
                .rev()
                .filter(wanted)
                .skip(from)
                .take(size)
                .collect()
        }
    }
}

/// `hits.total` for `count` matches (counted up to the threshold plus one unless exact).
fn total_hits(mode: TotalHits, count: u64) -> Option<Total> {
    match mode {
        TotalHits::Absent => None,
        TotalHits::UpTo(threshold) if count > threshold => Some(Total {
            value: threshold,
            relation: "gte",
        }),
        TotalHits::UpTo(_) | TotalHits::Exact => Some(Total {
            value: count,
            relation: "eq",
        }),
    }
}

/// RFC 3339 UTC with milliseconds, e.g. `2026-11-21T05:00:00.000Z`.
fn rfc3339(at: Millis) -> String {
    let since_epoch = Duration::from_millis(u64::try_from(at).unwrap_or(0));
    humantime::format_rfc3339_millis(UNIX_EPOCH + since_epoch).to_string()
}
