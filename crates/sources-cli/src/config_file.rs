//! Which configuration file `try` and `list` read when `-c` is not given.
//!
//! 1. `-c PATH` / `--config PATH`.
//! 2. The `SOURCES_CONFIG` environment variable, when set and not empty.
//! 3. The first of `sources.yaml`, `sources.yml` and `sources.toml` in the current directory, then
//!    in each parent directory up to the root.
//!
//! Nothing found is a usage error that lists where it looked.

use std::path::{Path, PathBuf};

/// The environment variable naming the configuration file.
pub const CONFIG_ENV: &str = "SOURCES_CONFIG";

/// The file names looked for in each directory, in order.
pub const CANDIDATES: &[&str] = &["sources.yaml", "sources.yml", "sources.toml"];

/// No configuration file was found.
#[derive(Debug, thiserror::Error)]
#[error(
    "no configuration file: pass `-c PATH`, set {CONFIG_ENV}, or put one of {} in {} or a parent directory",
    CANDIDATES.join(", "),
    .start.display()
)]
pub struct NotFound {
    /// Where the upward search started.
    pub start: PathBuf,
}

/// The configuration file to read: `explicit`, else `from_env`, else the upward search from
/// `start`.
pub fn locate(
    explicit: Option<&Path>,
    from_env: Option<&str>,
    start: &Path,
) -> Result<PathBuf, NotFound> {
    if let Some(path) = explicit {
        return Ok(path.to_owned());
    }
    if let Some(path) = from_env.map(str::trim).filter(|path| !path.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    for directory in start.ancestors() {
        for name in CANDIDATES {
            let candidate = directory.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(NotFound {
        start: start.to_owned(),
    })
}

/// [`locate`] with the process's environment and current directory.
pub fn locate_from_process(explicit: Option<&Path>) -> Result<PathBuf, NotFound> {
    let from_env = std::env::var(CONFIG_ENV).ok();
    let start = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    locate(explicit, from_env.as_deref(), &start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_then_environment_then_nearest_file_upwards() {
        let root = tempfile::tempdir().expect("tempdir");
        let nested = root.path().join("a/b");
        std::fs::create_dir_all(&nested).expect("dirs");
        std::fs::write(root.path().join("sources.toml"), "").expect("write");
        std::fs::write(root.path().join("a/sources.yml"), "").expect("write");
        assert_eq!(
            locate(None, None, &nested).expect("found"),
            root.path().join("a/sources.yml")
        );
        std::fs::write(nested.join("sources.yaml"), "").expect("write");
        assert_eq!(
            locate(None, None, &nested).expect("found"),
            nested.join("sources.yaml")
        );
        assert_eq!(
            locate(None, Some("/etc/dash.yaml"), &nested).expect("env"),
            PathBuf::from("/etc/dash.yaml")
        );
        assert_eq!(
            locate(Some(Path::new("x.toml")), Some("/etc/dash.yaml"), &nested).expect("explicit"),
            PathBuf::from("x.toml")
        );
        assert_eq!(
            locate(None, Some("  "), root.path()).expect("blank env ignored"),
            root.path().join("sources.toml")
        );
    }

    #[test]
    fn nothing_found_says_where_it_looked() {
        let empty = tempfile::tempdir().expect("tempdir");
        let error = locate(None, None, empty.path()).expect_err("none");
        let text = error.to_string();
        assert!(
            text.contains("sources.yaml, sources.yml, sources.toml"),
            "{text}"
        );
        assert!(text.contains("SOURCES_CONFIG"), "{text}");
    }
}
