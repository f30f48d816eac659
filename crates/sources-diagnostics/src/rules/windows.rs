//! The rules of windows, anchored windows and growing sources.

/// Appends this group's rules to those gathered and hands them all to the next macro of the
/// chain that `declare_rules!` ends.
macro_rules! windows_rules {
    ($next:ident $(, $rest:ident)*; $($gathered:tt)*) => {
        $next! { $($rest),*; $($gathered)*
            /// Finds `window` on a source that is not `http` or `exec`.
            ///
            /// **Why:** windows exist only on `http` and `exec`: only those two kinds can
            /// send offset, limit, filter and sort to whatever produces the rows.
            ///
            /// **Example** (fails: a file cannot be windowed):
            ///
            /// ```yaml lint=window-kind
            /// data:
            ///   sources:
            ///     events:
            ///       type: file
            ///       path: /var/log/events.json
            ///       window: {page_size: 50}
            /// ```
            ///
            /// **Fix:** remove `window`, or read the data through an `http` or `exec` source that can page.
            WindowKind => "window-kind", Error, "`window` on anything but `http` and `exec`.";
            /// Finds `window` or `paginate` on a source whose `format` is not `json`.
            ///
            /// **Why:** both work on `format: json` only: rows, totals, cursors and next-page URLs are read
            /// from the parsed JSON response by dot-paths.
            ///
            /// **Example** (fails):
            ///
            /// ```yaml lint=window-format
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps
            ///       format: text
            ///       paginate: {strategy: link, next_path: next}
            /// ```
            ///
            /// **Fix:** remove `format: text` (the default is `json`), or drop the paging.
            WindowFormat => "window-format", Error, "`window` or `paginate` with a non-`json` format.";
            /// Finds a windowed source bound by a component other than a table or an eventlog (an anchored
            /// source may be bound by either: "a table over an anchored source is a span table"), and an
            /// eventlog over a source that neither has a window nor streams. A growing source bound by
            /// anything but an eventlog is `growing-binding`.
            ///
            /// **Why:** only a table or an event log may show a windowed source: only those components scroll, filter and sort through the server and ask for the rows on screen.
            ///
            /// **Example** (fails: a text view cannot drive a window):
            ///
            /// ```yaml lint=window-binding
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps
            ///       window: {offset_param: offset, limit_param: limit, search_param: q}
            /// tui:
            ///   components:
            ///     summary:
            ///       kind: textview
            ///       source: apps
            /// ```
            ///
            /// **Fix:** bind the source from a table or an eventlog, or give the other component a source without
            /// `window`.
            WindowBinding => "window-binding", Error, "A windowed, anchored or growing source bound by a component that cannot drive it.";
            /// Finds an operator (or a `pipe` stage) that consumes a windowed source.
            ///
            /// **Why:** no operator may read a windowed source: a window holds only the rows
            /// on screen, so a filter, sort or join over it would see one page, not the set.
            ///
            /// **Example** (fails):
            ///
            /// ```yaml lint=window-operator-input
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps
            ///       window: {offset_param: offset, limit_param: limit, search_param: q}
            ///     healthy:
            ///       type: filter
            ///       from: apps
            ///       where: health == "Healthy"
            /// ```
            ///
            /// **Fix:** let the server do the work through the window (filters, `search_param`, `sort_param`), or
            /// read from a source that uses `paginate` or no paging.
            WindowOperatorInput => "window-operator-input", Error, "An operator or pipe consuming a windowed source.";
            /// Finds an `http` window without `offset_param` or without `limit_param`.
            ///
            /// **Why:** an `http` window needs both: without them the request cannot say which rows
            /// are wanted.
            ///
            /// **Example** (fails: no `limit_param`):
            ///
            /// ```yaml lint=window-missing-param
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps
            ///       window: {offset_param: offset, search_param: q}
            /// ```
            ///
            /// **Fix:** name the query parameters the API uses (`limit_param: limit`).
            WindowMissingParam => "window-missing-param", Error, "An `http` window without `offset_param` or `limit_param`.";
            /// Finds a window with no way to send filters to the server: neither `search_param` nor `filters` (an
            /// anchored `http` window also counts `${window.search}` in `body`, `older` or `newer`).
            ///
            /// **Why:** an `http` window needs `search_param` or `filters`: a windowed table
            /// filters on the server, so without a channel the user's filter would do nothing.
            ///
            /// **Example** (fails):
            ///
            /// ```yaml lint=window-no-filter-channel
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps
            ///       window: {offset_param: offset, limit_param: limit}
            /// ```
            ///
            /// **Fix:** add `search_param` (the query parameter for bare terms) or `filters` (column title to
            /// parameter).
            WindowNoFilterChannel => "window-no-filter-channel", Error, "A window with no way to send filters to the server.";
            /// Finds `sorts` or `sort_desc_prefix` on a window without `sort_param`, or a sortable column of a
            /// table bound to a window without `sort_param`.
            ///
            /// **Why:** `sorts`, `sort_desc_prefix` and a sortable column of the bound table all need
            /// `sort_param`: a windowed table sorts on the server, and without the
            /// parameter a sort request cannot be sent.
            ///
            /// **Example** (fails):
            ///
            /// ```yaml lint=window-sort-without-sort-param
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps
            ///       window:
            ///         offset_param: offset
            ///         limit_param: limit
            ///         search_param: q
            ///         sorts: {Name: name}
            /// ```
            ///
            /// **Fix:** add `sort_param: sort` (the API's sort parameter), or remove the sort settings.
            WindowSortWithoutSortParam => "window-sort-without-sort-param", Error, "Sorting configured without `window.sort_param`.";
            /// Finds an `http`-only window field on an `exec` window: `offset_param`, `limit_param`,
            /// `search_param`, `sort_param`, `sorts`, `sort_desc_prefix`, `older`, `newer`.
            ///
            /// **Why:** an `exec` window takes none of the `http` only fields: an exec window passes the request
            /// through `${window.*}` tokens in `command`, not through query parameters, so these fields do nothing.
            ///
            /// **Example** (fails):
            ///
            /// ```yaml lint=window-http-only-field
            /// data:
            ///   sources:
            ///     pods:
            ///       type: exec
            ///       command: [list-pods, "--offset=${window.offset}", "--limit=${window.limit}", "--q=${window.search}"]
            ///       window: {offset_param: offset}
            /// ```
            ///
            /// **Fix:** remove the field and use the matching token in `command`.
            WindowHttpOnlyField => "window-http-only-field", Error, "An `http`-only window field on an `exec` window.";
            /// Finds an `exec` window whose `command` does not reference `${window.offset}`, `${window.limit}` and
            /// at least one filter token (`${window.search}` or `${window.filters.NAME}`); for an anchored exec
            /// window, one that does not reference `${window.cursor}`, `${window.dir}` and `${window.limit}`.
            ///
            /// **Why:** a windowed `command` must use `${window.offset}`, `${window.limit}` and at least one
            /// filter token: without them every request returns the same rows.
            ///
            /// **Example** (fails: no offset, no filter token):
            ///
            /// ```yaml lint=window-missing-token
            /// data:
            ///   sources:
            ///     pods:
            ///       type: exec
            ///       command: [list-pods, "--limit=${window.limit}"]
            ///       window: {page_size: 50}
            /// ```
            ///
            /// **Fix:** pass the missing tokens to the program (`"--offset=${window.offset}"`,
            /// `"--q=${window.search}"`).
            WindowMissingToken => "window-missing-token", Error, "An `exec` window command that does not reference a required window token.";
            /// Finds an entry of an `exec` window's `filters` whose token `${window.filters.NAME}` the command
            /// never uses.
            ///
            /// **Why:** every `filters` entry of an `exec` window must be used by `command`: a scoped `title:value` term on
            /// that column would be accepted and then silently dropped.
            ///
            /// **Example** (fails: `ns` is mapped but not used):
            ///
            /// ```yaml lint=window-unreferenced-filter
            /// data:
            ///   sources:
            ///     pods:
            ///       type: exec
            ///       command: [list-pods, "--offset=${window.offset}", "--limit=${window.limit}", "--q=${window.search}"]
            ///       window:
            ///         filters: {Namespace: ns}
            /// ```
            ///
            /// **Fix:** use the token in `command` (`"--namespace=${window.filters.ns}"`), or remove the entry.
            WindowUnreferencedFilter => "window-unreferenced-filter", Error, "An `exec` window filter whose token the command never uses.";
            /// Finds a `${window.*}` token in `command[0]`, the program itself.
            ///
            /// **Why:** `command[0]` may hold no window token: the first element is the program
            /// looked up in the path, and an element whose tokens resolve empty is dropped, which would shift the
            /// arguments into the program's place.
            ///
            /// **Example** (fails):
            ///
            /// ```yaml lint=window-token-in-program
            /// data:
            ///   sources:
            ///     pods:
            ///       type: exec
            ///       command: ["${window.search}", "--offset=${window.offset}", "--limit=${window.limit}"]
            ///       window: {}
            /// ```
            ///
            /// **Fix:** put the program first and the tokens in later arguments.
            WindowTokenInProgram => "window-token-in-program", Error, "A window token in `command[0]`, the program itself.";
            /// Finds a negative `window.page_size`, `window.prefetch` or `paginate.max_pages`.
            ///
            /// **Why:** `page_size` and `prefetch` cannot be negative; a negative count of rows or pages has
            /// no meaning (`max_pages` 0 means the default, 20).
            ///
            /// **Example** (fails):
            ///
            /// ```yaml lint=window-negative
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps
            ///       window: {offset_param: offset, limit_param: limit, search_param: q, page_size: -50}
            /// ```
            ///
            /// **Fix:** use a positive number, or remove the field for the default.
            WindowNegative => "window-negative", Error, "A negative `page_size`, `prefetch` or `max_pages`.";
            /// Finds an anchored `http` window (one with `cursor`) without both `older` and `newer`.
            ///
            /// **Why:** an anchored `http` window needs both `older` and `newer`: they say how a request
            /// changes to walk from the edge item towards older or newer items.
            ///
            /// **Example** (fails: no `newer`):
            ///
            /// ```yaml lint=anchored-needs-older-newer
            /// data:
            ///   sources:
            ///     logs:
            ///       type: http
            ///       url: https://api.example.com/logs/_search
            ///       method: POST
            ///       body: '{"query": {"match": {"message": "${window.search}"}}}'
            ///       window:
            ///         cursor: sort
            ///         older: {search_after: "${window.cursor}"}
            /// ```
            ///
            /// **Fix:** add the missing map (`newer: {search_after: "${window.cursor}", order: asc}`).
            AnchoredNeedsOlderNewer => "anchored-needs-older-newer", Error, "An anchored `http` window without both `older` and `newer`.";
            /// Finds a field that does not apply to an anchored window — `offset_param`, `total_path`,
            /// `sort_param`, `sorts`, `sort_desc_prefix` or `prefetch` together with `cursor` — as well as
            /// `anchor`, `older` or `newer` without `cursor`, an eventlog's `start` on an anchored source,
            /// and a sortable column of a table over an anchored source.
            ///
            /// **Why:** an anchored window walks from an edge item, so offsets, a total and a user sort mean
            /// nothing; where it opens is `anchor`, not the event log's `start`; and `anchor` needs `cursor`.
            ///
            /// **Example** (fails: an offset on an anchored window):
            ///
            /// ```yaml lint=anchored-field
            /// data:
            ///   sources:
            ///     logs:
            ///       type: http
            ///       url: https://api.example.com/logs
            ///       window:
            ///         cursor: id
            ///         search_param: q
            ///         offset_param: offset
            ///         older: {before: "${window.cursor}"}
            ///         newer: {after: "${window.cursor}"}
            /// ```
            ///
            /// **Fix:** remove the field; to open at the oldest item write `anchor: oldest` on the window.
            AnchoredField => "anchored-field", Error, "A field that does not apply to an anchored window, or anchoring fields without `cursor`.";
            /// Finds a source with `window.growing` that is not bound by an eventlog.
            ///
            /// **Why:** `growing` is for sources an event log shows: only an eventlog follows the
            /// newest item while the set still grows.
            ///
            /// **Example** (fails: bound by a table):
            ///
            /// ```yaml lint=growing-binding
            /// data:
            ///   sources:
            ///     events:
            ///       type: http
            ///       url: https://api.example.com/jobs/1/events
            ///       window:
            ///         cursor: id
            ///         search_param: q
            ///         older: {before: "${window.cursor}"}
            ///         newer: {after: "${window.cursor}"}
            ///         growing: true
            /// tui:
            ///   components:
            ///     events_table:
            ///       kind: table
            ///       source: events
            ///       columns: [{title: Id, value: id}]
            /// ```
            ///
            /// **Fix:** bind the source from an eventlog, or remove `growing`.
            GrowingBinding => "growing-binding", Error, "A growing source not bound by an event log.";
            /// Finds a `growing` that cannot work: a map without `source` or `while`, a `while` that does not
            /// compile, a `source` whose required parameter has no default (the condition reads it with no
            /// parameters), `growing: false`, or `follow_every` without `growing`.
            ///
            /// **Why:** a `growing` map needs a `source` and a `while` that compiles, and `follow_every` means
            /// nothing without `growing`. `growing` is either `true` or a map naming the source
            /// whose value decides.
            ///
            /// **Example** (fails: no `while`):
            ///
            /// ```yaml lint=growing-invalid
            /// data:
            ///   sources:
            ///     job:
            ///       type: http
            ///       url: https://api.example.com/jobs/2
            ///       refresh: 2s
            ///     events:
            ///       type: http
            ///       url: https://api.example.com/jobs/2/events
            ///       window:
            ///         cursor: id
            ///         search_param: q
            ///         older: {before: "${window.cursor}"}
            ///         newer: {after: "${window.cursor}"}
            ///         growing: {source: job}
            /// ```
            ///
            /// **Fix:** complete the map (`while: status == "running"`), or write `growing: true`.
            GrowingInvalid => "growing-invalid", Error, "A `growing` declaration that cannot work.";
            /// Finds a component field that the window of the source it shows rules out, or needs:
            /// `markable: true` on a table bound to a windowed source, and `sort_debounce` on a table
            /// whose source has no window.
            ///
            /// **Why:** a window holds only the rows on screen, without the identities marks are kept
            /// by, so the dashboard refuses marks over one; `sort_debounce` delays the request a
            /// window sends for a new order, and a table that sorts its own rows has no request to
            /// delay, so the dashboard refuses it there.
            ///
            /// **Example** (fails: `apps` has no window):
            ///
            /// ```yaml lint=window-component-field
            /// tui:
            ///   components:
            ///     apps:
            ///       type: table
            ///       source: apps
            ///       sort_debounce: 300ms
            ///       columns: [{title: Name, value: name}]
            ///   screen:
            ///     layout: {component: apps}
            /// data:
            ///   sources:
            ///     apps: {type: http, url: https://api.example.com/apps}
            /// ```
            ///
            /// **Fix:** remove the field, or give the source a `window` (for `sort_debounce`) or
            /// bind the marks to a source that returns every row (for `markable`).
            WindowComponentField => "window-component-field", Error, "`markable` on a table over a windowed source, or `sort_debounce` on a table over a source without one.";
        }
    };
}
