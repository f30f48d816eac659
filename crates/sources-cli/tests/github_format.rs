//! `--format github` against the workflow-command syntax GitHub Actions reads:
//! `::error file=F,line=L,col=C,endLine=L,endColumn=C,title=T::MESSAGE`, with `%`, `\r`, `\n`
//! escaped in the message and those plus `:` and `,` in property values. Every line of the output
//! for the whole `testdata/` corpus is parsed strictly, unescaped, and compared with the same
//! diagnostic in the `json` output.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// One parsed workflow command.
#[derive(Debug, PartialEq)]
struct Annotation {
    command: String,
    file: String,
    line: u64,
    col: u64,
    end_line: u64,
    end_column: u64,
    title: String,
    message: String,
}

/// Undoes GitHub's escaping; `None` for a `%` that starts no known escape, or for a character
/// that must have been escaped.
fn unescape(text: &str, property: bool) -> Option<String> {
    let forbidden: &[char] = if property {
        &['\r', '\n', ':', ',']
    } else {
        &['\r', '\n']
    };
    if text.contains(forbidden) {
        return None;
    }
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let code = rest.get(at..at + 3)?;
        out.push(match code {
            "%25" => '%',
            "%0D" => '\r',
            "%0A" => '\n',
            "%3A" if property => ':',
            "%2C" if property => ',',
            _ => return None,
        });
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    Some(out)
}

/// Parses one line, or says why it is not a valid annotation command.
fn parse(line: &str) -> Result<Annotation, String> {
    let rest = line.strip_prefix("::").ok_or("does not start with `::`")?;
    let (head, message) = rest.split_once("::").ok_or("no `::` before the message")?;
    let (command, properties) = head.split_once(' ').ok_or("no properties")?;
    if !matches!(command, "error" | "warning" | "notice") {
        return Err(format!("unknown command `{command}`"));
    }
    let expected = ["file", "line", "col", "endLine", "endColumn", "title"];
    let values: Vec<(&str, &str)> = properties
        .split(',')
        .map(|pair| {
            pair.split_once('=')
                .ok_or(format!("`{pair}` is not key=value"))
        })
        .collect::<Result<_, _>>()?;
    let keys: Vec<&str> = values.iter().map(|(key, _)| *key).collect();
    if keys != expected {
        return Err(format!("properties {keys:?}, expected {expected:?}"));
    }
    let number = |index: usize| -> Result<u64, String> {
        let (key, value) = values[index];
        match value.parse::<u64>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("`{key}={value}` is not a 1-based number")),
        }
    };
    let property = |index: usize| {
        unescape(values[index].1, true).ok_or(format!("`{}` is badly escaped", values[index].0))
    };
    Ok(Annotation {
        command: command.to_owned(),
        file: property(0)?,
        line: number(1)?,
        col: number(2)?,
        end_line: number(3)?,
        end_column: number(4)?,
        title: property(5)?,
        message: unescape(message, false).ok_or("the message is badly escaped")?,
    })
}

fn lint(format: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let output = Command::new(env!("CARGO_BIN_EXE_sources"))
        .current_dir(&root)
        // testdata/settings holds invalid settings files on purpose.
        .args(["lint", "--isolated", "--format", format, "testdata"])
        .output()
        .expect("run sources lint");
    assert_eq!(output.status.code(), Some(1), "the corpus has errors");
    String::from_utf8(output.stdout).expect("utf-8")
}

#[test]
fn every_line_is_a_workflow_command_matching_the_json_report() {
    let github = lint("github");
    let json: Value = serde_json::from_str(&lint("json")).expect("json output");
    let diagnostics = json["diagnostics"].as_array().expect("diagnostics");
    let lines: Vec<&str> = github.lines().collect();
    assert_eq!(lines.len(), diagnostics.len(), "one command per diagnostic");
    assert!(lines.len() > 100, "the corpus gives many diagnostics");
    for (line, diagnostic) in lines.iter().zip(diagnostics) {
        let annotation = parse(line).unwrap_or_else(|why| panic!("{why}: {line}"));
        let text = |key: &str| diagnostic[key].as_str().unwrap_or_default().to_owned();
        let number = |key: &str| diagnostic[key].as_u64().unwrap_or_default();
        let message = match diagnostic["help"].as_str() {
            Some(help) => format!("{}\nhelp: {help}", text("message")),
            None => text("message"),
        };
        let expected = Annotation {
            command: text("severity"),
            file: text("path"),
            line: number("line"),
            col: number("column"),
            end_line: number("end_line"),
            end_column: number("end_column"),
            title: format!("sources {}", text("code")),
            message,
        };
        assert_eq!(annotation, expected, "{line}");
    }
}

#[test]
fn the_parser_rejects_what_github_would_misread() {
    let good = "::error file=a%2Cb.yaml,line=1,col=2,endLine=1,endColumn=3,title=sources x::50%25 done%0Ahelp: y";
    let parsed = parse(good).expect("valid");
    assert_eq!(parsed.file, "a,b.yaml");
    assert_eq!(parsed.message, "50% done\nhelp: y");
    for bad in [
        "::error file=a,b.yaml,line=1,col=2,endLine=1,endColumn=3,title=t::m",
        "::error file=a.yaml,line=0,col=2,endLine=1,endColumn=3,title=t::m",
        "::error file=a.yaml,line=1,col=2,endLine=1,endColumn=3,title=t::50% done",
        "::error file=a.yaml,line=1,col=2,endLine=1,title=t::m",
        "::fatal file=a.yaml,line=1,col=2,endLine=1,endColumn=3,title=t::m",
        "::error file=a.yaml,line=1,col=2,endLine=1,endColumn=3,title=a:b::m",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_path_with_commas_colons_and_percent_signs_is_escaped() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let name = "50%, a:b.yaml";
    std::fs::write(
        dir.path().join(name),
        "data:\n  sources:\n    apps:\n      type: http\n      urll: \"x\"\n",
    )
    .expect("write the case");
    let output = Command::new(env!("CARGO_BIN_EXE_sources"))
        .current_dir(dir.path())
        .args(["lint", "--format", "github", name])
        .output()
        .expect("run sources lint");
    let text = String::from_utf8(output.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines.is_empty(), "diagnostics for {name}");
    for line in lines {
        assert!(line.contains("file=50%25%2C a%3Ab.yaml,"), "{line}");
        let annotation = parse(line).unwrap_or_else(|why| panic!("{why}: {line}"));
        assert_eq!(annotation.file, name);
    }
}
