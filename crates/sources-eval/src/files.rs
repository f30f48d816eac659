//! Writing files: every file `sources` writes (recorded samples, `lint --fix` and
//! `--add-suppressions` results, `--output-file` reports, the editor's "▶ try" results) goes
//! through here. A write goes to a temporary file created exclusively beside the target (so a
//! link planted at a predictable name is never followed), then renamed over it, so a reader or a
//! write cut short never sees half a file. A target reached through a symbolic link that leads
//! outside the directory the write belongs to is refused; a link inside it is written through (the
//! link stays, the file it names is replaced).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The target, or a directory on the way to it, is a symbolic link leading outside `root`.
    #[error(
        "refusing to write {path}: a symbolic link leads it to {resolved}, outside {root}; \
         replace the link with a real file or directory, or write inside {root}",
        path = .path.display(),
        resolved = .resolved.display(),
        root = .root.display()
    )]
    OutsideRoot {
        /// The path asked for.
        path: PathBuf,
        /// Where the links lead.
        resolved: PathBuf,
        /// The directory writes must stay in.
        root: PathBuf,
    },
    /// A step of the write failed. (The cause is in the message and not a `source`, so a caller
    /// that prints the error's chain says it once.)
    #[error("cannot write {path}: {cause}", path = .path.display())]
    Io {
        /// The path asked for.
        path: PathBuf,
        /// The cause.
        cause: io::Error,
    },
}

/// A file being written: bytes go to a temporary file beside the target; [`AtomicFile::commit`]
/// moves it into place. Dropped without a commit, the temporary file is removed and the target is
/// untouched.
#[derive(Debug)]
pub struct AtomicFile {
    temporary: tempfile::NamedTempFile,
    /// The path asked for (for messages).
    asked: PathBuf,
    /// Where the file goes once links are followed.
    target: PathBuf,
}

impl AtomicFile {
    /// Starts writing `path`, creating missing parent directories. With `root`, the target and
    /// its directories must stay inside `root` once symbolic links are followed.
    pub fn create(path: &Path, root: Option<&Path>) -> Result<AtomicFile, WriteError> {
        let failed = |cause| WriteError::Io {
            path: path.to_path_buf(),
            cause,
        };
        let target = resolve(path, root)?;
        let directory = target.parent().unwrap_or(Path::new("."));
        let name = target
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let existing = fs::metadata(&target).ok().map(|meta| meta.permissions());
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // A new file gets the usual 0666 less the umask (tempfile's own default is 0600).
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let temporary = builder.tempfile_in(directory).map_err(failed)?;
        if let Some(permissions) = existing {
            temporary
                .as_file()
                .set_permissions(permissions)
                .map_err(failed)?;
        }
        Ok(AtomicFile {
            temporary,
            asked: path.to_path_buf(),
            target,
        })
    }

    /// Moves the written file into place; returns where it went.
    pub fn commit(mut self) -> Result<PathBuf, WriteError> {
        let asked = self.asked;
        let failed = |cause| WriteError::Io {
            path: asked.clone(),
            cause,
        };
        self.temporary.flush().map_err(failed)?;
        self.temporary
            .persist(&self.target)
            .map_err(|error| failed(error.error))?;
        Ok(self.target)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.temporary.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.temporary.flush()
    }
}

/// Writes `contents` to `path` whole (see [`AtomicFile::create`] for `root`); returns where the
/// file went.
pub fn write(path: &Path, contents: &[u8], root: Option<&Path>) -> Result<PathBuf, WriteError> {
    let mut file = AtomicFile::create(path, root)?;
    file.write_all(contents).map_err(|cause| WriteError::Io {
        path: path.to_path_buf(),
        cause,
    })?;
    file.commit()
}

/// Where a write of `path` lands once symbolic links are followed, after checking it stays in
/// `root` and creating the missing directories.
fn resolve(path: &Path, root: Option<&Path>) -> Result<PathBuf, WriteError> {
    let failed = |cause| WriteError::Io {
        path: path.to_path_buf(),
        cause,
    };
    let root = match root {
        Some(root) => Some(fs::canonicalize(root).map_err(failed)?),
        None => None,
    };
    let outside = |resolved: &Path| match &root {
        Some(root) if !resolved.starts_with(root) => Some(WriteError::OutsideRoot {
            path: path.to_path_buf(),
            resolved: resolved.to_path_buf(),
            root: root.clone(),
        }),
        _ => None,
    };
    let name = path.file_name().ok_or_else(|| {
        failed(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the path names no file",
        ))
    })?;
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    // The deepest directory that exists, links followed, must be inside the root before any
    // directory is created under it.
    let mut existing = parent;
    let mut missing = Vec::new();
    while fs::symlink_metadata(existing).is_err() {
        let (Some(up), Some(last)) = (existing.parent(), existing.file_name()) else {
            break;
        };
        missing.push(last.to_owned());
        existing = if up.as_os_str().is_empty() {
            Path::new(".")
        } else {
            up
        };
    }
    let mut directory = fs::canonicalize(existing).map_err(failed)?;
    if let Some(refused) = outside(&directory) {
        return Err(refused);
    }
    for component in missing.iter().rev() {
        directory.push(component);
        fs::create_dir(&directory)
            .or_else(|error| match error.kind() {
                io::ErrorKind::AlreadyExists => Ok(()),
                _ => Err(error),
            })
            .map_err(failed)?;
    }
    let directory = fs::canonicalize(&directory).map_err(failed)?;
    let candidate = directory.join(name);
    let is_link = fs::symlink_metadata(&candidate).is_ok_and(|meta| meta.file_type().is_symlink());
    let target = if is_link {
        fs::canonicalize(&candidate).unwrap_or_else(|_| {
            // A link to nothing: where it points, for the message.
            fs::read_link(&candidate).map_or(candidate.clone(), |to| directory.join(to))
        })
    } else {
        candidate
    };
    if let Some(refused) = outside(&target) {
        return Err(refused);
    }
    if is_link && fs::metadata(&target).is_err() {
        return Err(failed(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "it is a symbolic link to {}, which does not exist",
                target.display()
            ),
        )));
    }
    Ok(target)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    #[test]
    fn a_write_replaces_the_file_whole_and_keeps_its_mode() {
        let root = tempfile::tempdir().expect("dir");
        let path = root.path().join("a.yaml");
        fs::write(&path, "old").expect("write");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).expect("chmod");
        write(&path, b"new", Some(root.path())).expect("written");
        assert_eq!(fs::read_to_string(&path).expect("read"), "new");
        let mode = fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(
            fs::read_dir(root.path()).expect("list").count(),
            1,
            "no temporary left"
        );
    }

    #[test]
    fn missing_directories_are_created_inside_the_root() {
        let root = tempfile::tempdir().expect("dir");
        let path = root.path().join(".sources/samples/a.json");
        let written = write(&path, b"{}", Some(root.path())).expect("written");
        assert_eq!(fs::read_to_string(written).expect("read"), "{}");
    }

    #[test]
    fn links_out_of_the_root_are_refused_and_links_inside_are_written_through() {
        let root = tempfile::tempdir().expect("dir");
        let elsewhere = tempfile::tempdir().expect("dir");
        let victim = elsewhere.path().join("victim");
        fs::write(&victim, "keep").expect("write");
        let link = root.path().join("a.yaml");
        symlink(&victim, &link).expect("link");
        let refused = write(&link, b"x", Some(root.path())).expect_err("outside");
        assert!(
            refused.to_string().starts_with(&format!(
                "refusing to write {}: a symbolic link leads it to ",
                link.display()
            )),
            "{refused}"
        );
        assert_eq!(fs::read_to_string(&victim).expect("read"), "keep");

        symlink(elsewhere.path(), root.path().join(".sources")).expect("link");
        let through = root.path().join(".sources/samples/a.json");
        assert!(matches!(
            write(&through, b"x", Some(root.path())),
            Err(WriteError::OutsideRoot { .. })
        ));
        assert!(
            !elsewhere.path().join("samples").exists(),
            "nothing created outside"
        );

        let real = root.path().join("real.yaml");
        fs::write(&real, "old").expect("write");
        let inside = root.path().join("b.yaml");
        symlink(&real, &inside).expect("link");
        write(&inside, b"new", Some(root.path())).expect("inside");
        assert_eq!(fs::read_to_string(&real).expect("read"), "new");
        assert!(
            fs::symlink_metadata(&inside)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
    }
}
