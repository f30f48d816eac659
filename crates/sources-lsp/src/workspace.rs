//! Workspace symbols: the entries of every open document and of the configuration files in the
//! workspace folders (YAML and TOML files with a `data.sources` block, found by a bounded walk
//! that skips hidden, `target` and `node_modules` directories). Files on disk are read as text
//! and analysed like open ones; nothing they declare is fetched or run.

use std::path::{Path, PathBuf};

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

/// The YAML and TOML files under `roots`, in a stable order, at most [`MAX_FILES`].
pub(crate) fn configuration_files(roots: &[PathBuf]) -> Vec<(PathBuf, Syntax)> {
    let mut found = Vec::new();
    let mut stack: Vec<(PathBuf, usize)> = roots.iter().map(|root| (root.clone(), 0)).collect();
    while let Some((directory, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&directory) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|entry| entry.file_name());
        for entry in entries {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                let skipped = name.starts_with('.') || name == "target" || name == "node_modules";
                if !skipped && depth < MAX_DEPTH {
                    stack.push((path, depth + 1));
                }
            } else if kind.is_file()
                && let Some(syntax) = Syntax::from_path(&path)
                && entry
                    .metadata()
                    .is_ok_and(|metadata| metadata.len() <= MAX_FILE_BYTES)
            {
                found.push((path, syntax));
                if found.len() >= MAX_FILES {
                    return found;
                }
            }
        }
    }
    found
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
}
