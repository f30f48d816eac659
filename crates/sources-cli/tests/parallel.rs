//! `sources lint` on several threads says exactly what it says on one, over `testdata/` and over a
//! generated corpus (every output format, `--diff` and `--fix`), and the directory walk honours
//! ignore files unless `--no-ignore`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use sources_testkit::process::{piped_in_dir, run};

/// Runs `sources ARGS` in `dir`, without colour or terminal.
fn sources(dir: &Path, args: &[&str]) -> Output {
    run(
        &mut piped_in_dir(env!("CARGO_BIN_EXE_sources"), dir, args),
        b"",
    )
}

/// The repository's `testdata/`.
fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// Runs `sources ARGS --threads N` for one thread and for several in `dir`, asserts that exit
/// code, standard output and standard error are the same bytes, and returns the one-thread output.
fn same_on_every_thread_count(dir: &Path, args: &[&str]) -> Output {
    let one = sources(dir, &[args, &["--threads", "1"]].concat());
    for threads in ["2", "5"] {
        let many = sources(dir, &[args, &["--threads", threads]].concat());
        assert_eq!(
            one.status.code(),
            many.status.code(),
            "{args:?} on {threads}"
        );
        assert!(
            one.stdout == many.stdout,
            "{args:?}: standard output differs on {threads} threads:\n{}\n---\n{}",
            String::from_utf8_lossy(&one.stdout),
            String::from_utf8_lossy(&many.stdout)
        );
        assert!(
            one.stderr == many.stderr,
            "{args:?}: standard error differs on {threads} threads:\n{}\n---\n{}",
            String::from_utf8_lossy(&one.stderr),
            String::from_utf8_lossy(&many.stderr)
        );
    }
    one
}

const FORMATS: &[&str] = &[
    "human", "short", "json", "github", "sarif", "gitlab", "junit",
];

#[test]
fn testdata_lints_the_same_on_one_thread_and_on_several() {
    let root = testdata();
    for format in FORMATS {
        let output =
            same_on_every_thread_count(&root, &["lint", "--isolated", "--format", format, "."]);
        assert_eq!(output.status.code(), Some(1), "testdata has errors");
    }
    let diff = same_on_every_thread_count(&root, &["lint", "--isolated", "--diff", "."]);
    assert!(String::from_utf8_lossy(&diff.stdout).starts_with("--- "));
    // With the settings files, some of them invalid: each is reported, the rest linted alike.
    let output = same_on_every_thread_count(&root, &["lint", "--format", "json", "."]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("\"code\": \"invalid-settings\""),
        "{stdout}"
    );
    assert!(stdout.contains("\"path\": \"unknown-field/"), "{stdout}");
    for entry in fs::read_dir(root.join("settings")).expect("testdata/settings") {
        let dir = entry.expect("entry").path();
        same_on_every_thread_count(&dir, &["lint", "--format", "short", "."]);
    }
}

/// The text of generated file `index`: clean, warning, broken, fixable, TOML, not a configuration,
/// invalid UTF-8 or binary, in turn.
fn generated(index: usize) -> (String, Vec<u8>) {
    let dir = format!("d{}/e{}", index % 7, index % 3);
    match index % 8 {
        0 => (
            format!("{dir}/clean{index}.yaml"),
            format!("data:\n  sources:\n    s{index}:\n      type: http\n      url: https://api.example.com/{index}\n").into_bytes(),
        ),
        1 => (
            format!("{dir}/warns{index}.yaml"),
            format!("data:\n  sources:\n    s{index}:\n      type: http\n      url: https://api.example.com/${{params.id{index}}}\n").into_bytes(),
        ),
        2 => (
            format!("{dir}/broken{index}.yaml"),
            format!("data:\n  sources:\n    s{index}:\n      type: http\n      url: [\n]\n{index}").into_bytes(),
        ),
        3 => (
            format!("{dir}/fixable{index}.yaml"),
            format!("data:\n  sources:\n    base:\n      type: static\n      data: [{index}]\n    f{index}:\n      type: filtr\n      from: bsae\n      where: \"true\"\n").into_bytes(),
        ),
        4 => (
            format!("{dir}/config{index}.toml"),
            format!("[data.sources.t{index}]\ntype = \"http\"\nurl = \"https://api.example.com/{index}\"\ntimeout = \"{index}x\"\n").into_bytes(),
        ),
        5 => (
            format!("{dir}/other{index}.yaml"),
            format!("name: other{index}\nitems: [1, 2]\n").into_bytes(),
        ),
        6 => (
            format!("{dir}/latin{index}.yaml"),
            [b"data:\n  sources:\n    s:\n      type: static\n      data: [\"".as_slice(), &[0xE9, 0xFF], b"\"]\n"].concat(),
        ),
        _ => (format!("{dir}/binary{index}.yaml"), vec![0x7F, b'E', b'L', b'F', 0, 1, 2]),
    }
}

/// A temporary directory holding the generated corpus of `files` files.
fn corpus(files: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    sources_testkit::write_tree(dir.path(), (0..files).map(generated));
    dir
}

#[test]
fn a_generated_corpus_lints_the_same_on_one_thread_and_on_several() {
    let dir = corpus(400);
    for format in FORMATS {
        let output = same_on_every_thread_count(dir.path(), &["lint", "--format", format]);
        assert_eq!(output.status.code(), Some(1));
    }
    let short = same_on_every_thread_count(dir.path(), &["lint", "--format", "short", "d1"]);
    let shown = String::from_utf8_lossy(&short.stdout);
    assert!(shown.starts_with("d1/e0/"), "{shown}");
    let diff = same_on_every_thread_count(dir.path(), &["lint", "--diff"]);
    assert!(String::from_utf8_lossy(&diff.stdout).contains("+      type: filter\n"));
}

#[test]
fn fix_writes_the_same_files_and_says_the_same_on_one_thread_and_on_several() {
    let mut fixed = Vec::new();
    for threads in ["1", "3"] {
        let dir = corpus(120);
        let output = sources(
            dir.path(),
            &["lint", "--fix", "--format", "short", "--threads", threads],
        );
        let files: Vec<(String, Vec<u8>)> = (0..120)
            .map(|index| {
                let (name, _) = generated(index);
                let bytes = fs::read(dir.path().join(&name)).expect("read back");
                (name, bytes)
            })
            .collect();
        fixed.push((output.status.code(), output.stdout, output.stderr, files));
    }
    assert!(
        fixed[0] == fixed[1],
        "--fix differs between one thread and three"
    );
    let (_, _, stderr, files) = &fixed[0];
    assert!(String::from_utf8_lossy(stderr).contains("fixable3.yaml"));
    assert!(
        files
            .iter()
            .any(|(name, bytes)| name.ends_with("fixable3.yaml")
                && String::from_utf8_lossy(bytes).contains("type: filter"))
    );
}

#[test]
fn a_walk_skips_what_ignore_files_ignore_unless_no_ignore() {
    let dir = corpus(0);
    let warns = "data:\n  sources:\n    app:\n      type: http\n      url: https://api.example.com/apps/${params.id}\n";
    for (name, text) in [
        ("kept.yaml", warns),
        ("build/out.yaml", warns),
        ("vendor/lib.yaml", warns),
        (".hidden/x.yaml", warns),
        (".gitignore", "build/\n"),
        (".ignore", "vendor/\n"),
    ] {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, text).expect("write");
    }
    let files = |output: &Output| -> Vec<String> {
        let mut files: Vec<String> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|line| line.split(':').next().unwrap_or("").to_owned())
            .collect();
        files.dedup();
        // The summary line ends the report.
        files.pop();
        files
    };
    let walked = sources(dir.path(), &["lint", "--format", "short"]);
    assert_eq!(files(&walked), ["kept.yaml"]);
    let everything = sources(dir.path(), &["lint", "--format", "short", "--no-ignore"]);
    assert_eq!(
        files(&everything),
        ["build/out.yaml", "kept.yaml", "vendor/lib.yaml"]
    );
    // A file named on the command line is linted whatever the ignore files say.
    let named = sources(dir.path(), &["lint", "--format", "short", "build/out.yaml"]);
    assert_eq!(files(&named), ["build/out.yaml"]);
}
