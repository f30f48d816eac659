//! The bundled example under the in-process demo backend, a live one, `list`, and `try --all`.

use super::*;

#[test]
fn the_example_lints_clean() {
    let config = example();
    let (code, stdout, stderr) = run(&mut sources(&[
        "lint",
        "--format",
        "short",
        config.to_str().expect("utf-8"),
    ]));
    assert_eq!(
        (code, stdout.as_str()),
        (0, "no problems found in 1 file\n"),
        "{stderr}"
    );
}

#[test]
fn apps_first_window_page_in_process() {
    let (code, stdout, stderr) = try_demo("apps", &["--verbose"]);
    assert_eq!(code, 0, "{stderr}");
    let rows = json(&stdout);
    let rows = rows.as_array().expect("a list");
    assert_eq!(rows.len(), 50);
    assert_eq!(rows[0]["id"], "app-0001");
    assert!(stderr.contains("in-process demo backend"), "{stderr}");
    assert!(
        stderr.contains("GET http://127.0.0.1:8099/apps?offset=0&limit=50"),
        "{stderr}"
    );
    assert!(stderr.contains("total 5000"), "{stderr}");
    assert!(
        stderr.contains("polled every 10s in the dashboard: `try` fetches it once"),
        "{stderr}"
    );
}

#[test]
fn limit_and_pretty_shape_the_value() {
    let (code, stdout, stderr) = try_demo("apps", &["--limit", "2", "--pretty"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout).as_array().map(Vec::len), Some(2));
    assert!(stdout.starts_with("[\n  {\n"), "{stdout}");
}

#[test]
fn regions_and_app_detail() {
    let (code, stdout, stderr) = try_demo("regions", &[]);
    assert_eq!(code, 0, "{stderr}");
    let regions = json(&stdout);
    assert!(
        regions
            .as_array()
            .is_some_and(|r| r.len() >= 2 && r.iter().all(Value::is_string))
    );
    let (code, stdout, stderr) = try_demo("app_detail", &["--param", "id=app-0042"]);
    assert_eq!(code, 0, "{stderr}");
    let detail = json(&stdout);
    assert_eq!(detail["metadata"]["name"], "app-0042");
    assert_eq!(detail["kind"], "Application");
}

#[test]
fn automation_events_and_search_tail() {
    let (code, stdout, stderr) = try_demo("automation_events", &["--param", "job=1", "--verbose"]);
    assert_eq!(code, 0, "{stderr}");
    let events = json(&stdout);
    let counters: Vec<i64> = events
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|e| e["counter"].as_i64())
        .collect();
    assert_eq!(counters.len(), 25);
    assert_eq!(counters[0], 8000);
    assert!(stderr.contains("growing `automation_events`"), "{stderr}");
    let (code, stdout, stderr) = try_demo("search_tail", &[]);
    assert_eq!(code, 0, "{stderr}");
    let hits = json(&stdout);
    let hits = hits.as_array().expect("list");
    assert_eq!(hits.len(), 25);
    assert!(hits.iter().all(|hit| hit["_source"]["message"].is_string()));
}

#[test]
fn attention_runs_the_cel_operators() {
    let (code, stdout, stderr) = try_demo("attention", &[]);
    assert_eq!(code, 0, "{stderr}");
    let rows = json(&stdout);
    let rows = rows.as_array().expect("list");
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|row| row.as_object().is_some_and(|o| o.len() == 4))
    );
}

#[test]
fn a_live_demo_backend_serves_jobs_and_a_followed_log() {
    let live = live_demo();
    let handle: Value = live.runtime.block_on(async {
        let response = live.client.post("/apps/app-0003/sync").await.expect("sync");
        serde_json::from_str(&response.into_body().text().await.expect("body")).expect("json")
    });
    let job = handle["job"].as_str().expect("job id").to_owned();
    let config = example();
    let config = config.to_str().expect("utf-8");
    let (code, stdout, stderr) =
        run(sources(&["try", "jobs", "-c", config, "--demo"]).env("SOURCES_DEMO_API", &live.base));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(&format!("live demo backend at {}", live.base)),
        "{stderr}"
    );
    let jobs = json(&stdout);
    assert_eq!(jobs[0]["id"], job.as_str());
    assert_eq!(jobs[0]["status"], "Running");
    live.clock.advance(Duration::from_secs(5));
    let param = format!("job={job}");
    let (code, stdout, stderr) = run(sources(&[
        "try", "job_log", "-c", config, "--demo", "--param", &param, "--limit", "2",
    ])
    .env("SOURCES_DEMO_API", &live.base));
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<Value> = stdout.lines().map(json).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0]
            .as_str()
            .is_some_and(|l| l.contains("app-0003: comparing")),
        "{stdout}"
    );
    let (code, stdout, stderr) = run(sources(&[
        "try", "job_log", "-c", config, "--demo", "--param", &param, "--raw",
    ])
    .env("SOURCES_DEMO_API", &live.base));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().count() >= 8, "{stdout}");
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.ends_with("INFO  app-0003: comparing live state with the target revision"),
        "{stdout}"
    );
}

#[test]
fn list_shows_kind_cadence_upstream_and_params() {
    let config = example();
    let config = config.to_str().expect("utf-8");
    let (code, stdout, stderr) = run(&mut sources(&["list", "-c", config]));
    assert_eq!(code, 0, "{stderr}");
    let line = |name: &str| {
        stdout
            .lines()
            .find(|line| line.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name}: {stdout}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(line("apps"), "apps http polled (refresh: 10s) window");
    assert_eq!(
        line("app_detail"),
        "app_detail http one-shot needs --param id=…"
    );
    assert_eq!(
        line("job_log"),
        "job_log http streamed (follow) needs --param job=…"
    );
    assert_eq!(
        line("search_tail"),
        "search_tail http one-shot anchored window"
    );
    assert_eq!(
        line("attention"),
        "attention filter polled (refresh: 10s) ← _first_apps"
    );
    assert!(!stdout.contains("\n_first_apps"), "hidden without -a");
    let (_, all, _) = run(&mut sources(&["list", "-c", config, "-a"]));
    assert!(
        all.lines().any(|line| line.starts_with("_first_apps ")),
        "{all}"
    );
}

#[test]
fn a_missing_parameter_under_demo_gets_a_value_that_works_in_the_demo_world() {
    let (job, what) = suggested("job_log", "job");
    assert!(what.ends_with(" job"), "{what}");
    let assignment = format!("job={job}");
    let (code, stdout, stderr) = try_demo(
        "job_log",
        &["--param", &assignment, "--limit", "1", "--for", "10s"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");

    let (id, _) = suggested("app_detail", "id");
    let assignment = format!("id={id}");
    let (code, stdout, stderr) = try_demo("app_detail", &["--param", &assignment]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout)["metadata"]["name"], id.as_str());
}

#[test]
fn try_all_smoke_tests_every_entry_of_the_example_under_demo() {
    let config = example();
    let config = config.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = run(&mut sources(&["try", "--all", "-c", config, "--demo"]));
    assert_eq!(code, 0, "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let entries = lines.len() - 1;
    assert!(entries > 20, "{stdout}");
    assert!(
        lines[..entries]
            .iter()
            .all(|line| line.starts_with("ok    ")),
        "{stdout}"
    );
    assert_eq!(
        lines[entries],
        format!("{entries} entries: {entries} ok, 0 with warnings, 0 failed")
    );
    let apps = lines
        .iter()
        .find(|line| line.starts_with("ok    apps "))
        .expect("apps");
    assert!(apps.contains(" 50 rows, "), "{apps}");
    let job_log = lines
        .iter()
        .find(|line| line.starts_with("ok    job_log "))
        .expect("job_log");
    assert!(
        job_log.contains("1 event (streamed) with --param job=job-"),
        "{job_log}"
    );
}

#[test]
fn try_all_names_each_failure_and_exits_1() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let closed = listener.local_addr().expect("addr");
    drop(listener);
    let (_dir, config) = with_config(&format!(
        "data:\n  sources:\n    fixed:\n      type: static\n      data: [{{n: 1}}, {{n: 2}}]\n    down:\n      type: http\n      url: http://{closed}/x\n    one:\n      type: http\n      url: http://{closed}/apps/${{params.id}}\n      parameters:\n        id: {{required: true}}\n"
    ));
    let (code, stdout, stderr) = run(&mut sources(&["try", "--all", "-c", &config]));
    assert_eq!(code, 1, "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0].starts_with("ok    fixed  2 rows, "), "{stdout}");
    assert!(
        lines[1].starts_with(&format!(
            "FAIL  down   source `down`: cannot connect to {closed}"
        )),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with("FAIL  one    needs --param id=VALUE ("),
        "{stdout}"
    );
    assert_eq!(lines[3], "3 entries: 1 ok, 0 with warnings, 2 failed");
    let (code, _, stderr) = run(&mut sources(&[
        "try", "--all", "-c", &config, "--param", "idd=1",
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr,
        "sources: `--param idd`: no entry of the file declares a parameter `idd`\n"
    );
}
