//! `GET /apps` and `GET /apps/facets`: the query grammar, filters, sorting and paging.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use regex::Regex;
use serde::Serialize;

use crate::error::ApiError;
use crate::params::Params;
use crate::world::App;
use crate::world::view::AppRow;

mod index;

pub use index::ListIndex;

/// Rows per page when `limit` is omitted.
pub const DEFAULT_LIMIT: usize = 100;
/// The largest page; a larger `limit` is clamped to it (as the job events' `page_size` is), and the
/// response says so in a `Warning` header.
pub const MAX_LIMIT: usize = 1_000;

/// A column of the app list: a sort key, a facet field, a per-column filter and a `key:` scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// `id`
    Id,
    /// `name`
    Name,
    /// `region`
    Region,
    /// `sync`
    Sync,
    /// `health`
    Health,
    /// `rev`
    Rev,
    /// `phase`
    Phase,
}

/// Every column, in row order.
pub const COLUMNS: [Column; 7] = [
    Column::Id,
    Column::Name,
    Column::Region,
    Column::Sync,
    Column::Health,
    Column::Rev,
    Column::Phase,
];

/// The accepted column names, for error messages.
pub fn column_names() -> String {
    COLUMNS
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Column {
    /// The column's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Column::Id => "id",
            Column::Name => "name",
            Column::Region => "region",
            Column::Sync => "sync",
            Column::Health => "health",
            Column::Rev => "rev",
            Column::Phase => "phase",
        }
    }

    /// The column called `name` (exactly, lower case).
    pub fn parse(name: &str) -> Option<Column> {
        COLUMNS.into_iter().find(|c| c.name() == name)
    }

    fn text<'a>(self, app: &'a App, rev: &'a mut String) -> &'a str {
        match self {
            Column::Id => &app.id,
            Column::Name => &app.name,
            Column::Region => app.region,
            Column::Sync => app.sync.as_str(),
            Column::Health => app.health.as_str(),
            Column::Phase => app.phase.as_str(),
            Column::Rev => {
                *rev = app.rev.to_string();
                rev
            }
        }
    }

    fn compare(self, a: &App, b: &App) -> Ordering {
        match self {
            Column::Rev => a.rev.cmp(&b.rev),
            _ => self
                .text(a, &mut String::new())
                .cmp(self.text(b, &mut String::new())),
        }
    }
}

/// One filter a row must pass.
#[derive(Clone, Debug)]
enum Filter {
    /// A bare `q` term: case-insensitive substring of id, name or region, searched for in the
    /// app's lower-case `search_text` (a term spanning two fields, holding a newline, is refused
    /// when parsed).
    Bare(Box<memchr::memmem::Finder<'static>>),
    /// A `key:value` `q` term or a per-column parameter (one rule for both): that column equals
    /// the value, ignoring case.
    Column(Column, String),
    /// A `~regex` `q` term over the name.
    Regex(Regex),
}

impl Filter {
    fn matches(&self, app: &App) -> bool {
        let mut scratch = String::new();
        match self {
            Filter::Bare(finder) => finder.find(app.search_text.as_bytes()).is_some(),
            Filter::Regex(regex) => regex.is_match(&app.name),
            Filter::Column(column, value) => {
                column.text(app, &mut scratch).eq_ignore_ascii_case(value)
            }
        }
    }
}

/// Splits `q` into terms at whitespace; double quotes group words (`"checkout api"`,
/// `name:"checkout api"`).
fn split_terms(q: &str) -> Result<Vec<String>, ApiError> {
    let mut terms = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in q.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    terms.push(std::mem::take(&mut current));
                    started = false;
                }
            }
            c => {
                current.push(c);
                started = true;
            }
        }
    }
    if quoted {
        return Err(ApiError::bad_request(format!(
            "parameter q: unclosed double quote in {q:?}"
        )));
    }
    if started {
        terms.push(current);
    }
    Ok(terms)
}

fn parse_term(term: &str) -> Result<Filter, ApiError> {
    if let Some(pattern) = term.strip_prefix('~') {
        return Regex::new(pattern).map(Filter::Regex).map_err(|error| {
            ApiError::bad_request(format!(
                "parameter q: invalid regular expression {pattern:?}: {error}"
            ))
        });
    }
    // `key:value` with a column as key is that column's filter; any other term with a colon
    // (`10:30`, `team:core`) is searched as text like every bare term.
    if let Some((key, value)) = term.split_once(':')
        && let Some(column) = Column::parse(&key.to_lowercase())
    {
        return Ok(Filter::Column(column, value.to_lowercase()));
    }
    if term.contains('\n') {
        return Err(ApiError::bad_request(format!(
            "parameter q: term {term:?} holds a line break"
        )));
    }
    Ok(Filter::Bare(Box::new(
        memchr::memmem::Finder::new(term.to_lowercase().as_bytes()).into_owned(),
    )))
}

/// A parsed `GET /apps` request.
#[derive(Clone, Debug)]
pub struct ListQuery {
    offset: usize,
    limit: usize,
    requested_limit: usize,
    sort: Option<Column>,
    desc: bool,
    filters: Vec<Filter>,
}

/// The `GET /apps` response.
#[derive(Clone, Debug, Serialize)]
pub struct ListPage<'a> {
    /// Rows matching the filters, over all pages.
    pub total: usize,
    /// The requested offset, echoed.
    pub offset: usize,
    /// This page.
    pub rows: Vec<AppRow<'a>>,
}

/// Parses a boolean flag: `1`/`true` or `0`/`false`; anything else is a 400 naming `name`.
pub fn parse_flag(name: &str, value: &str) -> Result<bool, ApiError> {
    match value {
        "1" | "true" => Ok(true),
        "0" | "false" | "" => Ok(false),
        _ => Err(ApiError::bad_request(format!(
            "parameter {name}: expected 1, true, 0 or false, got {value:?}"
        ))),
    }
}

fn parse_count(params: &Params, name: &str) -> Result<Option<usize>, ApiError> {
    params
        .get(name)
        .map(|value| {
            value.parse::<usize>().map_err(|_| {
                ApiError::bad_request(format!(
                    "parameter {name}: expected a non-negative integer, got {value:?}"
                ))
            })
        })
        .transpose()
}

impl ListQuery {
    /// Validates the query parameters of `GET /apps`.
    pub fn parse(params: &Params) -> Result<ListQuery, ApiError> {
        let offset = parse_count(params, "offset")?.unwrap_or(0);
        let requested_limit = parse_count(params, "limit")?.unwrap_or(DEFAULT_LIMIT);
        let limit = requested_limit.min(MAX_LIMIT);
        let mut desc = match params.get("desc") {
            Some(value) => parse_flag("desc", value)?,
            None => false,
        };
        let sort = match params.get("sort") {
            None | Some("") => None,
            Some(name) => {
                let bare = match name.strip_prefix('-') {
                    Some(bare) => {
                        desc = true;
                        bare
                    }
                    None => name,
                };
                Some(Column::parse(bare).ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "parameter sort: unknown field {bare:?}; accepted fields: {}",
                        column_names()
                    ))
                })?)
            }
        };
        let mut filters = Vec::new();
        if let Some(q) = params.get("q") {
            for term in split_terms(q)? {
                filters.push(parse_term(&term)?);
            }
        }
        for column in COLUMNS {
            if let Some(value) = params.get(column.name()) {
                filters.push(Filter::Column(column, value.to_lowercase()));
            }
        }
        Ok(ListQuery {
            offset,
            limit,
            requested_limit,
            sort,
            desc,
            filters,
        })
    }

    /// The `Warning` header value when `limit` was above [`MAX_LIMIT`] and clamped.
    pub fn clamp_warning(&self) -> Option<String> {
        (self.requested_limit > MAX_LIMIT).then(|| {
            format!(
                "299 demo-backend \"limit {} is above the maximum {MAX_LIMIT}: at most {MAX_LIMIT} rows are returned\"",
                self.requested_limit
            )
        })
    }

    /// Runs the query over `apps` (in id order) the plain way: filter every application, sort the
    /// matches, cut the page. The reference [`ListQuery::run_indexed`] is tested against.
    pub fn run<'a>(&self, apps: &'a [App]) -> ListPage<'a> {
        let mut matching: Vec<&App> = apps
            .iter()
            .filter(|app| self.filters.iter().all(|f| f.matches(app)))
            .collect();
        if let Some(column) = self.sort {
            let desc = self.desc;
            matching.sort_by(|a, b| {
                let primary = column.compare(a, b);
                let primary = if desc { primary.reverse() } else { primary };
                primary.then(a.index.cmp(&b.index))
            });
        } else if self.desc {
            matching.reverse();
        }
        let rows = matching
            .iter()
            .skip(self.offset)
            .take(self.limit)
            .map(|app| app.row())
            .collect();
        ListPage {
            total: matching.len(),
            offset: self.offset,
            rows,
        }
    }
}

/// The `GET /apps/facets` response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Facets {
    /// The whole distinct set of the field over all applications, sorted (numerically for rev).
    pub values: Vec<String>,
}

/// Validates `field` and collects its distinct values.
pub fn facets(params: &Params, apps: &[App]) -> Result<Facets, ApiError> {
    let column = parse_facet_field(params)?;
    let values = if column == Column::Rev {
        apps.iter()
            .map(|app| app.rev)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|rev| rev.to_string())
            .collect()
    } else {
        let mut scratch = String::new();
        apps.iter()
            .map(|app| column.text(app, &mut scratch).to_owned())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    Ok(Facets { values })
}

/// The facet column named by `field`.
pub fn parse_facet_field(params: &Params) -> Result<Column, ApiError> {
    let field = params.get("field").ok_or_else(|| {
        ApiError::bad_request(format!(
            "parameter field is required; accepted fields: {}",
            column_names()
        ))
    })?;
    Column::parse(field).ok_or_else(|| {
        ApiError::bad_request(format!(
            "parameter field: unknown field {field:?}; accepted fields: {}",
            column_names()
        ))
    })
}
