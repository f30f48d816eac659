//! The other subcommands' command lines: `demo`, `list`, shell completion and the manual pages.

use super::*;

#[test]
fn demo_says_a_port_in_use_once_and_its_help_has_no_backslashes() {
    let dir = tree(&[]);
    let held = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = held.local_addr().expect("address").to_string();
    let output = sources(dir.path(), &["demo", "--addr", &address], b"");
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert_eq!(
        stderr(&output).matches("in use").count(),
        1,
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).starts_with(&format!("sources: cannot listen on {address}: ")),
        "{}",
        stderr(&output)
    );
    let help = stdout(&sources(dir.path(), &["demo", "--help"], b""));
    assert!(help.contains("IP:PORT, [IPv6]:PORT or HOST:PORT"), "{help}");
    assert!(!help.contains('\\'), "{help}");
}

#[test]
fn list_takes_the_configuration_file_as_a_positional_as_lint_does() {
    let dir = tree(&[("dash.yaml", CLEAN.as_bytes())]);
    let positional = sources(dir.path(), &["list", "dash.yaml"], b"");
    assert_eq!(code(&positional), 0, "{}", stderr(&positional));
    assert!(
        stdout(&positional).contains("apps"),
        "{}",
        stdout(&positional)
    );
    let flag = sources(dir.path(), &["list", "-c", "dash.yaml"], b"");
    assert_eq!(stdout(&positional), stdout(&flag));
    let both = sources(dir.path(), &["list", "dash.yaml", "-c", "dash.yaml"], b"");
    assert_eq!(code(&both), 2);
    assert!(
        stderr(&both).contains("cannot be used with"),
        "{}",
        stderr(&both)
    );
}

#[test]
fn a_file_given_where_an_entry_name_goes_is_pointed_at_dash_c() {
    let dir = tree(&[("dash.yaml", CLEAN.as_bytes())]);
    for command in ["try", "graph"] {
        let output = sources(dir.path(), &[command, "dash.yaml"], b"");
        assert_eq!(code(&output), 2, "{command}: {}", stderr(&output));
        assert_eq!(
            stderr(&output).trim_end(),
            format!(
                "sources: `dash.yaml` is a file, not an entry name: name the configuration file \
                 with `-c` (`sources {command} -c dash.yaml NAME`)"
            ),
            "{command}"
        );
    }
    // A name that is no file keeps the plain "no configuration file" error.
    let output = sources(dir.path(), &["try", "apps"], b"");
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("no configuration file"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_bash_completion_script_completes_a_subcommand_in_a_real_bash() {
    let dir = tree(&[(
        "sources.yaml",
        "data:\n  sources:\n    inventory:\n      type: http\n      url: https://api.example.com/inventory\n    invoices:\n      type: http\n      url: https://api.example.com/invoices\n    users:\n      type: http\n      url: https://api.example.com/users\n"
            .as_bytes(),
    )]);
    let script = sources(dir.path(), &["completions", "bash"], b"");
    assert_eq!(code(&script), 0, "{}", stderr(&script));
    fs::write(dir.path().join("sources.bash"), &script.stdout).expect("write the script");
    // What bash does on `sources li<TAB>`: the completion function with the words so far; the
    // script asks the binary (by its path) for the candidates.
    let complete = |words: &str| {
        let program = format!(
            "source ./sources.bash && COMP_WORDS=({words}) && COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)) \
             && _clap_complete_sources sources \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\" \
             && printf '%s\\n' \"${{COMPREPLY[@]}}\""
        );
        let output = run(
            Command::new("bash")
                .args(["--norc", "--noprofile", "-c", &program])
                .current_dir(dir.path()),
            b"",
        );
        assert_eq!(code(&output), 0, "{words}: {}", stderr(&output));
        stdout(&output)
    };
    assert_eq!(
        complete("sources li")
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["lint", "list"]
    );
    assert!(
        complete("sources lint --sel").contains("--select"),
        "lint's flags complete"
    );
    // Rule codes after the rule-choosing flags and `explain`, entry names after `try`.
    for words in [
        "sources lint --select unknown-fie",
        "sources lint --ignore unknown-fie",
        "sources lint --extend-select unknown-fie",
        "sources explain unknown-fie",
    ] {
        assert_eq!(
            complete(words).split_whitespace().collect::<Vec<_>>(),
            ["unknown-field"],
            "{words}"
        );
    }
    assert_eq!(
        complete("sources try inv")
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["inventory", "invoices"]
    );
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let script = sources(dir.path(), &["completions", shell], b"");
        assert_eq!(code(&script), 0, "{shell}: {}", stderr(&script));
        // Each asks the binary that wrote it, by its path, with the shell's name.
        let text = stdout(&script);
        assert!(
            text.contains(env!("CARGO_BIN_EXE_sources"))
                && text.contains("COMPLETE")
                && text.contains(shell),
            "{shell}: {text}"
        );
    }
    let unknown = sources(dir.path(), &["completions", "tcsh"], b"");
    assert_eq!(code(&unknown), 2);
    assert!(
        stderr(&unknown).contains("[possible values: bash, elvish, fish, powershell, zsh]"),
        "{}",
        stderr(&unknown)
    );
}

#[test]
fn the_manual_pages_render_with_man() {
    let dir = tempfile::tempdir().expect("tempdir");
    let render = |args: &[&str]| {
        let page = sources(dir.path(), args, b"");
        assert_eq!(code(&page), 0, "{args:?}: {}", stderr(&page));
        fs::write(dir.path().join("page.1"), &page.stdout).expect("write the page");
        let shown = run(
            Command::new("man")
                .args(["-l", "page.1"])
                .env("MANPAGER", "cat")
                .env("MANWIDTH", "100")
                .current_dir(dir.path()),
            b"",
        );
        assert_eq!(code(&shown), 0, "man -l: {}", stderr(&shown));
        stdout(&shown)
    };
    let top = render(&["man"]);
    assert!(top.starts_with("sources(1)"), "{top}");
    assert!(
        top.contains("sources-lint(1)") && top.contains("sources-completions(1)"),
        "{top}"
    );
    let lint = render(&["man", "lint"]);
    assert!(lint.starts_with("sources-lint(1)"), "{lint}");
    assert!(lint.contains("--deny-warnings"), "{lint}");
    let version = format!("sources {}", env!("CARGO_PKG_VERSION"));
    for (name, page) in [
        ("sources", &top),
        ("lint", &lint),
        ("try", &render(&["man", "try"])),
    ] {
        for section in [
            "EXIT STATUS",
            "ENVIRONMENT",
            "FILES",
            "SOURCES_CONFIG",
            "sources-lint.toml",
        ] {
            assert!(page.contains(section), "{name}: no {section}: {page}");
        }
        let footer = page.lines().rev().find(|line| !line.trim().is_empty());
        assert!(
            footer.is_some_and(|footer| footer.contains(&version)),
            "{name}: the footer names no version: {page}"
        );
    }
    let unknown = sources(dir.path(), &["man", "lnt"], b"");
    assert_eq!(code(&unknown), 2);
    assert_eq!(
        stderr(&unknown).trim_end(),
        "sources: `lnt` is not a subcommand of `sources` (did you mean `lint`?); `sources man` lists them"
    );
}
