//! Per-request controls on every route, JSON errors everywhere, concurrency and reproducibility.
#![allow(clippy::unwrap_used, missing_docs)]

mod common;

use std::time::Duration;

use common::{Demo, settle};
use demo_backend::{Client, Options};

#[tokio::test]
async fn latency_delays_only_its_own_request_and_replies_arrive_out_of_order() {
    let demo = Demo::quiet();
    let slow = {
        let client = demo.client.clone();
        tokio::spawn(async move {
            let response = client.get("/apps?q=billing&latency=2s").await.unwrap();
            response.into_body().text().await.unwrap()
        })
    };
    settle().await;
    assert!(!slow.is_finished());
    // The fast request for the current query answers while the abandoned slow one still waits.
    let fast = demo.get("/apps?q=checkout", 200).await;
    assert!(fast["total"].as_u64().unwrap() > 0);
    demo.post("/apps/app-0001/sync?quick=1", 202).await;
    settle().await;
    assert!(!slow.is_finished());
    demo.advance(1_999);
    settle().await;
    assert!(!slow.is_finished());
    demo.advance(1);
    let late: serde_json::Value = serde_json::from_str(&slow.await.unwrap()).unwrap();
    assert!(late["total"].as_u64().unwrap() > 0);
}

#[tokio::test]
async fn controls_are_honoured_on_every_route() {
    let demo = Demo::quiet();
    let job = demo.post("/apps/app-0001/refresh", 202).await["job"]
        .as_str()
        .unwrap()
        .to_owned();
    let routes = [
        ("GET", "/apps".to_owned()),
        ("GET", "/apps/facets?field=region".to_owned()),
        ("GET", "/apps/app-0001".to_owned()),
        ("POST", "/apps/app-0002/sync".to_owned()),
        ("POST", "/apps/app-0002/refresh".to_owned()),
        ("GET", "/jobs".to_owned()),
        ("GET", format!("/jobs/{job}")),
        ("GET", format!("/jobs/{job}/log")),
        ("GET", "/api/v2/jobs/".to_owned()),
        ("POST", "/logs-app/_search".to_owned()),
        ("GET", "/no/such/route".to_owned()),
    ];
    for (method, path) in &routes {
        let sep = if path.contains('?') { '&' } else { '?' };
        let teapot = demo
            .error(method, &format!("{path}{sep}fail=418"), 418)
            .await;
        assert_eq!(teapot, "failing as asked by fail=418", "{method} {path}");
        let down = demo
            .error(method, &format!("{path}{sep}flaky=1"), 503)
            .await;
        assert_eq!(
            down, "flaky=1: this request was picked to fail",
            "{method} {path}"
        );
        let bad = demo
            .error(method, &format!("{path}{sep}latency=soon"), 400)
            .await;
        assert!(
            bad.starts_with("parameter latency: invalid duration \"soon\""),
            "{method} {path}: {bad}"
        );

        let waiting = {
            let client = demo.client.clone();
            let request = http::Request::builder()
                .method(*method)
                .uri(format!("{path}{sep}latency=300ms&fail=500"))
                .body(bytes::Bytes::new())
                .unwrap();
            tokio::spawn(async move { client.send(request).await.unwrap().status().as_u16() })
        };
        settle().await;
        assert!(
            !waiting.is_finished(),
            "{method} {path} waits for its latency"
        );
        demo.advance(300);
        assert_eq!(waiting.await.unwrap(), 500, "{method} {path}");
    }
    // Nothing above reached a handler that changes the world.
    assert_eq!(demo.get("/jobs", 200).await.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn malformed_controls_are_400s_naming_the_accepted_form() {
    let demo = Demo::quiet();
    let cases = [
        (
            "/apps?fail=99",
            "parameter fail: expected an HTTP status from 100 to 599, got \"99\"",
        ),
        (
            "/apps?fail=101",
            "parameter fail: status 101 Switching Protocols is not an error; use an error status (400 to 599) or a redirect (300 to 303, 307, 308; it sends a Location)",
        ),
        (
            "/apps?fail=200",
            "parameter fail: status 200 OK is not an error; use an error status (400 to 599) or a redirect (300 to 303, 307, 308; it sends a Location)",
        ),
        (
            "/apps?fail=304",
            "parameter fail: status 304 Not Modified is not an error; use an error status (400 to 599) or a redirect (300 to 303, 307, 308; it sends a Location)",
        ),
        (
            "/apps?latency=1000h",
            "parameter latency: 1000h is longer than the maximum, 60s",
        ),
        (
            "/apps/app-0001?refresh=normal&takes=1000h",
            "parameter takes: 1000h is longer than the maximum, 60s",
        ),
        (
            "/apps?fail=600",
            "parameter fail: expected an HTTP status from 100 to 599, got \"600\"",
        ),
        (
            "/apps?fail=oops",
            "parameter fail: expected an HTTP status from 100 to 599, got \"oops\"",
        ),
        (
            "/apps?flaky=1.5",
            "parameter flaky: expected a fraction from 0 to 1 (such as 0.25), got \"1.5\"",
        ),
        (
            "/apps?flaky=-0.1",
            "parameter flaky: expected a fraction from 0 to 1 (such as 0.25), got \"-0.1\"",
        ),
        (
            "/apps?flaky=often",
            "parameter flaky: expected a fraction from 0 to 1 (such as 0.25), got \"often\"",
        ),
        (
            "/apps?latency=5",
            "parameter latency: invalid duration \"5\": `5` has no unit: write it with one of ns, us, ms, s, m, h (for example `5s`)",
        ),
    ];
    for (path, message) in cases {
        assert_eq!(demo.error("GET", path, 400).await, message, "{path}");
    }
    assert_eq!(
        demo.get("/apps?flaky=0&latency=0&limit=1", 200).await["total"],
        200
    );
}

#[tokio::test]
async fn flaky_fails_a_fraction_reproducibly() {
    async fn outcomes(demo: &Demo) -> Vec<u16> {
        let mut statuses = Vec::new();
        for _ in 0..200 {
            statuses.push(
                demo.client
                    .get("/apps?limit=1&flaky=0.25")
                    .await
                    .unwrap()
                    .status()
                    .as_u16(),
            );
        }
        statuses
    }
    let first = outcomes(&Demo::quiet()).await;
    let failed = first.iter().filter(|&&s| s == 503).count();
    assert!(
        (25..=75).contains(&failed),
        "about a quarter fail: {failed}"
    );
    assert!(first.iter().all(|&s| s == 200 || s == 503));
    assert_eq!(
        outcomes(&Demo::quiet()).await,
        first,
        "same seed, same failures"
    );
    let other = outcomes(&Demo::with(Options {
        seed: 7,
        apps: 200,
        ..Options::default()
    }))
    .await;
    assert_ne!(other, first);
}

#[tokio::test]
async fn the_latency_option_is_a_floor_under_every_request() {
    let demo = Demo::with(Options {
        apps: 50,
        latency: Duration::from_millis(100),
        ..Options::default()
    });
    let request = |path: &'static str| {
        let client = demo.client.clone();
        tokio::spawn(async move { client.get(path).await.unwrap().status().as_u16() })
    };
    let floor_only = request("/apps");
    let with_latency = request("/apps?latency=50ms");
    let unknown = request("/nowhere");
    settle().await;
    demo.advance(99);
    settle().await;
    assert!(!floor_only.is_finished() && !with_latency.is_finished() && !unknown.is_finished());
    demo.advance(1);
    assert_eq!(floor_only.await.unwrap(), 200);
    assert_eq!(unknown.await.unwrap(), 404);
    settle().await;
    assert!(
        !with_latency.is_finished(),
        "per-request latency comes on top of the floor"
    );
    demo.advance(50);
    assert_eq!(with_latency.await.unwrap(), 200);
}

#[tokio::test]
async fn unknown_routes_and_wrong_methods_answer_json() {
    let demo = Demo::quiet();
    assert_eq!(
        demo.error("GET", "/nope", 404).await,
        "no route for GET /nope"
    );
    assert_eq!(
        demo.error("DELETE", "/apps", 405).await,
        "method DELETE is not allowed on /apps"
    );
    assert_eq!(
        demo.error("GET", "/apps/app-0001/sync", 405).await,
        "method GET is not allowed on /apps/app-0001/sync"
    );
    assert_eq!(
        demo.error("PUT", "/jobs/job-000001/log", 405).await,
        "method PUT is not allowed on /jobs/job-000001/log"
    );
}

#[tokio::test]
async fn two_clients_see_the_same_world() {
    let (router, _handle) = demo_backend::app(Options {
        seed: 9,
        apps: 100,
        now: Some(std::sync::Arc::new(demo_backend::clock::ManualClock::new(
            common::T0,
        ))),
        ..Options::default()
    });
    let tui = Client::from_router(router.clone());
    let cli = Client::from_router(router);
    let job = tui
        .post("/apps/app-0002/sync")
        .await
        .unwrap()
        .into_body()
        .text()
        .await
        .unwrap();
    let seen = common::text(&cli, "/jobs?app=app-0002").await;
    assert!(
        job.contains("job-000001") && seen.contains("job-000001") && seen.contains("Running"),
        "{seen}"
    );
    let a = common::text(&tui, "/apps?limit=10").await;
    let b = common::text(&cli, "/apps?limit=10").await;
    assert_eq!(a, b);
}

#[tokio::test]
async fn the_same_seed_and_clock_give_byte_identical_responses() {
    async fn session(schedule_secs: u64) -> Vec<bytes::Bytes> {
        let demo = Demo::with(Options {
            schedule: Duration::from_secs(schedule_secs),
            ..Options::default()
        });
        let mut bodies = Vec::new();
        for step in 0..6 {
            for path in [
                "/apps?sort=-rev&limit=20",
                "/apps?q=region:eu%20~api&sync=OutOfSync",
                "/jobs",
                "/apps/app-0001",
                "/apps/app-0007",
            ] {
                bodies.push(
                    demo.client
                        .get(path)
                        .await
                        .unwrap()
                        .into_body()
                        .bytes()
                        .await
                        .unwrap(),
                );
            }
            let _ = demo
                .client
                .post(&format!("/apps/app-00{:02}/sync?quick=1", 20 + step))
                .await
                .unwrap();
            demo.advance(2_500);
        }
        bodies
    }
    let first = session(6).await;
    assert_eq!(session(6).await, first);
    assert_ne!(session(5).await, first, "the schedule shapes the world");
    let jobs = String::from_utf8(first[first.len() - 3].to_vec()).unwrap();
    assert!(
        jobs.contains("\"app\":\"app-000"),
        "scheduled work ran on one of the first apps: {jobs}"
    );
}

#[tokio::test]
async fn a_zero_seed_is_taken_from_the_clock() {
    let clock = std::sync::Arc::new(demo_backend::clock::ManualClock::new(common::T0));
    let (_, a) = demo_backend::app(Options {
        apps: 10,
        now: Some(clock.clone()),
        ..Options::default()
    });
    let (_, b) = demo_backend::app(Options {
        apps: 10,
        now: Some(clock.clone()),
        ..Options::default()
    });
    assert_ne!(a.context().seed, 0);
    assert_eq!(
        a.context().seed,
        b.context().seed,
        "the same clock reading gives the same seed"
    );
    clock.advance(Duration::from_millis(1));
    let (_, c) = demo_backend::app(Options {
        apps: 10,
        now: Some(clock),
        ..Options::default()
    });
    assert_ne!(a.context().seed, c.context().seed);
}

#[tokio::test]
async fn a_redirect_fail_sends_a_location_without_the_fail() {
    let demo = Demo::quiet();
    for status in [301_u16, 302, 303, 307, 308] {
        let path = format!("/apps?limit=1&fail={status}&q=pay");
        let response = demo.client.get(&path).await.unwrap();
        assert_eq!(response.status().as_u16(), status);
        assert_eq!(
            response.headers()["location"].to_str().unwrap(),
            "/apps?limit=1&q=pay",
            "{path}"
        );
        let body = response.into_body().text().await.unwrap();
        assert_eq!(
            body,
            format!(
                r#"{{"error":"redirecting to /apps?limit=1&q=pay as asked by fail={status}"}}"#
            )
        );
    }
    let bare = demo.client.get("/jobs?fail=302").await.unwrap();
    assert_eq!(bare.headers()["location"], "/jobs");
}
