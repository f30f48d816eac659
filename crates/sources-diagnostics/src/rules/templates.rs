//! The rules of `${…}` templates: malformed, misplaced, unknown namespaces and tokens that cannot be encoded.

/// Appends this group's rules to those gathered and hands them all to the next macro of the
/// chain that `declare_rules!` ends.
macro_rules! templates_rules {
    ($next:ident $(, $rest:ident)*; $($gathered:tt)*) => {
        $next! { $($rest),*; $($gathered)*
            /// Finds a `${window.*}` token where no window resolves it: outside a windowed exec `command` or an
            /// anchored http `body`, `older` or `newer`, or on a source without `window`.
            ///
            /// Also finds `${window.offset}`, `${window.sort}` and `${window.sort_dir}` on an anchored window.
            ///
            /// **Why:** window tokens are substituted only where a window makes the request; anywhere else the
            /// text stays as written. An anchored window has no offsets and no user sort (the spec's Anchored
            /// 9), so `sources try` renders those three tokens empty rather than inventing `0`. It is a
            /// warning because the configuration still runs.
            ///
            /// **Example** (warns: the source has no window):
            ///
            /// ```yaml lint=window-token-misplaced
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps?offset=${window.offset}
            /// ```
            ///
            /// **Fix:** add a `window` (and use `offset_param` on http), or remove the token.
            WindowTokenMisplaced => "window-token-misplaced", Warning, "A `${window.*}` token where no window resolves it.";
            /// Finds a malformed `${...}` template: unclosed, empty, a name with characters outside
            /// `[A-Za-z0-9_-]`, a namespace without a name (`${params}`), or an unknown `${window.*}` token.
            /// (An unknown namespace is the `unknown-namespace` warning.)
            ///
            /// **Why:** templates are substituted in `url`, `method`, `body`, `headers`, `path`, `command`, `env`
            /// and `initial_messages`; a malformed one is never substituted and goes out as written.
            ///
            /// **Example** (fails: the token is not closed):
            ///
            /// ```yaml lint=invalid-template
            /// data:
            ///   sources:
            ///     app:
            ///       type: http
            ///       url: https://api.example.com/apps/${params.id
            ///       parameters:
            ///         id: {required: true}
            /// ```
            ///
            /// **Fix:** write `${params.NAME}`, `${env.NAME}`, `${selection.COLUMN}` or a `${window.*}` token,
            /// and close every `${`.
            InvalidTemplate => "invalid-template", Error, "A malformed `${...}` template.";
            /// Finds a `${NAMESPACE.NAME}` token whose namespace is none of `params`, `env`, `window` and
            /// `selection`, and suggests the closest (`${parms.id}` → `params`).
            ///
            /// **Why:** such a token is not substituted: it stays in the request as literal text, which is
            /// almost never meant, but can be (a server that takes `${…}` itself). So it is a warning.
            /// `${selection}` and `${selection.COLUMN}` (the focused row of another component, filled in by
            /// the dashboard) are known namespaces.
            ///
            /// **Example** (warns: `parms` is a misspelling of `params`):
            ///
            /// ```yaml lint=unknown-namespace
            /// data:
            ///   sources:
            ///     app:
            ///       type: http
            ///       url: https://api.example.com/apps/${parms.id}
            ///       parameters:
            ///         id: {required: true}
            /// ```
            ///
            /// **Fix:** correct the namespace (`--fix` renames it when one namespace is close).
            UnknownNamespace => "unknown-namespace", Warning, "A `${…}` token in an unknown namespace: it stays literal.";
            /// Finds a `${params.*}` or `${window.*}` token in a `url` where its value cannot be
            /// percent-encoded: in the scheme or host, or after a token there (the whole URL a template).
            ///
            /// **Why:** `try` and the dashboard encode a value for the part of the URL it stands in (path
            /// segment, query value, fragment), so `a&admin=1` stays one query value. Where the token
            /// stands cannot be known, the value goes in as written and can add query parameters or path
            /// segments. It is a warning because a trusted value there still works.
            ///
            /// **Example** (warns: the parameter is the host, and `q` after it is not encoded):
            ///
            /// ```yaml lint=url-template-unencoded
            /// data:
            ///   sources:
            ///     app:
            ///       type: http
            ///       url: https://${params.host}/search?q=${params.q}
            ///       parameters:
            ///         host: {default: api.example.com}
            ///         q: {default: ""}
            /// ```
            ///
            /// **Fix:** write the scheme and host literally (or take them from `${env.NAME}`) and keep
            /// parameters in the path, query or fragment.
            UrlTemplateUnencoded => "url-template-unencoded", Warning, "A `url` token whose value cannot be percent-encoded where it stands.";
            /// Finds a `${…}` token written inside a quoted string of an expression (`where`,
            /// `keep`, `compute`, a join's `on`, …).
            ///
            /// **Why:** expressions are not templates: nothing substitutes `${params.region}` there,
            /// so `region == '${params.region}'` compares every row with that literal text, keeps
            /// none, and `try` shows `[]` without an error. An expression reads a parameter by name.
            ///
            /// **Example** (fails: the filter compares with the text `${params.region}`):
            ///
            /// ```yaml lint=template-in-expression
            /// data:
            ///   sources:
            ///     apps: {type: http, url: https://api.example.com/apps}
            ///     in_region:
            ///       type: filter
            ///       from: apps
            ///       where: "region == '${params.region}'"
            ///       parameters:
            ///         region: {default: eu-west}
            /// ```
            ///
            /// **Fix:** read the parameter without quotes: `where: region == params.region`.
            TemplateInExpression => "template-in-expression", Error, "A `${…}` token inside an expression, where nothing substitutes it.";
            /// Finds a placeholder of another template language over one of the template
            /// namespaces in a templated field: Go's `{{ .params.id }}`, a shell's `$params.id`,
            /// a format string's `{params.id}`.
            ///
            /// **Why:** only `${NAMESPACE.NAME}` is substituted; any other spelling is sent as
            /// written, so the request asks for `/apps/{{ .params.id }}` and fails or finds nothing.
            ///
            /// **Example** (fails: the url uses Go's template syntax):
            ///
            /// ```yaml lint=foreign-placeholder
            /// data:
            ///   sources:
            ///     app:
            ///       type: http
            ///       url: "https://api.example.com/apps/{{ .params.id }}"
            ///       parameters:
            ///         id: {required: true}
            /// ```
            ///
            /// **Fix:** write `${params.id}` (the editor offers the replacement; `--fix` leaves it
            /// to you, as it changes what is sent).
            ForeignPlaceholder => "foreign-placeholder", Error, "A placeholder of another template language, sent as written.";
        }
    };
}
