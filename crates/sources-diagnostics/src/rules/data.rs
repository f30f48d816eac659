//! The rules of expressions and references into the data: compiling, field names, functions and operand types.

/// Appends this group's rules to those gathered and hands them all to the next macro of the
/// chain that `declare_rules!` ends.
macro_rules! data_rules {
    ($next:ident $(, $rest:ident)*; $($gathered:tt)*) => {
        $next! { $($rest),*; $($gathered)*
            /// Finds a CEL expression that does not compile: a filter's `where`, the values of `keep` and
            /// `compute`, a sort's `by`, a join lookup's `on` values, or `window.growing.while`. Also a
            /// part of one that reads only parameters, is evaluated for every row, and fails whatever
            /// values they have: `params.NAME` where the entry does not declare `NAME` (an operator that
            /// declares none passes its caller's values through to what it reads, but its own expressions
            /// see none of them), or an operation its type cannot take (`params.floor + 1` with `floor` a
            /// `string`). The part is evaluated as the engine evaluates it, with the parameter's default
            /// and values of its type a caller may give; a part under `&&`, `||` or `?:` past the first
            /// operand, or a parameter only a caller sets that some value would satisfy, is left alone.
            ///
            /// **Why:** an expression that does not compile, or such a part, fails on every row at run
            /// time. In an expression the item's fields are top-level names and `params.NAME` holds the
            /// entry's own parameters.
            ///
            /// **Example** (fails: `=` is not a comparison):
            ///
            /// ```yaml lint=expression
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps
            ///     healthy:
            ///       type: filter
            ///       from: apps
            ///       where: health = "Healthy"
            /// ```
            ///
            /// **Fix:** correct the expression at the reported position (`health == "Healthy"`).
            ///
            /// A parameter the entry does not declare fails the same way: declare it under `parameters`,
            /// or correct the name.
            Expression => "expression", Error, "An expression that does not compile, or fails on every row whatever its parameters.";
            /// Finds a reference into an entry's data that names a key the data does not have, or takes a
            /// step the data cannot (a key of a text, number or boolean; a key, not an index, of a list):
            /// a name in an expression (`where`, `keep`, `compute`, `by`, a join's `on`, a growing
            /// window's `while` over its `source`'s value), a table column's `value` (of a list of paths,
            /// when none can lead anywhere), a tree's `label`, `children` or `group_by`, a list's `item`,
            /// `mark_key` and `row_key`, a leaf's `root`, `paginate.next_path`, `window.total_path` and
            /// `window.cursor`.
            /// The values of a window's `sorts` and `filters` are not judged: they are the server's names
            /// (the sort field its API expects, the query parameter or exec token a scoped term goes to),
            /// which neither the format's origin nor our specification ties to a key of the rows; a key of
            /// those maps is a column title, `unknown-column`'s to check.
            ///
            /// **Why:** a missing key is not an error at run time: the expression reads null and filters out
            /// every row, the column shows nothing, and the dashboard gives no hint why. The checker knows
            /// what the data looks like (its *shape*) exactly for `static` data, for the demo backend's
            /// routes and through every operator (`project` writes its `keep` keys, `union` and `merge` put
            /// tags under `meta_key`, a `join` gives `{row, LOOKUP}`), and from a sample recorded by
            /// `sources try NAME --record`. A reference missing an exact shape is an error; missing a
            /// sample's shape it is a warning (the sample may lack rows that have the key). Where nothing
            /// is known nothing is reported. The message lists the keys that are there, and the help gives
            /// the exact path when the key sits one level down (a tag under `_meta`, a driver's field
            /// under a join's `row`); a step the data cannot take says what the data holds there (a
            /// string, a list and its items' keys), also when an operator put it there (a `derive` that
            /// replaces an object with a text).
            ///
            /// **Example** (fails: the tags are under `_meta`, so `cluster` is `_meta.cluster`):
            ///
            /// ```yaml lint=unknown-data-field
            /// data:
            ///   sources:
            ///     prod:
            ///       type: static
            ///       data: [{name: web, state: open}]
            ///     staging:
            ///       type: static
            ///       data: [{name: api, state: closed}]
            ///     all:
            ///       type: union
            ///       sources: [prod, staging]
            ///       tag_field: cluster
            ///     prod_only:
            ///       type: filter
            ///       from: all
            ///       where: cluster == "prod"
            /// ```
            ///
            /// **Fix:** read the key where it is (`_meta.cluster == "prod"`, or `meta_key: ""` on the
            /// union to write tags at the top level), or correct the name from the keys the message lists.
            UnknownDataField => "unknown-data-field", Error, "A reference into an entry's data that names a key the data does not have, or takes a step it cannot.";
            /// Finds a call of a function the expression language does not have, such as `lower(name)` or
            /// `len(items)` written in another language's style.
            ///
            /// **Why:** expressions are in the language the settings select (CEL by default). A call of an
            /// unknown function compiles, but evaluating it fails on every row, so a filter or a projection
            /// over it never gives anything.
            ///
            /// **Example** (fails: CEL has no `lower`; the file's one expression is expr-lang's, so
            /// `expression-language` names the setting too):
            ///
            /// ```yaml lint=unknown-function,expression-language
            /// data:
            ///   sources:
            ///     apps:
            ///       type: static
            ///       data: [{name: Web}]
            ///     web:
            ///       type: filter
            ///       from: apps
            ///       where: lower(name) == "web"
            /// ```
            ///
            /// **Fix:** use the language's function (under CEL `name.matches('(?i)^web$')`, `size(items)`,
            /// `name.endsWith(".biz")`; under expr-lang `len(items)`, `hasSuffix(name, ".biz")`); the help
            /// names it for the usual ones, or select the language the file is written in.
            UnknownFunction => "unknown-function", Error, "A call of a function the expression language does not have.";
            /// Finds an operator applied to a value whose type it cannot take, where the data's shape is
            /// exact (`static` data, the demo backend, the keys an operator writes): an ordering (`<`, `>`,
            /// …) between a string and a number, arithmetic or a negation (`-status`) on a string or a
            /// boolean, `!` or `&&`/`||` on something other than a boolean, and an equality (`==`, `!=`)
            /// between values of different kinds, which is never true.
            ///
            /// **Why:** the expression languages do not convert between types (judged for CEL). `name > 3` with `name` a string fails on every
            /// row, so a filter keeps nothing and `try` reports an error for each row; `rev == "3"` with
            /// `rev` a number compiles and runs but is false for every row. A shape recorded in a sample is
            /// not trusted for this: a field may hold other kinds in rows the sample did not have.
            ///
            /// **Example** (fails: `rev` is a number in these rows, `"3"` a string):
            ///
            /// ```yaml lint=operand-type
            /// data:
            ///   sources:
            ///     apps:
            ///       type: static
            ///       data: [{name: web, rev: 3}]
            ///     third:
            ///       type: filter
            ///       from: apps
            ///       where: rev == "3"
            /// ```
            ///
            /// **Fix:** compare values of one kind (`rev == 3`), or convert one side (`string(rev) == "3"`,
            /// `int(count) > 3` when a string holds digits).
            OperandType => "operand-type", Error, "An operator applied to a value whose type it cannot take.";
            /// Finds a row on which an expression fails, where lint knows the rows exactly: the rows of
            /// `static` data, after its `root`, and through the `filter`, `project`, `derive`, `sort`,
            /// `passthrough` and `cache` operators and `pipe` stages above it. Lint runs them as `try`
            /// and the dashboard do, with the evaluator's own operators, and reports the first row that
            /// fails: a division by zero, an overflow, a type the operation cannot take, or a `where`
            /// that is neither true nor false by the language's rules. The message names the row (its
            /// index) and the values the expression read from it. A `join` over such rows is checked as
            /// `try` binds its lookups: an `on` expression that fails on a driver row, or that gives a
            /// required parameter of the lookup nothing (a field the row lacks is null, and a missing
            /// value is never sent as the text `null`) when `on_error` is not `skip`, which drops such
            /// rows.
            ///
            /// **Why:** static data is exact, so the failure is certain: `try` stops at that row, and the
            /// dashboard shows an error instead of the table. Lint stops at a bound so that a large
            /// inline table does not slow the editor (at most 1,000 rows per entry and 20,000
            /// evaluations per document); an entry it did not run for that reason, or because it
            /// reads parameters or an operator it does not run (`union`, `merge`, `join`, `compose`),
            /// is listed by `sources lint --verbose`.
            ///
            /// **Example** (fails: the second row has `count: 0`):
            ///
            /// ```yaml lint=failing-row
            /// data:
            ///   sources:
            ///     totals:
            ///       type: static
            ///       data:
            ///         - {name: web, total: 10, count: 2}
            ///         - {name: api, total: 4, count: 0}
            ///     average:
            ///       type: derive
            ///       from: totals
            ///       compute:
            ///         mean: total / count
            /// ```
            ///
            /// **Fix:** guard the operation (`count == 0 ? 0 : total / count`), or correct the data.
            FailingRow => "failing-row", Error, "An expression that fails on a row of data lint knows exactly.";
            /// Finds a file whose expressions are written in the other expression language: some of
            /// them fail in the language the settings select (they do not compile, or call a function
            /// it lacks), and every one of them compiles in the other. One warning per file, naming the
            /// setting, where the first failing expression fails (beside that expression's own error).
            ///
            /// **Why:** `sources` reads expressions as CEL unless `sources-lint.toml` selects
            /// expr-lang, the language the dashboard evaluates. A file written for the dashboard
            /// (`len(name) > 3`, `hasSuffix(website, ".biz")`) is correct there; rewriting each
            /// expression into CEL would break it. The errors on each expression stay (in the selected
            /// language they are errors), and this one note says what to change once.
            ///
            /// **Example** (fails: the settings select CEL, the default, and `len` is expr-lang's; the
            /// call is an `unknown-function` error too):
            ///
            /// ```yaml lint=expression-language,unknown-function
            /// data:
            ///   sources:
            ///     users:
            ///       type: static
            ///       data: [{name: ada}, {name: grace}]
            ///     long:
            ///       type: filter
            ///       from: users
            ///       where: len(name) > 3
            /// ```
            ///
            /// **Fix:** select the language the file is written in, in `sources-lint.toml` beside it or
            /// above it: `[expressions]` then `language = "expr"` (or `"cel"`).
            ExpressionLanguage => "expression-language", Warning, "A file whose expressions fail in the selected language and all compile in the other.";
        }
    };
}
