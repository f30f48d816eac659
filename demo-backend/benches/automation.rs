//! A `job_events` page with `stdout__icontains` over the finished job's 8,000 events.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use criterion::{Criterion, criterion_group, criterion_main};
use demo_backend::CornerContext;
use demo_backend::automation;
use demo_backend::clock::{ManualClock, Millis};
use http_body_util::BodyExt;
use tokio::runtime::Runtime;
use tower::ServiceExt;

const BUILT_AT: Millis = 1_790_000_000_000;

async fn get(router: &Router, uri: &str) -> usize {
    let request = Request::get(uri).body(Body::empty()).expect("request");
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

fn bench_job_events(c: &mut Criterion) {
    let runtime = Runtime::new().expect("a runtime");
    let clock = ManualClock::new(BUILT_AT + 60_000);
    let router = automation::router(CornerContext {
        clock: Arc::new(clock),
        seed: 42,
        built_at: BUILT_AT,
    });
    let mut group = c.benchmark_group("job_events_8000");
    for (name, uri) in [
        (
            "stdout_icontains_find_page_size_1",
            "/api/v2/jobs/1/job_events/?order_by=counter&stdout__icontains=FATAL&counter__gt=4000&page_size=1",
        ),
        (
            "stdout_icontains_page_size_200",
            "/api/v2/jobs/1/job_events/?order_by=counter&stdout__icontains=changed&page_size=200&page=2",
        ),
    ] {
        group.bench_function(name, |b| b.iter(|| runtime.block_on(get(&router, uri))));
    }
    group.finish();
}

criterion_group!(benches, bench_job_events);
criterion_main!(benches);
