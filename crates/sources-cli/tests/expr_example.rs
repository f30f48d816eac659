//! `testdata/examples/expr/users.yaml`, written in the style of the format origin's examples with
//! expr-lang expressions and a settings file selecting expr-lang: it lints clean, its entries run
//! under `sources try` (static data, and the demo backend in process for the join), and read as
//! CEL (`--isolated` ignores the settings file) it gets exactly one `expression-language` note.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sources_testkit::process::{command, outcome};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/examples/expr/users.yaml")
}

fn sources(args: &[&str]) -> (i32, String, String) {
    outcome(command(env!("CARGO_BIN_EXE_sources"), args).env("SOURCES_DEMO_FROZEN", "1"))
}

fn path() -> String {
    example().to_str().expect("a UTF-8 path").to_owned()
}

/// The JSON value `sources try NAME` prints, with `extra` arguments.
fn tried(name: &str, extra: &[&str]) -> Value {
    let config = path();
    let mut args = vec!["try", name, "-c", config.as_str(), "-o", "json"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = sources(&args);
    assert_eq!(code, 0, "{name}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{name}: {error}: {stdout}"))
}

fn rows(value: &Value) -> &[Value] {
    value.as_array().map(Vec::as_slice).expect("a list of rows")
}

#[test]
fn it_lints_clean_under_expr_and_gets_one_note_under_cel() {
    let config = path();
    let (code, stdout, stderr) = sources(&["lint", "--format", "short", &config]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "no problems found in 1 file\n"),
        "{stderr}"
    );
    let (code, stdout, _) = sources(&["lint", "--isolated", "--format", "short", &config]);
    assert_eq!(code, 1, "CEL cannot read the file's expressions: {stdout}");
    let notes: Vec<&str> = stdout
        .lines()
        .filter(|line| line.contains("[expression-language]"))
        .collect();
    assert_eq!(notes.len(), 1, "{stdout}");
    assert!(
        notes[0].contains("warning[expression-language]")
            && notes[0].contains("the file is written in expr-lang"),
        "{}",
        notes[0]
    );
}

#[test]
fn its_entries_run_under_try_as_the_dashboard_runs_them() {
    let names = |value: &Value, key: &str| -> Vec<String> {
        rows(value)
            .iter()
            .map(|row| row[key].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(rows(&tried("long_usernames", &[])).len(), 8);
    assert_eq!(
        names(&tried("long_usernames", &["--param", "min=13"]), "username"),
        ["Leopoldo_Corkery", "Maxime_Nienow", "Moriah.Stanton"]
    );
    assert_eq!(
        names(&tried("users_with_long_username", &[]), "username"),
        [
            "Leopoldo_Corkery",
            "Elwyn.Skiles",
            "Maxime_Nienow",
            "Moriah.Stanton"
        ]
    );
    assert_eq!(names(&tried("biz_users", &[]), "website"), ["kale.biz"]);
    assert_eq!(
        names(&tried("synergy_users", &[]), "name"),
        ["Clementina DuBuque"]
    );
    let labels = tried("users_with_labels", &[]);
    let first = &rows(&labels)[0];
    assert_eq!(
        (
            &first["is_biz"],
            &first["username_len"],
            &first["upper_name"],
            &first["initials"]
        ),
        (
            &Value::from(false),
            &Value::from(4),
            &Value::from("LEANNE GRAHAM"),
            &Value::from("L")
        )
    );
    let summary = tried("user_summary", &[]);
    assert_eq!(
        rows(&summary)[3],
        serde_json::json!({"id": 4, "username": "Karianne", "domain": "kale.biz", "city": "South Elvis"})
    );
    let longest = tried("longest_catchphrases", &[]);
    assert_eq!(rows(&longest)[0]["username"], "Moriah.Stanton");
    let mixed = tried("mixed", &[]);
    let groups: Vec<&str> = rows(&mixed)
        .iter()
        .map(|row| row["_meta"]["group"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        groups
            .iter()
            .filter(|group| **group == "biz_websites")
            .count(),
        1
    );
    assert_eq!(
        groups
            .iter()
            .filter(|group| **group == "early_alpha")
            .count(),
        7
    );
    let joined = tried("apps_with_detail", &["--demo"]);
    assert!(!rows(&joined).is_empty());
    for row in rows(&joined) {
        assert_eq!(row["row"]["id"], row["detail"]["metadata"]["name"], "{row}");
    }
}
