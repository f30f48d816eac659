//! The bundled example dashboard, `testdata/examples/demo.yaml` and its TOML twin `demo.toml`, as
//! a new user meets them: both lint clean and list the same entries, and every entry answers with
//! at least one row or event through `sources try NAME --demo` (the real binary, the in-process
//! demo world), the same output on every run and from either file. An entry with a required
//! parameter is tried with the value `try` itself suggests for the demo world.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sources_testkit::process::{command, outcome};

fn example(extension: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../testdata/examples/demo.{extension}"))
}

/// Runs the binary with the in-process world's clock standing still at its opening instant
/// (`SOURCES_DEMO_FROZEN`): the running automation job and the log index move every second, so
/// only a still clock prints the same twice.
fn sources(args: &[&str]) -> (i32, String, String) {
    outcome(command(env!("CARGO_BIN_EXE_sources"), args).env("SOURCES_DEMO_FROZEN", "1"))
}

fn path(config: &Path) -> &str {
    config.to_str().expect("a UTF-8 path")
}

#[test]
fn both_files_lint_clean_and_list_the_same_entries() {
    let (yaml, toml) = (example("yaml"), example("toml"));
    for config in [&yaml, &toml] {
        let (code, stdout, stderr) = sources(&["lint", "--format", "short", path(config)]);
        assert_eq!(
            (code, stdout.as_str()),
            (0, "no problems found in 1 file\n"),
            "{}: {stderr}",
            config.display()
        );
    }
    let (_, from_yaml, _) = sources(&["list", "-a", "-c", path(&yaml)]);
    let (_, from_toml, _) = sources(&["list", "-a", "-c", path(&toml)]);
    assert!(from_yaml.lines().count() > 10, "{from_yaml}");
    assert_eq!(from_yaml, from_toml);
}

/// `try NAME --demo`, with the parameters `try` suggests when it needs some.
fn try_demo(config: &Path, name: &str) -> String {
    let base = [
        "try",
        name,
        "-c",
        path(config),
        "--demo",
        "--limit",
        "3",
        "--for",
        "10s",
    ];
    let (mut code, mut stdout, mut stderr) = sources(&base);
    if code == 2 {
        let params: Vec<String> = stderr
            .split("for example --param ")
            .skip(1)
            .map(|rest| {
                rest.split([',', ';', ' ', '\n'])
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect();
        assert!(
            !params.is_empty(),
            "`{name}` fails without an example: {stderr}"
        );
        let mut args: Vec<&str> = base.to_vec();
        for param in &params {
            args.extend(["--param", param.as_str()]);
        }
        (code, stdout, stderr) = sources(&args);
    }
    assert_eq!(code, 0, "`{name}` in {}: {stderr}", config.display());
    stdout
}

/// Whether `try`'s output holds at least one row or event.
fn answers(stdout: &str) -> bool {
    match serde_json::from_str::<Value>(stdout) {
        Ok(Value::Array(rows)) => !rows.is_empty(),
        Ok(Value::Object(fields)) => !fields.is_empty(),
        Ok(Value::String(text)) => !text.is_empty(),
        Ok(Value::Null) => false,
        Ok(_) => true,
        // A stream: NDJSON events, none of them an error.
        Err(_) => {
            stdout.lines().count() > 0
                && stdout.lines().all(|line| {
                    serde_json::from_str::<Value>(line)
                        .is_ok_and(|event| event.get("error").is_none())
                })
        }
    }
}

#[test]
fn every_entry_answers_in_the_demo_world_the_same_every_time_from_yaml_and_toml() {
    let (yaml, toml) = (example("yaml"), example("toml"));
    let (code, listing, stderr) = sources(&["list", "-a", "-c", path(&yaml)]);
    assert_eq!(code, 0, "{stderr}");
    let names: Vec<&str> = listing
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    for name in names {
        let first = try_demo(&yaml, name);
        assert!(
            answers(&first),
            "`{name}` printed no rows or events: {first}"
        );
        let again = try_demo(&yaml, name);
        assert_eq!(
            first, again,
            "`{name}` printed something else the second time"
        );
        let from_toml = try_demo(&toml, name);
        assert_eq!(
            first, from_toml,
            "`{name}` answers differently from demo.toml"
        );
    }
}
