//! `sources demo`: the demo backend's server from the CLI binary.
#![allow(clippy::unwrap_used, missing_docs)]

use std::process::{Command, Stdio};

use demo_backend::Client;
use sources_testkit::process::{free_port, signal, wait_for_exit, wait_for_file};

#[test]
fn sources_demo_serves_the_playground_and_stops_on_sigterm() {
    let port = free_port();
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("demo.pid");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sources"))
        .args(["demo", "--addr", &format!("localhost:{port}"), "--pidfile"])
        .arg(&pidfile)
        .env_remove("SOURCES_DEMO_SEED")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_file(&pidfile, &mut child);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (apps, jobs) = runtime.block_on(async {
        let client = Client::network(&format!("http://127.0.0.1:{port}")).unwrap();
        let apps = client.get("/apps?limit=1").await.unwrap();
        let apps = apps.into_body().text().await.unwrap();
        let jobs = client.get("/jobs").await.unwrap();
        let jobs = jobs.into_body().text().await.unwrap();
        (apps, jobs)
    });
    assert!(
        apps.contains(r#""name":"checkout-scheduler-staging""#),
        "the default seed: {apps}"
    );
    assert!(
        jobs.contains(r#""status":"Running""#),
        "a lived-in world: {jobs}"
    );
    signal(child.id(), "TERM");
    let status = wait_for_exit(&mut child);
    assert!(status.success(), "{status:?}");
    assert!(!pidfile.exists());
}

#[test]
fn try_demo_prints_the_same_rows_every_time() {
    let config = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/examples/demo.yaml"
    );
    let run = || {
        let output = Command::new(env!("CARGO_BIN_EXE_sources"))
            .args(["try", "apps", "-c", config, "--demo"])
            .env_remove("SOURCES_DEMO_SEED")
            .env_remove("SOURCES_DEMO_API")
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let first = run();
    assert!(
        first.contains(r#""id":"app-0001","name":"checkout-scheduler-staging""#),
        "the default seed's first app: {first}"
    );
    assert_eq!(run(), first, "byte-identical across runs");
}
