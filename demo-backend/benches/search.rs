//! `_search` with a `query_string` and `search_after` over 38,000 documents: the 20,000 of the
//! build plus one simulated hour at 5 per second.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use criterion::{Criterion, criterion_group, criterion_main};
use demo_backend::CornerContext;
use demo_backend::clock::{ManualClock, Millis};
use demo_backend::search;
use http_body_util::BodyExt;
use serde_json::json;
use tokio::runtime::Runtime;
use tower::ServiceExt;

const BUILT_AT: Millis = 1_790_000_000_000;
const ONE_HOUR: Millis = 3_600_000;

async fn search(router: &Router, body: &str) -> usize {
    let request = Request::post("/logs-app/_search")
        .body(Body::from(body.to_owned()))
        .expect("request");
    let response = router
        .clone()
        .oneshot(request)
        .await
        .expect("the router answers");
    assert_eq!(response.status(), StatusCode::OK);
    response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
        .len()
}

fn bench_search(c: &mut Criterion) {
    let runtime = Runtime::new().expect("a runtime");
    let clock = ManualClock::new(BUILT_AT + ONE_HOUR);
    let router = search::router(CornerContext {
        clock: Arc::new(clock),
        seed: 42,
        built_at: BUILT_AT,
    });
    let sort = json!([{ "@timestamp": "desc" }, { "_shard_doc": "desc" }]);
    let middle = json!([BUILT_AT, 19_999]);
    let query_string = json!({
        "size": 50,
        "sort": sort,
        "search_after": middle,
        "query": { "query_string": { "query": "log.level:WARN AND retrying" } },
    })
    .to_string();
    let match_all = json!({ "size": 50, "sort": sort, "search_after": middle }).to_string();
    // The first query_string indexes the 38,000 documents; measure the steady state after it.
    runtime.block_on(search(&router, &query_string));

    let mut group = c.benchmark_group("search_38000_docs");
    group.bench_function("query_string_search_after", |b| {
        b.iter(|| runtime.block_on(search(&router, &query_string)))
    });
    group.bench_function("match_all_search_after", |b| {
        b.iter(|| runtime.block_on(search(&router, &match_all)))
    });
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
