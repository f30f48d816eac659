//! The rule registry: every rule declared once, with its code, severity, summary and explanation.
//!
//! `sources explain`, `sources rules`, SARIF rule metadata, LSP code descriptions and the README's
//! rules table are all generated from these declarations.

use crate::Severity;

macro_rules! declare_rules {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident => $code:literal, $severity:ident, $summary:literal;
    )*) => {
        /// A rule: one kind of problem the checker reports, with a stable kebab-case code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule {
            $(
                #[doc = $summary]
                $variant,
            )*
        }

        impl Rule {
            /// Every rule, in declaration order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The stable code users write and tools match (`unknown-field`).
            pub const fn code(self) -> &'static str {
                match self { $(Rule::$variant => $code),* }
            }

            /// The severity the rule reports at.
            pub const fn default_severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$severity),* }
            }

            /// One line: what the rule finds.
            pub const fn summary(self) -> &'static str {
                match self { $(Rule::$variant => $summary),* }
            }

            /// The long explanation in Markdown: what it finds, why, a failing example, the fix.
            pub const fn explanation(self) -> &'static str {
                match self { $(Rule::$variant => concat!($($doc, "\n"),*)),* }
            }
        }
    };
}

impl Rule {
    /// The rule with this code.
    pub fn from_code(code: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|rule| rule.code() == code)
    }

    /// The explanation as plain Markdown: without the space each doc comment line keeps after
    /// `///`, trimmed (what `sources explain`, the rules page and LSP hovers show).
    pub fn explanation_markdown(self) -> String {
        let lines: Vec<&str> = self
            .explanation()
            .lines()
            .map(|line| line.strip_prefix(' ').unwrap_or(line))
            .collect();
        lines
            .join(
                "
",
            )
            .trim()
            .to_owned()
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

declare_rules! {
    /// Finds a file that is not well-formed YAML or TOML, or that cannot be read as text at all: a
    /// parse error, invalid UTF-8, a binary file, or a file too large to be a configuration file.
    ///
    /// **Why:** nothing else can be checked in text that does not parse. The diagnostic points at the
    /// position where the parser gave up; other independent problems are still reported where the parser
    /// could recover.
    ///
    /// **Example** (fails: the flow map is never closed):
    ///
    /// ```yaml lint=syntax
    /// data:
    ///   sources:
    ///     apps: {type: http, url: "https://api.example.com/apps"
    /// ```
    ///
    /// **Fix:** repair the syntax at the reported position (here, close the map with `}`), and save the
    /// file as UTF-8.
    Syntax => "syntax", Error, "The YAML or TOML does not parse.";
    /// Finds a field that the entry's kind does not have: a typo, or a field that belongs to another kind
    /// (`paginate` applies to `http`, not `exec`).
    ///
    /// **Why:** the format has a fixed set of fields per kind, and an unknown one is ignored at run time,
    /// so a misspelled `refresh` silently never polls. The diagnostic names the closest fields of that
    /// kind.
    ///
    /// **Example** (fails: `refersh`):
    ///
    /// ```yaml lint=unknown-field
    /// data:
    ///   sources:
    ///     apps:
    ///       type: http
    ///       url: https://api.example.com/apps
    ///       refersh: 30s
    /// ```
    ///
    /// **Fix:** correct the name (`refresh`), or move the field to an entry of the kind it belongs
    /// to.
    UnknownField => "unknown-field", Error, "A field this kind of entry does not have.";
    /// Finds an entry without a field its kind requires: `url` on `http` and `websocket`, `command` on
    /// `exec`, `path` on `file`, `data` on `static`, `from` on most operators, `strategy` and `next_path`
    /// on a `link` paginate, `ttl` on `cache`, and so on.
    ///
    /// **Why:** these fields are required (see the field tables of docs/reference.md); without them the source cannot fetch anything.
    ///
    /// **Example** (fails: an `exec` source without `command`):
    ///
    /// ```yaml lint=missing-field
    /// data:
    ///   sources:
    ///     pods:
    ///       type: exec
    ///       format: json
    /// ```
    ///
    /// **Fix:** add the field (`command: [kubectl, get, pods, -o, json]`).
    MissingField => "missing-field", Error, "A required field is absent.";
    /// Finds a value of the wrong type (a list where a string belongs, a string where a number belongs)
    /// or outside its enumeration: `format` (`json`, `text`), `on_error` (`fail`, `skip`),
    /// `on_page_error`, paginate `strategy` (`link`), sort `order` (`asc`, `desc`), join `emit`
    /// (`separate`, `merged`), `anchor` and eventlog `start` (`newest`, `oldest`), an HTTP `method`, or a
    /// parameter `type` (`string`, `int`, `bool`, `duration`).
    ///
    /// **Why:** `format` is `json` or `text` and `on_error` is `fail` or `skip`, nothing else; a value
    /// outside the enumeration has no defined behaviour.
    ///
    /// **Example** (fails: `yaml` is not a format):
    ///
    /// ```yaml lint=invalid-value
    /// data:
    ///   sources:
    ///     apps:
    ///       type: http
    ///       url: https://api.example.com/apps
    ///       format: yaml
    /// ```
    ///
    /// **Fix:** use one of the values the message lists (`format: json`).
    ///
    /// It also finds values of the right type that can never run, each of which `sources try` would
    /// otherwise refuse before sending anything. Every value `try` hands to a library is rendered
    /// (each `${…}` token replaced by its parameter's default, a sample of its type, or its value on
    /// the window's first request) and built with the same call `try` builds it with: an `http`
    /// `url` the url parser refuses (`http://` with no host, a port past 65535, a space in the
    /// host) or that is empty, relative or not `http://`/`https://`; a websocket `url` the
    /// websocket client refuses (`WS://`: it takes only lower-case `ws://` and `wss://`; no host; a
    /// space); a `method` or header name HTTP does not allow; a header value with a line break or
    /// another control character; a command argument, `env` value or `file` `path` with a NUL
    /// byte; an empty `command`, program or `path`; the `body` of an anchored window that is not a
    /// JSON object once rendered for the first request (`${window.search}` outside a JSON string
    /// renders empty there). Besides: `timeout: 0s` (it would end every fetch at once; leave
    /// `timeout` out for the 10s default; a followed websocket ignores it); a `static` entry whose
    /// `root` is not in its `data`; a window `filters` entry that maps a column to an empty name. A
    /// url or program that starts with a `${…}` token, and a value a `${selection…}` token makes
    /// unsendable, are judged when they run.
    InvalidValue => "invalid-value", Error, "A value of the wrong type, or outside its enumeration.";
    /// Finds an entry whose `type` is neither a leaf kind (`http`, `exec`, `file`, `websocket`, `static`,
    /// `merge`) nor an operator kind (`passthrough`, `filter`, `project`, `derive`, `sort`, `union`,
    /// `compose`, `join`, `cache`).
    ///
    /// **Why:** "Every entry in `data.sources` has a `type`"; the kind decides which fields apply and how
    /// the entry is fetched, so nothing about an entry of an unknown kind can be checked or run.
    ///
    /// **Example** (fails: `htp`):
    ///
    /// ```yaml lint=unknown-kind
    /// data:
    ///   sources:
    ///     apps:
    ///       type: htp
    ///       url: https://api.example.com/apps
    /// ```
    ///
    /// **Fix:** write one of the kinds; the message suggests the closest (`http`).
    UnknownKind => "unknown-kind", Error, "`type` is neither a leaf kind nor an operator kind.";
    /// Finds a duration that does not parse: `refresh`, `timeout`, `cache.ttl`, the `cache` operator's
    /// `ttl`, `window.follow_every`, `sort_debounce`, or the `default` of a `duration` parameter.
    ///
    /// **Why:** `refresh`, `timeout`, `ttl` and `follow_every` are read as durations, and the text must be one.
    /// Durations are Go-style: a sequence of numbers with units `ns`, `us`, `ms`, `s`, `m`, `h`
    /// (`250ms`, `1m30s`, `2h`), or `0`.
    ///
    /// **Example** (fails: `5 minutes`):
    ///
    /// ```yaml lint=invalid-duration
    /// data:
    ///   sources:
    ///     apps:
    ///       type: http
    ///       url: https://api.example.com/apps
    ///       refresh: 5 minutes
    /// ```
    ///
    /// **Fix:** write a Go-style duration (`refresh: 5m`).
    InvalidDuration => "invalid-duration", Error, "A duration that does not parse (Go style: `250ms`, `1m30s`, `2h`).";
    /// Finds two fields that exclude each other set on one entry: `refresh` with `follow`, `window` with
    /// `paginate`, `window` with `follow`, `paginate` with `follow`, a parameter both `required` and with a
    /// `default`, `growing` with `refresh`, merge/union `sources` with `children`, `tag_field` without
    /// `sources`, `root` with `format: text` (a text value has no keys to slice). Also two
    /// declarations of one parameter that an operator passing its parameters through reaches by
    /// two of its references, with types no value satisfies together (`bool` and `int` or
    /// `duration`): the one value it is given is refused by one of them; or where the default it
    /// binds when given nothing (one declaration's) is refused by another's type (`-1` reaching a
    /// `duration`).
    ///
    /// **Why:** `refresh` excludes `follow`, `window` excludes `follow` and `paginate`, `required`
    /// excludes `default`, and a merge takes exactly one of `sources` and `children`; each pair describes two different behaviours and the source can have only one.
    ///
    /// **Example** (fails: a streamed source cannot also poll):
    ///
    /// ```yaml lint=conflicting-fields
    /// data:
    ///   sources:
    ///     events:
    ///       type: http
    ///       url: https://api.example.com/events
    ///       follow: true
    ///       refresh: 10s
    /// ```
    ///
    /// **Fix:** keep the field that says what you mean and remove the other.
    ConflictingFields => "conflicting-fields", Error, "Two fields that exclude each other are both set.";
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
    ///       kind: text
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
    Expression => "expression", Error, "A CEL expression that does not compile, or fails on every row whatever its parameters.";
    /// Finds a reference into an entry's data that names a key the data does not have: a name in an
    /// expression (`where`, `keep`, `compute`, `by`, a join's `on`, a growing window's `while` over
    /// its `source`'s value), a table column's `value` (of a list of paths, when none can lead
    /// anywhere), a tree's `label`, `children` or `group_by`, a list's `item`, `mark_key` and
    /// `row_key`, a leaf's `root`, `paginate.next_path`, `window.total_path` and `window.cursor`.
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
    /// under a join's `row`).
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
    UnknownDataField => "unknown-data-field", Error, "A reference into an entry's data that names a key the data does not have.";
    /// Finds a call of a function the expression language does not have, such as `lower(name)` or
    /// `len(items)` written in another language's style.
    ///
    /// **Why:** expressions are CEL. A call of an unknown function compiles, but evaluating it fails on
    /// every row, so a filter or a projection over it never gives anything.
    ///
    /// **Example** (fails: CEL has no `lower`):
    ///
    /// ```yaml lint=unknown-function
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
    /// **Fix:** use CEL's function (`name.matches('(?i)^web$')`, `size(items)`,
    /// `name.endsWith(".biz")`); the help names it for the usual ones.
    UnknownFunction => "unknown-function", Error, "A call of a function the expression language does not have.";
    /// Finds an operator applied to a value whose type it cannot take, where the data's shape is
    /// exact (`static` data, the demo backend, the keys an operator writes): an ordering (`<`, `>`,
    /// …) between a string and a number, arithmetic or a negation (`-status`) on a string or a
    /// boolean, `!` or `&&`/`||` on something other than a boolean, and an equality (`==`, `!=`)
    /// between values of different kinds, which is never true.
    ///
    /// **Why:** CEL does not convert between types. `name > 3` with `name` a string fails on every
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
    /// Finds a field that has no effect where it stands: `timeout` on a following websocket, `cache` on a
    /// streamed source.
    ///
    /// **Why:** a websocket's `timeout` does nothing with `follow: true`, and a `cache` never holds
    /// streamed events. It is a warning because the configuration still runs.
    ///
    /// **Example** (warns: a websocket always streams, so `cache` does nothing):
    ///
    /// ```yaml lint=ineffective-field
    /// data:
    ///   sources:
    ///     ticks:
    ///       type: websocket
    ///       url: wss://stream.example.com/ticks
    ///       cache: {ttl: 30s}
    /// ```
    ///
    /// **Fix:** remove the field.
    IneffectiveField => "ineffective-field", Warning, "A field that has no effect where it stands.";
    /// Finds a suppression comment that silences nothing: `# sources: ignore[CODE]` where no `CODE`
    /// diagnostic starts on the line it covers, `# sources: ignore-file[CODE]` in a file without one,
    /// a code that names no rule, or a `# sources:` comment that is not a well-formed suppression.
    ///
    /// **Why:** a suppression is a promise that a finding was looked at. Once the finding is gone,
    /// a stale suppression would silently hide the next, unrelated finding on that line; an unknown
    /// code (a typo) silences nothing at all. Suppressions go at the end of the line a diagnostic
    /// starts on, or on a line of their own just above it; `ignore-file` anywhere covers the file.
    ///
    /// **Example** (warns: nothing on the `url` line is an `unknown-field` diagnostic):
    ///
    /// ```yaml lint=unused-suppression
    /// data:
    ///   sources:
    ///     apps:
    ///       type: http
    ///       url: https://api.example.com/apps  # sources: ignore[unknown-field]
    /// ```
    ///
    /// **Fix:** remove the suppression (`sources lint --fix` does), or correct the rule code
    /// (`sources lint --fix` renames a misspelt code to the code it resembles, keeping the reason).
    UnusedSuppression => "unused-suppression", Warning, "A suppression comment that silences nothing, or names an unknown rule.";
    /// Finds a settings file (`sources-lint.toml` or `.sources-lint.toml`) that cannot be used: TOML
    /// that does not parse, a table other than `[rules]` and `[files]`, a rule code that names no
    /// rule, a level other than `error`, `warning` or `off`, a `[files]` key other than `include`
    /// and `exclude`, or a glob that does not compile. Every mistake of the file is reported, each
    /// at its key or value in the settings file, with a did-you-mean for a misspelt name.
    ///
    /// **Why:** the settings file decides which findings are errors and which files a directory
    /// walk lints, so a file it governs cannot be linted as its authors meant until the settings
    /// file is fixed: `sources lint` reports the settings file and skips the files below it, and
    /// lints every other folder as usual.
    ///
    /// **Example** (fails three times: a misspelt rule code, a level that does not exist and a
    /// misspelt table):
    ///
    /// ```toml lint=invalid-settings
    /// [rules]
    /// unknown-feild = "off"
    /// unknown-field = "warn"
    ///
    /// [filez]
    /// include = ["dashboards/**"]
    /// ```
    ///
    /// **Fix:** correct each name (`unknown-field`, `[files]`) and write a level as `"error"`,
    /// `"warning"` or `"off"`; `sources lint --show-settings FILE` then shows each rule's level.
    InvalidSettings => "invalid-settings", Error, "A settings file with a mistake: an unknown table, key or rule code, a bad level or glob.";
    /// Finds a join lookup whose `from` is not a leaf source that declares parameters (an operator,
    /// or a leaf without `parameters`), a lookup whose `on` leaves a required parameter of that
    /// source unbound, and an `on` expression that evidently gives a kind of value (a boolean from
    /// a comparison, a number) that the parameter's declared `type` never accepts.
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

#[cfg(test)]
mod tests {
    use super::Rule;

    #[test]
    fn codes_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for rule in Rule::ALL {
            assert!(seen.insert(rule.code()), "duplicate code {}", rule.code());
            assert!(
                rule.code()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-')
            );
            assert_eq!(Rule::from_code(rule.code()), Some(*rule));
        }
        assert_eq!(Rule::from_code("no-such-rule"), None);
    }
}
