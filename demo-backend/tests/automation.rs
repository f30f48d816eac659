//! The automation-job corner, driven the way the spec's clients drive it, on a manual clock.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{BUILT_AT, Corner};
use demo_backend::automation::{self, FINISHED_JOB_EVENTS, RUNNING_JOB_EVENTS};
use serde_json::Value;

type Fixture = Corner;

impl Fixture {
    fn new(seed: u64) -> Fixture {
        Corner::build(automation::router, seed)
    }

    async fn get(&self, uri: &str) -> (StatusCode, Value) {
        self.call(Request::get(uri).body(Body::empty()).expect("request"))
            .await
    }

    async fn ok(&self, uri: &str) -> Value {
        let (status, body) = self.get(uri).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {body}");
        body
    }

    async fn error(&self, uri: &str, expected: StatusCode) -> String {
        let (status, body) = self.get(uri).await;
        assert_eq!(status, expected, "{uri}: {body}");
        body["error"].as_str().expect("an error message").to_owned()
    }
}

fn counters(page: &Value) -> Vec<u64> {
    page["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|event| event["counter"].as_u64().expect("counter"))
        .collect()
}

fn events_path(job: u64) -> String {
    format!("/api/v2/jobs/{job}/job_events/")
}

/// Every event of a job as the client sees it now, walked by counter ranges of 200.
async fn walk_by_ranges(fixture: &Fixture, job: u64) -> Vec<Value> {
    let newest = fixture
        .ok(&format!(
            "{}?order_by=-counter&page_size=1",
            events_path(job)
        ))
        .await;
    let highest = newest["results"][0]["counter"]
        .as_u64()
        .expect("a highest counter");
    let mut events = Vec::new();
    let mut after = 0;
    while after < highest {
        let uri = format!(
            "{}?order_by=counter&counter__gt={after}&counter__lte={}&page_size=200",
            events_path(job),
            after + 200
        );
        let page = fixture.ok(&uri).await;
        assert_eq!(page["next"], Value::Null, "one request per range");
        events.extend(page["results"].as_array().expect("results").iter().cloned());
        after += 200;
    }
    events
}

#[tokio::test]
async fn walking_the_finished_job_by_counter_ranges_misses_and_repeats_nothing() {
    let fixture = Fixture::new(7);
    let events = walk_by_ranges(&fixture, automation::FINISHED_JOB_ID).await;
    let counters: Vec<u64> = events
        .iter()
        .map(|event| event["counter"].as_u64().expect("counter"))
        .collect();
    assert_eq!(
        counters,
        (1..=u64::from(FINISHED_JOB_EVENTS)).collect::<Vec<_>>()
    );
    let all = fixture
        .ok(&format!("{}?order_by=counter", events_path(1)))
        .await;
    assert_eq!(
        all["count"], FINISHED_JOB_EVENTS,
        "the highest counter is the total"
    );
}

#[tokio::test]
async fn walking_a_filtered_set_by_page_follows_next_links_that_keep_every_filter() {
    let fixture = Fixture::new(7);
    let everything = walk_by_ranges(&fixture, 1).await;
    let expected: Vec<u64> = everything
        .iter()
        .filter(|event| {
            event["stdout"]
                .as_str()
                .is_some_and(|stdout| stdout.to_lowercase().contains("changed:"))
        })
        .filter(|event| event["host_name"] == "web-03")
        .map(|event| event["counter"].as_u64().expect("counter"))
        .collect();
    assert!(
        expected.len() > 80,
        "the filtered set spans several pages ({})",
        expected.len()
    );

    let mut uri = format!(
        "{}?order_by=counter&stdout__icontains=CHANGED%3A&host_name=web-03&page_size=40",
        events_path(1)
    );
    let mut walked = Vec::new();
    loop {
        let page = fixture.ok(&uri).await;
        assert_eq!(
            page["count"],
            expected.len(),
            "count is the number of matching events"
        );
        walked.extend(counters(&page));
        let Some(next) = page["next"].as_str() else {
            break;
        };
        assert!(
            next.starts_with("/api/v2/jobs/1/job_events/?"),
            "path-only: {next}"
        );
        for kept in [
            "order_by=counter",
            "stdout__icontains=CHANGED%3A",
            "host_name=web-03",
            "page_size=40",
        ] {
            assert!(next.contains(kept), "{next} keeps {kept}");
        }
        uri = next.to_owned();
    }
    assert_eq!(walked, expected);

    let last_page = expected.len().div_ceil(40);
    let past = format!(
        "{}?stdout__icontains=changed%3A&host_name=web-03&page_size=40&page={}",
        events_path(1),
        last_page + 1
    );
    assert_eq!(
        fixture.error(&past, StatusCode::NOT_FOUND).await,
        "Invalid page."
    );
    let back = fixture
        .ok(&format!(
            "{}?stdout__icontains=changed%3A&host_name=web-03&page_size=40&page=2",
            events_path(1)
        ))
        .await;
    assert_eq!(
        back["previous"],
        "/api/v2/jobs/1/job_events/?stdout__icontains=changed%3A&host_name=web-03&page_size=40"
    );
}

#[tokio::test]
async fn a_match_found_with_page_size_one_becomes_a_position_with_one_more_request() {
    let fixture = Fixture::new(7);
    let everything = walk_by_ranges(&fixture, 1).await;
    let failures: Vec<u64> = everything
        .iter()
        .filter(|event| {
            event["stdout"]
                .as_str()
                .is_some_and(|stdout| stdout.to_lowercase().contains("fatal"))
        })
        .map(|event| event["counter"].as_u64().expect("counter"))
        .collect();
    assert!(failures.len() > 3);

    let search = format!(
        "{}?order_by=counter&stdout__icontains=FATAL&counter__gt=4000&page_size=1",
        events_path(1)
    );
    let found = fixture.ok(&search).await;
    let hit = counters(&found)[0];
    assert_eq!(Some(&hit), failures.iter().find(|&&counter| counter > 4000));

    let position = fixture
        .ok(&format!(
            "{}?order_by=counter&stdout__icontains=FATAL&counter__lte={hit}&page_size=1",
            events_path(1)
        ))
        .await;
    let index = failures
        .iter()
        .position(|&counter| counter == hit)
        .expect("among the failures");
    assert_eq!(
        position["count"],
        index + 1,
        "the hit is match number `count`"
    );
}

/// Follows the running job like a tailing client: every second it reads the status, then every
/// event after the highest counter it has without a gap (counters are gapless at the source, so a
/// gap is an event saved late). It stops when the status leaves `running`, or, with
/// `wait_for_processing`, once `event_processing_finished` was true before its last read.
async fn follow_running_job(wait_for_processing: bool) -> BTreeSet<u64> {
    let fixture = Fixture::new(3);
    let mut seen = BTreeSet::new();
    let mut contiguous = 0;
    loop {
        fixture.clock.advance(Duration::from_secs(1));
        let job = fixture.ok("/api/v2/jobs/2/").await;
        loop {
            let uri = format!(
                "{}?order_by=counter&counter__gt={contiguous}&page_size=200",
                events_path(2)
            );
            let page = fixture.ok(&uri).await;
            let counters = counters(&page);
            seen.extend(counters.iter().copied());
            while seen.contains(&(contiguous + 1)) {
                contiguous += 1;
            }
            if page["next"].is_null() {
                break;
            }
        }
        let done = if wait_for_processing {
            job["event_processing_finished"] == true
        } else {
            job["status"] != "running"
        };
        if done {
            return seen;
        }
    }
}

#[tokio::test]
async fn a_client_that_stops_at_the_status_misses_late_events_and_one_that_waits_gets_all() {
    let hasty = follow_running_job(false).await;
    let missed: Vec<u64> = (1..=u64::from(RUNNING_JOB_EVENTS))
        .filter(|counter| !hasty.contains(counter))
        .collect();
    assert!(
        !missed.is_empty(),
        "stopping at the status misses the last events"
    );
    assert!(
        missed.iter().all(|counter| counter % 13 == 0),
        "only late events are missed: {missed:?}"
    );

    let patient = follow_running_job(true).await;
    assert_eq!(
        patient,
        (1..=u64::from(RUNNING_JOB_EVENTS)).collect::<BTreeSet<_>>()
    );
}

#[tokio::test]
async fn a_range_read_that_missed_a_late_event_gets_it_on_the_next_read() {
    let fixture = Fixture::new(3);
    let range = format!(
        "{}?order_by=counter&counter__gte=1&counter__lte=20&page_size=200",
        events_path(2)
    );
    fixture.clock.set(BUILT_AT + 3_000);
    let first = fixture.ok(&range).await;
    assert_eq!(
        counters(&first),
        (1..=20)
            .filter(|counter| *counter != 13)
            .collect::<Vec<_>>()
    );
    assert_eq!(first["count"], 19);
    fixture.clock.set(BUILT_AT + 4_000);
    let second = fixture.ok(&range).await;
    assert_eq!(counters(&second), (1..=20).collect::<Vec<_>>());
}

#[tokio::test]
async fn the_running_job_grows_eight_events_per_second_and_processing_trails_the_status_by_three_seconds()
 {
    let fixture = Fixture::new(3);
    let count = |page: &Value| page["count"].as_u64().expect("count");
    let started = fixture.ok("/api/v2/jobs/2/").await;
    assert_eq!(started["status"], "running");
    assert_eq!(started["finished"], Value::Null);
    assert_eq!(started["event_processing_finished"], false);
    assert_eq!(count(&fixture.ok(&events_path(2)).await), 0);

    fixture.clock.set(BUILT_AT + 1_000);
    assert_eq!(count(&fixture.ok(&events_path(2)).await), 8);
    fixture.clock.set(BUILT_AT + 10_000);
    let ten_seconds = fixture
        .ok(&format!("{}?order_by=-counter&page_size=1", events_path(2)))
        .await;
    assert_eq!(counters(&ten_seconds), vec![80]);
    assert_eq!(count(&ten_seconds), 78, "65 and 78 are saved 2 s late");

    fixture.clock.set(BUILT_AT + 375_000);
    let finished = fixture.ok("/api/v2/jobs/2/").await;
    assert_eq!(finished["status"], "successful");
    assert!(
        finished["finished"]
            .as_str()
            .is_some_and(|at| at.ends_with('Z'))
    );
    assert_eq!(finished["event_processing_finished"], false);
    fixture.clock.set(BUILT_AT + 377_999);
    assert_eq!(
        fixture.ok("/api/v2/jobs/2/").await["event_processing_finished"],
        false
    );
    fixture.clock.set(BUILT_AT + 378_000);
    assert_eq!(
        fixture.ok("/api/v2/jobs/2/").await["event_processing_finished"],
        true
    );
    fixture.clock.set(BUILT_AT + 3_600_000);
    assert_eq!(
        count(&fixture.ok(&events_path(2)).await),
        u64::from(RUNNING_JOB_EVENTS),
        "up to 3,000"
    );
}

#[tokio::test]
async fn job_list_and_records() {
    let fixture = Fixture::new(1);
    let list = fixture.ok("/api/v2/jobs/").await;
    assert_eq!(list["count"], 2);
    assert_eq!(list["next"], Value::Null);
    assert_eq!(list["previous"], Value::Null);
    let ids: Vec<&Value> = list["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|job| &job["id"])
        .collect();
    assert_eq!(ids, [1, 2]);

    let finished = fixture.ok("/api/v2/jobs/1/").await;
    for field in [
        "id",
        "name",
        "status",
        "started",
        "finished",
        "event_processing_finished",
    ] {
        assert!(finished.get(field).is_some(), "job detail has {field}");
    }
    assert_eq!(finished["status"], "successful");
    assert_eq!(finished["event_processing_finished"], true);
    assert_eq!(list["results"][0], finished);

    let paged = fixture.ok("/api/v2/jobs/?page_size=1").await;
    assert_eq!(paged["next"], "/api/v2/jobs/?page_size=1&page=2");
    assert_eq!(
        fixture
            .error("/api/v2/jobs/99/", StatusCode::NOT_FOUND)
            .await,
        "job \"99\" not found"
    );
    assert_eq!(
        fixture
            .error("/api/v2/jobs/abc/job_events/", StatusCode::NOT_FOUND)
            .await,
        "job \"abc\" not found"
    );
}

#[tokio::test]
async fn events_carry_the_documented_fields_and_stdout_shapes() {
    let fixture = Fixture::new(7);
    let events = walk_by_ranges(&fixture, 1).await;
    for event in &events {
        for field in [
            "id",
            "counter",
            "event",
            "created",
            "failed",
            "changed",
            "host_name",
            "task",
            "event_data",
        ] {
            assert!(event.get(field).is_some(), "{field} in {event}");
        }
        let lines = event["stdout"]
            .as_str()
            .map(|stdout| stdout.lines().count());
        match event["event"].as_str().expect("event kind") {
            "runner_on_start" => assert_eq!(lines, None, "no stdout"),
            "playbook_on_task_start" | "runner_on_failed" => assert_eq!(lines, Some(2), "{event}"),
            _ => {}
        }
        assert_eq!(event["failed"], event["event"] == "runner_on_failed");
    }
    let kinds: BTreeSet<&str> = events
        .iter()
        .map(|event| event["event"].as_str().expect("kind"))
        .collect();
    for kind in [
        "playbook_on_start",
        "playbook_on_play_start",
        "runner_on_ok",
        "runner_on_skipped",
        "playbook_on_stats",
    ] {
        assert!(kinds.contains(kind), "{kind} occurs");
    }
    let ids: BTreeSet<u64> = events
        .iter()
        .map(|event| event["id"].as_u64().expect("id"))
        .collect();
    assert_eq!(ids.len(), events.len(), "ids are unique");
}

#[tokio::test]
async fn filters_order_and_page_size() {
    let fixture = Fixture::new(7);
    let events = walk_by_ranges(&fixture, 1).await;
    let matching =
        |predicate: &dyn Fn(&Value) -> bool| events.iter().filter(|event| predicate(event)).count();

    let failed = fixture.ok(&format!("{}?failed=true", events_path(1))).await;
    assert_eq!(failed["count"], matching(&|event| event["failed"] == true));
    let unchanged = fixture
        .ok(&format!("{}?changed=false&failed=false", events_path(1)))
        .await;
    assert_eq!(
        unchanged["count"],
        matching(&|event| event["changed"] == false && event["failed"] == false)
    );
    let tasks = fixture
        .ok(&format!("{}?task__icontains=NGINX", events_path(1)))
        .await;
    let nginx = |event: &Value| {
        event["task"]
            .as_str()
            .is_some_and(|task| task.to_lowercase().contains("nginx"))
    };
    assert_eq!(tasks["count"], matching(&nginx));

    let default = fixture.ok(&events_path(1)).await;
    assert_eq!(
        counters(&default),
        (1..=25).collect::<Vec<_>>(),
        "page_size defaults to 25, counter order"
    );
    let clamped = fixture
        .ok(&format!("{}?page_size=5000", events_path(1)))
        .await;
    assert_eq!(counters(&clamped).len(), 200, "page_size is clamped at 200");
    let descending = fixture
        .ok(&format!(
            "{}?order_by=-counter&counter__lt=100&page_size=3",
            events_path(1)
        ))
        .await;
    assert_eq!(counters(&descending), vec![99, 98, 97]);
}

#[tokio::test]
async fn malformed_and_unknown_parameters_are_refused() {
    let fixture = Fixture::new(7);
    let path = events_path(1);
    let order = fixture
        .error(&format!("{path}?order_by=created"), StatusCode::BAD_REQUEST)
        .await;
    assert!(order.contains("order_by"), "{order}");
    for (query, parameter) in [
        ("counter__gt=abc", "counter__gt"),
        ("counter__gte=1.5", "counter__gte"),
        ("counter__lt=", "counter__lt"),
        ("counter__lte=x", "counter__lte"),
        ("failed=maybe", "failed"),
        ("changed=yes", "changed"),
        ("page=two", "page"),
        ("page_size=-1", "page_size"),
        ("colour=red", "colour"),
    ] {
        let message = fixture
            .error(&format!("{path}?{query}"), StatusCode::BAD_REQUEST)
            .await;
        assert!(
            message.contains(&format!("`{parameter}`")),
            "{query}: {message}"
        );
    }
    assert_eq!(
        fixture
            .error(&format!("{path}?page=0"), StatusCode::NOT_FOUND)
            .await,
        "Invalid page."
    );
    assert_eq!(
        fixture
            .error(&format!("{path}?page=321"), StatusCode::NOT_FOUND)
            .await,
        "Invalid page."
    );
    let controls = fixture.ok(&format!("{path}?latency=5ms&page_size=2")).await;
    assert_eq!(
        controls["next"], "/api/v2/jobs/1/job_events/?page_size=2&page=2",
        "controls stay out of links"
    );
}

#[tokio::test]
async fn the_whole_service_serves_the_corner_with_the_per_request_controls() {
    let service = Corner::whole(7);
    let get = |uri: &str| service.call(Request::get(uri).body(Body::empty()).expect("request"));
    let (status, _) = get("/api/v2/jobs/1/job_events/?page_size=1").await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = get("/api/v2/jobs/1/job_events/?page_size=1&fail=503").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(body["error"].is_string(), "{body}");
}
