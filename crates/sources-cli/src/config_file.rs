//! Which configuration file `try` and `list` read when `-c` is not given.
//!
//! 1. `-c PATH` / `--config PATH`.
//! 2. The `SOURCES_CONFIG` environment variable, when set and not empty.
//! 3. The first of `sources.yaml`, `sources.yml` and `sources.toml` in the current directory, then
//!    in each parent directory up to the root.
//!
//! Nothing found is a usage error that lists where it looked. A file found by the upward search
//! (not named by the user) is said on standard error, and `try` refuses one that belongs to
//! another user ([`check_owner`]): in a shared directory such as /tmp, anyone could have put it
//! there, and `try` runs its commands as you (git's `safe.directory` rule is the model). Such a
//! file runs when named with `-c`, or when its directory is listed in [`SAFE_ENV`].

use std::path::{Path, PathBuf};

/// The environment variable naming the configuration file.
pub const CONFIG_ENV: &str = "SOURCES_CONFIG";

/// The environment variable listing the directories (`:`-separated, `;` on Windows) whose
/// discovered configuration files `try` runs whoever owns them: each absolute path allows the
/// files in that directory and below it, `*` allows every one.
pub const SAFE_ENV: &str = "SOURCES_SAFE_DIRECTORIES";

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

/// A configuration file to read and how it was chosen.
#[derive(Debug, PartialEq, Eq)]
pub struct Located {
    /// The file.
    pub path: PathBuf,
    /// Found by the upward search rather than named with `-c` or [`CONFIG_ENV`].
    pub discovered: bool,
}

/// [`locate`] with the process's environment and current directory.
pub fn locate_from_process(explicit: Option<&Path>) -> Result<Located, NotFound> {
    let from_env = std::env::var(CONFIG_ENV).ok();
    let start = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let named = explicit.is_some()
        || from_env
            .as_deref()
            .is_some_and(|env| !env.trim().is_empty());
    Ok(Located {
        path: locate(explicit, from_env.as_deref(), &start)?,
        discovered: !named,
    })
}

/// A discovered configuration file that belongs to another user.
#[derive(Debug, thiserror::Error)]
#[error(
    "refusing to run {path}: it was found by searching up from the current directory and belongs \
     to {owner}, not to you, and `try` would run its commands and requests as you; if you trust \
     it, name it with `-c {path}`, or allow its directory with {SAFE_ENV}={directory}"
)]
pub struct ForeignOwner {
    /// The file, as shown.
    pub path: String,
    /// Its owner: user name and uid.
    pub owner: String,
    /// Its directory, as shown: what [`SAFE_ENV`] would list to allow it.
    pub directory: String,
}

/// Refuses `path` when it belongs to a user other than the one running `sources`, unless its
/// directory is allowed by `safe` (the value of [`SAFE_ENV`], see [`allowed`]). Checked on Unix;
/// elsewhere every file passes.
pub fn check_owner(path: &Path, safe: Option<&std::ffi::OsStr>) -> Result<(), ForeignOwner> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(metadata) = std::fs::metadata(path) else {
            // Unreadable: reading it says why.
            return Ok(());
        };
        let owner = metadata.uid();
        if owner != rustix::process::geteuid().as_raw() && !allowed(path, safe) {
            let name = user_name(owner).map_or_else(
                || format!("uid {owner}"),
                |name| format!("{name} (uid {owner})"),
            );
            let directory = directory_of(path);
            return Err(ForeignOwner {
                path: path.display().to_string(),
                owner: name,
                directory: directory.display().to_string(),
            });
        }
    }
    #[cfg(not(unix))]
    let _ = (path, safe);
    Ok(())
}

/// The directory holding `path`, made absolute and with its links resolved when it can be.
fn directory_of(path: &Path) -> PathBuf {
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    std::fs::canonicalize(parent).unwrap_or_else(|_| parent.to_owned())
}

/// Whether `safe` (a list of paths as [`SAFE_ENV`] holds them) allows the configuration `path`:
/// it lists `*`, or the directory holding `path` or one above it. Paths are compared with their
/// links resolved; an entry that is relative, or names nothing that exists, allows nothing.
pub fn allowed(path: &Path, safe: Option<&std::ffi::OsStr>) -> bool {
    let Some(safe) = safe else {
        return false;
    };
    let directory = directory_of(path);
    std::env::split_paths(safe).any(|entry| {
        entry.as_os_str() == "*"
            || (entry.is_absolute()
                && std::fs::canonicalize(&entry).is_ok_and(|entry| directory.starts_with(entry)))
    })
}

/// The name /etc/passwd gives `uid`, if any.
#[cfg(unix)]
fn user_name(uid: u32) -> Option<String> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        let listed: u32 = fields.nth(1)?.parse().ok()?;
        (listed == uid).then(|| name.to_owned())
    })
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
    fn a_safe_directory_allows_the_files_in_it_and_below_it() {
        let root = tempfile::tempdir().expect("tempdir");
        let nested = root.path().join("a/b");
        std::fs::create_dir_all(&nested).expect("dirs");
        let config = nested.join("sources.yaml");
        let other = tempfile::tempdir().expect("tempdir");
        let list = |paths: &[&Path]| std::env::join_paths(paths).expect("joined");
        assert!(!allowed(&config, None));
        assert!(allowed(&config, Some(&list(&[&nested]))));
        assert!(allowed(&config, Some(&list(&[other.path(), root.path()]))));
        assert!(allowed(&config, Some(std::ffi::OsStr::new("*"))));
        assert!(!allowed(&config, Some(&list(&[other.path()]))));
        assert!(!allowed(&config, Some(&list(&[&nested.join("c")]))));
        assert!(!allowed(&config, Some(std::ffi::OsStr::new(""))));
        assert!(!allowed(&config, Some(std::ffi::OsStr::new("a/b"))));
        // A sibling whose name starts like the allowed one is not below it.
        let sibling = root.path().join("a/bc");
        std::fs::create_dir_all(&sibling).expect("dirs");
        assert!(!allowed(
            &sibling.join("sources.yaml"),
            Some(&list(&[&nested]))
        ));
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
