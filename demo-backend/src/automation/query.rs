//! Query parameters of the automation endpoints: strict parsing, paging, and the path-only page
//! links that keep every parameter the client sent.

use std::fmt::Write as _;
use std::ops::Range;

use axum::http::StatusCode;
use serde::Serialize;

use crate::error::ApiError;

/// Page size when the request names none.
pub const DEFAULT_PAGE_SIZE: usize = 25;
/// Largest page size; larger requests are clamped, not refused.
pub const MAX_PAGE_SIZE: usize = 200;

/// The per-request controls, read by the layer the whole service shares. The corner accepts them,
/// leaves them to that layer and keeps them out of page links (they apply to one request).
const CONTROL_PARAMS: [&str; 3] = ["latency", "fail", "flaky"];

/// A query string checked against the parameter names one endpoint accepts.
#[derive(Debug)]
pub struct QueryParams {
    /// The accepted parameters in the order the client sent them, controls left out.
    pairs: Vec<(String, String)>,
}

impl QueryParams {
    /// Keeps the pairs, refusing a name the endpoint does not accept or a name given twice.
    pub fn parse(pairs: Vec<(String, String)>, accepted: &[&str]) -> Result<QueryParams, ApiError> {
        let mut kept: Vec<(String, String)> = Vec::with_capacity(pairs.len());
        for (name, value) in pairs {
            if CONTROL_PARAMS.contains(&name.as_str()) {
                continue;
            }
            if !accepted.contains(&name.as_str()) {
                return Err(ApiError::bad_request(format!(
                    "unknown query parameter `{name}`; accepted: {}",
                    accepted.join(", ")
                )));
            }
            if kept.iter().any(|(seen, _)| *seen == name) {
                return Err(ApiError::bad_request(format!(
                    "query parameter `{name}` is given more than once"
                )));
            }
            kept.push((name, value));
        }
        Ok(QueryParams { pairs: kept })
    }

    /// The raw value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(seen, _)| seen == name)
            .map(|(_, value)| value.as_str())
    }

    /// An integer parameter; a malformed value is a 400 naming the parameter.
    pub fn integer(&self, name: &str) -> Result<Option<i64>, ApiError> {
        self.get(name)
            .map(|raw| {
                raw.trim().parse::<i64>().map_err(|_| {
                    ApiError::bad_request(format!(
                        "invalid value for `{name}`: expected an integer, got `{raw}`"
                    ))
                })
            })
            .transpose()
    }

    /// A boolean parameter (`true`/`false`, `1`/`0`, any case); anything else is a 400 naming it.
    pub fn boolean(&self, name: &str) -> Result<Option<bool>, ApiError> {
        self.get(name)
            .map(|raw| match raw.trim().to_ascii_lowercase().as_str() {
                "true" | "1" => Ok(true),
                "false" | "0" => Ok(false),
                _ => Err(ApiError::bad_request(format!(
                    "invalid value for `{name}`: expected true or false, got `{raw}`"
                ))),
            })
            .transpose()
    }

    /// `page` and `page_size`: page 1 and 25 by default, the size clamped at 200.
    pub fn paging(&self) -> Result<PageRequest, ApiError> {
        let page = self.integer("page")?.unwrap_or(1);
        let size = match self.integer("page_size")? {
            None => DEFAULT_PAGE_SIZE,
            Some(size) if size < 1 => {
                return Err(ApiError::bad_request(format!(
                    "invalid value for `page_size`: expected a positive integer, got `{size}`"
                )));
            }
            Some(size) => usize::try_from(size)
                .unwrap_or(usize::MAX)
                .min(MAX_PAGE_SIZE),
        };
        Ok(PageRequest { page, size })
    }

    /// The path-only link to `page`: every parameter the client sent, with `page` replaced (and
    /// left out for page 1, as Django REST framework does).
    fn link(&self, path: &str, page: i64) -> String {
        let mut link = String::from(path);
        let mut separator = '?';
        let others = self.pairs.iter().filter(|(name, _)| name != "page");
        let page_value = page.to_string();
        let page_pair = (page > 1).then_some(("page", page_value.as_str()));
        for (name, value) in others
            .map(|(name, value)| (name.as_str(), value.as_str()))
            .chain(page_pair)
        {
            link.push(separator);
            separator = '&';
            encode_component(&mut link, name);
            link.push('=');
            encode_component(&mut link, value);
        }
        link
    }

    /// The page envelope `{count, next, previous, results}`.
    pub fn page<T: Serialize>(
        &self,
        path: &str,
        paging: &PageRequest,
        count: usize,
        results: Vec<T>,
    ) -> Page<T> {
        let last = paging.page.saturating_mul(paging.size as i64);
        let next = (usize::try_from(last).is_ok_and(|last| last < count))
            .then(|| self.link(path, paging.page + 1));
        let previous = (paging.page > 1).then(|| self.link(path, paging.page - 1));
        Page {
            count,
            next,
            previous,
            results,
        }
    }

    /// The page envelope around results already serialized: the bytes [`QueryParams::page`]
    /// serializes to with those results, without serializing them again.
    pub fn page_json<'r>(
        &self,
        path: &str,
        paging: &PageRequest,
        count: usize,
        results: impl IntoIterator<Item = &'r str>,
    ) -> Result<Vec<u8>, ApiError> {
        let internal = |message: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message);
        let envelope = self.page(path, paging, count, Vec::<()>::new());
        let mut body = serde_json::to_vec(&envelope)
            .map_err(|error| internal(format!("cannot serialize a page: {error}")))?;
        // The envelope ends with `"results":[]}`: the results go between the brackets.
        if !body.ends_with(b"[]}") {
            return Err(internal(
                "a page envelope must end with its results".to_owned(),
            ));
        }
        body.truncate(body.len() - 2);
        for (index, result) in results.into_iter().enumerate() {
            if index > 0 {
                body.push(b',');
            }
            body.extend_from_slice(result.as_bytes());
        }
        body.extend_from_slice(b"]}");
        Ok(body)
    }
}

/// One page of a list: `{count, next, previous, results}`, the links path-only.
#[derive(Debug, Serialize)]
pub struct Page<T> {
    /// How many items match the request in all.
    pub count: usize,
    /// The next page, `null` on the last.
    pub next: Option<String>,
    /// The previous page, `null` on the first.
    pub previous: Option<String>,
    /// This page's items.
    pub results: Vec<T>,
}

/// The page a client asked for.
#[derive(Clone, Copy, Debug)]
pub struct PageRequest {
    /// The page number as given (1-based; out-of-range values are answered with 404).
    pub page: i64,
    /// The page size after the default and the clamp.
    pub size: usize,
}

impl PageRequest {
    /// The positions of this page's items among `count` matches. Page 1 always exists (it may be
    /// empty); any other page must hold at least one item, else 404 `Invalid page.`.
    pub fn window(&self, count: usize) -> Result<Range<usize>, ApiError> {
        let invalid = || ApiError::not_found("Invalid page.");
        let index = usize::try_from(self.page - 1).map_err(|_| invalid())?;
        let start = index.checked_mul(self.size).ok_or_else(invalid)?;
        if start >= count && self.page != 1 {
            return Err(invalid());
        }
        Ok(start.min(count)..start.saturating_add(self.size).min(count))
    }
}

/// Appends `text` percent-encoded, leaving only RFC 3986 unreserved characters as they are.
fn encode_component(out: &mut String, text: &str) {
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(query: &[(&str, &str)]) -> Result<QueryParams, ApiError> {
        let pairs = query
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect();
        QueryParams::parse(pairs, &["page", "page_size", "stdout__icontains", "failed"])
    }

    #[test]
    fn links_keep_every_parameter_replace_the_page_and_encode_values() {
        let params = params(&[
            ("stdout__icontains", "a b&c"),
            ("page", "2"),
            ("latency", "1s"),
            ("page_size", "3"),
        ])
        .expect("accepted");
        let paging = params.paging().expect("paging");
        let page = params.page("/p/", &paging, 10, Vec::<u8>::new());
        let next = "/p/?stdout__icontains=a%20b%26c&page_size=3&page=3";
        assert_eq!(page.next.as_deref(), Some(next));
        let previous = "/p/?stdout__icontains=a%20b%26c&page_size=3";
        assert_eq!(page.previous.as_deref(), Some(previous));
    }

    #[test]
    fn unknown_repeated_and_malformed_parameters_are_refused_by_name() {
        let unknown = params(&[("colour", "red")]).expect_err("unknown");
        assert!(unknown.message.contains("`colour`"), "{}", unknown.message);
        let twice = params(&[("failed", "true"), ("failed", "false")]).expect_err("repeated");
        assert!(twice.message.contains("`failed`"), "{}", twice.message);
        let maybe = params(&[("failed", "maybe")])
            .expect("accepted")
            .boolean("failed")
            .expect_err("malformed");
        assert!(maybe.message.contains("`failed`"), "{}", maybe.message);
        let size = params(&[("page_size", "0")])
            .expect("accepted")
            .paging()
            .expect_err("zero size");
        assert!(size.message.contains("`page_size`"), "{}", size.message);
    }

    #[test]
    fn page_window_clamps_and_refuses_pages_past_the_end() {
        let page = |page, size| PageRequest { page, size };
        assert_eq!(page(1, 25).window(0).expect("first page exists"), 0..0);
        assert_eq!(page(2, 25).window(30).expect("second page"), 25..30);
        assert_eq!(
            page(3, 25).window(50).expect_err("past the end").message,
            "Invalid page."
        );
        assert_eq!(
            page(0, 25).window(50).expect_err("page zero").message,
            "Invalid page."
        );
        assert_eq!(
            page(i64::MAX, 200)
                .window(50)
                .expect_err("huge page")
                .message,
            "Invalid page."
        );
    }

    proptest::proptest! {
        #[test]
        fn any_page_request_is_a_window_inside_the_matches_or_an_error(
            page in "-?[0-9]{0,21}|[a-z]{0,3}",
            size in "-?[0-9]{0,21}|[a-z]{0,3}",
            count in 0_usize..10_000,
        ) {
            let paging = params(&[("page", &page), ("page_size", &size)]).and_then(|params| params.paging());
            if let Ok(paging) = paging {
                proptest::prop_assert!(paging.size >= 1 && paging.size <= MAX_PAGE_SIZE);
                if let Ok(window) = paging.window(count) {
                    proptest::prop_assert!(window.end <= count && window.len() <= paging.size);
                }
            }
        }
    }
}
