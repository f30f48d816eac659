//! `sources try --search`, `--sort` and `--filter`: a windowed entry's first request filled as the
//! dashboard fills it when the user types into the table's filter box or sorts a column, against
//! the in-process demo world (its clock frozen) and an `exec` window that echoes its argv; and the
//! refusals, each naming what the window does take.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use sources_testkit::process::{command, outcome};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/examples/demo.yaml")
}

/// `sources try NAME -c CONFIG --demo -o json EXTRA…`: exit code, output, standard error.
fn try_entry(config: &Path, name: &str, extra: &[&str]) -> (i32, String, String) {
    outcome(
        command(env!("CARGO_BIN_EXE_sources"), &["try", name, "-c"])
            .arg(config)
            .args(["--demo", "-o", "json"])
            .args(extra)
            .env("SOURCES_DEMO_FROZEN", "1"),
    )
}

/// The rows `try` printed, or a panic with what it said.
fn rows(config: &Path, name: &str, extra: &[&str]) -> Vec<Value> {
    let (code, stdout, stderr) = try_entry(config, name, extra);
    assert_eq!(code, 0, "{extra:?}: {stderr}");
    match serde_json::from_str(&stdout) {
        Ok(Value::Array(rows)) => rows,
        other => panic!("{extra:?}: not a list: {other:?}\n{stdout}"),
    }
}

/// The string at `key` of every row.
fn column<'a>(rows: &'a [Value], key: &str) -> Vec<&'a str> {
    rows.iter()
        .map(|row| row[key].as_str().unwrap_or_default())
        .collect()
}

#[test]
fn search_filter_and_sort_change_what_an_offset_window_returns() {
    let config = example();
    let plain = rows(&config, "apps", &[]);
    assert_eq!(plain.len(), 50);

    let searched = rows(&config, "apps", &["--search", "web"]);
    assert!(!searched.is_empty());
    assert_ne!(searched, plain);
    assert!(
        column(&searched, "name")
            .iter()
            .all(|name| name.contains("web")),
        "{searched:?}"
    );

    let filtered = rows(&config, "apps", &["--filter", "region=eu-west-1"]);
    assert!(!filtered.is_empty());
    assert!(
        column(&filtered, "region")
            .iter()
            .all(|region| *region == "eu-west-1"),
        "{filtered:?}"
    );

    let descending = rows(&config, "apps", &["--sort", "-Name"]);
    let names = column(&descending, "name");
    let mut sorted = names.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(names, sorted);
    let ascending = rows(&config, "apps", &["--sort", "Name"]);
    assert_ne!(column(&ascending, "name"), names);
    assert!(column(&ascending, "name").is_sorted());

    // All three at once, as the dashboard combines them.
    let combined = rows(
        &config,
        "apps",
        &[
            "--search",
            "web",
            "--filter",
            "Region=eu-west-1",
            "--sort=-Name",
        ],
    );
    assert!(!combined.is_empty());
    assert_ne!(combined, searched);
    assert!(column(&combined, "name").is_sorted_by(|a, b| a >= b));
    assert!(combined.iter().all(|row| {
        row["region"] == "eu-west-1"
            && row["name"]
                .as_str()
                .is_some_and(|name| name.contains("web"))
    }));
}

#[test]
fn a_filter_reaches_an_anchored_window_as_its_query_parameter() {
    let config = example();
    let plain = rows(&config, "automation_events", &[]);
    let hosts = column(&plain, "host_name");
    let host = hosts.first().copied().expect("an event with a host");
    assert!(hosts.iter().any(|other| *other != host), "{hosts:?}");
    let filter = format!("Host={host}");
    let filtered = rows(&config, "automation_events", &["--filter", &filter]);
    assert!(!filtered.is_empty());
    assert!(
        column(&filtered, "host_name")
            .iter()
            .all(|other| *other == host),
        "{filtered:?}"
    );
}

/// An `exec` window whose command prints its own arguments as a JSON list of strings.
const EXEC_WINDOW: &str = r#"data:
  sources:
    echo:
      type: exec
      command:
        - sh
        - -c
        - 'printf "["; sep=""; for a; do printf "%s\"%s\"" "$sep" "$a"; sep=","; done; printf "]"'
        - sh
        - offset=${window.offset}
        - limit=${window.limit}
        - region=${window.filters.region}
        - q=${window.search}
        - sort=${window.sort}
        - dir=${window.sort_dir}
      window:
        page_size: 7
        filters: {Region: region}
"#;

#[test]
fn an_exec_window_gets_the_tokens_filled() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("sources.yaml");
    std::fs::write(&config, EXEC_WINDOW).expect("write the configuration");
    let argv = |extra: &[&str]| -> Vec<String> {
        rows(&config, "echo", extra)
            .iter()
            .map(|arg| arg.as_str().unwrap_or_default().to_owned())
            .collect()
    };
    // An argument whose window tokens all render empty is left out.
    assert_eq!(argv(&[]), ["offset=0", "limit=7"]);
    assert_eq!(
        argv(&[
            "--search",
            "web api region:eu",
            "--filter",
            "region=us",
            "--sort",
            "-Name"
        ]),
        [
            "offset=0",
            "limit=7",
            "region=us",
            "q=web api",
            "sort=Name",
            "dir=desc"
        ]
    );
}

#[test]
fn flags_a_window_cannot_take_are_refused_with_what_it_maps() {
    let config = example();
    let refused = |name: &str, extra: &[&str]| {
        let (code, stdout, stderr) = try_entry(&config, name, extra);
        assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
        stderr
    };
    assert_eq!(
        refused("regions", &["--search", "eu"]),
        "sources: `--search` fills a window's request, and the `http` entry `regions` has no \
         `window`: it is fetched whole, as the dashboard fetches it\n"
    );
    assert_eq!(
        refused("apps", &["--filter", "Regoin=eu"]),
        "sources: `--filter Regoin=eu`: the window of `apps` maps no column `Regoin` in `filters` \
         (it maps `Region`, `Health`, `Sync`); did you mean `Region`?\n"
    );
    assert_eq!(
        refused("apps", &["--sort", "-Nmae"]),
        "sources: `--sort -Nmae`: `apps` has no column `Nmae` to sort by (its table and `sorts` \
         name `Name`, `Region`, `Health`, `Rev`, `Sync`); did you mean `Name`?\n"
    );
    assert_eq!(
        refused("search_tail", &["--sort", "Name"]),
        "sources: `--sort`: the window of `search_tail` is anchored (`cursor`): it is read in the \
         order of its walk, with no user sort\n"
    );
    let (code, _, stderr) = outcome(
        Command::new(env!("CARGO_BIN_EXE_sources"))
            .args(["try", "--all", "--search", "x", "-c"])
            .arg(&config),
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}
