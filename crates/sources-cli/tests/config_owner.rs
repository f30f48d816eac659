//! `try` refuses a configuration it found by searching up the directories when another user owns
//! it (it would run that user's commands as you); named with `-c`, or in a directory that
//! `SOURCES_SAFE_DIRECTORIES` lists, it runs. `try` and `list` say which file they found. Changing a file's owner needs root: elsewhere the refusal is not tested.
#![cfg(target_os = "linux")]

use std::os::unix::fs::chown;

use sources_testkit::process::{in_dir, outcome};

fn sources(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    outcome(&mut in_dir(env!("CARGO_BIN_EXE_sources"), dir, args))
}

#[test]
fn a_discovered_configuration_of_another_user_is_refused_and_a_named_one_runs() {
    let root = tempfile::tempdir().expect("tempdir");
    let marker = root.path().join("ran");
    let config = root.path().join("sources.yaml");
    std::fs::write(
        &config,
        format!(
            "data:\n  sources:\n    planted:\n      type: exec\n      command: [touch, {}]\n",
            marker.display()
        ),
    )
    .expect("write");
    let below = root.path().join("work");
    std::fs::create_dir(&below).expect("mkdir");

    let (code, _, stderr) = sources(&below, &["list"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "sources: reading {} (found by searching up from the current directory)\n",
            config.display()
        )
    );

    if rustix::process::geteuid().as_raw() != 0 {
        return;
    }
    chown(&config, Some(65534), None).expect("chown to another user");
    let (code, _, stderr) = sources(&below, &["try", "planted"]);
    assert_eq!(code, 2, "{stderr}");
    let shown = config.display();
    assert!(
        stderr.starts_with(&format!("sources: refusing to run {shown}: it was found by searching up from the current directory and belongs to ")),
        "{stderr}"
    );
    assert!(stderr.contains("(uid 65534), not to you"), "{stderr}");
    assert!(
        stderr.contains(&format!("name it with `-c {shown}`")),
        "{stderr}"
    );
    let directory = std::fs::canonicalize(root.path()).expect("canonical");
    assert!(
        stderr.contains(&format!(
            "or allow its directory with SOURCES_SAFE_DIRECTORIES={}\n",
            directory.display()
        )),
        "{stderr}"
    );
    assert!(!marker.exists(), "the planted command must not run");

    // A list that does not hold its directory (a sibling, a directory below, a relative path)
    // allows nothing.
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let listed =
        std::env::join_paths([elsewhere.path(), below.as_path(), "work".as_ref()]).expect("joined");
    let (code, _, stderr) = outcome(
        in_dir(env!("CARGO_BIN_EXE_sources"), &below, &["try", "planted"])
            .env("SOURCES_SAFE_DIRECTORIES", &listed),
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        !marker.exists(),
        "the planted command must not run: {stderr}"
    );

    // Listing its directory (among others) allows it: the command runs.
    let listed = std::env::join_paths([elsewhere.path(), root.path()]).expect("joined");
    let (_, _, stderr) = outcome(
        in_dir(env!("CARGO_BIN_EXE_sources"), &below, &["try", "planted"])
            .env("SOURCES_SAFE_DIRECTORIES", &listed),
    );
    assert!(!stderr.contains("refusing"), "{stderr}");
    assert!(marker.exists(), "allowed, it runs: {stderr}");
    std::fs::remove_file(&marker).expect("remove the marker");

    let (code, _, stderr) = sources(&below, &["list"]);
    assert_eq!(code, 0, "list only reads: {stderr}");

    // `touch` prints nothing, which is not JSON: the run fails after the command ran.
    let (_, _, stderr) = sources(
        &below,
        &["try", "planted", "-c", &config.display().to_string()],
    );
    assert!(!stderr.contains("refusing"), "{stderr}");
    assert!(marker.exists(), "named with -c it runs: {stderr}");
}
