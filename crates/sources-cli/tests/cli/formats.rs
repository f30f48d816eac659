//! Every output format, `explain` and `rules`.

use super::*;

#[test]
fn json_output_parses_back_with_every_field() {
    let dir = tree(&[
        ("bad.yaml", BROKEN.as_bytes()),
        ("warn.yaml", WARNS.as_bytes()),
    ]);
    let output = sources(
        dir.path(),
        &["lint", "--format", "json", "bad.yaml", "warn.yaml"],
        b"",
    );
    assert_eq!(code(&output), 1);
    let document: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(document["version"], 1);
    assert_eq!(
        document["summary"],
        serde_json::json!({"files": 2, "errors": 1, "warnings": 1})
    );
    let first = &document["diagnostics"][0];
    for field in [
        "path",
        "code",
        "severity",
        "message",
        "line",
        "column",
        "end_line",
        "end_column",
        "start",
        "end",
        "labels",
        "help",
        "fixes",
    ] {
        assert!(first.get(field).is_some(), "missing {field}: {first}");
    }
    assert_eq!(
        (first["path"].as_str(), first["code"].as_str()),
        (Some("bad.yaml"), Some("syntax"))
    );
    let warning = &document["diagnostics"][1];
    assert_eq!(
        (warning["line"].as_u64(), warning["column"].as_u64()),
        (Some(5), Some(41))
    );
    assert_eq!(
        warning["start"].as_u64(),
        WARNS.find("${params.id}").map(|offset| offset as u64)
    );
}

#[test]
fn sarif_output_is_one_run_with_rules_and_relative_uris() {
    let dir = tree(&[("conf dir/bad.yaml", BROKEN.as_bytes())]);
    let output = sources(
        dir.path(),
        &["lint", "--format", "sarif", "conf dir/bad.yaml"],
        b"",
    );
    assert_eq!(code(&output), 1);
    let log: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "utf16CodeUnits");
    assert!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            .as_str()
            .is_some_and(|uri| uri.starts_with("file:///") && uri.ends_with('/'))
    );
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "syntax");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "conf%20dir/bad.yaml");
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(location["region"]["startLine"], 6);
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
    assert_eq!(rules[index]["id"], "syntax");
    assert!(rules.iter().all(|rule| {
        rule["help"]["markdown"]
            .as_str()
            .is_some_and(|help| help.contains("```"))
    }));
}

#[test]
fn github_output_is_workflow_commands() {
    let dir = tree(&[
        ("a,b.yaml", BROKEN.as_bytes()),
        ("warn.yaml", WARNS.as_bytes()),
    ]);
    let output = sources(
        dir.path(),
        &["lint", "--format", "github", "a,b.yaml", "warn.yaml"],
        b"",
    );
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("::error file=a%2Cb.yaml,line=6,col=1,endLine=6,endColumn="),
        "{text}"
    );
    assert!(lines[0].contains(",title=sources syntax::"), "{text}");
    assert!(lines[1].starts_with("::warning file=warn.yaml,line=5,col=41,endLine=5,endColumn=53,title=sources undeclared-param-reference::"), "{text}");
}

#[test]
fn gitlab_and_junit_outputs_name_each_finding() {
    let dir = tree(&[
        ("bad.yaml", BROKEN.as_bytes()),
        ("ok.yaml", CLEAN.as_bytes()),
    ]);
    let output = sources(dir.path(), &["lint", "--format", "gitlab", "."], b"");
    assert_eq!(code(&output), 1);
    let issues: Value = serde_json::from_str(&stdout(&output)).expect("gitlab JSON");
    assert_eq!(issues[0]["check_name"], "syntax");
    assert_eq!(issues[0]["location"]["path"], "bad.yaml");
    assert_eq!(issues[0]["location"]["lines"]["begin"], 6);
    assert_eq!(issues[0]["severity"], "major");
    let again = sources(dir.path(), &["lint", "--format", "gitlab", "."], b"");
    let again: Value = serde_json::from_str(&stdout(&again)).expect("gitlab JSON");
    assert_eq!(issues[0]["fingerprint"], again[0]["fingerprint"]);

    let output = sources(dir.path(), &["lint", "--format", "junit", "."], b"");
    assert_eq!(code(&output), 1);
    let xml = stdout(&output);
    assert!(
        xml.contains("<testcase name=\"syntax\" classname=\"bad.yaml\">"),
        "{xml}"
    );
    assert!(
        xml.contains("<testcase name=\"sources lint\" classname=\"ok.yaml\"/>"),
        "{xml}"
    );
}

#[test]
fn human_output_off_a_terminal_has_no_colour() {
    let dir = tree(&[("bad.yaml", BROKEN.as_bytes())]);
    let output = sources(dir.path(), &["lint", "--format", "human", "bad.yaml"], b"");
    let text = stdout(&output);
    assert!(text.starts_with("error[syntax]\n"), "{text}");
    assert!(text.contains("╭─[bad.yaml:6:1]"), "{text}");
    assert!(text.ends_with("1 error in 1 of 1 file\n"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no escape codes off a terminal: {text:?}"
    );
}

#[test]
fn explain_prints_a_rule_and_suggests_on_a_typo() {
    let dir = tree(&[]);
    let known = sources(dir.path(), &["explain", "unknown-field"], b"");
    assert_eq!(code(&known), 0);
    let text = stdout(&known);
    assert!(text.starts_with("unknown-field (error)\n"), "{text}");
    assert!(text.contains("\n```yaml lint=unknown-field\n"), "{text}");
    let typo = sources(dir.path(), &["explain", "unknown-feild"], b"");
    assert_eq!(code(&typo), 2);
    assert_eq!(stdout(&typo), "");
    assert!(
        stderr(&typo).contains("did you mean `unknown-field`?"),
        "{}",
        stderr(&typo)
    );
}

#[test]
fn rules_lists_every_rule() {
    let dir = tree(&[]);
    let output = sources(dir.path(), &["rules"], b"");
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    assert_eq!(text.lines().count(), sources_diagnostics::Rule::ALL.len());
    assert!(
        text.lines()
            .any(|line| line.starts_with("reference-cycle ")),
        "{text}"
    );
}
