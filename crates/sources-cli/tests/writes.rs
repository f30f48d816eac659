//! Every file the binary writes goes through a temporary file created beside the target and is
//! renamed into place; a symbolic link leading out of the project is refused with a message, and
//! a link planted at a predictable name is never followed.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use sources_testkit::process::{in_dir, outcome as run};

const RECORDED: &str = r#"data:
  sources:
    issues:
      type: exec
      command: [printf, "%s", '[{"title":"a"}]']
"#;

const MISSPELLED: &str =
    "data:\n  sources:\n    apps:\n      type: htp\n      url: https://api.example.com/apps\n";

fn sources(dir: &Path, args: &[&str]) -> (i32, String, String) {
    run(&mut in_dir(env!("CARGO_BIN_EXE_sources"), dir, args))
}

fn canonical(path: &Path) -> String {
    fs::canonicalize(path)
        .expect("canonical")
        .display()
        .to_string()
}

#[test]
fn record_refuses_a_samples_directory_linked_out_of_the_project() {
    let project = tempfile::tempdir().expect("dir");
    let elsewhere = tempfile::tempdir().expect("dir");
    fs::write(project.path().join("sources.yaml"), RECORDED).expect("write");
    symlink(elsewhere.path(), project.path().join(".sources")).expect("link");
    let (code, _, stderr) = sources(project.path(), &["try", "issues", "--record"]);
    assert_eq!(code, 0, "the try itself worked: {stderr}");
    assert!(
        stderr.contains(&format!(
            "sources: could not record a sample of `issues`: refusing to write {}: \
             a symbolic link leads it to {}, outside {}; replace the link with a real file or directory, \
             or write inside {}",
            project.path().join(".sources/samples/issues.json").display(),
            canonical(elsewhere.path()),
            canonical(project.path()),
            canonical(project.path()),
        )),
        "{stderr}"
    );
    assert_eq!(
        fs::read_dir(elsewhere.path()).expect("list").count(),
        0,
        "nothing written there"
    );
}

#[test]
fn record_never_follows_a_link_planted_at_a_predictable_name() {
    let project = tempfile::tempdir().expect("dir");
    let elsewhere = tempfile::tempdir().expect("dir");
    let victim = elsewhere.path().join("victim");
    fs::write(&victim, "keep").expect("write");
    fs::write(project.path().join("sources.yaml"), RECORDED).expect("write");
    let samples = project.path().join(".sources/samples");
    fs::create_dir_all(&samples).expect("mkdir");
    symlink(&victim, samples.join("issues.json.partial")).expect("link");
    symlink(&victim, samples.join(".issues.json.tmp")).expect("link");
    let (code, _, stderr) = sources(project.path(), &["try", "issues", "--record"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("recorded a sample of `issues`"), "{stderr}");
    assert_eq!(fs::read_to_string(&victim).expect("read"), "keep");
    let sample = fs::read_to_string(samples.join("issues.json")).expect("the sample");
    assert!(sample.contains("\"entry\": \"issues\""), "{sample}");
}

#[test]
fn fix_refuses_a_walked_link_out_of_the_tree_and_leaves_its_target_alone() {
    let project = tempfile::tempdir().expect("dir");
    let elsewhere = tempfile::tempdir().expect("dir");
    let victim = elsewhere.path().join("victim.yaml");
    fs::write(&victim, MISSPELLED).expect("write");
    symlink(&victim, project.path().join("conf.yaml")).expect("link");
    for args in [
        &["lint", "--fix", "."][..],
        &["lint", "--add-suppressions", "."][..],
    ] {
        let (code, _, stderr) = sources(project.path(), args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "cannot write the fixed `conf.yaml`: refusing to write ./conf.yaml: a symbolic link \
                 leads it to {}, outside {}",
                canonical(&victim),
                canonical(project.path())
            )),
            "{args:?}: {stderr}"
        );
        assert_eq!(fs::read_to_string(&victim).expect("read"), MISSPELLED);
    }
}

#[test]
fn fix_writes_through_a_link_inside_the_tree_and_leaves_no_temporary_file() {
    let project = tempfile::tempdir().expect("dir");
    fs::write(project.path().join("real.yaml"), MISSPELLED).expect("write");
    symlink("real.yaml", project.path().join("conf.yaml")).expect("link");
    let (code, _, stderr) = sources(project.path(), &["lint", "--fix", "conf.yaml"]);
    assert_eq!(code, 0, "{stderr}");
    let fixed = fs::read_to_string(project.path().join("real.yaml")).expect("read");
    assert_eq!(fixed, MISSPELLED.replace("htp", "http"));
    let names: Vec<String> = fs::read_dir(project.path())
        .expect("list")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn output_file_is_replaced_whole() {
    let project = tempfile::tempdir().expect("dir");
    fs::write(project.path().join("conf.yaml"), MISSPELLED).expect("write");
    fs::write(
        project.path().join("report.txt"),
        "an old, longer report ".repeat(100),
    )
    .expect("write");
    let (code, stdout, stderr) = sources(
        project.path(),
        &[
            "lint",
            "--format",
            "short",
            "--output-file",
            "report.txt",
            "conf.yaml",
        ],
    );
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    let report = fs::read_to_string(project.path().join("report.txt")).expect("read");
    assert!(
        report.starts_with("conf.yaml:4:13: error[unknown-kind]"),
        "{report}"
    );
    assert!(
        report.ends_with("1 error in 1 of 1 file; 1 fixable with --fix\n"),
        "{report}"
    );
    assert_eq!(fs::read_dir(project.path()).expect("list").count(), 2);
}
