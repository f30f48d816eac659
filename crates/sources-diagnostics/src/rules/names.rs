//! The rules of names and the references between them: entries, components, screens, drivers, column titles, cycles and depth.

/// Appends this group's rules to those gathered and hands them all to the next macro of the
/// chain that `declare_rules!` ends.
macro_rules! names_rules {
    ($next:ident $(, $rest:ident)*; $($gathered:tt)*) => {
        $next! { $($rest),*; $($gathered)*
            /// Finds a reference to an entry that does not exist in `data.sources`: an operator's `from`, a
            /// merge/union's `sources` or `children[].source`, a compose's `parts` values, a join's `driver.from`
            /// or `lookups.*.from`, `window.growing.source`, or a `tui` component's `source`.
            ///
            /// **Why:** leaves and operators share one namespace and address each other by name; a dangling name
            /// means the screen or operator has nothing to read.
            ///
            /// **Example** (fails: `aps` is not defined):
            ///
            /// ```yaml lint=unknown-source
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps
            ///     healthy:
            ///       type: filter
            ///       from: aps
            ///       where: health == "Healthy"
            /// ```
            ///
            /// **Fix:** correct the name (the message suggests close ones: `apps`), or define the entry.
            UnknownSource => "unknown-source", Error, "A reference to an entry that does not exist.";
            /// Finds an `on_cursor.source` of a `tui` component, or a `from` of a screen's action
            /// binding, that names a component the file does not define under `tui.components`.
            ///
            /// **Why:** the binding reads that component's focused row (`${cursor…}` or
            /// `${selection…}`); a dangling name means no row ever feeds it, so the bound entry never gets
            /// its parameters and never runs. (`on_cursor.source` names a component, not an entry of
            /// `data.sources`.)
            ///
            /// **Example** (fails: `app` is not a component; `apps` is):
            ///
            /// ```yaml lint=unknown-component
            /// tui:
            ///   components:
            ///     apps:
            ///       type: table
            ///       source: apps
            ///       columns: [{title: Id, value: id}]
            ///     jobs:
            ///       type: table
            ///       source: jobs
            ///       columns: [{title: Kind, value: kind}]
            ///       on_cursor: {source: app, bind: {id: "${cursor.Id}"}}
            /// data:
            ///   sources:
            ///     apps: {type: http, url: https://api.example.com/apps}
            ///     jobs:
            ///       type: http
            ///       url: https://api.example.com/apps/${params.id}/jobs
            ///       parameters:
            ///         id: {required: true}
            /// ```
            ///
            /// **Fix:** correct the name (the message suggests close ones: `apps`), or define the component.
            UnknownComponent => "unknown-component", Error, "An `on_cursor.source` or an action's `from` that names no component of `tui.components`.";
            /// Finds a `push` (on a screen's action binding, or on the `actions` entry a binding names)
            /// and a `tui.initial` that name no screen of `tui.screens`.
            ///
            /// **Why:** the dashboard opens the named screen; a dangling name means the binding opens
            /// nothing (or the application has no first screen), and the entries that screen would show
            /// never get the parameters the push binds.
            ///
            /// **Example** (fails: the screen is `pod`, not `pods_detail`):
            ///
            /// ```yaml lint=unknown-screen
            /// actions:
            ///   open_pod: {push: pods_detail}
            /// tui:
            ///   initial: pods
            ///   components:
            ///     pods_table:
            ///       type: table
            ///       source: pods
            ///       columns: [{title: Name, value: name}]
            ///   screens:
            ///     pods:
            ///       layout: {component: pods_table}
            ///       actions:
            ///         - {key: enter, action: open_pod, from: pods_table}
            ///     pod:
            ///       layout: {component: pods_table}
            /// data:
            ///   sources:
            ///     pods: {type: http, url: https://api.example.com/pods}
            /// ```
            ///
            /// **Fix:** correct the name (the message suggests close ones), or define the screen under
            /// `tui.screens`.
            UnknownScreen => "unknown-screen", Error, "A `push` or `tui.initial` that names no screen of `tui.screens`.";
            /// Finds an `on_cursor.source` or an action binding's `from` that names a component of a kind
            /// with no focused row to read: only a table, a list or a tree has one.
            ///
            /// **Why:** `${cursor…}` and `${selection…}` read the driver's focused row; an inspector, a
            /// log view, a text view or an event log has none, so the bound parameters would never be
            /// filled.
            ///
            /// **Example** (fails: `detail` is an inspector):
            ///
            /// ```yaml lint=driver-kind
            /// tui:
            ///   components:
            ///     detail: {type: inspector, source: app, auto: true}
            ///     jobs:
            ///       type: table
            ///       source: jobs
            ///       columns: [{title: Kind, value: kind}]
            ///       on_cursor: {source: detail, bind: {id: "${cursor}"}}
            /// data:
            ///   sources:
            ///     app: {type: http, url: https://api.example.com/app}
            ///     jobs:
            ///       type: http
            ///       url: https://api.example.com/apps/${params.id}/jobs
            ///       parameters:
            ///         id: {required: true}
            /// ```
            ///
            /// **Fix:** drive the binding from a table, list or tree that shows the rows to pick from.
            DriverKind => "driver-kind", Error, "An `on_cursor.source` or `from` naming a component with no focused row (not a table, list or tree).";
            /// Finds an action binding's `from` naming a component its screen does not place, and an
            /// `on_cursor.source` naming a driver missing from a screen that places the component
            /// reading it. The origin refuses both when it loads.
            ///
            /// **Why:** the driver's focused row is the one on screen: a component the screen does not
            /// show has no cursor there, so `${selection…}` and `${cursor…}` would never be filled.
            ///
            /// **Example** (fails: the screen shows `apps_table`, the binding reads `other_table`):
            ///
            /// ```yaml lint=driver-placement
            /// tui:
            ///   components:
            ///     apps_table:
            ///       type: table
            ///       source: apps
            ///       columns: [{title: Name, value: name}]
            ///     other_table:
            ///       type: table
            ///       source: apps
            ///       columns: [{title: Name, value: name}]
            ///   screen:
            ///     layout: {component: apps_table}
            ///     actions:
            ///       - key: d
            ///         action: describe
            ///         from: other_table
            ///         bind: {name: "${selection.Name}"}
            /// actions:
            ///   describe:
            ///     run: [echo, "${inputs.name}"]
            ///     inputs:
            ///       name: {required: true}
            /// data:
            ///   sources:
            ///     apps: {type: static, data: [{name: a}]}
            /// ```
            ///
            /// **Fix:** name a table, list or tree the screen places, or place the driver on the screen.
            DriverPlacement => "driver-placement", Error, "An action's `from` or an `on_cursor.source` naming a component the screen does not place.";
            /// Finds an action binding without `from` that reads a selection (a push, which opens its
            /// screen on the focused row, or a `bind` or `confirm` reading `${selection…}`), and a `from`
            /// on a binding that reads none. The origin refuses both when it loads: `from` is required
            /// exactly when the binding reads a selection.
            ///
            /// **Why:** without `from` the dashboard does not know whose focused row fills
            /// `${selection…}`; a `from` nothing reads would tie the key to that one component's focus
            /// for no reason.
            ///
            /// **Example** (fails: the push has no `from`):
            ///
            /// ```yaml lint=binding-from
            /// actions:
            ///   open_app: {push: app}
            /// tui:
            ///   initial: apps
            ///   components:
            ///     apps_table:
            ///       type: table
            ///       source: apps
            ///       columns: [{title: Name, value: name}]
            ///   screens:
            ///     apps:
            ///       layout: {component: apps_table}
            ///       actions:
            ///         - {key: enter, action: open_app}
            ///     app:
            ///       title: "${selection.Name}"
            ///       layout: {component: apps_table}
            /// data:
            ///   sources:
            ///     apps: {type: static, data: [{name: a}]}
            /// ```
            ///
            /// **Fix:** name the table, list or tree of the screen whose focused row the binding reads
            /// (`from: apps_table`); remove a `from` nothing reads.
            BindingFrom => "binding-from", Error, "An action binding that reads a selection without `from`, or has a `from` nothing reads.";
            /// Finds a `${selection…}` token that no selection fills: in the `title` of a screen no push
            /// opens, in the templates and the `on_cursor.bind` of a component placed only on such
            /// screens, and in the fields of an entry shown only by such components (and read by no
            /// other entry).
            ///
            /// **Why:** the dashboard fills `${selection…}` when a binding fires or a push opens a
            /// screen, from the `from` component's focused row; on a screen shown without a push there
            /// is no such row, and the token stays literal.
            ///
            /// **Example** (warns: the single screen is never pushed, so its title shows the token):
            ///
            /// ```yaml lint=unfilled-selection
            /// tui:
            ///   components:
            ///     apps_table:
            ///       type: table
            ///       source: apps
            ///       columns: [{title: Name, value: name}]
            ///   screen:
            ///     title: "App ${selection.Name}"
            ///     layout: {component: apps_table}
            /// data:
            ///   sources:
            ///     apps: {type: static, data: [{name: a}]}
            /// ```
            ///
            /// **Fix:** read the row where it is filled: bind it into a parameter from a push
            /// (`bind: {name: "${selection.Name}"}`) or an `on_cursor` (`${cursor.Name}`), and read
            /// `${params.name}` in the entry; or remove the token.
            UnfilledSelection => "unfilled-selection", Warning, "A `${selection…}` token where no selection fills it: it stays literal.";
            /// Finds a screen of `tui.screens` that is neither `tui.initial` nor opened by any push.
            ///
            /// **Why:** the dashboard opens `initial` and reaches every other screen by a push; a screen
            /// nothing pushes is never shown, so what it places (and the parameters their entries
            /// need) never matters. The rules about those components are not reported on it.
            ///
            /// **Example** (warns: nothing pushes `detail`):
            ///
            /// ```yaml lint=unshown-screen
            /// tui:
            ///   initial: apps
            ///   components:
            ///     apps_table:
            ///       type: table
            ///       source: apps
            ///       columns: [{title: Name, value: name}]
            ///   screens:
            ///     apps:
            ///       layout: {component: apps_table}
            ///     detail:
            ///       layout: {component: apps_table}
            /// data:
            ///   sources:
            ///     apps: {type: static, data: [{name: a}]}
            /// ```
            ///
            /// **Fix:** open it from a binding (`push: detail` with `from:`), make it `tui.initial`, or
            /// remove it.
            UnshownScreen => "unshown-screen", Warning, "A screen neither `tui.initial` nor opened by any push: it is never shown.";
            /// Finds a `${cursor.Title}` (in an `on_cursor.bind`) or `${selection.Title}` (in an action
            /// binding's `bind` or `confirm`, and on a pushed screen in its `title`, in the templates of
            /// the components it places and in the fields of the entries they show, when every push
            /// opening it reads the same driver) whose `Title` is no column title of the driving table
            /// (compared case-insensitively, hidden columns included), and a `${cursor.N}` or
            /// `${selection.N}` past the table's column count. A title with spaces is written whole
            /// after the dot, as the origin's templating reference matches it exactly:
            /// `${cursor.Last Deploy}`. Only a table's tokens are checked, and only when its columns are
            /// written. Also finds a key of a window's `sorts` or `filters` that names no column of the
            /// tables showing the entry (exactly: the dashboard resolves a typed `title:value` term to
            /// its column, then looks the mapping up by that column's title; judged only when every
            /// component showing the entry is a table with plain column titles): those keys are column titles, and their values the
            /// server's names, which are not judged.
            ///
            /// **Why:** the dashboard renders an unknown cursor token empty and leaves an unknown
            /// selection token literal, so the entry is fetched with an empty or a `${…}` parameter:
            /// a request that silently finds nothing. A `sorts` or `filters` key naming no column never
            /// applies: that column sorts by its title and its `title:value` terms go out as bare search
            /// terms.
            ///
            /// **Example** (warns: the column is `Id`, not `Ident`):
            ///
            /// ```yaml lint=unknown-column
            /// tui:
            ///   components:
            ///     apps:
            ///       type: table
            ///       source: apps
            ///       columns: [{title: Name, value: name}, {title: Id, value: id}]
            ///     jobs:
            ///       type: table
            ///       source: jobs
            ///       columns: [{title: Kind, value: kind}]
            ///       on_cursor: {source: apps, bind: {id: "${cursor.Ident}"}}
            /// data:
            ///   sources:
            ///     apps: {type: http, url: https://api.example.com/apps}
            ///     jobs:
            ///       type: http
            ///       url: https://api.example.com/apps/${params.id}/jobs
            ///       parameters:
            ///         id: {required: true}
            /// ```
            ///
            /// **Fix:** use a column title of the driving table (the message suggests close ones), or a
            /// cell number within its columns; add a `hidden: true` column for an identity the table
            /// should not draw; key `sorts` and `filters` by the title of the column each maps.
            UnknownColumn => "unknown-column", Warning, "A `${cursor.Title}` or `${selection.Title}` naming no column of the driving table, a cell number past its columns, or a window `sorts`/`filters` key naming no column of the table showing the entry.";
            /// Finds entries that reference each other in a cycle, through any reference field (`from`,
            /// `sources`, `children`, `parts`, `driver`, `lookups`, `growing.source`). The diagnostic names the
            /// whole cycle, with a label on each edge.
            ///
            /// **Why:** an entry's value is computed from the entries it names; in a cycle no entry can be
            /// computed first.
            ///
            /// **Example** (fails: `a` reads `b`, which reads `a`):
            ///
            /// ```yaml lint=reference-cycle
            /// data:
            ///   sources:
            ///     a:
            ///       type: passthrough
            ///       from: b
            ///     b:
            ///       type: sort
            ///       from: a
            ///       by: name
            /// ```
            ///
            /// **Fix:** break the cycle: make one of the entries read a leaf source instead.
            ReferenceCycle => "reference-cycle", Error, "Entries that reference each other in a cycle.";
            /// Finds a chain of entries that read each other deeper than 64 entries (`a` reads `b` reads
            /// `c` …, through any reference field but `growing.source`), counting each entry once.
            ///
            /// **Why:** `sources try` and the dashboard follow a chain of reads to its leaves; past 64 entries
            /// they stop rather than exhaust the stack, so the top of such a chain can never be fetched.
            /// This is the one limit on chain depth; the diagnostic stands at the entry that starts the
            /// chain and names the limit.
            ///
            /// **Example** (fails: `s64` starts a chain of 65 entries, `s64` → `s63` → … → `s0`):
            ///
            /// ```yaml lint=reference-depth
            /// data:
            ///   sources: {
            ///     s0: {type: static, data: []}, s1: {type: passthrough, from: s0}, s2: {type: passthrough, from: s1}, s3: {type: passthrough, from: s2},
            ///     s4: {type: passthrough, from: s3}, s5: {type: passthrough, from: s4}, s6: {type: passthrough, from: s5}, s7: {type: passthrough, from: s6},
            ///     s8: {type: passthrough, from: s7}, s9: {type: passthrough, from: s8}, s10: {type: passthrough, from: s9}, s11: {type: passthrough, from: s10},
            ///     s12: {type: passthrough, from: s11}, s13: {type: passthrough, from: s12}, s14: {type: passthrough, from: s13}, s15: {type: passthrough, from: s14},
            ///     s16: {type: passthrough, from: s15}, s17: {type: passthrough, from: s16}, s18: {type: passthrough, from: s17}, s19: {type: passthrough, from: s18},
            ///     s20: {type: passthrough, from: s19}, s21: {type: passthrough, from: s20}, s22: {type: passthrough, from: s21}, s23: {type: passthrough, from: s22},
            ///     s24: {type: passthrough, from: s23}, s25: {type: passthrough, from: s24}, s26: {type: passthrough, from: s25}, s27: {type: passthrough, from: s26},
            ///     s28: {type: passthrough, from: s27}, s29: {type: passthrough, from: s28}, s30: {type: passthrough, from: s29}, s31: {type: passthrough, from: s30},
            ///     s32: {type: passthrough, from: s31}, s33: {type: passthrough, from: s32}, s34: {type: passthrough, from: s33}, s35: {type: passthrough, from: s34},
            ///     s36: {type: passthrough, from: s35}, s37: {type: passthrough, from: s36}, s38: {type: passthrough, from: s37}, s39: {type: passthrough, from: s38},
            ///     s40: {type: passthrough, from: s39}, s41: {type: passthrough, from: s40}, s42: {type: passthrough, from: s41}, s43: {type: passthrough, from: s42},
            ///     s44: {type: passthrough, from: s43}, s45: {type: passthrough, from: s44}, s46: {type: passthrough, from: s45}, s47: {type: passthrough, from: s46},
            ///     s48: {type: passthrough, from: s47}, s49: {type: passthrough, from: s48}, s50: {type: passthrough, from: s49}, s51: {type: passthrough, from: s50},
            ///     s52: {type: passthrough, from: s51}, s53: {type: passthrough, from: s52}, s54: {type: passthrough, from: s53}, s55: {type: passthrough, from: s54},
            ///     s56: {type: passthrough, from: s55}, s57: {type: passthrough, from: s56}, s58: {type: passthrough, from: s57}, s59: {type: passthrough, from: s58},
            ///     s60: {type: passthrough, from: s59}, s61: {type: passthrough, from: s60}, s62: {type: passthrough, from: s61}, s63: {type: passthrough, from: s62},
            ///     s64: {type: passthrough, from: s63}
            ///   }
            /// ```
            ///
            /// **Fix:** read a nearer entry: most long chains repeat a step a single `filter`, `derive` or
            /// `pipe` could do.
            ReferenceDepth => "reference-depth", Error, "A chain of entries reading each other deeper than the 64-entry limit.";
            /// Finds a component placed more than once in one screen's layout.
            ///
            /// **Why:** the dashboard holds one instance of each component per screen, with one
            /// cursor, filter and scroll position; it refuses to load a screen that places a
            /// component twice.
            ///
            /// **Example** (fails: `apps` is placed twice):
            ///
            /// ```yaml lint=duplicate-placement
            /// tui:
            ///   components:
            ///     apps:
            ///       type: table
            ///       source: apps
            ///       columns: [{title: Name, value: name}]
            ///   screen:
            ///     layout:
            ///       vstack:
            ///         - {component: apps}
            ///         - {component: apps}
            /// data:
            ///   sources:
            ///     apps: {type: http, url: https://api.example.com/apps}
            /// ```
            ///
            /// **Fix:** place it once; to show the same source twice, declare a second component
            /// with the same `source`.
            DuplicatePlacement => "duplicate-placement", Error, "A component placed more than once in one screen's layout.";
            /// Finds an action binding whose `key` the dashboard keeps for itself (`q`, `ctrl+c`,
            /// `ctrl+z`, `?`, `esc`, `tab`, `shift+tab`, `r`, and `app`'s `actions_key`, `theme_key`
            /// and `output_key`, by default `a`, `t` and `o`), or that repeats a key another binding
            /// of the same screen uses.
            ///
            /// **Why:** the dashboard refuses such a file when it loads: the key would either never
            /// reach the action or fire two actions.
            ///
            /// **Example** (fails: `r` refreshes every source):
            ///
            /// ```yaml lint=binding-key
            /// actions:
            ///   restart: {run: [kubectl, rollout, restart, deployment/web]}
            /// tui:
            ///   components:
            ///     apps:
            ///       type: table
            ///       source: apps
            ///       columns: [{title: Name, value: name}]
            ///   screen:
            ///     layout: {component: apps}
            ///     actions:
            ///       - {key: r, action: restart}
            /// data:
            ///   sources:
            ///     apps: {type: http, url: https://api.example.com/apps}
            /// ```
            ///
            /// **Fix:** pick another key (`R` is free), or leave `key` out to offer the action in the
            /// menu only.
            BindingKey => "binding-key", Error, "An action binding on a key the dashboard reserves, or on a key another binding of the screen uses.";
        }
    };
}
