//! Commands, jobs and the log stream, on a pinned clock.
#![allow(clippy::unwrap_used, missing_docs)]

mod common;

use common::{Demo, settle};
use serde_json::Value;

async fn row(demo: &Demo, id: &str) -> Value {
    demo.get(&format!("/apps?id={id}"), 200).await["rows"][0].clone()
}

#[tokio::test]
async fn a_sync_runs_four_seconds_on_the_pinned_clock() {
    let demo = Demo::quiet();
    let before = row(&demo, "app-0004").await;
    let response = demo.client.post("/apps/app-0004/sync").await.unwrap();
    assert_eq!(response.headers()["location"], "/jobs/job-000001");
    let handle = common::json(response, 202, "sync").await;
    assert_eq!(handle, serde_json::json!({ "job": "job-000001" }));

    let job = demo.get("/jobs/job-000001", 200).await;
    assert_eq!(job["status"], "Running");
    assert_eq!(job["kind"], "sync");
    assert_eq!(job["app"], "app-0004");
    assert_eq!(job["started"], "2027-01-15T08:00:00.000Z");
    assert!(job["finished"].is_null());
    assert_eq!(job["rev"], before["rev"]);
    let running = row(&demo, "app-0004").await;
    assert_eq!(
        (&running["phase"], &running["rev"]),
        (&Value::from("Running"), &before["rev"])
    );

    demo.advance(1_000);
    assert_eq!(
        demo.get("/jobs/job-000001", 200).await["status"],
        "Running",
        "running at T+1s"
    );
    demo.advance(2_999);
    assert_eq!(demo.get("/jobs/job-000001", 200).await["status"], "Running");
    demo.advance(1);
    let done = demo.get("/jobs/job-000001", 200).await;
    assert_eq!(done["status"], "Succeeded", "finished at T+4s exactly");
    assert_eq!(done["finished"], "2027-01-15T08:00:04.000Z");
    let rev = before["rev"].as_u64().unwrap() + 1;
    assert_eq!(done["rev"], rev);
    let after = row(&demo, "app-0004").await;
    assert_eq!(
        (&after["sync"], &after["phase"], &after["rev"]),
        (
            &Value::from("Synced"),
            &Value::from("Succeeded"),
            &Value::from(rev)
        )
    );
    let detail = demo.get("/apps/app-0004", 200).await;
    assert_eq!(detail["status"]["operationState"]["phase"], "Succeeded");
    assert_eq!(
        detail["status"]["operationState"]["finishedAt"],
        "2027-01-15T08:00:04.000Z"
    );
    let last = detail["status"]["history"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        (&last["id"], &last["job"], &last["rev"]),
        (
            &Value::from(1),
            &Value::from("job-000001"),
            &Value::from(rev)
        )
    );
    assert_eq!(last["deployedAt"], "2027-01-15T08:00:04.000Z");
}

#[tokio::test]
async fn rev_reveals_a_job_that_started_and_finished_between_two_reads() {
    let demo = Demo::quiet();
    let first = row(&demo, "app-0010").await;
    demo.post("/apps/app-0010/sync?quick=1", 202).await;
    demo.advance(1_000);
    let second = row(&demo, "app-0010").await;
    assert_eq!(second["phase"], "Succeeded");
    assert_ne!(
        first["rev"], second["rev"],
        "the job is seen only through rev"
    );
    demo.advance(60_000);
    assert_eq!(
        row(&demo, "app-0010").await,
        second,
        "rev changes only when a job completes"
    );
}

#[tokio::test]
async fn a_command_on_a_busy_app_is_a_409_saying_what_runs() {
    let demo = Demo::quiet();
    demo.post("/apps/app-0002/sync", 202).await;
    demo.advance(1_000);
    for path in [
        "/apps/app-0002/sync",
        "/apps/app-0002/sync?quick=1",
        "/apps/app-0002/sync?failing=1",
        "/apps/app-0002/refresh",
    ] {
        let message = demo.error("POST", path, 409).await;
        assert_eq!(
            message,
            "application \"app-0002\" is busy: sync job-000001 has been running since 2027-01-15T08:00:00.000Z and ends at 2027-01-15T08:00:04.000Z",
            "{path}"
        );
    }
    assert_eq!(
        demo.get("/jobs", 200).await.as_array().unwrap().len(),
        1,
        "a refused command starts nothing"
    );
    demo.advance(3_000);
    demo.post("/apps/app-0002/sync", 202).await;
}

#[tokio::test]
async fn a_failing_sync_fails_at_one_and_a_half_seconds() {
    let demo = Demo::quiet();
    let before = row(&demo, "app-0005").await;
    let job = demo.post("/apps/app-0005/sync?failing=1", 202).await["job"]
        .as_str()
        .unwrap()
        .to_owned();
    demo.advance(1_499);
    assert_eq!(
        demo.get(&format!("/jobs/{job}"), 200).await["status"],
        "Running"
    );
    demo.advance(1);
    let done = demo.get(&format!("/jobs/{job}"), 200).await;
    assert_eq!(
        (&done["status"], &done["finished"]),
        (
            &Value::from("Failed"),
            &Value::from("2027-01-15T08:00:01.500Z")
        )
    );
    let after = row(&demo, "app-0005").await;
    assert_eq!(
        (&after["sync"], &after["phase"]),
        (&Value::from("OutOfSync"), &Value::from("Failed"))
    );
    assert_eq!(after["rev"], before["rev"].as_u64().unwrap() + 1);
}

#[tokio::test]
async fn a_quick_sync_finishes_inside_one_poll_interval() {
    let demo = Demo::quiet();
    let job = demo.post("/apps/app-0006/sync?quick=1", 202).await["job"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        demo.get(&format!("/jobs/{job}"), 200).await["status"],
        "Running"
    );
    demo.advance(1_000);
    assert_eq!(
        demo.get(&format!("/jobs/{job}"), 200).await["status"],
        "Succeeded"
    );
}

#[tokio::test]
async fn a_refresh_is_finished_when_answered() {
    let demo = Demo::quiet();
    let before = row(&demo, "app-0008").await;
    let job = demo.post("/apps/app-0008/refresh", 202).await["job"]
        .as_str()
        .unwrap()
        .to_owned();
    let record = demo.get(&format!("/jobs/{job}"), 200).await;
    assert_eq!(
        (&record["kind"], &record["status"]),
        (&Value::from("refresh"), &Value::from("Succeeded"))
    );
    assert_eq!(record["started"], record["finished"]);
    let after = row(&demo, "app-0008").await;
    assert_eq!(after["rev"], before["rev"].as_u64().unwrap() + 1);
    assert_eq!(after["sync"], before["sync"]);
    assert_eq!(after["phase"], "Succeeded");
    demo.post("/apps/app-0008/refresh", 202).await;
}

#[tokio::test]
async fn command_errors() {
    let demo = Demo::quiet();
    assert_eq!(
        demo.error("POST", "/apps/app-0999/sync", 404).await,
        "application \"app-0999\" not found"
    );
    assert_eq!(
        demo.error("POST", "/apps/app-0999/refresh", 404).await,
        "application \"app-0999\" not found"
    );
    assert_eq!(
        demo.error("POST", "/apps/app-0001/sync?quick=1&failing=1", 400)
            .await,
        "parameters quick and failing exclude each other; send at most one"
    );
    assert_eq!(
        demo.error("POST", "/apps/app-0001/sync?quick=fast", 400)
            .await,
        "parameter quick: expected 1, true, 0 or false, got \"fast\""
    );
    assert_eq!(
        demo.error("POST", "/apps/app-0001/sync?failing=2", 400)
            .await,
        "parameter failing: expected 1, true, 0 or false, got \"2\""
    );
    assert_eq!(demo.get("/jobs", 200).await, serde_json::json!([]));
}

#[tokio::test]
async fn jobs_are_listed_and_filtered_by_app() {
    let demo = Demo::quiet();
    demo.post("/apps/app-0001/sync", 202).await;
    demo.post("/apps/app-0002/refresh", 202).await;
    demo.advance(5_000);
    demo.post("/apps/app-0001/sync?failing=1", 202).await;
    let all = demo.get("/jobs", 200).await;
    let ids: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["job-000001", "job-000002", "job-000003"]);
    let one = demo.get("/jobs?app=app-0001", 200).await;
    let statuses: Vec<&str> = one
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["Succeeded", "Running"]);
    assert_eq!(
        demo.get("/jobs?app=app-0003", 200).await,
        serde_json::json!([])
    );
    assert_eq!(
        demo.error("GET", "/jobs?app=app-0999", 404).await,
        "application \"app-0999\" not found"
    );
    assert_eq!(
        demo.error("GET", "/jobs/job-000099", 404).await,
        "job \"job-000099\" not found"
    );
    assert_eq!(
        demo.error("GET", "/jobs/banana", 404).await,
        "job \"banana\" not found"
    );
    assert_eq!(
        demo.error("GET", "/jobs/banana/log", 404).await,
        "job \"banana\" not found"
    );
}

fn lines(chunk: &[u8]) -> Vec<String> {
    String::from_utf8(chunk.to_vec())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn the_log_streams_while_the_job_runs_and_closes_when_it_ends() {
    let demo = Demo::quiet();
    demo.post("/apps/app-0003/sync", 202).await;
    let response = demo.client.get("/jobs/job-000001/log").await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    assert!(
        response.headers().get("content-length").is_none(),
        "chunked, not sized"
    );
    let mut body = response.into_body();

    let first = body.next_chunk().await.unwrap().unwrap();
    assert_eq!(
        lines(&first),
        ["2027-01-15T08:00:00.000Z INFO  app-0003: comparing live state with the target revision"]
    );
    assert_eq!(
        demo.get("/jobs/job-000001", 200).await["status"],
        "Running",
        "the first line arrived while the job runs"
    );

    let reader = tokio::spawn(async move {
        let mut seen = Vec::new();
        while let Some(chunk) = body.next_chunk().await {
            seen.push(lines(&chunk.unwrap()));
        }
        seen
    });
    settle().await;
    assert!(!reader.is_finished(), "the stream waits for the clock");
    demo.advance(1_000);
    settle().await;
    assert!(!reader.is_finished());
    assert_eq!(demo.get("/jobs/job-000001", 200).await["status"], "Running");
    demo.advance(3_000);
    let chunks = reader.await.unwrap();
    let all: Vec<String> = std::iter::once(lines(&first))
        .chain(chunks)
        .flatten()
        .collect();
    // Three lines a second for four seconds, then the two closing lines.
    assert_eq!(all.len(), 12 + 2, "{all:#?}");
    assert!(
        all.iter()
            .all(|line| line.contains("app-0003") && !line.contains('{') && !line.contains('}')),
        "{all:#?}"
    );
    assert_eq!(
        all[1],
        "2027-01-15T08:00:00.333Z INFO  app-0003: fetched manifests for app-0003 from the repository"
    );
    assert_eq!(
        all[3],
        "2027-01-15T08:00:01.000Z INFO  app-0003: applying Service/app-0003"
    );
    assert_eq!(
        all.last().unwrap(),
        "2027-01-15T08:00:04.000Z INFO  app-0003: sync succeeded"
    );
}

#[tokio::test]
async fn a_failing_sync_log_says_it_failed_within_one_and_a_half_seconds() {
    let demo = Demo::quiet();
    demo.post("/apps/app-0009/sync?failing=1", 202).await;
    let log = {
        let client = demo.client.clone();
        tokio::spawn(async move { common::text(&client, "/jobs/job-000001/log?rate=10").await })
    };
    settle().await;
    demo.advance(1_500);
    let text = log.await.unwrap();
    let all: Vec<&str> = text.lines().collect();
    assert_eq!(
        all.len(),
        15 + 2,
        "ten lines a second for 1.5s, then two closing lines: {all:#?}"
    );
    assert_eq!(
        all.last().unwrap(),
        &"2027-01-15T08:00:01.500Z ERROR app-0009: sync failed; the application stays OutOfSync"
    );
    assert!(
        all.iter()
            .all(|line| line.contains("app-0009") && !line.contains('{'))
    );
}

#[tokio::test]
async fn a_finished_job_replays_its_log_and_rate_raises_the_line_rate() {
    let demo = Demo::quiet();
    demo.post("/apps/app-0011/sync", 202).await;
    demo.post("/apps/app-0012/refresh", 202).await;
    demo.advance(10_000);
    let fast = common::text(&demo.client, "/jobs/job-000001/log?rate=1000").await;
    assert_eq!(fast.lines().count(), 4_000 + 2);
    let slow = common::text(&demo.client, "/jobs/job-000001/log?rate=0.5").await;
    assert_eq!(slow.lines().count(), 2 + 2);
    let tiny = demo
        .client
        .get("/jobs/job-000001/log?rate=1e-300")
        .await
        .unwrap();
    assert_eq!(
        tiny.into_body().text().await.unwrap().lines().count(),
        1 + 2,
        "one line, then the end"
    );
    let refresh = common::text(&demo.client, "/jobs/job-000002/log").await;
    assert_eq!(
        refresh,
        "2027-01-15T08:00:00.000Z INFO  app-0012: refresh finished\n"
    );
    for rate in ["0", "-1", "fast", "10001"] {
        let message = demo
            .error("GET", &format!("/jobs/job-000001/log?rate={rate}"), 400)
            .await;
        assert_eq!(
            message,
            format!(
                "parameter rate: expected lines per second, a number above 0 and at most 10000, got {rate:?}"
            )
        );
    }
}
