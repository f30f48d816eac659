//! Every source of `testdata/examples/demo.yaml`, evaluated against the in-process demo backend on
//! a manual clock: real content from every corner, no socket, no sleeping.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use demo_backend::clock::ManualClock;
use demo_backend::{Client, Options};
use futures::StreamExt;
use serde_json::Value;
use sources_config::Config;
use sources_eval::demo::DemoIo;
use sources_eval::engine::{Engine, EngineOptions, Output};
use sources_eval::io::Io;
use sources_eval::system::SystemIo;
use sources_eval::trace::Collect;

const START: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

struct World {
    config: Config,
    client: Client,
    clock: ManualClock,
    io: Arc<dyn Io>,
    trace: Arc<Collect>,
}

fn world() -> World {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/examples/demo.yaml"
    ))
    .expect("the example exists");
    let analysis = sources_check::analyze(&text, sources_syntax::Syntax::Yaml);
    assert!(
        analysis.diagnostics.is_empty(),
        "the example lints clean: {:?}",
        analysis.diagnostics
    );
    let clock = ManualClock::new(START);
    let client = Client::in_process(Options::seeded(7, Arc::new(clock.clone())));
    let system: Arc<dyn Io> = Arc::new(SystemIo::new().expect("client"));
    let io: Arc<dyn Io> = Arc::new(DemoIo::with_client(system, client.clone()));
    World {
        config: analysis.config,
        client,
        clock,
        io,
        trace: Arc::new(Collect::default()),
    }
}

impl World {
    fn engine(&self) -> Engine<'_> {
        Engine::new(
            &self.config,
            self.io.clone(),
            self.trace.clone(),
            EngineOptions {
                explain: true,
                ..EngineOptions::default()
            },
        )
    }

    async fn value(&self, name: &str, params: &[(&str, &str)]) -> Value {
        let params: BTreeMap<String, String> = params
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let engine = self.engine();
        let bound = engine
            .bind(name, &params)
            .unwrap_or_else(|error| panic!("{error}"));
        match engine.evaluate(&bound).await {
            Ok(Output::Value(value)) => value,
            Ok(Output::Stream(_)) => panic!("`{name}` streamed"),
            Err(error) => panic!("{error}"),
        }
    }

    fn noted(&self, needle: &str) -> bool {
        self.trace.lines().iter().any(|line| line.contains(needle))
    }
}

fn strings<'v>(rows: &'v Value, key: &str) -> Vec<&'v str> {
    rows.as_array()
        .expect("a list")
        .iter()
        .filter_map(|row| row[key].as_str())
        .collect()
}

#[tokio::test]
async fn apps_window_first_page_with_total() {
    let world = world();
    let rows = world.value("apps", &[]).await;
    let ids = strings(&rows, "id");
    assert_eq!(ids.len(), 50);
    assert_eq!(ids[0], "app-0001");
    assert!(rows[0]["health"].is_string() && rows[0]["rev"].is_number());
    assert!(world.noted("GET http://127.0.0.1:8099/apps?offset=0&limit=50"));
    assert!(
        world.noted("total 5000 (at `total`)"),
        "{:?}",
        world.trace.lines()
    );
}

#[tokio::test]
async fn region_facets_and_app_detail() {
    let world = world();
    let regions = world.value("regions", &[]).await;
    let regions: Vec<&str> = regions
        .as_array()
        .expect("list")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(regions.len() >= 2, "{regions:?}");
    let detail = world.value("app_detail", &[("id", "app-0042")]).await;
    assert_eq!(detail["metadata"]["name"], "app-0042");
    assert!(detail["status"]["health"]["status"].is_string());
    assert!(
        regions.contains(
            &detail["metadata"]["labels"]["region"]
                .as_str()
                .expect("region")
        )
    );
}

#[tokio::test]
async fn jobs_and_the_followed_job_log() {
    let world = world();
    assert_eq!(world.value("jobs", &[]).await, Value::Array(Vec::new()));
    let started = world
        .client
        .post("/apps/app-0003/sync")
        .await
        .expect("sync")
        .into_body()
        .text()
        .await
        .expect("body");
    let job: Value = serde_json::from_str(&started).expect("job handle");
    let job = job["job"].as_str().expect("job id").to_owned();
    let jobs = world.value("jobs", &[]).await;
    assert_eq!(strings(&jobs, "id"), [job.as_str()]);
    assert_eq!(jobs[0]["status"], "Running");
    world.clock.advance(Duration::from_secs(5));
    let engine = world.engine();
    let bound = engine
        .bind(
            "job_log",
            &BTreeMap::from([("job".to_owned(), job.clone())]),
        )
        .expect("bound");
    let Output::Stream(lines) = engine.evaluate(&bound).await.expect("log opens") else {
        panic!("the job log streams");
    };
    let lines: Vec<Value> = lines.map(|line| line.expect("a line")).collect().await;
    assert!(lines.len() >= 8, "{lines:?}");
    assert!(
        lines[0]
            .as_str()
            .is_some_and(|line| line.contains("app-0003: comparing live state")),
        "{lines:?}"
    );
}

#[tokio::test]
async fn automation_events_are_anchored_at_the_newest_and_grow_while_running() {
    let world = world();
    let events = world.value("automation_events", &[("job", "1")]).await;
    let counters: Vec<i64> = events
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|event| event["counter"].as_i64())
        .collect();
    assert_eq!(counters.len(), 25);
    assert_eq!(counters[0], 8000);
    assert_eq!(counters[24], 7976);
    assert!(
        world.noted("order_by=-counter&page_size=26"),
        "{:?}",
        world.trace.lines()
    );
    assert!(world.noted("25 items; more beyond this page; edge cursor 7976"));
    assert!(
        world.noted(
            "growing `automation_events`: while `status == 'running'` over `automation_job` is true"
        ),
        "{:?}",
        world.trace.lines()
    );
}

#[tokio::test]
async fn search_index_tail_uses_search_after_ordering() {
    let world = world();
    let hits = world.value("search_tail", &[]).await;
    let hits = hits.as_array().expect("list");
    assert_eq!(hits.len(), 25);
    let stamps: Vec<&str> = hits
        .iter()
        .filter_map(|hit| hit["_source"]["@timestamp"].as_str())
        .collect();
    assert_eq!(stamps.len(), 25);
    assert!(
        stamps.windows(2).all(|pair| pair[0] >= pair[1]),
        "newest first"
    );
    assert!(
        hits[0]["sort"]
            .as_array()
            .is_some_and(|sort| sort.len() == 2)
    );
    assert!(world.noted("more beyond this page"));
}

#[tokio::test]
async fn attention_filters_projects_and_sorts_with_cel() {
    let world = world();
    let rows = world.value("attention", &[]).await;
    let rows = rows.as_array().expect("list");
    assert!(!rows.is_empty());
    for row in rows {
        let keys: Vec<&str> = row
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        // In the order the `project` step lists them.
        assert_eq!(keys, ["app", "health", "sync", "rev"]);
        assert!(
            matches!(row["health"].as_str(), Some("Degraded" | "Missing"))
                || row["sync"] == "OutOfSync",
            "{row}"
        );
    }
    let rows = Value::Array(rows.clone());
    let apps = strings(&rows, "app");
    let mut sorted = apps.clone();
    sorted.sort_unstable();
    assert_eq!(apps, sorted);
}
