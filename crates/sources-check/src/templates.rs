//! Templates: where they are written in an entry ([`sites`]), malformed tokens (`invalid-template`),
//! unknown namespaces (`unknown-namespace`, a warning: the token stays literal), and `${window.*}` tokens where no window resolves them
//! (`window-token-misplaced`), including `${window.filters.NAME}` naming no declared filter, and
//! `url` tokens whose value cannot be percent-encoded (`url-template-unencoded`).

use std::borrow::Cow;
use std::ops::Range;

use sources_config::AnyValue;
use sources_config::model::{Body, Source, Window};
use sources_config::template::{
    NAMESPACES, Template, TemplateErrorKind, TokenKind, UrlPart, WindowToken, is_name,
};

use crate::fixes;
use sources_diagnostics::{Collector, Diagnostic, Rule, Span, did_you_mean};
use sources_syntax::{Node, ScalarStyle, Str, Value};

/// Which field of an entry a template is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// `url` (http, websocket).
    Url,
    /// `method` (http).
    Method,
    /// A `headers` value (http, websocket).
    Header,
    /// `body` (http).
    Body,
    /// `path` (file).
    Path,
    /// One argv element of `command` (exec), by index.
    Command(usize),
    /// An `env` value (exec).
    Env,
    /// One of `initial_messages` (websocket).
    InitialMessage,
    /// A string inside `window.older` or `window.newer` (anchored http).
    OlderNewer,
}

/// One template string of an entry: which field, its decoded text and how it was written.
#[derive(Clone, Debug)]
pub struct TemplateSite<'a> {
    /// The field it belongs to.
    pub kind: SiteKind,
    /// The decoded text.
    pub text: &'a str,
    /// The quoting style it was written in.
    pub style: ScalarStyle,
    /// Where the value is written.
    pub span: Span,
}

impl TemplateSite<'_> {
    /// The file span of `range` inside the decoded text, or the whole value when the written
    /// form cannot be walked (an alias copy, say).
    pub fn span_of(&self, file: &str, range: Range<usize>) -> Span {
        text_span(file, self.text, self.style, self.span, range)
    }
}

/// The file span of `range` inside a string value written at `span` in `style`; the whole value
/// when the written form cannot be walked.
pub(crate) fn text_span(
    file: &str,
    text: &str,
    style: ScalarStyle,
    span: Span,
    range: Range<usize>,
) -> Span {
    let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
    if quoted && span.len() < 2 {
        // A quoted string cut short by a syntax error: there is no written content to walk.
        return span;
    }
    let node = Node::new(
        Value::Str(Str {
            text: text.into(),
            style,
        }),
        span,
    );
    let start = sources_syntax::str_offset(file, &node, range.start);
    let end = sources_syntax::str_offset(file, &node, range.end);
    match (start, end) {
        (Some(start), Some(end)) if start <= end => Span::new(start, end),
        (Some(start), _) => Span::new(start, start),
        _ => span,
    }
}

/// Adds one template string written as a model [`sources_config::Text`] at `span`.
fn push_text<'a>(
    out: &mut Vec<TemplateSite<'a>>,
    kind: SiteKind,
    text: &'a sources_config::Text,
    span: Span,
) {
    out.push(TemplateSite {
        kind,
        text: &text.text,
        style: text.style,
        span,
    });
}

/// Every template string of an entry, in source order of the fields.
pub fn sites(source: &Source) -> Vec<TemplateSite<'_>> {
    let mut out = Vec::new();
    match &source.body {
        Body::Http(http) => {
            for (kind, field) in [(SiteKind::Url, &http.url), (SiteKind::Method, &http.method)] {
                if let Some(field) = field {
                    push_text(&mut out, kind, &field.value, field.value_span);
                }
            }
            if let Some(headers) = &http.headers {
                for header in headers.value.iter() {
                    push_text(
                        &mut out,
                        SiteKind::Header,
                        &header.value.value,
                        header.value.span,
                    );
                }
            }
            if let Some(body) = &http.body {
                push_text(&mut out, SiteKind::Body, &body.value, body.value_span);
            }
            if let Some(window) = &http.window {
                for walk in [&window.value.older, &window.value.newer]
                    .into_iter()
                    .flatten()
                {
                    for item in walk.value.iter() {
                        push_node_strings(&item.value.value, &mut out);
                    }
                }
            }
        }
        Body::Exec(exec) => {
            if let Some(command) = &exec.command {
                for (index, argument) in command.value.iter().enumerate() {
                    push_text(
                        &mut out,
                        SiteKind::Command(index),
                        &argument.value,
                        argument.span,
                    );
                }
            }
            if let Some(env) = &exec.env {
                for variable in env.value.iter() {
                    push_text(
                        &mut out,
                        SiteKind::Env,
                        &variable.value.value,
                        variable.value.span,
                    );
                }
            }
        }
        Body::File(file) => {
            if let Some(path) = &file.path {
                push_text(&mut out, SiteKind::Path, &path.value, path.value_span);
            }
        }
        Body::Websocket(websocket) => {
            if let Some(url) = &websocket.url {
                push_text(&mut out, SiteKind::Url, &url.value, url.value_span);
            }
            if let Some(headers) = &websocket.headers {
                for header in headers.value.iter() {
                    push_text(
                        &mut out,
                        SiteKind::Header,
                        &header.value.value,
                        header.value.span,
                    );
                }
            }
            if let Some(messages) = &websocket.initial_messages {
                for message in &messages.value {
                    push_text(
                        &mut out,
                        SiteKind::InitialMessage,
                        &message.value,
                        message.span,
                    );
                }
            }
        }
        _ => {}
    }
    out
}

/// Every string inside an `older`/`newer` value, however deeply nested.
fn push_node_strings<'a>(value: &'a AnyValue, out: &mut Vec<TemplateSite<'a>>) {
    let mut stack = vec![&value.0];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Str(text) => out.push(TemplateSite {
                kind: SiteKind::OlderNewer,
                text: &text.text,
                style: text.style,
                span: node.span,
            }),
            Value::Seq(items) => stack.extend(items.iter().rev()),
            Value::Map(map) => stack.extend(map.entries.iter().rev().map(|entry| &entry.value)),
            _ => {}
        }
    }
}

/// The field name a site belongs to, for messages.
pub(crate) fn field_name(kind: SiteKind) -> &'static str {
    match kind {
        SiteKind::Url => "url",
        SiteKind::Method => "method",
        SiteKind::Header => "headers",
        SiteKind::Body => "body",
        SiteKind::Path => "path",
        SiteKind::Command(_) => "command",
        SiteKind::Env => "env",
        SiteKind::InitialMessage => "initial_messages",
        SiteKind::OlderNewer => "older/newer",
    }
}

/// The `${window.NAME}` spelling of a window token.
pub(crate) fn window_token_text(token: &WindowToken<'_>) -> String {
    let name = match token {
        WindowToken::Offset => "offset",
        WindowToken::Limit => "limit",
        WindowToken::Search => "search",
        WindowToken::Sort => "sort",
        WindowToken::SortDir => "sort_dir",
        WindowToken::Cursor => "cursor",
        WindowToken::Dir => "dir",
        WindowToken::Filter(name) => return format!("${{window.filters.{name}}}"),
    };
    format!("${{window.{name}}}")
}

/// Why the window token `token` cannot be resolved in a template of `source`'s field `kind`, or
/// `None` when it can (the `window-token-misplaced` rule, for completion to offer only tokens
/// that resolve).
pub fn window_token_misplaced(
    source: &Source,
    kind: SiteKind,
    token: &WindowToken<'_>,
) -> Option<String> {
    misplaced(
        source,
        source.body.window().map(|window| &window.value),
        kind,
        token,
    )
}

/// Why a window token cannot be resolved at a site, or `None` when it can.
fn misplaced(
    source: &Source,
    window: Option<&Window>,
    kind: SiteKind,
    token: &WindowToken<'_>,
) -> Option<String> {
    let Some(window) = window else {
        return Some(format!(
            "`{}` has no window to resolve it: `{}` declares no `window`",
            window_token_text(token),
            source.name.value
        ));
    };
    let anchored = window.is_anchored();
    let exec = matches!(source.body, Body::Exec(_));
    let resolves_here = if exec {
        matches!(kind, SiteKind::Command(_))
    } else {
        anchored && matches!(kind, SiteKind::Body | SiteKind::OlderNewer)
    };
    if !resolves_here {
        let where_ = if exec {
            "only in `command`"
        } else if anchored {
            "only in `body`, `older` and `newer`"
        } else {
            "nowhere: a non-anchored http window sets query parameters (`offset_param`, \
             `limit_param`, …) instead"
        };
        return Some(format!(
            "`{}` is not resolved in `{}`: on this {} window, window tokens resolve {where_}",
            window_token_text(token),
            field_name(kind),
            if exec { "exec" } else { "http" },
        ));
    }
    match token {
        WindowToken::Cursor | WindowToken::Dir if !anchored => Some(format!(
            "`{}` is only set on an anchored window: add `window.cursor` or remove the token",
            window_token_text(token)
        )),
        WindowToken::Offset | WindowToken::Sort | WindowToken::SortDir if anchored => {
            Some(format!(
                "`{}` is never set on an anchored window: it has no offsets and no user sort",
                window_token_text(token)
            ))
        }
        _ => None,
    }
}

/// The token names `window.filters` maps columns to.
pub(crate) fn filter_names(window: &Window) -> Vec<&str> {
    window
        .filters
        .as_ref()
        .map(|filters| {
            filters
                .value
                .iter()
                .map(|item| item.value.value.as_str())
                .collect()
        })
        .unwrap_or_default()
}

/// The `unknown-namespace` warning: a did-you-mean among the namespaces, with a rename fix when one
/// fits.
fn unknown_namespace(
    diagnostic: Diagnostic,
    namespace: &str,
    name_span: Span,
    file: &str,
) -> Diagnostic {
    let suggestions = did_you_mean(namespace, NAMESPACES.iter().copied());
    let diagnostic = diagnostic.with_label("unknown namespace");
    match suggestions.as_slice() {
        [best] => {
            let diagnostic = diagnostic.with_help(format!("did you mean `{best}`?"));
            if fixes::written_as(file, name_span, namespace) {
                diagnostic.with_correction(format!("Rename `{namespace}` to `{best}`"), name_span, namespace, best)
            } else {
                diagnostic
            }
        }
        _ => diagnostic.with_help(
            "the namespaces are `params`, `env`, `window` and `selection`; to send the text as written, keep it (it stays literal)",
        ),
    }
}

/// `url-template-unencoded`: parameter and window tokens of a `url` whose value cannot be
/// percent-encoded where they stand.
fn unencoded_url_tokens(
    site: &TemplateSite<'_>,
    template: &Template<'_>,
    file: &str,
    out: &mut Collector,
) {
    for (token, part) in template.tokens().zip(template.url_parts()) {
        if part.is_encodable() || matches!(token.kind, TokenKind::Env(_) | TokenKind::Selection(_))
        {
            continue;
        }
        let written = &site.text[token.range.clone()];
        let place = if part == UrlPart::Unknown {
            "after a token in the scheme or host"
        } else {
            "in the scheme or host"
        };
        out.push(
            Diagnostic::new(
                Rule::UrlTemplateUnencoded,
                site.span_of(file, token.range.clone()),
                format!("`{written}` stands {place} of the `url`: its value cannot be percent-encoded and goes in as written"),
            )
            .with_label("not encoded")
            .with_help("write the scheme and host literally and keep parameters in the path, query or fragment"),
        );
    }
}

/// A template site and its parse.
pub(crate) struct ParsedSite<'a> {
    /// Where the template is written.
    pub(crate) site: TemplateSite<'a>,
    /// The template.
    pub(crate) template: Template<'a>,
}

/// One entry's template sites, each parsed once for every check of that entry that reads its
/// templates (the template rules, `undeclared-param-reference`, and `runnable`, which renders
/// them with placeholders).
pub(crate) struct EntryTemplates<'a> {
    parsed: Vec<ParsedSite<'a>>,
}

impl<'a> EntryTemplates<'a> {
    /// Every template site of `source`, parsed.
    pub(crate) fn of(source: &'a Source) -> EntryTemplates<'a> {
        let parsed = sites(source)
            .into_iter()
            .map(|site| ParsedSite {
                template: Template::parse(site.text),
                site,
            })
            .collect();
        EntryTemplates { parsed }
    }

    /// The sites with their parses, in the order of [`sites`].
    pub(crate) fn sites(&self) -> &[ParsedSite<'a>] {
        &self.parsed
    }

    /// The parse of `text`, a template string of the entry: the one made for its site (the same
    /// bytes of the model, not merely equal text), or made now for a text that is no site.
    pub(crate) fn parse(&self, text: &'a str) -> Cow<'_, Template<'a>> {
        match self
            .parsed
            .iter()
            .find(|parsed| std::ptr::eq(parsed.site.text, text))
        {
            Some(parsed) => Cow::Borrowed(&parsed.template),
            None => Cow::Owned(Template::parse(text)),
        }
    }
}

/// `invalid-template`, `unknown-namespace` and `window-token-misplaced` over the templates of one
/// entry.
pub(crate) fn check_templates(
    source: &Source,
    parsed: &[ParsedSite<'_>],
    file: &str,
    out: &mut Collector,
) {
    let window = source.body.window().map(|field| &field.value);
    for ParsedSite { site, template } in parsed {
        for error in &template.errors {
            let span = site.span_of(file, error.range.clone());
            let mut diagnostic =
                Diagnostic::new(Rule::InvalidTemplate, span, error.message(site.text));
            match &error.kind {
                TemplateErrorKind::UnknownWindowToken(name) => {
                    let known = WindowToken::NAMES
                        .iter()
                        .copied()
                        .filter(|n| *n != "filters");
                    let suggestions = did_you_mean(name, known);
                    diagnostic = diagnostic.with_label("unknown window token");
                    diagnostic = match suggestions.first() {
                            Some(best) => diagnostic.with_help(format!("did you mean `${{window.{best}}}`?")),
                            None => diagnostic.with_help(
                                "window tokens: offset, limit, search, sort, sort_dir, cursor, dir, filters.NAME",
                            ),
                        };
                    if let [best] = suggestions.as_slice() {
                        let name_start = error.range.start + "${window.".len();
                        let name_span = site.span_of(file, name_start..name_start + name.len());
                        if fixes::written_as(file, name_span, name) {
                            diagnostic = diagnostic.with_correction(
                                format!("Rename `{name}` to `{best}`"),
                                name_span,
                                name,
                                best,
                            );
                        }
                    }
                }
                TemplateErrorKind::UnknownNamespace(namespace) => {
                    diagnostic = unknown_namespace(
                        Diagnostic::new(Rule::UnknownNamespace, span, error.message(site.text)),
                        namespace,
                        site.span_of(
                            file,
                            error.range.start + 2..error.range.start + 2 + namespace.len(),
                        ),
                        file,
                    );
                }
                TemplateErrorKind::Unclosed => {
                    diagnostic = diagnostic.with_label("no closing `}`");
                }
                TemplateErrorKind::Malformed => {
                    diagnostic = diagnostic.with_label("malformed token");
                }
            }
            out.push(diagnostic);
        }
        if site.kind == SiteKind::Url {
            unencoded_url_tokens(site, template, file, out);
        }
        for token in template.tokens() {
            let TokenKind::Window(window_token) = &token.kind else {
                continue;
            };
            let span = site.span_of(file, token.range.clone());
            if let Some(message) = misplaced(source, window, site.kind, window_token) {
                out.push(
                    Diagnostic::new(Rule::WindowTokenMisplaced, span, message)
                        .with_label("stays empty here"),
                );
                continue;
            }
            let (WindowToken::Filter(name), Some(window)) = (window_token, window) else {
                continue;
            };
            let declared = filter_names(window);
            if declared.contains(name) {
                continue;
            }
            // Only a filter a template can spell is suggested: a rename to `namespace}` would
            // write `${window.filters.namespace}}`, which still reads `namespace`, and never settle.
            let suggestions = did_you_mean(
                name,
                declared.iter().copied().filter(|filter| is_name(filter)),
            );
            let mut diagnostic = Diagnostic::new(
                Rule::InvalidTemplate,
                span,
                format!(
                    "`{}` names no filter of `window.filters`",
                    window_token_text(window_token)
                ),
            )
            .with_label("unknown filter token");
            match window.filters.as_ref() {
                Some(filters) => {
                    diagnostic =
                        diagnostic.with_secondary(filters.key_span, "filters declared here");
                }
                None => {
                    diagnostic = diagnostic.with_help(format!(
                        "map a column to it in `window.filters` (for example `Region: {name}`)"
                    ));
                }
            }
            if let [best] = suggestions.as_slice() {
                let name_start = token.range.start + "${window.filters.".len();
                let name_span = site.span_of(file, name_start..name_start + name.len());
                diagnostic = diagnostic.with_help(format!("did you mean `{best}`?"));
                if fixes::written_as(file, name_span, name) {
                    diagnostic = diagnostic.with_correction(
                        format!("Rename `{name}` to `{best}`"),
                        name_span,
                        name,
                        best,
                    );
                }
            }
            out.push(diagnostic);
        }
    }
}
