//! Finding the configuration files under a directory, for every front end (`sources lint`'s
//! directory arguments, the language server's workspace symbols): ripgrep's walker, in name order,
//! skipping hidden files and directories, `target` and `node_modules`, and, when asked, what
//! `.gitignore`, `.ignore` and git's exclude files ignore (in the walked tree and above it, inside
//! a git repository or not). Symbolic links to directories are not followed. Besides
//! `settings_file`, the only module of this crate that touches the file system; it reads
//! directories, never a file's contents.

use std::fs;
use std::path::{Path, PathBuf};

use ignore::WalkBuilder;
use sources_syntax::Syntax;

/// Directory names a walk never enters (besides hidden ones and what ignore files ignore).
pub const SKIPPED_DIRECTORIES: &[&str] = &["target", "node_modules"];

/// How far and how a walk goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkOptions {
    /// Skip what ignore files ignore.
    pub respect_ignore: bool,
    /// Enter directories at most this deep below the walked one; `None` for no limit.
    pub max_depth: Option<usize>,
}

/// One thing a walk found.
#[derive(Debug)]
pub enum Found {
    /// A YAML or TOML file (by its extension), or a symbolic link to one.
    File {
        /// Its path: the walked directory joined with the path below it.
        path: PathBuf,
        /// Its syntax, from the extension.
        syntax: Syntax,
    },
    /// An ignore file that cannot be read or has an invalid line: the walk goes on without it.
    IgnoreFileProblem(ignore::Error),
}

/// The configuration files under `dir`, in name order, with the problems met on the way: an
/// `Err` is a directory that could not be read.
pub fn configuration_files(
    dir: &Path,
    options: WalkOptions,
) -> impl Iterator<Item = Result<Found, ignore::Error>> {
    let walker = WalkBuilder::new(dir)
        .standard_filters(options.respect_ignore)
        .hidden(true)
        .require_git(false)
        .follow_links(false)
        .max_depth(options.max_depth)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| {
            let skipped = entry.file_type().is_some_and(|kind| kind.is_dir())
                && SKIPPED_DIRECTORIES
                    .iter()
                    .any(|name| entry.file_name() == *name);
            entry.depth() == 0 || !skipped
        })
        .build();
    walker
        .flat_map(|entry| {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => return [Some(Err(error)), None],
            };
            let problem = entry
                .error()
                .map(|error| Ok(Found::IgnoreFileProblem(error.clone())));
            let path = entry.path();
            let file = match (entry.file_type(), Syntax::from_path(path)) {
                (Some(kind), Some(syntax))
                    if !kind.is_dir()
                        && (!kind.is_symlink()
                            || fs::metadata(path).is_ok_and(|target| target.is_file())) =>
                {
                    Some(Ok(Found::File {
                        path: path.to_path_buf(),
                        syntax,
                    }))
                }
                _ => None,
            };
            [problem, file]
        })
        .flatten()
}
