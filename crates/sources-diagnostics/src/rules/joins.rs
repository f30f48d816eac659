//! The rules of join lookups.

/// Appends this group's rules to those gathered and hands them all to the next macro of the
/// chain that `declare_rules!` ends.
macro_rules! joins_rules {
    ($next:ident $(, $rest:ident)*; $($gathered:tt)*) => {
        $next! { $($rest),*; $($gathered)*
            /// Finds a join lookup whose `from` is not a leaf source that declares parameters (an operator,
            /// or a leaf without `parameters`), a lookup whose `on` leaves a required parameter of that
            /// source unbound, and an `on` expression that evidently gives a kind of value (a boolean from
            /// a comparison, a number) that the parameter's declared `type` never accepts. An `on`
            /// value that does not read the driver's row (a literal, an expression over the join's
            /// own parameters at their defaults) is evaluated as the lookup evaluates it, and its
            /// text checked as binding checks it.
            ///
            /// **Why:** a lookup is fetched once per driver row with the parameters `on` binds from that row.
            /// An operator cannot be fetched that way, a source without parameters would return the same
            /// thing for every row, an unbound required parameter means the lookup can never run, and a
            /// value its parameter's type refuses is refused for every row.
            ///
            /// **Example** (fails: `app` declares no parameters):
            ///
            /// ```yaml lint=join-lookup,unknown-data-field
            /// data:
            ///   sources:
            ///     apps: {type: http, url: "http://127.0.0.1:8099/apps"}
            ///     app: {type: http, url: "http://127.0.0.1:8099/apps/app-0001"}
            ///     detailed:
            ///       type: join
            ///       driver: {from: apps}
            ///       lookups:
            ///         detail: {from: app, on: {id: id}}
            /// ```
            ///
            /// **Fix:** declare the parameters on the lookup source (`parameters: {id: {required: true}}`,
            /// used as `${params.id}` in its url) and bind every required one in `on`.
            JoinLookup => "join-lookup", Error, "A join lookup that is not a leaf with parameters, or leaves a required parameter unbound.";
        }
    };
}
