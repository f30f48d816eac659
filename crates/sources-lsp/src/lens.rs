//! Code lenses on each entry: "▶ try" (runs [`crate::try_command`]), "⏺ try and record" (the same
//! run, asked to record a sample beside the document; only in a `file:` document, the one kind a
//! sample can sit beside) and "N references" (where the entry is read: other entries and
//! components, counted by [`crate::names`]).

use serde_json::json;
use tower_lsp_server::ls_types::{CodeLens, Command, Location, Uri};

use crate::document::Analyzed;
use crate::position::Positions;
use crate::try_command;

/// The client-side command the references lens names (editors map it to their references view;
/// arguments: URI, position, locations).
pub(crate) const SHOW_REFERENCES: &str = "sources.showReferences";

/// The lenses of a document: two or three per entry, on its name.
pub(crate) fn lenses(analyzed: &Analyzed, uri: &Uri, positions: Positions<'_>) -> Vec<CodeLens> {
    let analysis = &analyzed.analysis;
    if !analysis.has_sources {
        return Vec::new();
    }
    let config = &analysis.config;
    let records = uri.as_str().starts_with("file:");
    let mut out = Vec::new();
    for entry in &config.entries {
        let name = entry.name.value.as_str();
        let range = positions.range(entry.name.span);
        out.push(CodeLens {
            range,
            command: Some(Command {
                title: "▶ try".to_owned(),
                command: try_command::COMMAND.to_owned(),
                arguments: Some(vec![json!(uri.as_str()), json!(name)]),
            }),
            data: None,
        });
        if records {
            out.push(CodeLens {
                range,
                command: Some(Command {
                    title: "⏺ try and record".to_owned(),
                    command: try_command::COMMAND.to_owned(),
                    arguments: Some(vec![
                        json!(uri.as_str()),
                        json!(name),
                        json!(null),
                        json!({ "record": true }),
                    ]),
                }),
                data: None,
            });
        }
        let mut uses: Vec<Location> = config
            .references()
            .into_iter()
            .filter(|(_, reference)| reference.name.value == name)
            .map(|(_, reference)| reference.name.span)
            .chain(
                config
                    .components
                    .iter()
                    .filter_map(|component| component.source.as_ref())
                    .filter(|source| source.value == name)
                    .map(|source| source.span),
            )
            .map(|span| Location {
                uri: uri.clone(),
                range: positions.range(span),
            })
            .collect();
        uses.sort_by_key(|location| (location.range.start.line, location.range.start.character));
        let title = match uses.len() {
            1 => "1 reference".to_owned(),
            count => format!("{count} references"),
        };
        out.push(CodeLens {
            range,
            command: Some(Command {
                title,
                command: SHOW_REFERENCES.to_owned(),
                arguments: Some(vec![json!(uri.as_str()), json!(range.start), json!(uses)]),
            }),
            data: None,
        });
    }
    out
}
