//! What `try` prints and fetches: the configuration it finds, output formats, merges and joins,
//! empty columns and key order.

use super::*;

#[test]
fn the_config_is_found_without_c() {
    let dir = tempfile::tempdir().expect("tempdir");
    let nested = dir.path().join("deep/er");
    std::fs::create_dir_all(&nested).expect("dirs");
    std::fs::write(dir.path().join("sources.yaml"), SMALL).expect("write");
    let (code, stdout, stderr) = run(sources(&["try", "greeting"]).current_dir(&nested));
    assert_eq!((code, stdout.as_str()), (0, "\"hello\"\n"), "{stderr}");
    let other = dir.path().join("other.yaml");
    std::fs::write(&other, SMALL.replace("hello", "from env")).expect("write");
    let (code, stdout, _) = run(sources(&["try", "greeting", "--raw"])
        .current_dir(&nested)
        .env("SOURCES_CONFIG", &other));
    assert_eq!((code, stdout.as_str()), (0, "from env\n"));
    let empty = tempfile::tempdir().expect("tempdir");
    let (code, _, stderr) = run(sources(&["list"]).current_dir(empty.path()));
    assert_eq!(code, 2);
    assert!(stderr.contains("no configuration file"), "{stderr}");
}

#[test]
fn lint_never_fetches_and_try_fetches_only_the_named_entry() {
    let (server, seen) = responder(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]",
    );
    let yaml = format!(
        "data:\n  sources:\n    a:\n      type: http\n      url: {server}/a\n      headers:\n        Authorization: Bearer hunter2\n    b:\n      type: http\n      url: {server}/b\n    c:\n      type: exec\n      command: [touch, /tmp/sources-try-must-not-exist]\n"
    );
    let (_dir, config) = with_config(&yaml);
    let (code, _, stderr) = run(&mut sources(&["lint", &config]));
    assert_eq!(code, 0, "{stderr}");
    assert!(seen.lock().expect("lock").is_empty(), "lint made a request");
    let (code, stdout, stderr) = run(&mut sources(&["try", "a", "-c", &config, "--verbose"]));
    assert_eq!((code, stdout.as_str()), (0, "[]\n"), "{stderr}");
    let requests = seen.lock().expect("lock").clone();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert!(requests[0].starts_with("GET /a "), "{requests:?}");
    assert!(requests[0].contains("hunter2"), "the header is really sent");
    assert!(stderr.contains("Authorization: [redacted]"), "{stderr}");
    assert!(!stderr.contains("hunter2"), "{stderr}");
    assert!(!Path::new("/tmp/sources-try-must-not-exist").exists());
}

#[test]
fn output_formats_for_people_and_nothing_extra_on_a_pipe() {
    let (code, stdout, stderr) = try_demo("apps", &["--output", "table", "--limit", "3"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let header: Vec<&str> = lines[0]
        .split(['│', '┆'])
        .map(str::trim)
        .filter(|title| !title.is_empty())
        .collect();
    assert_eq!(
        header,
        ["Name", "Region", "Health", "Sync", "Rev"],
        "{stdout}"
    );
    // The header, the rule under it, three rows and the count.
    assert_eq!(lines.len(), 1 + 1 + 3 + 1, "{stdout}");
    assert_eq!(
        lines[lines.len() - 1],
        "3 of 50 rows shown; 47 more not shown (`--limit N` shows more, `--output json` prints all)"
    );
    // Piped, stderr carries only the lines saying which demo backend answers and which component
    // draws the entry: no progress.
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(
        stderr.ends_with("sources: showing `apps` as table `apps`\n"),
        "{stderr}"
    );

    let (code, stdout, stderr) = try_demo("apps", &["--output", "ndjson"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 50);
    for line in stdout.lines() {
        assert!(json(line).is_object(), "{line}");
    }

    let (code, stdout, stderr) = try_demo("regions", &["-o", "yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("---\n- "), "{stdout}");

    let (code, stdout, stderr) = try_demo("apps", &["--output", "xml"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("invalid value 'xml' for '--output <FORMAT>'"),
        "{stderr}"
    );
}

#[test]
fn a_merge_applies_its_pipe_to_the_concatenated_rows() {
    let (_dir, path) = with_config(
        "data:\n  sources:\n    east:\n      type: static\n      data: [{host: a, up: true}, {host: c, up: false}]\n    west:\n      type: static\n      data: [{host: b, up: true}]\n    hosts:\n      type: merge\n      sources: [east, west]\n      tag_field: from\n      pipe:\n        - type: filter\n          where: up\n        - type: sort\n          by: host\n          order: desc\n",
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "-c", &path, "hosts"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        json(&stdout),
        serde_json::json!([
            {"host": "b", "up": true, "_meta": {"from": "west"}},
            {"host": "a", "up": true, "_meta": {"from": "east"}}
        ])
    );
}

#[test]
fn a_join_over_a_cached_lookup_says_each_cache_step_once() {
    let (_dir, path) = with_config(
        "data:\n  sources:\n    ids:\n      type: static\n      data: [{id: 1}, {id: 1}, {id: 2}]\n    job:\n      type: http\n      url: http://127.0.0.1:8099/api/v2/jobs/${params.id}/\n      parameters:\n        id: {type: int, required: true}\n      cache: {ttl: 30s}\n    detailed:\n      type: join\n      driver: {from: ids}\n      lookups:\n        detail:\n          from: job\n          on: {id: id}\n",
    );
    for _ in 0..2 {
        let (code, stdout, stderr) = run(&mut sources(&[
            "try",
            "-c",
            &path,
            "detailed",
            "--demo",
            "--verbose",
        ]));
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(json(&stdout).as_array().map(Vec::len), Some(3), "{stdout}");
        let cache_lines: Vec<&str> = stderr
            .lines()
            .filter(|line| line.contains("cache `job`"))
            .collect();
        assert_eq!(
            cache_lines,
            [
                "· cache `job`: stored for id=1 (at most 100 entries; ttl 30s)",
                "· cache `job`: hit for id=1 (no request)",
                "· cache `job`: stored for id=2 (at most 100 entries; ttl 30s)",
            ],
            "{stderr}"
        );
        assert_eq!(
            stderr
                .matches("GET http://127.0.0.1:8099/api/v2/jobs/1/")
                .count(),
            1,
            "{stderr}"
        );
    }
}

#[test]
fn an_empty_table_column_is_named_with_why_its_value_path_gives_nothing() {
    // Rows from a command, whose shape lint cannot know, so a misspelled path reaches `try`.
    let (_dir, config) = with_config(
        "data:\n  sources:\n    apps:\n      type: exec\n      command: [printf, '[{\"name\": \"a\", \"status\": {\"sync\": \"Synced\"}}]']\ntui:\n  components:\n    list:\n      kind: table\n      source: apps\n      columns:\n        - {title: Name, value: name}\n        - {title: Sync, value: status.sycn}\n",
    );
    let (code, stdout, stderr) = run(&mut sources(&[
        "try", "apps", "-c", &config, "--output", "table",
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Name │ Sync\n───────────\na    │\n", "{stdout}");
    assert_eq!(
        stderr,
        "sources: showing `apps` as table `list`\n\
         sources: warning: table `list` column `Sync` is empty in every row: its `value` reads `status.sycn`; in the first row: no key `sycn` under `status` (did you mean `sync`?)\n"
    );
}

#[test]
fn every_output_keeps_the_servers_key_order() {
    let (server, _) = responder(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 41\r\nConnection: close\r\n\r\n[{\"zeta\": 1, \"alpha\": null, \"mid\": \"x\"}]\n",
    );
    let (_dir, config) = with_config(&http_source(&format!("{server}/rows"), ""));
    let expected: &[(&str, &str)] = &[
        ("json", "[{\"zeta\":1,\"alpha\":null,\"mid\":\"x\"}]\n"),
        ("ndjson", "{\"zeta\":1,\"alpha\":null,\"mid\":\"x\"}\n"),
        ("yaml", "---\n- zeta: 1\n  alpha: null\n  mid: x\n"),
    ];
    for (format, output) in expected {
        let (code, stdout, stderr) =
            run(&mut sources(&["try", "feed", "-c", &config, "-o", format]));
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(&stdout, output, "{format}");
    }
    let (code, stdout, stderr) = run(&mut sources(&["try", "feed", "-c", &config, "-o", "table"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("│ zeta ┆ alpha ┆ mid │"), "{stdout}");
}

#[test]
fn a_field_missing_on_rows_is_said_once_with_the_count_and_strict_counts_it() {
    let (_dir, config) = with_config(
        "data:\n  sources:\n    apps:\n      type: static\n      data:\n        - {name: web, owner: {team: core}}\n        - {name: api}\n        - {name: db}\n    owned:\n      type: filter\n      from: apps\n      where: owner.team == \"core\" || owner.team == \"edge\"\n    lines:\n      type: exec\n      command: [printf, \"%s\", '[{\"title\":\"a\",\"state\":\"open\"},{\"title\":\"b\",\"state\":\"closed\"}]']\n    open:\n      type: filter\n      from: lines\n      where: stat == \"open\"\n",
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "owned", "-c", &config]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout)[0]["name"], "web");
    assert_eq!(
        stderr,
        "sources: warning: `owned`: `where` reads `owner.team`, missing on 2 of 3 rows: it is null there\n"
    );
    let (code, stdout, stderr) = run(&mut sources(&["try", "open", "-c", &config, "--strict"]));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(json(&stdout), serde_json::json!([]));
    assert_eq!(
        stderr,
        "sources: warning: `open`: `where` reads `stat`, which none of the 2 rows has: it is null on every row (their keys: `state`, `title`); did you mean `state`?\n\
         sources: --strict: 1 warning(s), so this run fails\n"
    );
}
