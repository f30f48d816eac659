//! Values of the right type that can never run: everything `sources try` would otherwise refuse
//! before it sends a request or starts a process. An empty `command` or program, an `http` url that
//! is empty, relative or not `http(s)://`, a header name HTTP does not allow, `timeout: 0s`, a
//! `static` `root` that is not in its `data`, a window filter mapped to an empty name
//! (`invalid-value`), the `body` of an anchored `http` window that is not a JSON object
//! (`invalid-value`), `root` with `format: text` (`conflicting-fields`).
//!
//! A value that starts with a `${…}` token is judged only when it runs: its text is not known here.

use sources_config::template::{Segment, Template as Parsed};
use sources_config::url_scheme;
use sources_config::{Body, Config, Field, Format, LeafFields, NamedMap, Source, Template, Window};
use sources_diagnostics::{Collector, Diagnostic, Rule};

/// Every can-it-run rule, for every entry.
pub(crate) fn check_runnable(config: &Config, file: &str, out: &mut Collector) {
    for source in &config.entries {
        if let Some(leaf) = source.body.leaf() {
            check_leaf(source, leaf, out);
        }
        match &source.body {
            Body::Exec(exec) => {
                if let Some(command) = &exec.command {
                    check_command(command, out);
                }
                check_window(exec.window.as_deref(), out);
            }
            Body::Http(http) => {
                if let Some(url) = &http.url {
                    check_http_url(url, file, out);
                }
                check_header_names(http.headers.as_ref(), out);
                check_window(http.window.as_deref(), out);
                if let (Some(body), Some(window)) = (&http.body, &http.window)
                    && window.value.cursor.is_some()
                {
                    check_anchored_body(body, out);
                }
            }
            Body::Websocket(socket) => {
                if let Some(url) = socket
                    .url
                    .as_ref()
                    .filter(|url| url.value.text.trim().is_empty())
                {
                    out.push(
                        Diagnostic::new(Rule::InvalidValue, url.value_span, "`url` is empty")
                            .with_label("empty")
                            .with_help("write the endpoint: `url: wss://stream.example.com/ticks`"),
                    );
                }
                check_header_names(socket.headers.as_ref(), out);
            }
            _ => {}
        }
    }
}

fn check_leaf(source: &Source, leaf: &LeafFields, out: &mut Collector) {
    if let Some(timeout) = &leaf.timeout {
        let applies = matches!(
            source.body,
            Body::Http(_) | Body::Exec(_) | Body::Websocket(_) | Body::Merge(_)
        );
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

/// `invalid-value` for an empty `command` or a literally empty program.
fn check_command(command: &Field<Vec<sources_config::Spanned<Template>>>, out: &mut Collector) {
    match command.value.first() {
        None => out.push(
            Diagnostic::new(
                Rule::InvalidValue,
                command.value_span,
                "`command` is empty: there is no program to run",
            )
            .with_label("empty")
            .with_help(
                "give the program and its arguments: `command: [kubectl, get, pods, -o, json]`",
            ),
        ),
        Some(program) if program.value.text.trim().is_empty() => out.push(
            Diagnostic::new(
                Rule::InvalidValue,
                program.span,
                "`command[0]`, the program to run, is empty",
            )
            .with_label("no program")
            .with_help("write the program's name or path first: `command: [kubectl, get, pods]`"),
        ),
        Some(_) => {}
    }
}

/// `invalid-value` for an `http` url that is empty, or whose literal start fixes a relative url or
/// a scheme other than `http://`/`https://`.
fn check_http_url(url: &Field<Template>, file: &str, out: &mut Collector) {
    let text = url.value.as_str();
    if text.trim().is_empty() {
        out.push(
            Diagnostic::new(Rule::InvalidValue, url.value_span, "`url` is empty")
                .with_label("empty")
                .with_help("write the endpoint: `url: https://api.example.com/items`"),
        );
        return;
    }
    if url_scheme::fits(text, url_scheme::HTTP) {
        return;
    }
    let template = Parsed::parse(text);
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

/// Whether `name` is an HTTP header name (RFC 9110 `token`).
fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte))
}

/// `invalid-value` at each header name HTTP does not allow.
fn check_header_names(headers: Option<&Field<NamedMap<Template>>>, out: &mut Collector) {
    for header in headers.iter().flat_map(|headers| headers.value.iter()) {
        let name = &header.name.value;
        if is_header_name(name) {
            continue;
        }
        out.push(
            Diagnostic::new(
                Rule::InvalidValue,
                header.name.span,
                format!("`{name}` is not a valid HTTP header name"),
            )
            .with_label("not a header name")
            .with_help(
                "a header name is letters, digits and `-` (`X-Api-Key`), without spaces or `:`",
            ),
        );
    }
}

/// `invalid-value` at a window `filters` entry that maps a column to an empty name.
/// An anchored window merges `older`/`newer` into `body`, so `body` must render to a JSON object:
/// judged in full when it has no `${…}` token, else by its first character only (a token may stand
/// for any JSON).
fn check_anchored_body(body: &Field<Template>, out: &mut Collector) {
    let template = Parsed::parse(body.value.as_str());
    let mut literal = String::new();
    let mut tokens = false;
    for segment in &template.segments {
        match segment {
            Segment::Literal(text) if !tokens => literal.push_str(text),
            _ => tokens = true,
        }
    }
    let not_object = |what: &str| {
        Diagnostic::new(
            Rule::InvalidValue,
            body.value_span,
            format!(
                "an anchored window merges `older`/`newer` into `body`, which must be a JSON object, not {what}"
            ),
        )
        .with_label("not a JSON object")
        .with_help("write `body` as a JSON object (`{\"query\": …}`), or remove it to send `older`/`newer` as query parameters")
    };
    if tokens {
        if let Some(first) = literal.trim_start().chars().next().filter(|c| *c != '{') {
            out.push(not_object(&format!("text that starts with `{first}`")));
        }
        return;
    }
    match serde_json::from_str::<serde_json::Value>(&literal) {
        Ok(serde_json::Value::Object(_)) => {}
        Ok(other) => out.push(not_object(match other {
            serde_json::Value::Array(_) => "an array",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Number(_) => "a number",
            serde_json::Value::Bool(_) => "a boolean",
            _ => "null",
        })),
        Err(error) => out.push(
            Diagnostic::new(
                Rule::InvalidValue,
                body.value_span,
                format!("`body` of an anchored window is not JSON: {error}"),
            )
            .with_label("not JSON")
            .with_help("write `body` as a JSON object (`{\"query\": …}`), or remove it to send `older`/`newer` as query parameters"),
        ),
    }
}

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
