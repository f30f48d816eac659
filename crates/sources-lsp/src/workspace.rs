//! Workspace symbols: the entries of every open document and of the configuration files in the
//! workspace folders (YAML and TOML files with a `data.sources` block, found by `sources lint`'s
//! directory walk, bounded in depth and count). Files on disk are read as text and analysed like
//! open ones; nothing they declare is fetched or run.

use std::path::{Path, PathBuf};

use sources_check::walk::{self, Found, WalkOptions};
use sources_syntax::Syntax;
use tower_lsp_server::ls_types::{Location, SymbolInformation, SymbolKind, Uri};

use crate::document::Analyzed;
use crate::position::Positions;

/// At most this many files are read from disk per request.
const MAX_FILES: usize = 500;
/// Files larger than this are skipped.
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// Directories deeper than this below a workspace folder are not entered.
const MAX_DEPTH: usize = 6;

/// Whether `query` matches `name`: its characters appear in order, ignoring case.
fn matches(query: &str, name: &str) -> bool {
    let mut name = name.chars().flat_map(char::to_lowercase);
    query
        .chars()
        .flat_map(char::to_lowercase)
        .all(|wanted| name.any(|c| c == wanted))
}

/// The entries of one analysed document matching `query`.
pub(crate) fn symbols(
    analyzed: &Analyzed,
    uri: &Uri,
    positions: Positions<'_>,
    query: &str,
) -> Vec<SymbolInformation> {
    let analysis = &analyzed.analysis;
    if !analysis.has_sources {
        return Vec::new();
    }
    analysis
        .config
        .entries
        .iter()
        .filter(|source| matches(query, &source.name.value))
        .map(|source| {
            #[allow(deprecated)]
            SymbolInformation {
                name: source.name.value.to_string(),
                kind: if source.is_leaf() {
                    SymbolKind::STRUCT
                } else {
                    SymbolKind::FUNCTION
                },
                tags: None,
                deprecated: None,
                location: Location {
                    uri: uri.clone(),
                    range: positions.range(source.name.span),
                },
                container_name: Some("data.sources".to_owned()),
            }
        })
        .collect()
}

/// The configuration files under `roots`, as `sources lint` walks a directory (ignore files
/// honoured), entering directories at most [`MAX_DEPTH`] below a root, [`MAX_FILES`] in all, each at most
/// [`MAX_FILE_BYTES`].
pub(crate) fn configuration_files(roots: &[PathBuf]) -> Vec<(PathBuf, Syntax)> {
    let options = WalkOptions {
        respect_ignore: true,
        // The files of the deepest directory entered are one level below it.
        max_depth: Some(MAX_DEPTH + 1),
    };
    roots
        .iter()
        .flat_map(|root| walk::configuration_files(root, options))
        .filter_map(|found| match found {
            Ok(Found::File { path, syntax })
                if std::fs::metadata(&path)
                    .is_ok_and(|metadata| metadata.len() <= MAX_FILE_BYTES) =>
            {
                Some((path, syntax))
            }
            _ => None,
        })
        .take(MAX_FILES)
        .collect()
}

/// The `file://` URI of an absolute path.
pub(crate) fn file_uri(path: &Path) -> Option<Uri> {
    url::Url::from_file_path(path).ok()?.as_str().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_match_in_order_ignoring_case() {
        assert!(matches("", "apps"));
        assert!(matches("aPs", "apps"));
        assert!(!matches("spa", "apps"));
    }

    #[test]
    fn file_uris_escape_what_a_uri_cannot_hold() {
        let uri = file_uri(Path::new("/tmp/a b/é.yaml")).expect("a URI");
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%A9.yaml");
    }

    #[test]
    fn the_walk_honours_ignore_files_and_skips_hidden_and_deep_directories() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        let deep = "a/b/c/d/e/f/g";
        for sub in ["built", ".hidden", "target", deep] {
            std::fs::create_dir_all(root.join(sub)).expect("mkdir");
        }
        for (file, text) in [
            (".gitignore", "built/\nscratch.yaml\n"),
            ("keep.yaml", ""),
            ("scratch.yaml", ""),
            ("notes.txt", ""),
            ("built/out.yaml", ""),
            (".hidden/h.yaml", ""),
            ("target/t.toml", ""),
            ("a/b/c/d/e/f/six.toml", ""),
            ("a/b/c/d/e/f/g/seven.yaml", ""),
        ] {
            std::fs::write(root.join(file), text).expect("write");
        }
        let found: Vec<String> = configuration_files(&[root.to_path_buf()])
            .into_iter()
            .map(|(path, _)| {
                let below = path.strip_prefix(root).expect("under the root");
                below.to_string_lossy().into_owned()
            })
            .collect();
        assert_eq!(found, ["a/b/c/d/e/f/six.toml", "keep.yaml"]);
    }
}
