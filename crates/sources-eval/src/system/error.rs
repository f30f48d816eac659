//! What the HTTP, process and websocket sides share in naming a failure: an error's chain of
//! causes on one line, telling a DNS failure from its text, and a refused request.

use sources_check::request;

use crate::io::IoError;

/// An error and its causes on one line, without repeating a cause the message already includes.
pub(super) fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// Whether an error's text (its [`chain`]) says a host name could not be resolved.
pub(super) fn is_dns_failure(text: &str) -> bool {
    let text = text.to_ascii_lowercase();
    text.contains("dns error")
        || text.contains("failed to lookup address")
        || text.contains("name or service not known")
        || text.contains("no address associated")
        || text.contains("temporary failure in name resolution")
}

/// A request the shared constructors refuse: a bad url names the url, anything else the request.
pub(super) fn refused(url: &str, refusal: request::Refusal) -> IoError {
    match refusal {
        request::Refusal::Url(_)
        | request::Refusal::HttpScheme(_)
        | request::Refusal::WebSocketUrl(_) => IoError::Url {
            url: crate::trace::url(url),
            detail: refusal.to_string(),
        },
        other => IoError::Transport(format!("the request cannot be built: {other}")),
    }
}
