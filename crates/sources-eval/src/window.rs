//! Window requests: the query parameters of an `http` window, the `${window.*}` values of an
//! `exec` window, and the anchored request (`older`/`newer` merged into a JSON body or set as
//! query parameters, `${window.limit}` one more than the page size).
//!
//! The command-line evaluator asks for the first page ([`WindowQuery::first_page`]); the functions
//! take any offset, terms and sort so the same code serves every request.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::Cause;
use crate::io::IoError;
use crate::substitute::{AnchoredValues, Scope, WindowValues};

/// `window.page_size` when unset.
pub const DEFAULT_PAGE_SIZE: u64 = 100;

/// One term of what the user typed into a table's filter box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// A bare word.
    Bare(String),
    /// `title:value`, scoped to a column.
    Scoped {
        /// The column title as typed.
        column: String,
        /// The value.
        value: String,
    },
}

/// Parses a filter-box query: whitespace-separated terms, `title:value` scoped.
pub fn parse_terms(query: &str) -> Vec<Term> {
    query
        .split_whitespace()
        .map(|word| match word.split_once(':') {
            Some((column, value)) if !column.is_empty() && !value.is_empty() => Term::Scoped {
                column: column.to_owned(),
                value: value.to_owned(),
            },
            _ => Term::Bare(word.to_owned()),
        })
        .collect()
}

/// The rows a window request asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WindowQuery {
    /// The first row wanted.
    pub offset: u64,
    /// How many rows.
    pub limit: u64,
    /// The filter-box terms.
    pub terms: Vec<Term>,
    /// The sort column title and whether it is descending.
    pub sort: Option<(String, bool)>,
}

impl WindowQuery {
    /// The first page: offset 0, `page_size` rows, no filter, no sort.
    pub fn first_page(page_size: u64) -> WindowQuery {
        WindowQuery {
            offset: 0,
            limit: page_size,
            ..WindowQuery::default()
        }
    }
}

/// Splits terms into bare words and mapped scoped values: a scoped term on a column that
/// `filters` does not map counts as a bare term. Column titles match case-insensitively.
fn split_terms(
    terms: &[Term],
    filters: &[(String, String)],
) -> (Vec<String>, BTreeMap<String, String>) {
    let mut bare = Vec::new();
    let mut scoped = BTreeMap::new();
    for term in terms {
        match term {
            Term::Bare(word) => bare.push(word.clone()),
            Term::Scoped { column, value } => {
                match filters
                    .iter()
                    .find(|(title, _)| title.eq_ignore_ascii_case(column))
                {
                    Some((_, target)) => {
                        scoped.insert(target.clone(), value.clone());
                    }
                    None => bare.push(format!("{column}:{value}")),
                }
            }
        }
    }
    (bare, scoped)
}

/// The query-parameter side of an `http` window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpWindow {
    /// `offset_param`.
    pub offset_param: String,
    /// `limit_param`.
    pub limit_param: String,
    /// `search_param`.
    pub search_param: Option<String>,
    /// `sort_param`.
    pub sort_param: Option<String>,
    /// `sorts`: column title → API sort field.
    pub sorts: Vec<(String, String)>,
    /// `sort_desc_prefix`.
    pub sort_desc_prefix: Option<String>,
    /// `filters`: column title → query parameter.
    pub filters: Vec<(String, String)>,
}

impl HttpWindow {
    /// The query parameters this window sets for `query`, in a stable order.
    pub fn params(&self, query: &WindowQuery) -> Vec<(String, String)> {
        let mut out = vec![
            (self.offset_param.clone(), query.offset.to_string()),
            (self.limit_param.clone(), query.limit.to_string()),
        ];
        let (bare, scoped) = split_terms(&query.terms, &self.filters);
        if let (Some(param), false) = (&self.search_param, bare.is_empty()) {
            out.push((param.clone(), bare.join(" ")));
        }
        out.extend(scoped);
        if let (Some(param), Some((column, descending))) = (&self.sort_param, &query.sort) {
            let field = self
                .sorts
                .iter()
                .find(|(title, _)| title.eq_ignore_ascii_case(column))
                .map_or(column.as_str(), |(_, field)| field.as_str());
            let prefix = match (descending, &self.sort_desc_prefix) {
                (true, Some(prefix)) => prefix.as_str(),
                _ => "",
            };
            out.push((param.clone(), format!("{prefix}{field}")));
        }
        out
    }
}

/// Sets query parameters on `url`: parameters already there are kept, except those `params`
/// sets, which are overwritten.
pub fn set_query(url: &str, params: &[(String, String)]) -> Result<String, IoError> {
    let mut parsed = url::Url::parse(url).map_err(|error| IoError::Url {
        url: url.to_owned(),
        detail: error.to_string(),
    })?;
    let kept: Vec<(String, String)> = parsed
        .query_pairs()
        .filter(|(name, _)| !params.iter().any(|(set, _)| set == name))
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    {
        let mut pairs = parsed.query_pairs_mut();
        pairs.clear();
        pairs.extend_pairs(kept);
        pairs.extend_pairs(params);
    }
    if parsed.query() == Some("") {
        parsed.set_query(None);
    }
    Ok(parsed.to_string())
}

/// The `${window.*}` values of an `exec` window for `query` (`filters` maps column titles to
/// token names). Anchored windows add the cursor and direction.
pub fn exec_values(
    query: &WindowQuery,
    filters: &[(String, String)],
    anchored: Option<AnchoredValues>,
) -> WindowValues {
    let (bare, scoped) = split_terms(&query.terms, filters);
    let (sort, sort_dir) = match &query.sort {
        Some((column, descending)) => (
            column.clone(),
            if *descending { "desc" } else { "asc" }.to_owned(),
        ),
        None => (String::new(), String::new()),
    };
    WindowValues {
        offset: query.offset,
        limit: query.limit,
        search: bare.join(" "),
        filters: scoped,
        sort,
        sort_dir,
        anchored,
    }
}

/// Where an anchored window opens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnchorAt {
    /// At the newest item, walking older.
    #[default]
    Newest,
    /// At the oldest item, walking newer.
    Oldest,
}

impl AnchorAt {
    /// The direction of the first walk: `older` from the newest end, `newer` from the oldest.
    pub fn first_dir(self) -> &'static str {
        match self {
            AnchorAt::Newest => "older",
            AnchorAt::Oldest => "newer",
        }
    }
}

/// The values of an anchored window's first request: `limit` is `page_size + 1`, the cursor is
/// empty and the direction walks away from the anchor; `terms` fill `${window.search}` and the
/// `${window.filters.NAME}` that `filters` maps.
pub fn anchored_first(
    page_size: u64,
    anchor: AnchorAt,
    terms: &[Term],
    filters: &[(String, String)],
) -> WindowValues {
    let (bare, scoped) = split_terms(terms, filters);
    WindowValues {
        limit: page_size + 1,
        search: bare.join(" "),
        filters: scoped,
        anchored: Some(AnchoredValues {
            cursor: None,
            dir: anchor.first_dir(),
        }),
        ..WindowValues::default()
    }
}

/// The exact text of a value that takes the cursor as JSON.
const CURSOR_TOKEN: &str = "${window.cursor}";
/// The exact text of a value that takes the limit as a number.
const LIMIT_TOKEN: &str = "${window.limit}";

/// Renders an `older`/`newer` value: a string that is exactly `${window.cursor}` takes the
/// cursor's JSON value (`None`: left out, as on the first request); exactly `${window.limit}` is
/// a number; other strings are templates; lists and maps are rendered inside.
pub fn render_walk_value(value: &Value, scope: &Scope<'_>) -> Option<Value> {
    let window = scope.window;
    match value {
        Value::String(text) if text == CURSOR_TOKEN => window
            .and_then(|window| window.anchored.as_ref())
            .and_then(|anchored| anchored.cursor.clone()),
        Value::String(text) if text == LIMIT_TOKEN => {
            window.map(|window| Value::from(window.limit))
        }
        Value::String(text) => Some(Value::String(scope.render(text))),
        Value::Array(items) => Some(Value::Array(
            items
                .iter()
                .filter_map(|item| render_walk_value(item, scope))
                .collect(),
        )),
        Value::Object(fields) => Some(Value::Object(
            fields
                .iter()
                .filter_map(|(key, value)| Some((key.clone(), render_walk_value(value, scope)?)))
                .collect(),
        )),
        other => Some(other.clone()),
    }
}

/// What an anchored `http` request changes, after rendering.
#[derive(Clone, Debug, PartialEq)]
pub enum AnchoredRequest {
    /// The request body: the rendered `body` with the walk map merged into it.
    Body(String),
    /// Query parameters to set (no body).
    Query(Vec<(String, String)>),
}

/// Builds an anchored `http` request's body or query from `body` (a template, rendered with JSON
/// escaping) and the walk map (`older` or `newer`).
pub fn anchored_http(
    body: Option<&str>,
    walk: &[(String, Value)],
    scope: &Scope<'_>,
) -> Result<AnchoredRequest, Cause> {
    let rendered: Vec<(String, Value)> = walk
        .iter()
        .filter_map(|(key, value)| Some((key.clone(), render_walk_value(value, scope)?)))
        .collect();
    match body {
        Some(body) => {
            let text = scope.render_body(body);
            let mut object =
                sources_check::request::anchored_body(&text).map_err(|refusal| Cause::Refused {
                    what: "cannot build the first request".to_owned(),
                    refusal,
                })?;
            object.extend(rendered);
            Ok(AnchoredRequest::Body(Value::Object(object).to_string()))
        }
        None => Ok(AnchoredRequest::Query(
            rendered
                .into_iter()
                .map(|(key, value)| {
                    let text = match value {
                        Value::String(text) => text,
                        other => other.to_string(),
                    };
                    (key, text)
                })
                .collect(),
        )),
    }
}

/// The outcome of an anchored page: the items kept, and whether the extra item came back.
#[derive(Clone, Debug, PartialEq)]
pub struct AnchoredPage {
    /// At most `page_size` items, as the server ordered them.
    pub items: Vec<Value>,
    /// Whether the walk's direction has more items.
    pub has_more: bool,
}

/// Cuts an anchored answer to `page_size`; the extra item says whether there is more.
pub fn anchored_page(mut items: Vec<Value>, page_size: u64) -> AnchoredPage {
    let page_size = usize::try_from(page_size).unwrap_or(usize::MAX);
    let has_more = items.len() > page_size;
    items.truncate(page_size);
    AnchoredPage { items, has_more }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::FakeIo;
    use serde_json::json;

    fn apps_window() -> HttpWindow {
        HttpWindow {
            offset_param: "offset".into(),
            limit_param: "limit".into(),
            search_param: Some("q".into()),
            sort_param: Some("sort".into()),
            sorts: vec![("Name".into(), "name".into())],
            sort_desc_prefix: Some("-".into()),
            filters: vec![("Region".into(), "region".into())],
        }
    }

    #[test]
    fn first_page_sets_offset_and_limit_only() {
        let params = apps_window().params(&WindowQuery::first_page(50));
        assert_eq!(
            params,
            [
                ("offset".to_owned(), "0".to_owned()),
                ("limit".to_owned(), "50".to_owned())
            ]
        );
    }

    #[test]
    fn terms_sorts_and_unmapped_columns() {
        let query = WindowQuery {
            offset: 100,
            limit: 50,
            terms: parse_terms("pay region:eu health:Degraded"),
            sort: Some(("name".into(), true)),
        };
        let params = apps_window().params(&query);
        assert_eq!(
            params,
            [
                ("offset".to_owned(), "100".to_owned()),
                ("limit".to_owned(), "50".to_owned()),
                ("q".to_owned(), "pay health:Degraded".to_owned()),
                ("region".to_owned(), "eu".to_owned()),
                ("sort".to_owned(), "-name".to_owned()),
            ]
        );
        let unlisted = WindowQuery {
            sort: Some(("Health".into(), false)),
            ..WindowQuery::first_page(10)
        };
        assert!(
            apps_window()
                .params(&unlisted)
                .contains(&("sort".to_owned(), "Health".to_owned()))
        );
    }

    #[test]
    fn existing_query_parameters_are_kept_and_window_ones_overwrite() {
        let url = set_query(
            "http://127.0.0.1:8099/apps?latency=50ms&limit=5&offset=9",
            &[
                ("offset".into(), "0".into()),
                ("limit".into(), "100".into()),
            ],
        )
        .expect("valid");
        assert_eq!(
            url,
            "http://127.0.0.1:8099/apps?latency=50ms&offset=0&limit=100"
        );
        assert_eq!(
            set_query("not a url", &[])
                .expect_err("not a URL")
                .to_string(),
            "invalid URL `not a url`: relative URL without a base"
        );
        assert_eq!(set_query("http://x/a", &[]).expect("valid"), "http://x/a");
    }

    #[test]
    fn exec_values_map_filters_to_tokens() {
        let query = WindowQuery {
            terms: parse_terms("api level:ERROR"),
            sort: Some(("Time".into(), false)),
            ..WindowQuery::first_page(25)
        };
        let values = exec_values(&query, &[("Level".into(), "lvl".into())], None);
        assert_eq!(values.search, "api");
        assert_eq!(values.filters["lvl"], "ERROR");
        assert_eq!(
            (values.sort.as_str(), values.sort_dir.as_str()),
            ("Time", "asc")
        );
        assert_eq!(values.limit, 25);
    }

    fn search_walk() -> Vec<(String, Value)> {
        vec![
            (
                "sort".into(),
                json!([{"@timestamp": "desc"}, {"_shard_doc": "desc"}]),
            ),
            ("search_after".into(), json!("${window.cursor}")),
        ]
    }

    #[test]
    fn anchored_first_body_leaves_the_cursor_out_and_asks_for_one_more() {
        let io = FakeIo::new();
        let params = BTreeMap::new();
        let terms = parse_terms("level \"x\" Host:web-1");
        let filters = [("host".to_owned(), "host_name".to_owned())];
        let values = anchored_first(25, AnchorAt::Newest, &terms, &filters);
        assert_eq!(values.limit, 26);
        assert_eq!(
            values.filters,
            BTreeMap::from([("host_name".to_owned(), "web-1".to_owned())])
        );
        let scope = Scope::new(&params, &io).with_window(&values);
        let request = anchored_http(
            Some(r#"{"size": ${window.limit}, "query": {"query_string": {"query": "${window.search}"}}}"#),
            &search_walk(),
            &scope,
        )
        .expect("builds");
        let AnchoredRequest::Body(body) = request else {
            panic!("expected a body");
        };
        let body: Value = serde_json::from_str(&body).expect("json");
        assert_eq!(
            body,
            json!({
                "size": 26,
                "query": {"query_string": {"query": "level \"x\""}},
                "sort": [{"@timestamp": "desc"}, {"_shard_doc": "desc"}]
            })
        );
    }

    #[test]
    fn a_later_request_takes_the_cursor_as_json_and_a_bodyless_one_uses_the_query() {
        let io = FakeIo::new();
        let params = BTreeMap::new();
        let values = WindowValues {
            limit: 26,
            anchored: Some(AnchoredValues {
                cursor: Some(json!([1_700_000_000_000_i64, 12])),
                dir: "older",
            }),
            ..WindowValues::default()
        };
        let scope = Scope::new(&params, &io).with_window(&values);
        let AnchoredRequest::Body(body) =
            anchored_http(Some("{}"), &search_walk(), &scope).expect("builds")
        else {
            panic!("expected a body");
        };
        let body: Value = serde_json::from_str(&body).expect("json");
        assert_eq!(body["search_after"], json!([1_700_000_000_000_i64, 12]));
        let walk = vec![
            ("order_by".to_owned(), json!("-counter")),
            ("counter__lt".to_owned(), json!("${window.cursor}")),
            ("page_size".to_owned(), json!("${window.limit}")),
        ];
        let AnchoredRequest::Query(query) = anchored_http(None, &walk, &scope).expect("builds")
        else {
            panic!("expected a query");
        };
        assert_eq!(
            query,
            [
                ("order_by".to_owned(), "-counter".to_owned()),
                ("counter__lt".to_owned(), "[1700000000000,12]".to_owned()),
                ("page_size".to_owned(), "26".to_owned()),
            ]
        );
        let first = anchored_first(25, AnchorAt::Oldest, &[], &[]);
        let scope = Scope::new(&params, &io).with_window(&first);
        let AnchoredRequest::Query(query) = anchored_http(None, &walk, &scope).expect("builds")
        else {
            panic!("expected a query");
        };
        assert_eq!(query.len(), 2, "{query:?}");
    }

    #[test]
    fn a_body_that_is_not_an_object_is_refused() {
        let io = FakeIo::new();
        let params = BTreeMap::new();
        let values = anchored_first(10, AnchorAt::Newest, &[], &[]);
        let scope = Scope::new(&params, &io).with_window(&values);
        let refused = |body: &str| {
            anchored_http(Some(body), &search_walk(), &scope)
                .map(drop)
                .expect_err(body)
                .to_string()
        };
        assert_eq!(
            refused("[1]"),
            "cannot build the first request: an anchored window merges `older`/`newer` into \
             `body`, which must be a JSON object: it is an array"
        );
        assert_eq!(
            refused("{oops"),
            "cannot build the first request: an anchored window merges `older`/`newer` into \
             `body`, which must be a JSON object: it is not JSON (key must be a string at line 1 \
             column 2)"
        );
    }

    #[test]
    fn the_extra_item_says_there_is_more() {
        let page = anchored_page(vec![json!(1), json!(2), json!(3)], 2);
        assert_eq!(page.items, [json!(1), json!(2)]);
        assert!(page.has_more);
        assert!(!anchored_page(vec![json!(1)], 2).has_more);
    }
}
