//! The search-index corner, driven the way the spec's clients drive it, on a manual clock.

mod common;

use std::collections::{BTreeSet, HashSet};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use common::{BUILT_AT, Corner};
use demo_backend::search;
use serde_json::{Value, json};

type Fixture = Corner;

impl Fixture {
    fn new(seed: u64) -> Fixture {
        Corner::build(search::router, seed)
    }

    async fn send(&self, method: Method, uri: &str, body: impl Into<Body>) -> (StatusCode, Value) {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json");
        self.call(request.body(body.into()).expect("request")).await
    }

    async fn search(&self, body: Value) -> Value {
        let (status, response) = self
            .send(Method::POST, "/logs-app/_search", body.to_string())
            .await;
        assert_eq!(status, StatusCode::OK, "{body}: {response}");
        response
    }

    async fn refused(&self, body: impl Into<Body>) -> String {
        self.refused_at("/logs-app/_search", body).await
    }

    async fn refused_at(&self, uri: &str, body: impl Into<Body>) -> String {
        let (status, response) = self.send(Method::POST, uri, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{response}");
        response["error"]
            .as_str()
            .expect("an error message")
            .to_owned()
    }
}

fn hits(response: &Value) -> &Vec<Value> {
    response["hits"]["hits"].as_array().expect("hits")
}

fn sort_key(hit: &Value) -> (i64, i64) {
    let sort = hit["sort"].as_array().expect("sort values");
    (
        sort[0].as_i64().expect("@timestamp"),
        sort[1].as_i64().expect("_shard_doc"),
    )
}

fn id(hit: &Value) -> String {
    hit["_id"].as_str().expect("_id").to_owned()
}

fn sorted(direction: &str) -> Value {
    json!([{ "@timestamp": direction }, { "_shard_doc": direction }])
}

/// Pages the whole index with `search_after`, `size` hits at a time, and returns the hits in order.
async fn walk(fixture: &Fixture, direction: &str, size: u64, query: Value) -> Vec<Value> {
    let mut walked = Vec::new();
    let mut after: Option<Value> = None;
    loop {
        let mut body = json!({ "size": size, "sort": sorted(direction), "query": query, "track_total_hits": false });
        if let Some(after) = &after {
            body["search_after"] = after.clone();
        }
        let response = fixture.search(body).await;
        let page = hits(&response);
        let Some(last) = page.last() else {
            return walked;
        };
        after = Some(last["sort"].clone());
        walked.extend(page.iter().cloned());
    }
}

#[tokio::test]
async fn search_after_pages_the_whole_index_both_ways_without_loss_or_duplicates() {
    let fixture = Fixture::new(5);
    // 333 is odd, so page edges fall between the two documents of one timestamp.
    let ascending = walk(&fixture, "asc", 333, json!({ "match_all": {} })).await;
    let descending = walk(&fixture, "desc", 333, json!({ "match_all": {} })).await;
    assert_eq!(ascending.len(), search::INITIAL_DOCS as usize);
    assert_eq!(descending.len(), search::INITIAL_DOCS as usize);
    let keys: Vec<(i64, i64)> = ascending.iter().map(sort_key).collect();
    assert!(
        keys.windows(2).all(|pair| pair[0] < pair[1]),
        "strictly ascending"
    );
    let mut reversed: Vec<(i64, i64)> = descending.iter().map(sort_key).collect();
    reversed.reverse();
    assert_eq!(
        keys, reversed,
        "descending is the same documents in reverse"
    );
    let ids: HashSet<String> = ascending.iter().map(id).collect();
    assert_eq!(ids.len(), ascending.len(), "no duplicates");
    let timestamps: BTreeSet<i64> = keys.iter().map(|key| key.0).collect();
    assert_eq!(
        timestamps.len() * 2,
        keys.len(),
        "two documents per @timestamp"
    );
    let first = &ascending[0]["_source"];
    assert!(
        first["@timestamp"]
            .as_str()
            .is_some_and(|at| at.len() == 24 && at.ends_with('Z')),
        "{first}"
    );
    assert!(
        ["DEBUG", "INFO", "WARN", "ERROR"]
            .contains(&first["log"]["level"].as_str().expect("log.level"))
    );
    assert!(first["service"]["name"].is_string() && first["message"].is_string());
}

#[tokio::test]
async fn paging_on_the_timestamp_alone_would_lose_documents_and_is_refused() {
    let fixture = Fixture::new(5);
    let refusal = fixture
        .refused(json!({ "sort": [{ "@timestamp": "asc" }] }).to_string())
        .await;
    assert!(refusal.contains("_shard_doc"), "{refusal}");

    // A client that could only say "after this @timestamp" skips the rest of a tie at each edge.
    let mut seen = 0;
    let mut after_timestamp: Option<i64> = None;
    loop {
        let mut body = json!({ "size": 333, "sort": sorted("asc"), "track_total_hits": false });
        if let Some(timestamp) = after_timestamp {
            body["search_after"] = json!([timestamp, i64::MAX]);
        }
        let response = fixture.search(body).await;
        let Some(last) = hits(&response).last() else {
            break;
        };
        after_timestamp = Some(sort_key(last).0);
        seen += hits(&response).len();
    }
    assert!(
        seen < search::INITIAL_DOCS as usize,
        "documents sharing a timestamp at page edges are lost"
    );
}

#[tokio::test]
async fn new_documents_arrive_five_per_second_and_are_searchable_after_the_next_refresh() {
    let fixture = Fixture::new(5);
    let total = |response: &Value| response["hits"]["total"]["value"].as_u64().expect("total");
    let exact = json!({ "size": 0, "track_total_hits": true });
    assert_eq!(total(&fixture.search(exact.clone()).await), 20_000);
    fixture.clock.set(BUILT_AT + 999);
    assert_eq!(
        total(&fixture.search(exact.clone()).await),
        20_000,
        "written at +400 ms, not yet refreshed"
    );
    fixture.clock.set(BUILT_AT + 1_000);
    assert_eq!(total(&fixture.search(exact.clone()).await), 20_004);
    fixture.clock.set(BUILT_AT + 60_000);
    assert_eq!(
        total(&fixture.search(exact.clone()).await),
        20_300 - 1,
        "one late document still pending"
    );
    let newest = fixture
        .search(json!({ "size": 4, "sort": sorted("desc") }))
        .await;
    let keys: Vec<(i64, i64)> = hits(&newest).iter().map(sort_key).collect();
    assert_eq!(keys[0].0, BUILT_AT + 60_000);
    assert_eq!(keys[0].0, keys[1].0, "two documents per @timestamp");
    assert_eq!(keys[2].0, keys[0].0 - 400);
}

/// Tails the index every second for a minute, reading what follows its cursor. With `rewind`, it
/// asks from 5 seconds before its newest timestamp and de-duplicates by `_id`.
async fn tail(fixture: &Fixture, rewind: bool, seconds: u64) -> HashSet<String> {
    let start = fixture
        .search(json!({ "size": 1, "sort": sorted("desc") }))
        .await;
    let mut cursor = sort_key(&hits(&start)[0]);
    let mut seen = HashSet::new();
    for _ in 0..seconds {
        fixture.clock.advance(Duration::from_secs(1));
        let after = if rewind {
            json!([cursor.0 - 5_000, -1])
        } else {
            json!([cursor.0, cursor.1])
        };
        let body = json!({ "size": 500, "sort": sorted("asc"), "search_after": after, "track_total_hits": false });
        let response = fixture.search(body).await;
        for hit in hits(&response) {
            seen.insert(id(hit));
            cursor = cursor.max(sort_key(hit));
        }
    }
    seen
}

#[tokio::test]
async fn a_tail_without_overlap_never_sees_late_documents_and_a_rewinding_one_sees_them_all() {
    let naive = tail(&Fixture::new(9), false, 70).await;
    let rewinding = tail(&Fixture::new(9), true, 70).await;

    // Every document written in the first minute, read once the late ones are in.
    let fixture = Fixture::new(9);
    fixture.clock.set(BUILT_AT + 70_000);
    let after_start = json!([BUILT_AT, search::INITIAL_DOCS as i64 - 1]);
    let body = json!({ "size": 1_000, "sort": sorted("asc"), "search_after": after_start, "track_total_hits": false });
    let written: Vec<Value> = hits(&fixture.search(body).await)
        .iter()
        .filter(|hit| sort_key(hit).0 <= BUILT_AT + 60_000)
        .cloned()
        .collect();
    assert_eq!(written.len(), 300);

    let is_late = |hit: &Value| (sort_key(hit).1 - search::INITIAL_DOCS as i64) % 17 == 16;
    let late: HashSet<String> = written.iter().filter(|hit| is_late(hit)).map(id).collect();
    let on_time: HashSet<String> = written.iter().filter(|hit| !is_late(hit)).map(id).collect();
    assert_eq!(late.len(), 300 / 17);
    assert!(
        on_time.is_subset(&naive),
        "the naive tail sees every document ingested on time"
    );
    assert!(
        late.is_disjoint(&naive),
        "the naive tail never sees a late document"
    );
    assert!(
        late.is_subset(&rewinding) && on_time.is_subset(&rewinding),
        "rewinding sees every document"
    );
}

#[tokio::test]
async fn track_total_hits_counts_to_ten_thousand_exactly_or_not_at_all() {
    let fixture = Fixture::new(5);
    fixture.clock.set(BUILT_AT + 3_600_000);
    let default = fixture.search(json!({ "size": 1 })).await;
    assert_eq!(
        default["hits"]["total"],
        json!({ "value": 10_000, "relation": "gte" })
    );
    let exact = fixture
        .search(json!({ "size": 1, "track_total_hits": true }))
        .await;
    assert_eq!(
        exact["hits"]["total"],
        json!({ "value": 38_000 - 1, "relation": "eq" }),
        "one late pending"
    );
    let absent = fixture
        .search(json!({ "size": 1, "track_total_hits": false }))
        .await;
    assert_eq!(absent["hits"].get("total"), None);
    assert_eq!(hits(&absent).len(), 1);

    let rare = json!({ "query_string": { "query": "log.level:ERROR AND service.name:payments" } });
    let small = fixture.search(json!({ "size": 0, "query": rare })).await;
    let value = small["hits"]["total"]["value"].as_u64().expect("total");
    assert!(value > 0 && value < 10_000);
    assert_eq!(
        small["hits"]["total"]["relation"], "eq",
        "under the threshold the default is exact"
    );
    let common = json!({ "query_string": { "query": "INFO" } });
    let over = fixture
        .search(json!({ "size": 0, "query": common.clone() }))
        .await;
    assert_eq!(
        over["hits"]["total"],
        json!({ "value": 10_000, "relation": "gte" })
    );
    let counted = fixture
        .search(json!({ "size": 0, "query": common, "track_total_hits": true }))
        .await;
    assert!(counted["hits"]["total"]["value"].as_u64().expect("total") > 10_000);
}

/// What a client checks a hit against.
type HitPredicate<'a> = dyn Fn(&Value) -> bool + 'a;

#[tokio::test]
async fn query_string_terms_match_fields_and_words_joined_by_and() {
    let fixture = Fixture::new(5);
    let everything = walk(&fixture, "asc", 5_000, json!({ "match_all": {} })).await;
    let words = |hit: &Value| -> Vec<String> {
        let message = hit["_source"]["message"]
            .as_str()
            .expect("message")
            .to_lowercase();
        message
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let level = |hit: &Value| {
        hit["_source"]["log"]["level"]
            .as_str()
            .expect("level")
            .to_owned()
    };
    let service = |hit: &Value| {
        hit["_source"]["service"]["name"]
            .as_str()
            .expect("service")
            .to_owned()
    };
    let cases: Vec<(&str, Box<HitPredicate<'_>>)> = vec![
        (
            "log.level:error service.name:PAYMENTS",
            Box::new(|hit| level(hit) == "ERROR" && service(hit) == "payments"),
        ),
        (
            "message:timeout",
            Box::new(|hit| words(hit).contains(&"timeout".to_owned())),
        ),
        (
            "message:\"connection refused\" AND log.level:ERROR",
            Box::new(|hit| {
                words(hit)
                    .windows(2)
                    .any(|pair| pair == ["connection", "refused"])
                    && level(hit) == "ERROR"
            }),
        ),
        (
            "inventory",
            Box::new(|hit| {
                service(hit) == "inventory" || words(hit).contains(&"inventory".to_owned())
            }),
        ),
        ("*", Box::new(|_| true)),
        ("message:nosuchword", Box::new(|_| false)),
    ];
    for (query, predicate) in cases {
        let expected: Vec<String> = everything
            .iter()
            .filter(|hit| predicate(hit))
            .map(id)
            .collect();
        let found: Vec<String> = walk(
            &fixture,
            "asc",
            5_000,
            json!({ "query_string": { "query": query } }),
        )
        .await
        .iter()
        .map(id)
        .collect();
        assert_eq!(found, expected, "{query}");
        let total = fixture.search(json!({ "size": 0, "track_total_hits": true, "query": { "query_string": { "query": query } } })).await;
        assert_eq!(total["hits"]["total"]["value"], expected.len(), "{query}");
    }
}

#[tokio::test]
async fn from_pages_within_the_result_window_and_the_seed_decides_the_documents() {
    let fixture = Fixture::new(5);
    let first = fixture
        .search(json!({ "size": 10, "sort": sorted("desc") }))
        .await;
    let second = fixture
        .search(json!({ "from": 5, "size": 10, "sort": sorted("desc") }))
        .await;
    assert_eq!(hits(&first)[5..], hits(&second)[..5]);
    let edge = fixture.search(json!({ "from": 9_990, "size": 10 })).await;
    assert_eq!(hits(&edge).len(), 10);
    let again = Fixture::new(5)
        .search(json!({ "size": 10, "sort": sorted("desc") }))
        .await;
    assert_eq!(first, again, "same seed, same clock, same answer");
    let other = Fixture::new(6)
        .search(json!({ "size": 10, "sort": sorted("desc") }))
        .await;
    assert_ne!(hits(&first), hits(&other));
}

#[tokio::test]
async fn every_refusal_is_a_400_in_elasticsearch_wording() {
    let fixture = Fixture::new(5);
    let refused = |body: Value| fixture.refused(body.to_string());
    assert_eq!(
        refused(json!({ "from": 10, "size": 10_000 })).await,
        "Result window is too large, from + size must be less than or equal to: [10000] but was [10010]"
    );
    assert!(refused(json!({ "size": 10_001 })).await.contains("[10001]"));
    let mixed =
        refused(json!({ "sort": [{ "@timestamp": "desc" }, { "_shard_doc": "asc" }] })).await;
    assert!(mixed.contains("direction"), "{mixed}");
    let not_last =
        refused(json!({ "sort": [{ "_shard_doc": "asc" }, { "@timestamp": "asc" }] })).await;
    assert!(
        not_last.contains("must end with [_shard_doc]"),
        "{not_last}"
    );
    assert!(refused(json!({ "sort": [] })).await.contains("_shard_doc"));
    assert_eq!(
        refused(json!({ "sort": [{ "level": "asc" }, { "_shard_doc": "asc" }] })).await,
        "No mapping found for [level] in order to sort on"
    );
    assert_eq!(
        refused(json!({ "sort": [{ "_shard_doc": "up" }] })).await,
        "Unknown SortOrder [up]"
    );
    assert_eq!(
        refused(json!({ "sizes": 3 })).await,
        "Unknown key for a VALUE_NUMBER in [sizes]."
    );
    assert_eq!(
        refused(json!({ "_source": ["message"] })).await,
        "Unknown key for a START_ARRAY in [_source]."
    );
    assert_eq!(
        refused(json!({ "size": -1 })).await,
        "[size] parameter cannot be negative, found [-1]"
    );
    assert_eq!(
        refused(json!({ "from": -2 })).await,
        "[from] parameter cannot be negative, found [-2]"
    );
    assert!(refused(json!({ "size": "ten" })).await.contains("[size]"));
    assert!(
        refused(json!({ "track_total_hits": "100" }))
            .await
            .contains("[track_total_hits]")
    );
    assert_eq!(
        refused(json!({ "from": 1, "search_after": [0, 0], "sort": sorted("asc") })).await,
        "`from` parameter must be set to 0 when `search_after` is used."
    );
    assert_eq!(
        refused(json!({ "search_after": [0], "sort": sorted("asc") })).await,
        "search_after has 1 value(s) but sort has 2."
    );
    assert_eq!(
        refused(json!({ "search_after": ["x", 0], "sort": sorted("asc") })).await,
        "Failed to parse search_after value for field [@timestamp]."
    );
    assert_eq!(
        refused(json!({ "query": { "term": { "x": 1 } } })).await,
        "[term] query is not modelled: use match_all or query_string"
    );
    assert_eq!(
        refused(json!({ "query": { "nonsense": {} } })).await,
        "unknown query [nonsense]"
    );
    assert_eq!(
        refused(json!({ "query": { "query_string": { "query": "a", "fields": [] } } })).await,
        "[query_string] query does not support [fields]"
    );
    for query in ["level:ERROR", "a OR b", "timeout*", "\"open"] {
        let message = refused(json!({ "query": { "query_string": { "query": query } } })).await;
        assert!(
            message.starts_with(&format!("Failed to parse query [{query}]")),
            "{message}"
        );
    }

    let not_json = fixture.refused("{\"size\": ").await;
    assert!(not_json.contains("not valid JSON"), "{not_json}");
    assert!(fixture.refused("[1, 2]").await.contains("JSON object"));

    for not_modelled in [
        fixture
            .refused(json!({ "pit": { "id": "abc" } }).to_string())
            .await,
        fixture
            .refused(
                json!({ "aggs": { "levels": { "terms": { "field": "log.level" } } } }).to_string(),
            )
            .await,
        fixture
            .refused(json!({ "aggregations": {} }).to_string())
            .await,
        fixture
            .refused_at("/logs-app/_search?scroll=1m", "{}")
            .await,
        fixture.refused_at("/_search/scroll", "{}").await,
        fixture.refused_at("/logs-app/_pit?keep_alive=1m", "").await,
    ] {
        assert!(not_modelled.contains("is not modelled"), "{not_modelled}");
    }
    assert_eq!(
        fixture
            .refused_at("/logs-app/_search?pretty=true", "{}")
            .await,
        "request [/logs-app/_search] contains unrecognized parameter: [pretty]"
    );
    let (status, _) = fixture
        .send(Method::POST, "/logs-app/_search?latency=5ms", "")
        .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "an empty body is match_all, and the controls are left to their layer"
    );
}

#[tokio::test]
async fn sorting_by_shard_doc_alone_pages_the_same_documents() {
    let fixture = Fixture::new(5);
    let top = fixture
        .search(json!({ "size": 10, "sort": sorted("desc") }))
        .await;
    let edge = hits(&top)[9]["sort"].clone();
    let both = fixture
        .search(json!({ "size": 5, "sort": sorted("desc"), "search_after": edge }))
        .await;
    let shard_doc = edge[1].clone();
    let alone_body = json!({ "size": 5, "sort": [{ "_shard_doc": { "order": "desc" } }], "search_after": [shard_doc] });
    let alone = fixture.search(alone_body).await;
    let ids = |response: &Value| hits(response).iter().map(id).collect::<Vec<_>>();
    assert_eq!(ids(&both), ids(&alone));
    assert_eq!(
        hits(&alone)[0]["sort"],
        json!([shard_doc.as_i64().expect("a number") - 1])
    );
}

#[tokio::test]
async fn the_whole_service_serves_the_corner_with_the_per_request_controls() {
    let service = Corner::whole(5);
    let search = |uri: &str| {
        service.call(
            Request::post(uri)
                .body(Body::from("{\"size\": 1}"))
                .expect("request"),
        )
    };
    let (status, body) = search("/logs-app/_search").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body["hits"]["total"],
        json!({ "value": 10_000, "relation": "gte" })
    );
    let (status, _) = search("/logs-app/_search?fail=500").await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
}
