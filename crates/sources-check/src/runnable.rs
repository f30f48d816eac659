//! Values of the right type that can never run: everything `sources try` would otherwise refuse
//! before it sends a request or starts a process. Each value `try` hands to a library (an `http` or
//! websocket url, the method, each header, the argv and added environment of a command, a `file`
//! path, the body of an anchored window) is rendered with placeholders (`placeholders`) and built
//! with the constructor `try` builds it with (`request`): what that constructor refuses is an
//! `invalid-value` error here. Besides: an empty `command`, program or url, `timeout: 0s`, a
//! `static` `root` that is not in its `data`, a window filter mapped to an empty name
//! (`invalid-value`), `root` with `format: text` (`conflicting-fields`).
//!
//! A value that starts with a `${…}` token is judged only when it runs: its text is not known here.

use sources_config::template::{Segment, Template as Parsed};
use sources_config::url_scheme;
use sources_config::{Body, Field, Format, LeafFields, NamedMap, Source, Template, Window};
use sources_diagnostics::{Collector, Diagnostic, Rule};

use crate::placeholders::Placeholders;
use crate::request::{self, Refusal};
use crate::templates::EntryTemplates;

/// Every can-it-run rule, for one entry whose templates `templates` holds parsed.
pub(crate) fn check_runnable(
    source: &Source,
    templates: &EntryTemplates<'_>,
    file: &str,
    out: &mut Collector,
) {
    if let Some(leaf) = source.body.leaf() {
        check_leaf(source, leaf, out);
    }
    check_requests_with(source, templates, file, &Placeholders::of(source), out);
}

/// The rules that build what `source` sends, starts or reads with `request`'s constructors, on
/// its values rendered with `placeholders` (called by `passed`, with the values an entry gets
/// from a reader that passes it no parameters).
pub(crate) fn check_requests(
    source: &Source,
    file: &str,
    placeholders: &Placeholders,
    out: &mut Collector,
) {
    check_requests_with(source, &EntryTemplates::of(source), file, placeholders, out);
}

/// [`check_requests`] with the entry's templates parsed.
fn check_requests_with<'a>(
    source: &'a Source,
    templates: &EntryTemplates<'a>,
    file: &str,
    placeholders: &Placeholders,
    out: &mut Collector,
) {
    match &source.body {
        Body::Exec(exec) => {
            if let Some(command) = &exec.command {
                check_command(command, exec.env.as_ref(), templates, placeholders, out);
            }
            check_window(exec.window.as_deref(), out);
        }
        Body::Http(http) => {
            if let Some(url) = &http.url {
                check_http_url(url, file, templates, placeholders, out);
            }
            if let Some(method) = &http.method {
                check_method(method, templates, placeholders, out);
            }
            check_headers(http.headers.as_ref(), templates, placeholders, out);
            check_window(http.window.as_deref(), out);
            if let (Some(body), Some(window)) = (&http.body, &http.window)
                && window.value.cursor.is_some()
            {
                check_anchored_body(body, templates, placeholders, out);
            }
        }
        Body::Websocket(socket) => {
            if let Some(url) = &socket.url {
                check_websocket_url(url, file, templates, placeholders, out);
            }
            check_headers(socket.headers.as_ref(), templates, placeholders, out);
        }
        Body::File(read) => {
            if let Some(path) = &read.path {
                check_path(path, templates, placeholders, out);
            }
        }
        _ => {}
    }
}

fn check_leaf(source: &Source, leaf: &LeafFields, out: &mut Collector) {
    if let Some(timeout) = &leaf.timeout {
        // A followed websocket ignores `timeout` (`ineffective-field` says so).
        let applies = match &source.body {
            Body::Http(_) | Body::Exec(_) | Body::Merge(_) => true,
            Body::Websocket(socket) => !socket.follow.as_ref().is_some_and(|follow| follow.value),
            _ => false,
        };
        if applies && timeout.value.0.is_zero() {
            out.push(
                Diagnostic::new(
                    Rule::InvalidValue,
                    timeout.value_span,
                    "`timeout: 0s` would end every fetch before it starts",
                )
                .with_label("zero")
                .with_help("leave `timeout` out for the 10s default, or give the longest a fetch may take (`30s`)"),
            );
        }
    }
    if let (Some(root), Some(format)) = (&leaf.root, &leaf.format) {
        if format.value == Format::Text && !root.value.is_empty() {
            out.push(
                Diagnostic::new(
                    Rule::ConflictingFields,
                    root.key_span,
                    "`root` cannot slice a `format: text` value: the text has no keys",
                )
                .with_label("needs JSON")
                .with_secondary(format.value_span, "the value is kept as text here")
                .with_help("remove `root`, or remove `format: text` to parse the value as JSON"),
            );
        }
    }
    if let Body::Static(data) = &source.body {
        check_static_root(data.data.as_ref(), leaf.root.as_deref(), out);
    }
}

/// `invalid-value` for a `static` `root` that does not lead anywhere in `data`.
fn check_static_root(
    data: Option<&Field<sources_config::AnyValue>>,
    root: Option<&Field<String>>,
    out: &mut Collector,
) {
    let (Some(data), Some(root)) = (data, root) else {
        return;
    };
    let value = data.value.to_json();
    if let Err(miss) = sources_config::json_path::lookup(&value, &root.value) {
        out.push(
            Diagnostic::new(
                Rule::InvalidValue,
                root.value_span,
                format!("`root` `{}` is not in this entry's `data`: {}", root.value, miss.0),
            )
            .with_label("not in `data`")
            .with_secondary(data.key_span, "`data` is here")
            .with_help("write the dot-path to the list inside `data` (`items`, `hits.0.rows`), or remove `root`"),
        );
    }
}

/// `invalid-value` for an empty `command`, a literally empty program, or an argument or variable
/// no process can receive (`request::command`).
fn check_command<'a>(
    command: &'a Field<Vec<sources_config::Spanned<Template>>>,
    env: Option<&'a Field<NamedMap<Template>>>,
    templates: &EntryTemplates<'a>,
    placeholders: &Placeholders,
    out: &mut Collector,
) {
    match command.value.first() {
        None => {
            out.push(
                Diagnostic::new(
                    Rule::InvalidValue,
                    command.value_span,
                    "`command` is empty: there is no program to run",
                )
                .with_label("empty")
                .with_help(
                    "give the program and its arguments: `command: [kubectl, get, pods, -o, json]`",
                ),
            );
            return;
        }
        Some(program) if program.value.text.trim().is_empty() => {
            out.push(
                Diagnostic::new(
                    Rule::InvalidValue,
                    program.span,
                    "`command[0]`, the program to run, is empty",
                )
                .with_label("no program")
                .with_help(
                    "write the program's name or path first: `command: [kubectl, get, pods]`",
                ),
            );
            return;
        }
        Some(_) => {}
    }
    // Only a NUL byte is left to refuse, and no placeholder holds one: render every value.
    let render = |text: &'a str| placeholders.render_whole(&templates.parse(text));
    let argv: Vec<String> = command
        .value
        .iter()
        .map(|arg| render(&arg.value.text))
        .collect();
    let variables: Vec<(String, String)> = env
        .iter()
        .flat_map(|env| env.value.iter())
        .map(|item| (item.name.value.clone(), render(&item.value.value.text)))
        .collect();
    let Err(refusal) = request::command(&argv, &variables) else {
        return;
    };
    let program = &command.value[0].value.text;
    if refusal == Refusal::NoProgram && program.contains("${window.") {
        // `window-token-in-program` reports a program taken from the window request.
        return;
    }
    let span = match &refusal {
        Refusal::ArgumentNul(index) => command.value.get(*index).map(|arg| arg.span),
        Refusal::EnvironmentNul(name) => env
            .iter()
            .flat_map(|env| env.value.iter())
            .find(|item| &item.name.value == name)
            .map(|item| item.value.span),
        _ => command.value.first().map(|program| program.span),
    };
    let (label, help) = match refusal {
        Refusal::NoProgram => (
            "renders empty",
            "give the parameter a default that names the program, or write the program itself",
        ),
        _ => (
            "holds a NUL byte",
            "remove the NUL byte (`\\0`, `\\x00`, `\\u0000`) from the value",
        ),
    };
    out.push(
        Diagnostic::new(
            Rule::InvalidValue,
            span.unwrap_or(command.value_span),
            format!("the command cannot be started: {refusal}"),
        )
        .with_label(label)
        .with_help(help),
    );
}

/// `invalid-value` for an `http` url that is empty, relative, not `http(s)://`, or that the url
/// parser refuses once rendered (`request::http_url`).
fn check_http_url<'a>(
    url: &'a Field<Template>,
    file: &str,
    templates: &EntryTemplates<'a>,
    placeholders: &Placeholders,
    out: &mut Collector,
) {
    let text = url.value.as_str();
    let example = "https://api.example.com/items";
    let Some(rendered) = rendered_url(url, example, templates, placeholders, out) else {
        return;
    };
    let Err(refusal) = request::http_url(&rendered) else {
        return;
    };
    if url_scheme::fits(text, url_scheme::HTTP) {
        out.push(refused(
            url,
            format!("`url` cannot be sent: {refusal}"),
            "write an absolute url with a host (`https://api.example.com/items`); a port is at most 65535, and spaces are written `%20`",
        ));
        return;
    }
    let template = templates.parse(text);
    let Some(literal) = literal_start(&template) else {
        return;
    };
    let (message, help) = match literal.find("://") {
        Some(at) => (
            format!(
                "an `http` `url` must start with `http://` or `https://`, found `{}`",
                &literal[..at + 3]
            ),
            if literal.to_ascii_lowercase().starts_with("ws") {
                "a websocket endpoint is read by `type: websocket`; an `http` source fetches `http://` and `https://` urls"
            } else {
                "write `http://` or `https://`; a file on disk is read by `type: file`"
            },
        ),
        None => (
            format!("an `http` `url` must be absolute (`https://host/…`), found `{text}`"),
            "write the scheme and host: `https://api.example.com/items`",
        ),
    };
    let end = literal.find("://").map_or(literal.len(), |at| at + 3);
    let span = crate::templates::text_span(file, text, url.value.style, url.value_span, 0..end);
    out.push(
        Diagnostic::new(Rule::InvalidValue, span, message)
            .with_label("not an http(s) url")
            .with_help(help),
    );
}

/// A url rendered with placeholders; `None` when it is empty (reported here, with `example` as
/// the fix) or can be judged only at run time.
fn rendered_url<'a>(
    url: &'a Field<Template>,
    example: &str,
    templates: &EntryTemplates<'a>,
    placeholders: &Placeholders,
    out: &mut Collector,
) -> Option<String> {
    if url.value.text.trim().is_empty() {
        out.push(
            Diagnostic::new(Rule::InvalidValue, url.value_span, "`url` is empty")
                .with_label("empty")
                .with_help(format!("write the endpoint: `url: {example}`")),
        );
        return None;
    }
    placeholders.render_url(&templates.parse(url.value.as_str()))
}

/// An `invalid-value` error at a whole value that its constructor refuses.
fn refused(field: &Field<Template>, message: String, help: &str) -> Diagnostic {
    Diagnostic::new(Rule::InvalidValue, field.value_span, message)
        .with_label("cannot be sent")
        .with_help(help.to_owned())
}

/// `invalid-value` for a websocket url that is empty, or that the websocket client refuses once
/// rendered (`request::websocket_request`): another scheme, an upper-case one, no host, a space.
fn check_websocket_url<'a>(
    url: &'a Field<Template>,
    file: &str,
    templates: &EntryTemplates<'a>,
    placeholders: &Placeholders,
    out: &mut Collector,
) {
    let text = url.value.as_str();
    let example = "wss://stream.example.com/ticks";
    let Some(rendered) = rendered_url(url, example, templates, placeholders, out) else {
        return;
    };
    let Err(refusal) = request::websocket_request(&rendered, &[]) else {
        return;
    };
    let template = templates.parse(text);
    let scheme_end = literal_start(&template)
        .filter(|_| !url_scheme::fits(text, url_scheme::WEBSOCKET))
        .map(|literal| literal.find("://").map_or(literal.len(), |at| at + 3));
    if let Some(end) = scheme_end {
        let span = crate::templates::text_span(file, text, url.value.style, url.value_span, 0..end);
        out.push(
            Diagnostic::new(
                Rule::InvalidValue,
                span,
                format!(
                    "a websocket `url` must start with `ws://` or `wss://`, found `{}`",
                    &text[..end]
                ),
            )
            .with_label("not a websocket scheme")
            .with_help(
                "write `ws://` (or `wss://` for TLS); an `http` source fetches `http://` urls",
            ),
        );
        return;
    }
    out.push(refused(
        url,
        format!("`url` cannot be opened: {refusal}"),
        "write `ws://` or `wss://` in lower case, then a host: `wss://stream.example.com/ticks`",
    ));
}

/// `invalid-value` for a `method` that is not an HTTP method once rendered (`request::http_method`).
fn check_method<'a>(
    method: &'a Field<Template>,
    templates: &EntryTemplates<'a>,
    placeholders: &Placeholders,
    out: &mut Collector,
) {
    let template = templates.parse(method.value.as_str());
    if placeholders.names_undeclared(&template) {
        // `params` reports it: left as written, the token is no method.
        return;
    }
    let rendered = placeholders.render_whole(&template);
    if let Err(refusal) = request::http_method(Some(&rendered)) {
        out.push(refused(
            method,
            format!("`method` cannot be sent: {refusal}"),
            "write a method such as `GET` or `POST`: letters, without spaces",
        ));
    }
}

/// `invalid-value` at each header name HTTP does not allow, and at each value that holds a line
/// break or another control character once rendered (`request::header`).
fn check_headers<'a>(
    headers: Option<&'a Field<NamedMap<Template>>>,
    templates: &EntryTemplates<'a>,
    placeholders: &Placeholders,
    out: &mut Collector,
) {
    for header in headers.iter().flat_map(|headers| headers.value.iter()) {
        let name = &header.name.value;
        let value = header.value.value.as_str();
        let rendered = placeholders.render_whole(&templates.parse(value));
        match request::header(name, &rendered) {
            Ok(_) => {}
            Err(Refusal::HeaderName(_)) => out.push(
                Diagnostic::new(
                    Rule::InvalidValue,
                    header.name.span,
                    format!("`{name}` is not a valid HTTP header name"),
                )
                .with_label("not a header name")
                .with_help(
                    "a header name is letters, digits and `-` (`X-Api-Key`), without spaces or `:`",
                ),
            ),
            Err(refusal) => out.push(
                Diagnostic::new(
                    Rule::InvalidValue,
                    header.value.span,
                    refusal.to_string(),
                )
                .with_label("not a header value")
                .with_help("write the value on one line, without control characters; a block scalar (`|`) keeps its line breaks, so use a plain or quoted string"),
            ),
        }
    }
}

/// `invalid-value` for a `file` `path` that is empty or holds a NUL byte once rendered
/// (`request::file_path`).
fn check_path<'a>(
    path: &'a Field<Template>,
    templates: &EntryTemplates<'a>,
    placeholders: &Placeholders,
    out: &mut Collector,
) {
    let rendered = placeholders.render_whole(&templates.parse(path.value.as_str()));
    if let Err(refusal) = request::file_path(&rendered) {
        let help = match refusal {
            Refusal::EmptyPath => "write the file to read: `path: /var/log/app/events.json`",
            _ => "remove the NUL byte (`\\0`, `\\x00`, `\\u0000`) from the path",
        };
        out.push(
            Diagnostic::new(
                Rule::InvalidValue,
                path.value_span,
                format!("the file cannot be read: {refusal}"),
            )
            .with_label("not a path")
            .with_help(help),
        );
    }
}

/// `invalid-value` for the `body` of an anchored window that is not a JSON object once rendered
/// for the first request (`request::anchored_body`): `older`/`newer` are merged into it.
fn check_anchored_body<'a>(
    body: &'a Field<Template>,
    templates: &EntryTemplates<'a>,
    placeholders: &Placeholders,
    out: &mut Collector,
) {
    let Some(rendered) = placeholders.render_body(&templates.parse(body.value.as_str())) else {
        return;
    };
    if let Err(refusal) = request::anchored_body(&rendered) {
        out.push(
            Diagnostic::new(Rule::InvalidValue, body.value_span, refusal.to_string())
                .with_label("not a JSON object")
                .with_help("write `body` as a JSON object (`{\"query\": …}`) with each text token inside a JSON string (`\"${window.search}\"`), or remove `body` to send `older`/`newer` as query parameters"),
        );
    }
}

/// `invalid-value` at a window `filters` entry that maps a column to an empty name.
fn check_window(window: Option<&Field<Window>>, out: &mut Collector) {
    let Some(filters) = window.and_then(|window| window.value.filters.as_ref()) else {
        return;
    };
    for filter in filters.value.iter() {
        if filter.value.value.trim().is_empty() {
            out.push(
                Diagnostic::new(
                    Rule::InvalidValue,
                    filter.value.span,
                    format!(
                        "window filter `{}` maps to an empty name: its value would be sent under no name",
                        filter.name.value
                    ),
                )
                .with_label("empty")
                .with_help(format!(
                    "write the query parameter (or `${{window.filter.NAME}}` token) the column `{}` is filtered by",
                    filter.name.value
                )),
            );
        }
    }
}

/// The literal text a url template starts with, if it starts with text rather than a token.
pub(crate) fn literal_start<'t>(template: &Parsed<'t>) -> Option<&'t str> {
    match template.segments.first() {
        Some(Segment::Literal(literal)) => Some(*literal),
        _ => None,
    }
}
