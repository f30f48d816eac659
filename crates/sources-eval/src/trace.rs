//! What `--verbose` shows: one line per request, cache decision and paging step, with credentials
//! redacted; and the two filters what `sources` shows of a run passes through: [`Redactor`] (the
//! run's secret values) and [`escape_controls`] (control characters a server or a program sent).

use std::sync::{Mutex, PoisonError};

use sources_config::secret::{REDACTED, is_credential, secret_params};

/// Where the engine reports what it does.
pub trait Trace: Send + Sync {
    /// One line of progress.
    fn note(&self, line: &str);

    /// Something a result hides that the user must hear of without `--verbose`: a page skipped, a
    /// child dropped, a walk cut short, a path that matched nothing (a note unless overridden).
    fn warn(&self, line: &str) {
        self.note(line);
    }

    /// A count of work done so far, for a progress display (ignored unless overridden).
    fn progress(&self, _progress: Progress) {}
}

/// Work done so far by a long fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A `paginate` walk: pages fetched and items read.
    Pages {
        /// Pages fetched.
        pages: u64,
        /// Items read.
        items: usize,
    },
}

/// Reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Trace for Silent {
    fn note(&self, _line: &str) {}
}

/// Keeps every line (tests and callers that print later).
#[derive(Debug, Default)]
pub struct Collect(Mutex<Vec<String>>);

impl Collect {
    /// The lines so far.
    pub fn lines(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Collect {
    /// The warnings so far, without their `warning: ` mark, forgetting every line said so far
    /// (for a caller that reports one part of a run at a time).
    pub fn take_warnings(&self) -> Vec<String> {
        let lines = std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner));
        lines
            .iter()
            .filter_map(|line| line.strip_prefix(WARNING))
            .map(str::to_owned)
            .collect()
    }

    /// The warnings so far, without their `warning: ` mark.
    pub fn warnings(&self) -> Vec<String> {
        self.lines()
            .iter()
            .filter_map(|line| line.strip_prefix(WARNING))
            .map(str::to_owned)
            .collect()
    }
}

/// How [`Collect`] marks a warning among its lines.
const WARNING: &str = "warning: ";

impl Trace for Collect {
    fn note(&self, line: &str) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(line.to_owned());
    }

    fn warn(&self, line: &str) {
        self.note(&format!("{WARNING}{line}"));
    }
}

/// Secret values shorter than this many characters are not redacted: hiding a one-letter value
/// would cut every word that holds the letter (`FAIL` would read `F[redacted]IL`) and tell more
/// than it hides.
pub const MIN_SECRET_CHARS: usize = 4;

/// Headers whose values describe the request rather than authorise it: not treated as secrets.
const PLAIN_HEADERS: &[&str] = &["accept", "accept-language", "content-type", "user-agent"];

/// Hides secret values in what is shown: each in every form it can take there — as written,
/// percent-encoded into a URL (`a b&c` → `a%20b%26c`), form-encoded (`a+b%26c`, how a query is
/// written back) and escaped inside a JSON string. [`Redactor::for_run`] collects a run's secrets.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    /// Every form of every secret, longest first, so a secret inside another is not cut.
    forms: Vec<String>,
}

impl Redactor {
    /// The redactor of a run of `config` (whose text is `text`) with the `supplied` parameters:
    /// the values of parameters marked `mask: true` or named like a credential (supplied or
    /// default), of every `${env.NAME}` the text uses (read with `env`), and of every header
    /// written without a template, except content-negotiation ones (`Accept`, `Content-Type`…).
    pub fn for_run(
        config: &sources_config::Config,
        text: &str,
        supplied: &std::collections::BTreeMap<String, String>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Redactor {
        let mut secret_names = Vec::new();
        let mut values = Vec::new();
        for (name, default) in secret_params(config) {
            secret_names.push(name);
            values.extend(default);
        }
        for (name, value) in supplied {
            if secret_names.contains(name) || is_credential(name) {
                values.push(value.clone());
            }
        }
        let template = sources_config::template::Template::parse(text);
        for token in template.tokens() {
            if let sources_config::template::TokenKind::Env(name) = token.kind {
                values.extend(env(name));
            }
        }
        for source in &config.entries {
            let sources_config::model::Body::Http(http) = &source.body else {
                continue;
            };
            for header in http.headers.iter().flat_map(|headers| headers.value.iter()) {
                let value = &header.value.value.text;
                let plain =
                    PLAIN_HEADERS.contains(&header.name.value.to_ascii_lowercase().as_str());
                if !plain && sources_config::template::Template::parse(value).is_literal() {
                    values.push(value.to_string());
                }
            }
        }
        Redactor::new(values)
    }

    /// A redactor for `secrets` (values shorter than [`MIN_SECRET_CHARS`] are ignored).
    pub fn new(secrets: impl IntoIterator<Item = String>) -> Redactor {
        let mut forms = Vec::new();
        for secret in secrets
            .into_iter()
            .filter(|secret| secret.chars().count() >= MIN_SECRET_CHARS)
        {
            forms.push(crate::substitute::encode_url_component(&secret));
            forms.push(url::form_urlencoded::byte_serialize(secret.as_bytes()).collect());
            forms.push(crate::substitute::json_string_inner(&secret));
            forms.push(secret);
        }
        forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
        forms.dedup();
        Redactor { forms }
    }

    /// `text` with every form of every secret replaced by [`REDACTED`].
    pub fn redact(&self, text: &str) -> String {
        self.forms.iter().fold(text.to_owned(), |text, form| {
            text.replace(form.as_str(), REDACTED)
        })
    }

    /// The largest offset at or before `at` where `bytes` may be cut, and its two parts redacted
    /// apart, without cutting a secret in two: outside every form of a secret written in `bytes`,
    /// before any that `bytes` ends in the beginning of (it may go on in what is written next),
    /// and at a character boundary.
    pub fn safe_cut(&self, bytes: &[u8], at: usize) -> usize {
        let mut cut = at.min(bytes.len());
        // Each pass moves the cut to the start of a secret it was inside, so it only goes down.
        'moved: loop {
            for form in &self.forms {
                let form = form.as_bytes();
                let low = cut.saturating_sub(form.len().saturating_sub(1));
                let high = (cut + form.len()).min(bytes.len());
                let inside = bytes[low..high]
                    .windows(form.len())
                    .position(|window| window == form)
                    .map(|offset| low + offset)
                    .filter(|start| *start < cut && cut < start + form.len());
                // A form `bytes` ends in the beginning of.
                let begun = (bytes.len().saturating_sub(form.len().saturating_sub(1))..bytes.len())
                    .find(|start| form.starts_with(&bytes[*start..]))
                    .filter(|start| *start < cut);
                if let Some(start) = inside.or(begun) {
                    cut = start;
                    continue 'moved;
                }
            }
            break;
        }
        while cut > 0 && cut < bytes.len() && bytes[cut] & 0b1100_0000 == 0b1000_0000 {
            cut -= 1;
        }
        cut
    }

    /// `text` as it may be shown: secrets redacted, then control characters escaped
    /// ([`escape_controls`]); what the editor's "▶ try" shows goes through here (the command
    /// line's outputs redact as they write).
    pub fn shown(&self, text: &str) -> String {
        escape_controls(&self.redact(text)).into_owned()
    }
}

/// `text` as it may reach a terminal: control characters (ESC, BEL, backspace, DEL, the C1 range
/// such as the one-byte CSI) are shown escaped, `\x1b` or `\u{9b}`, so that what a server or a
/// program sent cannot move the cursor, clear lines, retitle the window or write the clipboard
/// (OSC 52). Newlines and tabs stay.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !unsafe_char(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Headers as `Name: value` lines for the trace, credential values redacted.
pub fn headers(headers: &[(String, String)]) -> Vec<String> {
    headers
        .iter()
        .map(|(name, value)| {
            if is_credential(name) {
                format!("{name}: {REDACTED}")
            } else {
                format!("{name}: {value}")
            }
        })
        .collect()
}

/// A URL for the trace and for error messages: a password in it and the values of
/// credential-looking query parameters are redacted.
pub fn url(text: &str) -> String {
    let Ok(mut url) = url::Url::parse(text) else {
        return text.to_owned();
    };
    let mut changed = false;
    if url.password().is_some() {
        // Setting a password only fails on URLs that cannot have one, which this one does.
        changed = url.set_password(Some(REDACTED)).is_ok();
    }
    if !url.username().is_empty() {
        changed |= url.set_username(REDACTED).is_ok();
    }
    if url.query().is_some() {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(name, value)| {
                let value = if is_credential(&name) {
                    REDACTED.to_owned()
                } else {
                    value.into_owned()
                };
                (name.into_owned(), value)
            })
            .collect();
        if pairs
            .iter()
            .any(|(name, value)| is_credential(name) && value == REDACTED)
        {
            url.query_pairs_mut().clear().extend_pairs(pairs);
            changed = true;
        }
    }
    if changed {
        // The query serializer percent-encodes the brackets; show the marker as written.
        url.to_string().replace("%5Bredacted%5D", REDACTED)
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_redacted_in_every_form_they_are_shown_in() {
        let redactor = Redactor::new(["a b&c\"d".to_owned(), String::new()]);
        for shown in [
            "token=a b&c\"d",
            "GET http://x/?q=a%20b%26c%22d&n=1",
            "GET http://x/?q=a+b%26c%22d&n=1",
            "body {\"q\":\"a b&c\\\"d\"}",
        ] {
            let redacted = redactor.redact(shown);
            assert!(redacted.contains(REDACTED), "{shown} → {redacted}");
            for part in ["a b", "a%20b", "a+b", "c%22d", "c\\\"d"] {
                assert!(!redacted.contains(part), "{shown} → {redacted}");
            }
        }
        assert_eq!(redactor.redact("nothing secret"), "nothing secret");
    }

    #[test]
    fn short_values_are_not_redacted_and_control_characters_are_escaped() {
        let redactor = Redactor::new(["A".to_owned(), "abc".to_owned(), "abcd".to_owned()]);
        assert_eq!(redactor.redact("FAIL abc abcd"), "FAIL abc [redacted]");
        assert_eq!(
            redactor.shown("x\u{1b}]52;c;aGk=\u{7}y\u{9b}2K\tz\n"),
            "x\\x1b]52;c;aGk=\\x07y\\u{9b}2K\tz\n"
        );
        assert!(matches!(
            escape_controls("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn credential_headers_are_redacted() {
        let lines = headers(&[
            ("Authorization".into(), "Bearer abc".into()),
            ("X-Api-Key".into(), "k".into()),
            ("PRIVATE-TOKEN".into(), "t".into()),
            ("Accept".into(), "application/json".into()),
        ]);
        assert_eq!(
            lines,
            [
                "Authorization: [redacted]",
                "X-Api-Key: [redacted]",
                "PRIVATE-TOKEN: [redacted]",
                "Accept: application/json"
            ]
        );
    }

    #[test]
    fn url_passwords_and_token_parameters_are_redacted() {
        assert_eq!(
            url("https://user:pw@example.test/x?access_token=abc&q=1"),
            "https://[redacted]:[redacted]@example.test/x?access_token=[redacted]&q=1"
        );
        assert_eq!(
            url("https://deploy-bot@example.test/x"),
            "https://[redacted]@example.test/x"
        );
        assert_eq!(
            url("http://127.0.0.1:8099/apps?q=a b"),
            "http://127.0.0.1:8099/apps?q=a b"
        );
        assert_eq!(url("not a url"), "not a url");
    }
}
