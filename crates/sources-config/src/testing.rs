//! Fixtures for the tests of this crate and of the front ends that draw its components.

use sources_syntax::Syntax;

use crate::Component;

/// The table component `t` of a document whose `columns` are these lines (YAML list items,
/// indented by eight spaces), over a static entry `rows`.
///
/// # Panics
/// When the document does not parse or has no component (a fixture that is not one).
pub fn table(columns: &str) -> Component {
    let text = format!(
        "tui:\n  components:\n    t:\n      type: table\n      source: rows\n      columns:\n{columns}data:\n  sources:\n    rows: {{type: static, data: []}}\n"
    );
    let parse = sources_syntax::parse(&text, Syntax::Yaml);
    let (config, _) = crate::decode(parse.root.expect("a root"));
    config.components.into_iter().next().expect("a component")
}
