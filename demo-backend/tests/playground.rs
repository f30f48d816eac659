//! The playground: a fixed seed and a world that has already lived when it opens.
#![allow(clippy::unwrap_used, missing_docs)]

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use common::Demo;
use demo_backend::clock::ManualClock;
use demo_backend::options::{DEFAULT_SEED, PLAYGROUND_HISTORY, PLAYGROUND_START};
use demo_backend::world::history::Examples;
use demo_backend::{Client, Options};
use serde_json::{Value, json};

/// The playground as `sources try --demo` builds it, on a manual clock standing at its start.
fn playground() -> Demo {
    let clock = ManualClock::new(PLAYGROUND_START);
    let client = Client::in_process(Options {
        seed: DEFAULT_SEED,
        now: Some(Arc::new(clock.clone())),
        history: PLAYGROUND_HISTORY,
        ..Options::default()
    });
    Demo { clock, client }
}

fn statuses(jobs: &Value) -> BTreeSet<String> {
    jobs.as_array()
        .unwrap()
        .iter()
        .map(|job| job["status"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_default_seed_gives_these_exact_rows() {
    let demo = playground();
    let page = demo.get("/apps?limit=2", 200).await;
    assert_eq!(
        page,
        json!({"offset": 0, "total": 5000, "rows": [
            {"health":"Healthy","id":"app-0001","name":"checkout-scheduler-staging","phase":"Failed",
             "region":"eu-central-1","rev":12,"sync":"OutOfSync"},
            {"health":"Healthy","id":"app-0002","name":"catalog-scheduler","phase":"Succeeded",
             "region":"eu-west-1","rev":40,"sync":"Synced"},
        ]})
    );
    let jobs = demo.get("/jobs", 200).await;
    assert_eq!(jobs.as_array().unwrap().len(), 33);
    assert_eq!(
        jobs[0],
        json!({"app":"app-1725","finished":"2026-03-02T08:58:06.000Z","id":"job-000001",
               "kind":"sync","rev":23,"started":"2026-03-02T08:58:02.000Z","status":"Succeeded"})
    );
    assert_eq!(
        demo.client.handle().unwrap().examples(),
        Examples {
            app: Some("app-0006".into()),
            running_job: Some("job-000033".into()),
            succeeded_job: Some("job-000031".into()),
            failed_job: Some("job-000028".into()),
        }
    );
}

#[tokio::test]
async fn the_world_has_lived_jobs_logs_events_and_documents() {
    let demo = playground();
    let jobs = demo.get("/jobs", 200).await;
    assert_eq!(
        statuses(&jobs),
        ["Failed", "Running", "Succeeded"].map(String::from).into()
    );
    let examples = demo.client.handle().unwrap().examples();
    for job in [
        examples.failed_job.unwrap(),
        examples.succeeded_job.unwrap(),
    ] {
        let response = demo.client.get(&format!("/jobs/{job}/log")).await.unwrap();
        let log = response.into_body().text().await.unwrap();
        assert!(log.lines().count() >= 3, "{job} has a log: {log}");
    }
    let automation = demo.get("/api/v2/jobs/", 200).await;
    assert_eq!(automation["results"][0]["status"], "successful");
    assert_eq!(automation["results"][1]["status"], "running");
    let events = demo
        .get(
            "/api/v2/jobs/2/job_events/?order_by=-counter&page_size=1",
            200,
        )
        .await;
    assert_eq!(events["results"][0]["counter"], 968, "8 a second for 121s");
    let search = demo
        .post_json(
            "/logs-app/_search",
            json!({"size": 1, "track_total_hits": true,
                   "sort": [{"@timestamp": "desc"}, {"_shard_doc": "desc"}]}),
        )
        .await;
    // 605 arrived in 121s; the last refresh and the late-ingested ones hold back two.
    assert_eq!(search["hits"]["total"]["value"], 20_603);
}

#[tokio::test]
async fn time_moves_on_from_the_opening_under_the_same_rules() {
    let demo = playground();
    let first = demo.get("/jobs", 200).await;
    demo.advance(999);
    assert_eq!(
        demo.get("/jobs", 200).await,
        first,
        "quiet for a second after opening"
    );
    demo.advance(2_001);
    let later = demo.get("/jobs/job-000033", 200).await;
    assert_eq!(
        later["status"], "Succeeded",
        "a 4s sync started 1s before opening"
    );
    assert_eq!(later["finished"], "2026-03-02T09:00:03.000Z");
    let again = playground();
    assert_eq!(
        again.get("/jobs", 200).await,
        first,
        "the same world every time"
    );
}

#[tokio::test]
async fn another_seed_is_another_world() {
    let clock = ManualClock::new(PLAYGROUND_START);
    let client = Client::in_process(Options {
        seed: 7,
        now: Some(Arc::new(clock.clone())),
        history: PLAYGROUND_HISTORY,
        ..Options::default()
    });
    let other = Demo { clock, client };
    assert_ne!(
        other.get("/apps?limit=2", 200).await,
        playground().get("/apps?limit=2", 200).await
    );
    assert_eq!(
        statuses(&other.get("/jobs", 200).await),
        ["Failed", "Running", "Succeeded"].map(String::from).into()
    );
}
