//! The `http` leaf: one request, or its pages, or a window of it (plain or anchored), and how a
//! windowed response is sliced at `root`, which an `exec` window shares.

use super::*;

impl<'c> Engine<'c> {
    pub(super) async fn http(
        &self,
        name: &str,
        http: &'c Http,
        params: &BTreeMap<String, String>,
    ) -> Result<Output<'_>, EvalError> {
        let fail = |cause: Cause| EvalError::new(name, cause);
        let leaf = &http.leaf;
        let scope = Scope::new(params, self.io.as_ref());
        let url = scope.render_url(text(http.url.as_ref()).ok_or_else(|| fail(missing("url")))?);
        let rendered = text(http.method.as_ref()).map(|method| scope.render(method));
        let method = sources_check::request::http_method(rendered.as_deref())
            .map_err(|refusal| {
                fail(Cause::Refused {
                    what: "cannot send the request".to_owned(),
                    refusal,
                })
            })?
            .to_string();
        let mut request = HttpRequest {
            method,
            url,
            headers: headers(http.headers.as_ref(), &scope),
            body: text(http.body.as_ref()).map(|body| scope.render(body)),
        };
        let timeout = timeout_of(leaf);
        if is_true(http.follow.as_ref()) {
            let lines = fetch::http_lines(self.io.as_ref(), self.trace.as_ref(), request, timeout)
                .await
                .map_err(fail)?;
            return Ok(self.events(name, lines, format_of(leaf), leaf));
        }
        let key = params.clone();
        if let Some(value) = self.cache_get(name, leaf, &key) {
            return Ok(Output::Value(value));
        }
        if let Some(paginate) = &http.paginate {
            let paginate = &paginate.value;
            let walk = LinkWalk {
                next_path: string(paginate.next_path.as_ref())
                    .unwrap_or_default()
                    .to_owned(),
                max_pages: paginate.max_pages.as_ref().map_or(0, |max| max.value),
                skip_page_errors: paginate
                    .on_page_error
                    .as_ref()
                    .is_some_and(|on_error| on_error.value == OnError::Skip),
                root: string(leaf.root.as_deref()).map(str::to_owned),
                deadline: paginate::WALK_DEADLINE,
            };
            let value = paginate::walk(
                self.io.as_ref(),
                self.trace.as_ref(),
                request,
                &walk,
                timeout,
            )
            .await
            .map_err(fail)?;
            self.cache_put(name, leaf, key, &value);
            return Ok(Output::Value(value));
        }
        let window = http.window.as_ref().map(|window| {
            let window = &window.value;
            (window, page_size_of(window))
        });
        if let Some((window, page_size)) = window {
            if window.is_anchored() {
                let anchor = anchor_of(window);
                let values = anchored_first(
                    page_size,
                    anchor,
                    &self.window.terms,
                    &pairs(window.filters.as_ref()),
                );
                let scope = scope.with_window(&values);
                let body = text(http.body.as_ref());
                let mut walk = walk_map(window, anchor);
                if let Some(limit_param) = string(window.limit_param.as_ref()) {
                    // Anchored windows 7: the limit is one more than `page_size`, on every request.
                    walk.push((limit_param.to_owned(), Value::from(values.limit)));
                }
                match window::anchored_http(body, &walk, &scope).map_err(fail)? {
                    AnchoredRequest::Body(body) => request.body = Some(body),
                    AnchoredRequest::Query(query) => {
                        request.url = window::set_query(&request.url, &query)
                            .map_err(|error| fail(Cause::Io(error)))?;
                    }
                }
                if !values.filters.is_empty() {
                    // A scoped term on a column `filters` maps is that query parameter on `http`.
                    let scoped: Vec<(String, String)> =
                        values.filters.clone().into_iter().collect();
                    request.url = window::set_query(&request.url, &scoped)
                        .map_err(|error| fail(Cause::Io(error)))?;
                }
                self.trace.note(&format!(
                    "anchored window: first request from the {} end, {} items asked for (page_size {page_size} + 1)",
                    match anchor {
                        AnchorAt::Newest => "newest",
                        AnchorAt::Oldest => "oldest",
                    },
                    values.limit
                ));
            } else {
                let spec = HttpWindow {
                    offset_param: string(window.offset_param.as_ref())
                        .unwrap_or("offset")
                        .to_owned(),
                    limit_param: string(window.limit_param.as_ref())
                        .unwrap_or("limit")
                        .to_owned(),
                    search_param: string(window.search_param.as_ref()).map(str::to_owned),
                    sort_param: string(window.sort_param.as_ref()).map(str::to_owned),
                    sorts: pairs(window.sorts.as_ref()),
                    sort_desc_prefix: string(window.sort_desc_prefix.as_ref()).map(str::to_owned),
                    filters: pairs(window.filters.as_ref()),
                };
                let query = spec.params(&self.first_page(page_size));
                request.url = window::set_query(&request.url, &query)
                    .map_err(|error| fail(Cause::Io(error)))?;
                let asked: Vec<String> = query
                    .iter()
                    .skip(2)
                    .map(|(name, value)| format!("{name}={value}"))
                    .collect();
                self.trace.note(&format!(
                    "window: first page, {page_size} rows from offset 0{}",
                    match asked.is_empty() {
                        true => String::new(),
                        false => format!(" ({})", asked.join(", ")),
                    }
                ));
            }
        }
        let body = fetch::http_body(self.io.as_ref(), self.trace.as_ref(), request, timeout)
            .await
            .map_err(fail)?;
        let raw = decode::decode(&body, format_of(leaf), "response").map_err(fail)?;
        let value = self
            .windowed_result(name, raw, leaf, window)
            .map_err(fail)?;
        if let Some((window, _)) = window {
            self.explain_growing(name, window).await;
        }
        self.cache_put(name, leaf, key, &value);
        Ok(Output::Value(value))
    }

    /// Slices a raw response at `root`; for a window, reports the total and (anchored) cuts the
    /// extra item.
    pub(super) fn windowed_result(
        &self,
        name: &str,
        raw: Value,
        leaf: &LeafFields,
        window: Option<(&Window, u64)>,
    ) -> Result<Value, Cause> {
        let Some((window, page_size)) = window else {
            return self.root(raw, leaf);
        };
        if let Some(total_path) = string(window.total_path.as_ref()) {
            match crate::path::lookup(&raw, total_path) {
                Ok(total) => self.trace.note(&format!(
                    "window `{name}`: total {total} (at `{total_path}`)"
                )),
                Err(miss) => {
                    return Err(Cause::MissingPath {
                        field: "total_path",
                        path: total_path.to_owned(),
                        detail: miss.0,
                    });
                }
            }
        }
        let items = self.root(raw, leaf)?;
        if !window.is_anchored() {
            return Ok(items);
        }
        let Value::Array(items) = items else {
            return Err(Cause::NotAList {
                whose: "the anchored window's response".to_owned(),
                found: crate::path::kind(&items),
            });
        };
        let page = anchored_page(items, page_size);
        let cursor_path = string(window.cursor.as_ref()).unwrap_or_default();
        let edge = match page.items.last() {
            Some(last) => match crate::path::lookup(last, cursor_path) {
                Ok(cursor) => cursor.to_string(),
                Err(miss) => {
                    return Err(Cause::MissingPath {
                        field: "cursor",
                        path: cursor_path.to_owned(),
                        detail: miss.0,
                    });
                }
            },
            None => "none (no items)".to_owned(),
        };
        self.trace.note(&format!(
            "anchored window `{name}`: {} items; {} beyond this page; edge cursor {edge}",
            page.items.len(),
            if page.has_more { "more" } else { "nothing" },
        ));
        Ok(Value::Array(page.items))
    }
}

/// The mapping an anchored window walks away from its anchor with: `older` from the newest end,
/// `newer` from the oldest.
fn walk_map(window: &Window, anchor: AnchorAt) -> Vec<(String, Value)> {
    let map = match anchor {
        AnchorAt::Newest => window.older.as_ref(),
        AnchorAt::Oldest => window.newer.as_ref(),
    };
    map.map(|map| {
        map.value
            .iter()
            .map(|item| (item.name.value.clone(), item.value.value.to_json()))
            .collect()
    })
    .unwrap_or_default()
}
