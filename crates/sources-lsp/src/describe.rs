//! Markdown descriptions of entries, parameters and boot prompts, shared by hover, completion and
//! inlay hints.

use sources_config::{Body, Config, Enumeration, Parameter, Source};

/// How the entry delivers over time (its cadence), or what an operator reads.
pub(crate) fn cadence(source: &Source, text: &str) -> String {
    let written = |span: sources_syntax::Span| text.get(span.range()).unwrap_or("").to_owned();
    let follows = match &source.body {
        Body::Websocket(_) => return "streamed: one event per frame".to_owned(),
        Body::Http(http) => http.follow.as_ref().is_some_and(|follow| follow.value),
        Body::Exec(exec) => exec.follow.as_ref().is_some_and(|follow| follow.value),
        _ => false,
    };
    if follows {
        return "streamed (`follow: true`)".to_owned();
    }
    if let Some(refresh) = source.body.leaf().and_then(|leaf| leaf.refresh.as_ref()) {
        return format!("polled every `{}`", written(refresh.value_span));
    }
    if source.is_leaf() {
        return "one-shot: fetched once, and again on a manual refresh".to_owned();
    }
    let inputs: Vec<String> = source
        .references()
        .into_iter()
        .map(|reference| format!("`{}`", reference.name.value))
        .collect();
    if inputs.is_empty() {
        "operator".to_owned()
    } else {
        format!("operator over {}", inputs.join(", "))
    }
}

/// One line describing a parameter declaration: type, required or default, description.
pub(crate) fn parameter(name: &str, declaration: &Parameter) -> String {
    let kind = declaration
        .kind
        .as_ref()
        .map_or("string", |kind| kind.value.as_str());
    let mut line = format!("`{name}`: {kind}");
    if declaration
        .required
        .as_ref()
        .is_some_and(|required| required.value)
    {
        line.push_str(", required");
    }
    if let Some(default) = &declaration.default {
        line.push_str(&format!(", default `{}`", default.value));
    }
    if let Some(description) = &declaration.description {
        line.push_str(&format!(" — {}", description.value));
    }
    line
}

/// The entry's kind, cadence and parameters.
pub(crate) fn source(config: &Config, source: &Source, text: &str) -> String {
    let kind = source
        .kind
        .as_ref()
        .map_or("unknown kind", |kind| kind.value.as_str());
    let mut out = format!(
        "**`{}`** — `{kind}`, {}",
        source.name.value,
        cadence(source, text)
    );
    if source
        .body
        .window()
        .is_some_and(|window| window.value.is_anchored())
    {
        out.push_str("; anchored window");
    } else if source.body.window().is_some() {
        out.push_str("; windowed");
    }
    let parameters: Vec<String> = source
        .body
        .common()
        .and_then(|common| common.parameters.as_ref())
        .into_iter()
        .flat_map(|parameters| parameters.value.iter())
        .map(|param| format!("- {}", parameter(&param.name.value, &param.value.value)))
        .collect();
    if !parameters.is_empty() {
        out.push_str("\n\nParameters:\n");
        out.push_str(&parameters.join("\n"));
    }
    let readers = config.components_bound_to(&source.name.value).count();
    if readers > 0 {
        out.push_str(&format!(
            "\n\nBound by {readers} component{}.",
            if readers == 1 { "" } else { "s" }
        ));
    }
    out
}

/// A boot prompt of `app.prompts` by its caption: `the boot prompt "Sort by"` (by its key when it
/// has no `label`).
pub(crate) fn prompt(prompt: &sources_config::Prompt) -> String {
    match &prompt.label {
        Some(label) => format!("the boot prompt \"{}\"", label.value),
        None => format!("the boot prompt `{}`", prompt.key.value),
    }
}
