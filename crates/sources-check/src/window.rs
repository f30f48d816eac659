//! Windows and their neighbours: `window-kind`, `window-format`, the exclusive delivery fields
//! (`conflicting-fields`: window/paginate/follow/refresh), `window-negative`, the http window's
//! request fields (`window-missing-param`, `window-no-filter-channel`,
//! `window-sort-without-sort-param`) and the exec window's argv (`window-http-only-field`,
//! `window-missing-token`, `window-unreferenced-filter`, `window-token-in-program`).

use sources_config::enums::Format;
use sources_config::model::{
    Body, Exec, Http, LeafFields, Paginate, Source, WINDOW_FIELD_USES, Window,
};
use sources_config::template::{Template, TemplateErrorKind, TokenKind, WindowToken};
use sources_config::{Field, Kind, Spanned};
use sources_diagnostics::{Collector, Diagnostic, Rule, Span, did_you_mean};
use sources_syntax::Key;

use crate::templates::{self, SiteKind, filter_names, window_token_text};

/// A window token found in an exec `command`, with the argv index and its file span.
pub(crate) struct CommandToken<'a> {
    /// Index of the argv element.
    pub index: usize,
    /// The token.
    pub token: WindowToken<'a>,
    /// Where the token is written.
    pub span: Span,
}

/// Every window token of an exec source's `command`, in order.
pub(crate) fn command_tokens<'a>(source: &'a Source, file: &str) -> Vec<CommandToken<'a>> {
    let mut found = Vec::new();
    for site in templates::sites(source) {
        let SiteKind::Command(index) = site.kind else {
            continue;
        };
        for token in Template::parse(site.text).tokens() {
            if let TokenKind::Window(window_token) = &token.kind {
                found.push(CommandToken {
                    index,
                    token: window_token.clone(),
                    span: site.span_of(file, token.range.clone()),
                });
            }
        }
    }
    found
}

/// The tokens that misspelled window tokens of `command` were meant to be (an unknown
/// `${window.ofset}`, or a `${window.filters.NAME}` naming no declared filter, with a single close
/// match): each is reported with its rename, so the token it stands for is not reported missing.
fn misspelled_tokens(source: &Source, declared: &[&str]) -> Vec<String> {
    let mut meant = Vec::new();
    for site in templates::sites(source) {
        if !matches!(site.kind, SiteKind::Command(_)) {
            continue;
        }
        let template = Template::parse(site.text);
        for error in &template.errors {
            if let TemplateErrorKind::UnknownWindowToken(name) = &error.kind {
                let known = WindowToken::NAMES
                    .iter()
                    .copied()
                    .filter(|n| *n != "filters");
                if let [best] = did_you_mean(name, known).as_slice() {
                    meant.push(format!("${{window.{best}}}"));
                }
            }
        }
        for token in template.tokens() {
            if let TokenKind::Window(WindowToken::Filter(name)) = &token.kind {
                if declared.contains(name) {
                    continue;
                }
                if let [best] = did_you_mean(name, declared.iter().copied()).as_slice() {
                    meant.push(format!("${{window.filters.{best}}}"));
                }
            }
        }
    }
    meant
}

/// The span of the key `name` among the keys written in an entry's (or stage's) map.
fn entry_key(keys: &[Key], name: &str) -> Option<Span> {
    keys.iter().find(|key| key.name == name).map(|key| key.span)
}

/// Every window rule, for every entry.
pub(crate) fn check_window(entries: &[Source], file: &str, out: &mut Collector) {
    for source in entries {
        check_stage_windows(source, out);
        match &source.body {
            Body::Http(http) => check_http(source, http, out),
            Body::Exec(exec) => check_exec(source, exec, file, out),
            Body::Unknown => {}
            _ => {
                if let Some(span) = entry_key(&source.keys, "window") {
                    check_window_kind(span, source.kind.as_ref(), source.is_leaf(), out);
                }
                if let Some(leaf) = source.body.leaf() {
                    check_refresh_follow(leaf, websocket_follow(&source.body), out);
                }
            }
        }
    }
}

/// `window-kind` for a `window` key on an entry or stage of a kind that has none.
fn check_window_kind(span: Span, kind: Option<&Spanned<Kind>>, leaf: bool, out: &mut Collector) {
    let Some(kind) = kind.filter(|kind| !matches!(kind.value, Kind::Http | Kind::Exec)) else {
        return;
    };
    out.push(
        Diagnostic::new(
            Rule::WindowKind,
            span,
            format!(
                "`window` on a `{}` {}: only `http` and `exec` sources have windows",
                kind.value,
                if leaf { "source" } else { "operator" }
            ),
        )
        .with_label("not supported here")
        .with_secondary(kind.span, format!("`{}` declared here", kind.value))
        .with_help(if leaf {
            "remove `window`, or fetch the rows with an `http` or `exec` source that pages on the server"
        } else {
            "remove `window`: an operator reads its input whole"
        }),
    );
}

/// `window-kind` for `window` written in a pipe stage.
fn check_stage_windows(source: &Source, out: &mut Collector) {
    let stages = source.body.common().and_then(|common| common.pipe.as_ref());
    for stage in stages.iter().flat_map(|pipe| &pipe.value) {
        if let Some(span) = entry_key(&stage.value.keys, "window") {
            check_window_kind(span, stage.value.kind.as_ref(), false, out);
        }
    }
}

/// A websocket's `follow`, which conflicts with `refresh` like the others.
fn websocket_follow(body: &Body) -> Option<&Field<bool>> {
    match body {
        Body::Websocket(websocket) => websocket.follow.as_ref(),
        _ => None,
    }
}

/// `follow: true` (a field set to true).
fn following(follow: Option<&Field<bool>>) -> Option<&Field<bool>> {
    follow.filter(|field| field.value)
}

/// `refresh` with `follow: true`.
fn check_refresh_follow(leaf: &LeafFields, follow: Option<&Field<bool>>, out: &mut Collector) {
    if let (Some(refresh), Some(follow)) = (&leaf.refresh, following(follow)) {
        out.push(
            Diagnostic::new(
                Rule::ConflictingFields,
                refresh.key_span,
                "`refresh` and `follow: true` exclude each other: a followed source streams",
            )
            .with_label("polls")
            .with_secondary(follow.span(), "streams")
            .with_help("remove `refresh` to stream, or `follow` to poll on that interval"),
        );
    }
}

/// `format: text` with a window or paginate.
fn check_format(leaf: &LeafFields, what: &str, key_span: Span, out: &mut Collector) {
    let Some(format) = &leaf.format else {
        return;
    };
    if format.value == Format::Json {
        return;
    }
    out.push(
        Diagnostic::new(
            Rule::WindowFormat,
            format.value_span,
            format!("`{what}` needs `format: json`, not `{}`", format.value),
        )
        .with_label("not json")
        .with_secondary(key_span, format!("`{what}` declared here"))
        .with_help(format!(
            "a {what} reads rows out of a JSON response: remove `format: {}` or the `{what}`",
            format.value
        )),
    );
}

/// `follow: true` with a `window` or `paginate`.
fn check_follow_with(
    follow: Option<&Field<bool>>,
    what: &str,
    key_span: Span,
    out: &mut Collector,
) {
    if let Some(follow) = following(follow) {
        out.push(
            Diagnostic::new(
                Rule::ConflictingFields,
                follow.key_span,
                format!("`follow: true` and `{what}` exclude each other"),
            )
            .with_label("streams")
            .with_secondary(key_span, format!("`{what}` declared here"))
            .with_help(format!(
                "a followed source streams events as they arrive; a `{what}` fetches rows on request: keep one"
            )),
        );
    }
}

/// A negative integer field.
fn check_negative(field: Option<&Field<i64>>, name: &str, help: &str, out: &mut Collector) {
    if let Some(field) = field.filter(|field| field.value < 0) {
        out.push(
            Diagnostic::new(
                Rule::WindowNegative,
                field.value_span,
                format!("`{name}` is {}: it cannot be negative", field.value),
            )
            .with_label("negative")
            .with_help(help.to_owned()),
        );
    }
}

fn check_paginate(paginate: &Field<Paginate>, out: &mut Collector) {
    check_negative(
        paginate.value.max_pages.as_ref(),
        "max_pages",
        "there is no unlimited value: 0 or unset means 20; write the largest number of pages to walk",
        out,
    );
}

fn check_window_numbers(window: &Window, out: &mut Collector) {
    check_negative(
        window.page_size.as_ref(),
        "page_size",
        "write the number of rows per request (default 100)",
        out,
    );
    check_negative(
        window.prefetch.as_ref(),
        "prefetch",
        "write the number of extra pages beyond the screen (default 0)",
        out,
    );
}

fn check_http(source: &Source, http: &Http, out: &mut Collector) {
    let leaf = &http.leaf;
    check_refresh_follow(leaf, http.follow.as_ref(), out);
    if let Some(paginate) = &http.paginate {
        check_paginate(paginate, out);
        check_format(leaf, "paginate", paginate.key_span, out);
        check_follow_with(http.follow.as_ref(), "paginate", paginate.key_span, out);
    }
    let Some(window) = &http.window else {
        return;
    };
    if let Some(paginate) = &http.paginate {
        let (first, second, second_name, first_name) =
            if paginate.key_span.start() > window.key_span.start() {
                (window.key_span, paginate.key_span, "paginate", "window")
            } else {
                (paginate.key_span, window.key_span, "window", "paginate")
            };
        out.push(
            Diagnostic::new(
                Rule::ConflictingFields,
                second,
                format!("`{second_name}` and `{first_name}` exclude each other"),
            )
            .with_label(format!("conflicts with `{first_name}`"))
            .with_secondary(first, format!("`{first_name}` declared here"))
            .with_help(
                "`paginate` holds every row and the table filters; `window` holds the rows on screen and the server filters: keep one",
            ),
        );
    }
    check_format(leaf, "window", window.key_span, out);
    check_follow_with(http.follow.as_ref(), "window", window.key_span, out);
    check_window_numbers(&window.value, out);
    let w = &window.value;
    if !w.is_anchored() {
        for (field, name, meaning) in [
            (
                &w.offset_param,
                "offset_param",
                "the query parameter for the first row wanted",
            ),
            (
                &w.limit_param,
                "limit_param",
                "the query parameter for the page size",
            ),
        ] {
            if field.is_none() && !w.rejected.iter().any(|r| *r == name || *r == "cursor") {
                out.push(
                    Diagnostic::new(
                        Rule::WindowMissingParam,
                        window.key_span,
                        format!("http window without `{name}`, {meaning}"),
                    )
                    .with_label(format!("no `{name}`"))
                    .with_help(format!(
                        "add `{name}` with the name your API uses (for example `{name}: {}`)",
                        name.trim_end_matches("_param")
                    )),
                );
            }
        }
        let sorting = [
            (w.sorts.as_ref().map(|field| field.key_span), "sorts"),
            (
                w.sort_desc_prefix.as_ref().map(|field| field.key_span),
                "sort_desc_prefix",
            ),
        ];
        for (span, name) in sorting {
            if let (Some(span), None) = (span, &w.sort_param) {
                out.push(
                    Diagnostic::new(
                        Rule::WindowSortWithoutSortParam,
                        span,
                        format!("`{name}` without `sort_param`: the sort is never sent"),
                    )
                    .with_label("needs `sort_param`")
                    .with_help("add `sort_param` with the query parameter your API sorts by (for example `sort_param: sort`)"),
                );
            }
        }
    }
    let has_filters = w
        .filters
        .as_ref()
        .is_some_and(|filters| !filters.value.is_empty());
    let unreadable = ["search_param", "filters", "cursor"]
        .iter()
        .any(|name| w.rejected.contains(name));
    let channel = w.search_param.is_some()
        || has_filters
        || unreadable
        || (w.is_anchored() && search_in_request(source));
    if !channel {
        let mut diagnostic = Diagnostic::new(
            Rule::WindowNoFilterChannel,
            window.key_span,
            "http window with no way to send a filter: neither `search_param` nor `filters`",
        )
        .with_label("the server never sees what the user types");
        diagnostic = if w.is_anchored() {
            diagnostic.with_help(
                "add `search_param` or `filters`, or put `${window.search}` in `body`, `older` or `newer`",
            )
        } else {
            diagnostic.with_help(
                "add `search_param` (the query parameter for bare terms) or `filters` (column title to query parameter)",
            )
        };
        out.push(diagnostic);
    }
}

/// Whether an anchored http request carries `${window.search}` in `body`, `older` or `newer`.
fn search_in_request(source: &Source) -> bool {
    templates::sites(source)
        .iter()
        .filter(|site| matches!(site.kind, SiteKind::Body | SiteKind::OlderNewer))
        .any(|site| {
            Template::parse(site.text)
                .tokens()
                .any(|token| token.kind == TokenKind::Window(WindowToken::Search))
        })
}

/// What an exec window writes instead of an http-only window field.
fn exec_instead(name: &str) -> &'static str {
    match name {
        "offset_param" => "put `${window.offset}` in `command`",
        "limit_param" => "put `${window.limit}` in `command`",
        "search_param" => "put `${window.search}` in `command`",
        "sort_param" => "put `${window.sort}` and `${window.sort_dir}` in `command`",
        "sorts" => "`${window.sort}` receives the column title; map it in the command",
        "sort_desc_prefix" => "use `${window.sort_dir}` (`asc` or `desc`) in `command`",
        "older" | "newer" => {
            "an anchored exec window reads `${window.cursor}` and `${window.dir}` in `command`"
        }
        _ => "write it into `command` as a `${window.*}` token",
    }
}

fn check_exec(source: &Source, exec: &Exec, file: &str, out: &mut Collector) {
    check_refresh_follow(&exec.leaf, exec.follow.as_ref(), out);
    let Some(window) = &exec.window else {
        return;
    };
    check_format(&exec.leaf, "window", window.key_span, out);
    check_follow_with(exec.follow.as_ref(), "window", window.key_span, out);
    check_window_numbers(&window.value, out);
    let w = &window.value;
    for field in WINDOW_FIELD_USES.iter().filter(|field| field.http_only) {
        let (name, instead) = (field.name, exec_instead(field.name));
        if let Some(span) = (field.key_span)(w) {
            out.push(
                Diagnostic::new(
                    Rule::WindowHttpOnlyField,
                    span,
                    format!("`{name}` is an `http` window field; an `exec` window templates its request into `command`"),
                )
                .with_label("http only")
                .with_help(format!("remove `{name}` and {instead}")),
            );
        }
    }
    let Some(command) = &exec.command else {
        return;
    };
    let tokens = command_tokens(source, file);
    let declared = filter_names(w);
    let meant = misspelled_tokens(source, &declared);
    let uses = |wanted: &WindowToken<'_>| {
        tokens.iter().any(|found| &found.token == wanted)
            || meant.contains(&window_token_text(wanted))
    };
    let required: &[(WindowToken<'_>, &str, &str)] = if w.is_anchored() {
        &[
            (
                WindowToken::Cursor,
                "the edge item's cursor",
                "--after=${window.cursor}",
            ),
            (
                WindowToken::Dir,
                "the walk direction (`older` or `newer`)",
                "--dir=${window.dir}",
            ),
            (
                WindowToken::Limit,
                "the page size",
                "--limit=${window.limit}",
            ),
        ]
    } else {
        &[
            (
                WindowToken::Offset,
                "the first row wanted",
                "--offset=${window.offset}",
            ),
            (
                WindowToken::Limit,
                "the page size",
                "--limit=${window.limit}",
            ),
        ]
    };
    for (token, meaning, example) in required {
        if !uses(token) {
            out.push(
                Diagnostic::new(
                    Rule::WindowMissingToken,
                    command.key_span,
                    format!(
                        "`command` never references `{}`, {meaning}{}",
                        window_token_text(token),
                        if w.is_anchored() {
                            " of an anchored window"
                        } else {
                            ""
                        }
                    ),
                )
                .with_label(format!("no `{}`", window_token_text(token)))
                .with_secondary(window.key_span, "windowed here")
                .with_help(format!("add an argument such as `{example}`")),
            );
        }
    }
    let has_filter_token = tokens.iter().any(|found| match &found.token {
        WindowToken::Search => true,
        WindowToken::Filter(name) => declared.contains(name),
        _ => false,
    }) || meant
        .iter()
        .any(|text| text == "${window.search}" || text.starts_with("${window.filters."));
    if !has_filter_token {
        out.push(
            Diagnostic::new(
                Rule::WindowMissingToken,
                command.key_span,
                "`command` references no filter token: neither `${window.search}` nor a `${window.filters.NAME}` of `filters`",
            )
            .with_label("the command never sees what the user types")
            .with_secondary(window.key_span, "windowed here")
            .with_help("add an argument such as `--search=${window.search}`, or map a column in `window.filters` and use its token"),
        );
    }
    if let Some(filters) = &w.filters {
        for item in filters.value.iter() {
            let name = item.value.value.as_str();
            if uses(&WindowToken::Filter(name)) {
                continue;
            }
            out.push(
                Diagnostic::new(
                    Rule::WindowUnreferencedFilter,
                    item.value.span,
                    format!(
                        "filter `{name}` (column `{}`) is never used: `command` has no `${{window.filters.{name}}}`",
                        item.name.value
                    ),
                )
                .with_label("never referenced")
                .with_secondary(command.key_span, "the command that should use it")
                .with_help(format!(
                    "add an argument such as `--{name}=${{window.filters.{name}}}` to `command`, or remove this entry"
                )),
            );
        }
    }
    for found in tokens.iter().filter(|found| found.index == 0) {
        out.push(
            Diagnostic::new(
                Rule::WindowTokenInProgram,
                found.span,
                format!(
                    "`{}` in `command[0]`: the program to run must not come from the window request",
                    window_token_text(&found.token)
                ),
            )
            .with_label("in the program name")
            .with_help("name the program literally and pass window values as later arguments"),
        );
    }
}
