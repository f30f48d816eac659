//! `merge` and `union`: exactly one of `sources` and `children`, and `tag_field` only with
//! `sources`.

use sources_config::{Enumeration, Source};
use sources_diagnostics::{Collector, Diagnostic, Rule};

fn key<'a>(source: &'a Source, name: &str) -> Option<&'a sources_syntax::Key> {
    source.keys.iter().find(|key| key.name == name)
}

/// Reports `sources` with `children`, neither of them, and `tag_field` without `sources`.
pub(crate) fn check_merge(entries: &[Source], out: &mut Collector) {
    for source in entries {
        if source.body.merge_fields().is_none() {
            continue;
        }
        let kind = source
            .kind
            .as_ref()
            .map(|kind| kind.value.as_str())
            .unwrap_or_default();
        let sources = key(source, "sources");
        let children = key(source, "children");
        match (sources, children) {
            (Some(sources), Some(children)) => {
                let (first, second) = if sources.span.start() < children.span.start() {
                    (sources, children)
                } else {
                    (children, sources)
                };
                out.push(
                    Diagnostic::new(
                        Rule::ConflictingFields,
                        second.span,
                        format!("`{kind}` source `{}` sets both `sources` and `children`", source.name.value),
                    )
                    .with_label(format!("`{}` here", second.name))
                    .with_secondary(first.span, format!("`{}` here", first.name))
                    .with_help("keep one: `sources` lists children by name, `children` gives each child its own `tags`"),
                );
            }
            (None, None) => out.push(
                Diagnostic::new(
                    Rule::MissingField,
                    source.name.span,
                    format!(
                        "`{kind}` source `{}` needs `sources` or `children`",
                        source.name.value
                    ),
                )
                .with_label("no children")
                .with_help(
                    "add `sources: [NAME, …]`, or `children:` with a `source` for each child",
                ),
            ),
            _ => {}
        }
        if let Some(tag_field) = key(source, "tag_field")
            && sources.is_none()
        {
            let mut diagnostic = Diagnostic::new(
                Rule::ConflictingFields,
                tag_field.span,
                format!(
                    "`tag_field` applies only with `sources`, and `{}` has none",
                    source.name.value
                ),
            )
            .with_label("`tag_field` without `sources`");
            diagnostic = match children {
                Some(children) => diagnostic
                    .with_secondary(children.span, "children are listed here")
                    .with_help("with `children`, give each child `tags` instead of `tag_field`"),
                None => {
                    diagnostic.with_help("list the children under `sources`, or remove `tag_field`")
                }
            };
            out.push(diagnostic);
        }
    }
}
