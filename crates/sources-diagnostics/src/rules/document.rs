//! The rules of the document itself: syntax, fields, values, kinds, durations and fields that exclude each other.

/// Appends this group's rules to those gathered and hands them all to the next macro of the
/// chain that `declare_rules!` ends.
macro_rules! document_rules {
    ($next:ident $(, $rest:ident)*; $($gathered:tt)*) => {
        $next! { $($rest),*; $($gathered)*
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
            ///
            /// And, as a warning, a color rule's `~` pattern that Go's `regexp` does not compile
            /// (`when: "~(Crash|Err"`: the group is never closed). The dashboard loads such a file:
            /// it compiles the pattern, with `(?i)` in front, each time it colours a text, and on the
            /// error colours nothing, so the rule never matches. The pattern is read in Go's syntax
            /// (RE2) as Go reads it (a `{` that starts no count is itself, `\d` and `\w` are ASCII,
            /// `(?x)` and `a**` are refused); `sources try` draws the colours with the same compile.
            /// A pattern Go compiles is never reported, even one too large for `sources try` to draw.
            /// Correct the pattern, or drop the `~` to match the text exactly.
            InvalidValue => "invalid-value", Error, "A value of the wrong type, or outside its enumeration.";
            /// Finds a value the dashboard's YAML decoder (gopkg.in/yaml.v3) accepts for a typed
            /// field in a spelling other than the canonical one: `yes`, `no`, `on`, `off`, `y`, `n`
            /// (in any of their cases, quoted or not) for a boolean, and a number with a fraction
            /// for an integer, which that decoder truncates (`page_size: 50.0` is `50`). It reads
            /// `data.sources` and the dashboard's `tui`, `app` and `actions` alike (`markable: yes`
            /// makes a table markable).
            ///
            /// **Why:** the value works, so it is accepted as the dashboard reads it; but YAML 1.2
            /// reads `yes` as a string everywhere else (a parameter default, a `static` row), and a
            /// fraction in a count is usually a slip. The canonical spelling says the same to every
            /// reader. It is a warning with a safe fix.
            ///
            /// **Example** (warns: `yes` is read as `true`):
            ///
            /// ```yaml lint=noncanonical-value
            /// data:
            ///   sources:
            ///     logs:
            ///       type: exec
            ///       command: [tail, -f, /var/log/app.log]
            ///       follow: yes
            /// ```
            ///
            /// **Fix:** write `true` or `false`, or the whole number (`--fix` does).
            NoncanonicalValue => "noncanonical-value", Warning, "A boolean or integer spelled as only the dashboard's YAML 1.1 decoder reads it.";
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
        }
    };
}
