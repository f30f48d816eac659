//! The rules of parameters: supplied, bound and referenced.

/// Appends this group's rules to those gathered and hands them all to the next macro of the
/// chain that `declare_rules!` ends.
macro_rules! params_rules {
    ($next:ident $(, $rest:ident)*; $($gathered:tt)*) => {
        $next! { $($rest),*; $($gathered)*
            /// Finds a parameter supplied to a source that does not declare it: in a component binding, a join
            /// lookup's `on` map, or `sources try --param`.
            ///
            /// **Why:** a value for a name the source does not declare would be silently dropped, so it is an
            /// error.
            ///
            /// **Example** (fails: `app` declares `id`, the join also supplies `name`):
            ///
            /// ```yaml lint=undeclared-param
            /// data:
            ///   sources:
            ///     jobs:
            ///       type: http
            ///       url: https://api.example.com/jobs
            ///     app:
            ///       type: http
            ///       url: https://api.example.com/apps/${params.id}
            ///       parameters:
            ///         id: {required: true}
            ///     enriched:
            ///       type: join
            ///       driver: {from: jobs}
            ///       lookups:
            ///         app:
            ///           from: app
            ///           on: {id: app_id, name: app_name}
            /// ```
            ///
            /// **Fix:** remove the parameter from `on`, or declare it on the source.
            UndeclaredParam => "undeclared-param", Error, "A supplied parameter the source does not declare.";
            /// Finds a required parameter (`required`, no `default`) that nothing can bind. A component
            /// shows an entry on a screen: on a screen shown without a push, only the component's
            /// `on_cursor.bind` can supply it; on a pushed screen, also the `bind` of the action that
            /// pushes it. An operator (or `merge`) that declares no parameters passes what it is given
            /// through to the entries it reads, so their required parameters are its own; one that
            /// declares parameters keeps them for its own expressions and forwards nothing, so a required
            /// parameter of what it reads can never be bound. The message names the binding sites it
            /// looked at. Likewise an optional parameter without a `default` that such a reader (or a join
            /// lookup's `on`, which binds only the names it lists, or a `growing` condition, which reads
            /// its `source` with none) does not supply is empty when read that way: when the entry's url, method, header, command or path cannot be sent with it
            /// empty, the reference is reported, naming the parameter and what refuses it.
            ///
            /// **Why:** "A source that declares a required parameter with no default needs parameters: it
            /// runs only when a caller binds them". The dashboard refuses to fetch it, and `sources try`
            /// would ask for a `--param` it could never pass on.
            ///
            /// **Example** (fails: `open` declares a parameter of its own, so `app` never gets `id`):
            ///
            /// ```yaml lint=unbound-param
            /// data:
            ///   sources:
            ///     app:
            ///       type: http
            ///       url: https://api.example.com/apps/${params.id}/jobs
            ///       parameters:
            ///         id: {required: true}
            ///     open:
            ///       type: filter
            ///       from: app
            ///       where: state == params.state
            ///       parameters:
            ///         state: {default: open}
            /// ```
            ///
            /// **Fix:** for an operator, remove its `parameters` (it then passes `id` through:
            /// `sources try open --param id=7` runs) or give the parameter a `default` where it is
            /// declared; for a lookup, add the parameter to its `on`. For a component, bind it from a driver's focused row
            /// (`on_cursor: {source: apps, bind: {id: "${cursor.Id}"}}`) or in the `bind` of the action
            /// that pushes its screen.
            UnboundParam => "unbound-param", Error, "A required parameter that no binding of the dashboard, join or operator can supply.";
            /// Finds a `${params.X}` template whose `X` the source does not declare under `parameters`.
            ///
            /// **Why:** a `${params.X}` with no declaration is not substituted: the request goes
            /// out with the text `${params.X}` in it, which is almost never meant. It is a warning because the
            /// configuration still runs.
            ///
            /// **Example** (warns: `id` is not declared):
            ///
            /// ```yaml lint=undeclared-param-reference
            /// data:
            ///   sources:
            ///     app:
            ///       type: http
            ///       url: https://api.example.com/apps/${params.id}
            /// ```
            ///
            /// **Fix:** declare the parameter (`parameters: {id: {required: true}}`), or correct the name.
            UndeclaredParamReference => "undeclared-param-reference", Warning, "`${params.X}` where `X` is not declared: it stays literal.";
            /// Finds a parameter an entry declares under `parameters` that none of its templates
            /// (`${params.X}` in its url, headers, body, command, path, …) and none of its expressions
            /// (`params.X` in `where`, `keep`, a lookup's `on`, its pipe stages) reads.
            ///
            /// **Why:** a value bound to it changes nothing the entry fetches or keeps, so a binding
            /// or `--param` that sets it does nothing: most often a template misses it (a forgotten
            /// `${params.X}`, or one written as another template language's placeholder) or it was
            /// left behind when the template changed. It is a warning because the entry still runs.
            ///
            /// **Example** (warns: `region` is declared and never read):
            ///
            /// ```yaml lint=unused-param
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps
            ///       parameters:
            ///         region: {default: eu-west}
            /// ```
            ///
            /// **Fix:** read it where it belongs (`url: https://api.example.com/apps?region=${params.region}`),
            /// or remove it. `--fix` removes it only when that cannot change what the entry does: the
            /// parameter is optional, the entry has no `cache` (keyed on the bound values), and it is not
            /// an operator's last parameter (an operator that declares none passes its callers' parameters
            /// through); a binding that supplies it would then name an undeclared parameter, so `--fix`
            /// leaves it too.
            UnusedParam => "unused-param", Warning, "A declared parameter that no template or expression of its entry reads.";
        }
    };
}
