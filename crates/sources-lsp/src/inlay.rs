//! Inlay hints: the cadence at the end of an entry's name line (`polled every 10s`, `streamed`,
//! `one-shot`, as the `try` engine decides it), defaults that are not written (`timeout`,
//! `page_size`, `anchor`, `max_pages`: from the schema's declarations, the same ones hover shows),
//! the declared type after each `${params.X}`, and after an `${env.KEY}` that a boot prompt of
//! `app.prompts` sets (in an entry's fields or in the dashboard's templates), the prompt it comes
//! from.

use sources_config::fields::{self, FieldInfo, Section};
use sources_config::model::Source;
use sources_config::template::{Template, TokenKind};
use sources_config::{Config, Enumeration, Spanned, Text};
use sources_eval::engine::{Cadence, cadence};
use sources_syntax::Span;
use tower_lsp_server::ls_types::{InlayHint, InlayHintKind, InlayHintLabel};

use crate::document::Analyzed;
use crate::position::Positions;

/// The fields whose unwritten defaults are shown, by where they live.
const ENTRY_DEFAULTS: &[&str] = &["timeout"];
const WINDOW_DEFAULTS: &[&str] = &["page_size"];
const ANCHORED_DEFAULTS: &[&str] = &["anchor"];
const PAGINATE_DEFAULTS: &[&str] = &["max_pages"];

/// The end of the line `offset` is on (before the newline).
fn line_end(text: &str, offset: usize) -> usize {
    text.get(offset..)
        .and_then(|rest| rest.find('\n'))
        .map_or(text.len(), |newline| {
            let end = offset + newline;
            if text[..end].ends_with('\r') {
                end - 1
            } else {
                end
            }
        })
}

fn hint(at: usize, label: String, kind: InlayHintKind, positions: Positions<'_>) -> InlayHint {
    InlayHint {
        position: positions.position(at),
        label: InlayHintLabel::String(label),
        kind: Some(kind),
        text_edits: None,
        tooltip: None,
        padding_left: Some(true),
        padding_right: None,
        data: None,
    }
}

/// "name: default" for each of `names` that `infos` declares with a default and `written` lacks.
fn defaults(infos: &[FieldInfo], names: &[&str], written: impl Fn(&str) -> bool) -> Vec<String> {
    names
        .iter()
        .filter(|name| !written(name))
        .filter_map(|name| {
            let info = infos.iter().find(|info| info.name == *name)?;
            Some(format!("{name}: {}", info.default.as_ref()?))
        })
        .collect()
}

/// The cadence as a short label.
fn cadence_label(config: &Config, source: &Source) -> String {
    match cadence(config, source) {
        Cadence::OneShot => "one-shot".to_owned(),
        Cadence::Polled(every) => format!("polled every {}", sources_eval::format_duration(every)),
        Cadence::Streamed { .. } => "streamed".to_owned(),
    }
}

/// The hints of one entry, in no particular order.
fn entry(
    config: &Config,
    source: &Source,
    text: &str,
    positions: Positions<'_>,
    out: &mut Vec<InlayHint>,
) {
    let name_line_end = line_end(text, source.name.span.end());
    let mut labels = vec![cadence_label(config, source)];
    // Inline data has nothing to time out.
    if let Some(kind) = source
        .kind
        .as_ref()
        .filter(|kind| kind.value != sources_config::Kind::Static)
    {
        let written = |name: &str| source.keys.iter().any(|key| key.name == name);
        labels.extend(defaults(
            fields::for_kind(kind.value),
            ENTRY_DEFAULTS,
            written,
        ));
    }
    out.push(hint(
        name_line_end,
        labels.join(" · "),
        InlayHintKind::TYPE,
        positions,
    ));
    if let Some(window) = source.body.window() {
        let value = &window.value;
        let mut names: Vec<&str> = WINDOW_DEFAULTS.to_vec();
        if value.is_anchored() {
            names.extend(ANCHORED_DEFAULTS);
        }
        let written = |name: &str| match name {
            "page_size" => value.page_size.is_some(),
            "anchor" => value.anchor.is_some(),
            _ => true,
        };
        let labels = defaults(fields::for_section(Section::Window), &names, written);
        if !labels.is_empty() {
            out.push(hint(
                line_end(text, window.key_span.end()),
                labels.join(" · "),
                InlayHintKind::PARAMETER,
                positions,
            ));
        }
    }
    if let sources_config::Body::Http(http) = &source.body
        && let Some(paginate) = &http.paginate
    {
        let written = |name: &str| name != "max_pages" || paginate.value.max_pages.is_some();
        let labels = defaults(
            fields::for_section(Section::Paginate),
            PAGINATE_DEFAULTS,
            written,
        );
        if !labels.is_empty() {
            out.push(hint(
                line_end(text, paginate.key_span.end()),
                labels.join(" · "),
                InlayHintKind::PARAMETER,
                positions,
            ));
        }
    }
    let parameters = source
        .body
        .common()
        .and_then(|common| common.parameters.as_ref());
    for site in sources_check::template_sites(source) {
        let template = Template::parse(site.text);
        let written = Spanned::new(
            Text {
                text: site.text.into(),
                style: site.style,
            },
            site.span,
        );
        prompted(config, &written, text, positions, out);
        for token in template.tokens() {
            let TokenKind::Param(name) = token.kind else {
                continue;
            };
            let Some(declared) = parameters.and_then(|parameters| parameters.value.get(name))
            else {
                continue;
            };
            let kind = declared
                .value
                .value
                .kind
                .as_ref()
                .map_or("string", |kind| kind.value.as_str());
            if let Some(end) = written.file_offset(text, token.range.end) {
                let mut type_hint = hint(end, format!(": {kind}"), InlayHintKind::TYPE, positions);
                type_hint.padding_left = Some(false);
                out.push(type_hint);
            }
        }
    }
}

/// After each `${env.KEY}` of `written` whose KEY a boot prompt of `app.prompts` sets: the prompt.
fn prompted(
    config: &Config,
    written: &Spanned<Text>,
    text: &str,
    positions: Positions<'_>,
    out: &mut Vec<InlayHint>,
) {
    for token in Template::parse(&written.value.text).tokens() {
        if let TokenKind::Env(key) = token.kind
            && let Some(prompt) = config.dashboard.prompt(key)
            && let Some(end) = written.file_offset(text, token.range.end)
        {
            out.push(hint(
                end,
                format!("from {}", crate::describe::prompt(prompt)),
                InlayHintKind::PARAMETER,
                positions,
            ));
        }
    }
}

/// The prompt hints of the dashboard's templates that overlap `within`: each component's display
/// templates and `on_cursor.bind`, each screen's `title` and its bindings' `bind` and `confirm`.
fn dashboard(
    config: &Config,
    text: &str,
    within: Span,
    positions: Positions<'_>,
    out: &mut Vec<InlayHint>,
) {
    if config.dashboard.prompts.is_empty() {
        return;
    }
    let overlaps = |span: Span| span.end() >= within.start() && span.start() <= within.end();
    let mut templates: Vec<&Spanned<Text>> = Vec::new();
    for component in config
        .components
        .iter()
        .filter(|component| overlaps(component.span))
    {
        templates.extend(&component.templates);
        if let Some(on_cursor) = &component.on_cursor {
            templates.extend(
                on_cursor
                    .bind
                    .iter()
                    .filter_map(|bind| bind.template.as_ref()),
            );
        }
    }
    for screen in config
        .dashboard
        .screens
        .iter()
        .filter(|screen| overlaps(screen.span))
    {
        templates.extend(&screen.title);
        for binding in &screen.actions {
            templates.extend(
                binding
                    .bind
                    .iter()
                    .filter_map(|bind| bind.template.as_ref()),
            );
            templates.extend(&binding.confirm);
        }
    }
    for template in templates {
        prompted(config, template, text, positions, out);
    }
}

/// The hints of a document inside `within`.
pub(crate) fn hints(analyzed: &Analyzed, positions: Positions<'_>, within: Span) -> Vec<InlayHint> {
    let analysis = &analyzed.analysis;
    if !analysis.has_sources {
        return Vec::new();
    }
    let mut out = Vec::new();
    for source in &analysis.config.entries {
        // Read without moving an entry an edit above it moved: only the entries shown are.
        let covered = source.name_span().cover(source.span());
        if covered.end() < within.start() || covered.start() > within.end() {
            continue;
        }
        entry(
            &analysis.config,
            source,
            analyzed.text(),
            positions,
            &mut out,
        );
    }
    dashboard(
        &analysis.config,
        analyzed.text(),
        within,
        positions,
        &mut out,
    );
    let inside = |hint: &InlayHint| {
        let offset = positions.offset(hint.position);
        within.start() <= offset && offset <= within.end()
    };
    out.retain(inside);
    out.sort_by_key(|hint| (hint.position.line, hint.position.character));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_shown_are_the_schemas() {
        let timeout = fields::field(sources_config::Kind::Http, "timeout").expect("a field");
        assert_eq!(timeout.default.as_deref(), Some("10s"));
        let labels = defaults(
            fields::for_section(Section::Window),
            &["page_size", "anchor"],
            |name| name == "anchor",
        );
        assert_eq!(labels, ["page_size: 100"]);
        assert_eq!(line_end("a: 1\r\nb", 0), 4);
        assert_eq!(line_end("a: 1", 2), 4);
    }
}
