//! The real `demo-backend` program: listening, the pidfile, signals, refusing public addresses.
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::PathBuf;
use std::process::{Command, Stdio};

use demo_backend::Client;
use sources_testkit::process::{free_port, signal, wait_for_exit, wait_for_file};

const BINARY: &str = env!("CARGO_BIN_EXE_demo-backend");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("demo-backend-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn serves_and_stops_on(signal_name: &str) {
    let dir = scratch(signal_name);
    let pidfile = dir.join("demo.pid");
    let port = free_port();
    let mut child = Command::new(BINARY)
        .args(["--addr", &format!("127.0.0.1:{port}"), "--pidfile"])
        .arg(&pidfile)
        .args(["--seed", "11", "--apps", "40", "--schedule", "1s"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = wait_for_file(&pidfile, &mut child);
    assert_eq!(pid, format!("{}\n", child.id()));

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = Client::network(&format!("http://127.0.0.1:{port}")).unwrap();
        let page = client
            .get("/apps?limit=0")
            .await
            .unwrap()
            .into_body()
            .text()
            .await
            .unwrap();
        assert_eq!(page, "{\"total\":40,\"offset\":0,\"rows\":[]}");
        let sync = client.post("/apps/app-0020/sync?quick=1").await.unwrap();
        assert_eq!(sync.status(), 202);
        let missing = client.get("/apps/app-0041").await.unwrap();
        assert_eq!(missing.status(), 404);
        let teapot = client.get("/apps?fail=418").await.unwrap();
        assert_eq!(teapot.status(), 418);
    });

    signal(child.id(), signal_name);
    let status = wait_for_exit(&mut child);
    assert!(status.success(), "{status:?}");
    assert!(!pidfile.exists(), "the pidfile is removed on {signal_name}");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "no temporary file is left behind"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn serves_over_http_and_removes_its_pidfile_on_sigterm() {
    serves_and_stops_on("TERM");
}

#[test]
fn removes_its_pidfile_on_sigint() {
    serves_and_stops_on("INT");
}

#[test]
fn refuses_a_non_loopback_address_without_public() {
    let output = Command::new(BINARY)
        .args(["--addr", "192.0.2.1:8099"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("refusing to listen on 192.0.2.1:8099"),
        "{stderr}"
    );
    assert!(stderr.contains("pass --public"), "{stderr}");

    // With --public the refusal is lifted: the program then tries to listen there (and, this
    // documentation address not being on this machine, fails to).
    let output = Command::new(BINARY)
        .args(["--addr", "192.0.2.1:8099", "--public"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("cannot listen on 192.0.2.1:8099"),
        "{stderr}"
    );
    assert!(!stderr.contains("refusing"), "{stderr}");
}

#[test]
fn help_says_it_is_a_fixture_never_to_deploy() {
    let output = Command::new(BINARY).arg("--help").output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(help.contains("MUST NEVER BE DEPLOYED"), "{help}");
    assert!(
        help.contains("q=region:eu-west-1 and region=eu-west-1 are the same filter"),
        "the matching rule is in --help: {help}"
    );
    for flag in [
        "--addr",
        "--schedule",
        "--pidfile",
        "--seed",
        "--apps",
        "--public",
        "127.0.0.1:8099",
    ] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
    let bad = Command::new(BINARY)
        .args(["--schedule", "soon"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8(bad.stderr)
            .unwrap()
            .contains("invalid duration \"soon\"")
    );
}

#[test]
fn an_unwritable_pidfile_is_an_error_before_serving() {
    let dir = scratch("unwritable");
    let pidfile = dir.join("missing-dir").join("demo.pid");
    let port = free_port();
    let output = Command::new(BINARY)
        .args([
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--apps",
            "10",
            "--pidfile",
        ])
        .arg(&pidfile)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("demo-backend: error: writing"), "{stderr}");
    assert!(!stderr.contains("listening on"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts the program with `args` (and `env`), waits for its pidfile, and returns the first app
/// row it serves at `base` before stopping it.
fn first_row(addr: &str, base: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let dir = scratch(&format!("row-{}", addr.replace([':', '[', ']'], "_")));
    let pidfile = dir.join("demo.pid");
    let mut child = Command::new(BINARY)
        .args(["--addr", addr, "--apps", "40", "--pidfile"])
        .arg(&pidfile)
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_file(&pidfile, &mut child);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let page = runtime.block_on(async {
        let client = Client::network(base).unwrap();
        let response = client.get("/apps?limit=1").await.unwrap();
        response.into_body().text().await.unwrap()
    });
    signal(child.id(), "TERM");
    assert!(wait_for_exit(&mut child).success());
    std::fs::remove_dir_all(&dir).unwrap();
    page
}

#[test]
fn listens_on_host_names_and_ipv6_with_a_fixed_default_seed() {
    let port = free_port();
    let by_name = first_row(
        &format!("localhost:{port}"),
        &format!("http://127.0.0.1:{port}"),
        &[],
        &[],
    );
    assert!(
        by_name.contains(r#""name":"checkout-scheduler-staging""#),
        "seed 2026: {by_name}"
    );
    let port = free_port();
    let ipv6 = first_row(
        &format!("[::1]:{port}"),
        &format!("http://[::1]:{port}"),
        &[],
        &[],
    );
    assert_eq!(ipv6, by_name, "the same default seed, the same rows");
    let port = free_port();
    let seeded = first_row(
        &format!("127.0.0.1:{port}"),
        &format!("http://127.0.0.1:{port}"),
        &[],
        &[("SOURCES_DEMO_SEED", "7")],
    );
    assert_ne!(seeded, by_name, "the variable changes the seed");
    let port = free_port();
    let flagged = first_row(
        &format!("127.0.0.1:{port}"),
        &format!("http://127.0.0.1:{port}"),
        &["--seed", "7"],
        &[("SOURCES_DEMO_SEED", "9")],
    );
    assert_eq!(flagged, seeded, "--seed wins over the variable");
}

#[test]
fn bad_addresses_and_seeds_say_what_is_wrong() {
    let output = Command::new(BINARY)
        .args(["--addr", "localhost"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains(
            "cannot use --addr \"localhost\": no port (expected IP:PORT, [IPv6]:PORT or HOST:PORT)"
        ),
        "{stderr}"
    );
    let output = Command::new(BINARY)
        .args(["--seed", "seven"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("invalid demo seed \"seven\""), "{stderr}");
}
