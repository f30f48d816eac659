//! Fields that have no effect where they stand (`ineffective-field`, warnings): `timeout` on a
//! following websocket, on `file` or on `static`; `cache` on a streamed source.

use sources_config::{Body, Config, Enumeration, Field, LeafFields, Source};
use sources_diagnostics::{Collector, Diagnostic, Rule};

use crate::fixes;

/// Every ineffective-field rule, for one entry.
pub(crate) fn check_ineffective(config: &Config, source: &Source, file: &str, out: &mut Collector) {
    let Some(leaf) = source.body.leaf() else {
        return;
    };
    match &source.body {
        Body::Websocket(websocket) => {
            if let (Some(timeout), Some(follow)) = (
                &leaf.timeout,
                websocket.follow.as_ref().filter(|follow| follow.value),
            ) {
                out.push(
                    removable(
                        Diagnostic::new(
                            Rule::IneffectiveField,
                            timeout.key_span,
                            "`timeout` has no effect on a websocket with `follow: true`: it bounds only the initial connect, which a followed socket waits for",
                        )
                        .with_label("ignored")
                        .with_secondary(follow.span(), "follows here"),
                        "timeout",
                        timeout,
                        file,
                    ),
                );
            }
        }
        Body::File(_) | Body::Static(_) => {
            if let Some(timeout) = &leaf.timeout {
                let kind = source.kind.as_ref().map_or("", |kind| kind.value.as_str());
                out.push(removable(
                    Diagnostic::new(
                        Rule::IneffectiveField,
                        timeout.key_span,
                        format!("`timeout` has no effect on a `{kind}` source: it applies to `http`, `exec` and `websocket` fetches"),
                    )
                    .with_label("ignored"),
                    "timeout",
                    timeout,
                    file,
                ));
            }
        }
        _ => {}
    }
    check_streamed_cache(config, source, leaf, file, out);
}

/// Adds the safe removal of `field` and a help line to an ineffective-field diagnostic.
fn removable<T>(diagnostic: Diagnostic, name: &str, field: &Field<T>, file: &str) -> Diagnostic {
    let diagnostic = diagnostic.with_help(format!("remove `{name}`"));
    match fixes::remove_field(file, field.key_span, field.value_span) {
        Some(edit) => {
            diagnostic.with_replacement(format!("Remove `{name}`"), edit.span, edit.replacement)
        }
        None => diagnostic,
    }
}

/// How a source streams, when it does (the shared cadence decides whether it does).
fn streams(config: &Config, source: &Source) -> Option<&'static str> {
    if !sources_config::cadence::streams(config, source) {
        return None;
    }
    Some(match &source.body {
        Body::Websocket(_) => "a websocket streams",
        Body::Http(_) | Body::Exec(_) => "`follow: true` streams",
        _ => "every child streams",
    })
}

fn check_streamed_cache(
    config: &Config,
    source: &Source,
    leaf: &LeafFields,
    file: &str,
    out: &mut Collector,
) {
    // Whether it streams is asked only of an entry with a cache: working out a cadence walks the
    // entries it reads.
    let Some(cache) = &leaf.cache else {
        return;
    };
    let Some(why) = streams(config, source) else {
        return;
    };
    out.push(removable(
        Diagnostic::new(
            Rule::IneffectiveField,
            cache.key_span,
            format!("`cache` has no effect on a streamed source ({why}): streamed events pass through uncached"),
        )
        .with_label("ignored"),
        "cache",
        cache,
        file,
    ));
}
