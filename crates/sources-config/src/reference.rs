//! The generated parts of `docs/reference.md`: one Markdown field table per entry kind and per
//! nested section, made from the field catalog of [`crate::fields`] (the doc comments that also
//! make the JSON Schema and the editor's hovers), and the in-place regeneration of the blocks
//! between `<!-- fields:NAME:start -->` and `<!-- fields:NAME:end -->` markers.

use std::fmt::Write as _;

use crate::enums::{Enumeration, Kind};
use crate::fields::{self, FieldInfo, Section};

/// Why a document's generated blocks could not be regenerated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A table the reference must contain has no start marker.
    #[error(
        "the reference has no `<!-- fields:{0}:start -->` marker; add it where the table belongs"
    )]
    MissingStart(String),
    /// A start marker without its end marker.
    #[error("`<!-- fields:{0}:start -->` has no `<!-- fields:{0}:end -->` after it")]
    MissingEnd(String),
}

/// One generated table: the name in its markers and the fields it lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// The fields of an entry kind (`fields:http`).
    Kind(Kind),
    /// The fields of a nested section (`fields:section-window`).
    Section(Section),
}

impl Block {
    /// Every block: each kind, then each section.
    pub fn all() -> Vec<Block> {
        Kind::ALL
            .iter()
            .copied()
            .map(Block::Kind)
            .chain(Section::ALL.iter().copied().map(Block::Section))
            .collect()
    }

    /// The name in the block's markers: the kind (`http`) or `section-` and the section's key
    /// (`section-window`).
    pub fn name(self) -> String {
        match self {
            Block::Kind(kind) => kind.as_str().to_owned(),
            Block::Section(section) => format!("section-{}", section.key()),
        }
    }

    /// The fields the block lists.
    pub fn fields(self) -> &'static [FieldInfo] {
        match self {
            Block::Kind(kind) => fields::for_kind(kind),
            Block::Section(section) => fields::for_section(section),
        }
    }

    /// The block's Markdown table.
    pub fn table(self) -> String {
        table(self.fields())
    }
}

/// A Markdown table of fields: name, type, required, default and meaning.
pub fn table(infos: &[FieldInfo]) -> String {
    let mut text =
        String::from("| field | type | required | default | meaning |\n|---|---|---|---|---|\n");
    for info in infos {
        let _ = writeln!(
            text,
            "| `{}` | {} | {} | {} | {} |",
            info.name,
            escape(&info.ty),
            if info.required { "yes" } else { "no" },
            default_cell(info),
            escape(&info.doc)
        );
    }
    text
}

/// The schema's default in code quotes, else what the doc comment's `Default: ...` sentence says
/// (`none`, `the whole value`), else nothing.
fn default_cell(info: &FieldInfo) -> String {
    if let Some(default) = &info.default {
        return format!("`{}`", escape(default));
    }
    info.doc
        .split_once("Default: ")
        .map(|(_, rest)| rest.trim_end().trim_end_matches('.'))
        .map_or_else(String::new, escape)
}

fn escape(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// `document` with every block's table regenerated in place; each block's markers must be
/// present.
pub fn regenerate(document: &str) -> Result<String, Error> {
    let mut text = document.to_owned();
    for block in Block::all() {
        let name = block.name();
        let start_marker = format!("<!-- fields:{name}:start -->\n");
        let end_marker = format!("<!-- fields:{name}:end -->");
        let start = text
            .find(&start_marker)
            .ok_or_else(|| Error::MissingStart(name.clone()))?
            + start_marker.len();
        let end = text[start..]
            .find(&end_marker)
            .ok_or_else(|| Error::MissingEnd(name.clone()))?
            + start;
        text.replace_range(start..end, &block.table());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_marker_is_named() {
        assert_eq!(
            regenerate("no markers")
                .expect_err("no markers")
                .to_string(),
            "the reference has no `<!-- fields:http:start -->` marker; add it where the table belongs"
        );
        assert_eq!(
            regenerate("<!-- fields:http:start -->\n")
                .expect_err("no end")
                .to_string(),
            "`<!-- fields:http:start -->` has no `<!-- fields:http:end -->` after it"
        );
    }

    #[test]
    fn a_table_lists_type_required_and_default() {
        let table = Block::Kind(Kind::Http).table();
        assert!(table.contains("| `url` | string | yes |  |"), "{table}");
        assert!(
            table.contains("| `method` | string | no | `GET` |"),
            "{table}"
        );
        assert!(
            table.contains("| `root` | string | no | the whole value |"),
            "{table}"
        );
    }
}
