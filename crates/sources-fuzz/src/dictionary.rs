//! The adversarial dictionary the grammar draws values from, by what a value is used for: urls
//! (empty hosts, ports past 65535, spaces, upper-case schemes, IPv6, IDN), header names and values
//! (CR, LF, NUL and other control characters), argv (NUL, empty), paths (empty, NUL), durations
//! (1ns to 10^6 h, zero, negative), numbers at the i64 bounds, unicode names, expressions and
//! templates holding parameter and window tokens. Each pool has ordinary values beside the
//! adversarial ones, and the grammar draws an adversarial one only now and then, so that a fair
//! share of generated configurations lint clean and reach `try`.

/// The values of one use: ordinary ones, and the adversarial ones drawn now and then.
pub struct Pool {
    /// Values a user would write.
    pub ordinary: &'static [&'static str],
    /// Values at the edges of what the libraries accept.
    pub adversarial: &'static [&'static str],
}

/// `http` urls; `{p}` is replaced by a `${params.NAME}` token of the entry, when it has one.
pub const HTTP_URLS: Pool = Pool {
    ordinary: &[
        "https://api.example.com/items",
        "http://127.0.0.1:8099/api/v1/items",
        "https://x/{p}",
        "https://x/items?id={p}&q={p}",
        "${env.BASE}/items",
        "https://x/${selection.id}",
        "https://x/${window.offset}?limit=${window.limit}&q=${window.search}",
        "https://x/${window.cursor}",
    ],
    adversarial: &[
        "http://",
        "https://",
        "http:///items",
        "http://x:65535/",
        "http://x:65536/",
        "http://x:99999999999/",
        "http://x:-1/",
        "HTTP://x/",
        "HtTpS://x/a",
        "http://a b/",
        "http://x/a b?q=c d",
        "http://[::1]:8080/a",
        "http://[::1/",
        "http://[fe80::1%25eth0]/",
        "https://bücher.example/ü",
        "https://xn--bcher-kva.example/",
        "https://ex%61mple.com/",
        "http://x/\u{0}",
        "http://x/\t",
        "http://user:pa ss@x/",
        "http://@x/",
        "ftp://x/y",
        "file:///etc/hosts",
        "ws://x/",
        "//x/y",
        "/relative",
        "",
        " https://x/ ",
        "https://{p}/items",
        "https://x:{p}/",
        "http{p}://x/",
        "${params.base}",
        "https://x/${params.",
        "https://x/$${params.id}",
    ],
};

/// Websocket urls; `{p}` as in [`HTTP_URLS`].
pub const WS_URLS: Pool = Pool {
    ordinary: &[
        "wss://stream.example.com/ticks",
        "ws://127.0.0.1:8099/ws",
        "wss://x/{p}",
        "${env.WS}/x",
        "wss://x/${selection.id}",
    ],
    adversarial: &[
        "ws://",
        "wss://",
        "ws:///x",
        "WS://x/",
        "Wss://x/",
        "ws://a b/",
        "ws://x/a b",
        "ws://x:65536/",
        "ws://[::1]:8080/",
        "wss://bücher.example/",
        "http://x/",
        "https://x/",
        "",
        "wss://{p}/",
    ],
};

/// Header names.
pub const HEADER_NAMES: Pool = Pool {
    ordinary: &["X-Api-Key", "Accept", "authorization", "Content-Type"],
    adversarial: &["a b", "X:Y", "", "X-É", "X\u{0}", "X-${params.h}"],
};

/// Header values; `{p}` as in [`HTTP_URLS`].
pub const HEADER_VALUES: Pool = Pool {
    ordinary: &[
        "application/json",
        "Bearer ${env.TOKEN}",
        "a\tb",
        "é",
        "{p}",
        "x-{p}",
        "${selection.name}",
        "${env.X}",
    ],
    adversarial: &[
        "a\r\nb",
        "a\nb",
        "a\rb",
        "a\u{0}b",
        "a\u{1}b",
        "a\u{7f}b",
        " padded ",
        "",
        "${window.search}",
    ],
};

/// Argument vectors' elements; `{p}` as in [`HTTP_URLS`].
pub const ARGS: Pool = Pool {
    ordinary: &[
        "echo",
        "cat",
        "-n",
        "a b",
        "é",
        "{p}",
        "--id={p}",
        "${env.HOME}",
        "${selection.id}",
    ],
    adversarial: &["", " ", "a\u{0}b", "\u{0}", "${window.offset}", "a\nb"],
};

/// File paths; `{p}` as in [`HTTP_URLS`].
pub const PATHS: Pool = Pool {
    ordinary: &[
        "/var/log/app.json",
        "data.json",
        "/tmp/é.json",
        "/tmp/{p}.json",
        "${env.HOME}/x.json",
        "${selection.path}",
    ],
    adversarial: &["", " ", "a\u{0}", "{p}"],
};

/// Methods.
pub const METHODS: Pool = Pool {
    ordinary: &["GET", "post", " put ", "PATCH", "{p}", "DELETE"],
    adversarial: &["", "GE T", "FETCH", "\u{0}"],
};

/// Request bodies (templates; anchored windows need a JSON object).
pub const BODIES: Pool = Pool {
    ordinary: &[
        r#"{"q": "${window.search}"}"#,
        r#"{"size": ${window.limit}, "from": ${window.offset}}"#,
        r#"{"id": "{p}"}"#,
        r#"{"cursor": "${window.cursor}"}"#,
    ],
    adversarial: &[
        r#"{"q": ${window.search}}"#,
        r#"{"id": {p}}"#,
        "[1, 2]",
        "plain text",
        "",
        "{",
        r#"{"sel": ${selection.id}}"#,
    ],
};

/// Durations, from 1ns to 10^6 h, zero, negative and malformed.
pub const DURATIONS: Pool = Pool {
    ordinary: &["1ms", "1s", "10s", "30s", "1m", "1h30m"],
    adversarial: &[
        "1ns",
        "1us",
        "1µs",
        "1.5h",
        "1000000h",
        "0s",
        "0",
        "-1s",
        "+1s",
        "1",
        "",
        " 1s",
        "1d",
        "9223372036854775807ns",
        "9999999999999h",
        ".5s",
    ],
};

/// Expressions; `{q}` is replaced by a `params.NAME` of the entry, when it has one.
pub const EXPRESSIONS: Pool = Pool {
    ordinary: &[
        "true",
        "size > 1",
        "has(row.name)",
        "name.startsWith(\"a\")",
        "size > {q}",
        "{q} == \"x\"",
        "string({q}) + name",
    ],
    adversarial: &[
        "row.size > 1",
        "int({q}) > 0",
        "{q}",
        "size > 9223372036854775807",
        "size > -9223372036854775808",
        "size + 9223372036854775807 > 0",
        "1 / 0 == 1",
        "nosuchfn(size)",
        "size.nosuchmethod()",
        "1 + ",
        "'é' == 'é'",
        "",
        "params",
        "id",
        "${params.x}",
    ],
};

/// Dot-paths (`root`, `next_path`, `total_path`, `cursor`).
pub const DOT_PATHS: Pool = Pool {
    ordinary: &["items", "id"],
    adversarial: &["data.items", "", ".", "a..b", "0", "é", " "],
};

/// Entry and parameter names.
pub const NAMES: Pool = Pool {
    ordinary: &[
        "items",
        "a",
        "b2",
        "with-dash",
        "with_underscore",
        "é",
        "日本",
    ],
    adversarial: &["🎉", "a b", "A", "x.y", ""],
};

/// Other strings (labels, tag fields, window parameter names, filter names).
pub const STRINGS: Pool = Pool {
    ordinary: &["x", "id", "q", "é"],
    adversarial: &[
        "", " ", "a\nb", "yes", "~", "null", "0x10", "1e3", ".inf", "- a", "#", "a: b", "{p}",
    ],
};

/// Typed parameter defaults by declared type (`string`, `int`, `bool`, `duration`); the string
/// list is the adversarial one, since a default is rendered into urls, headers and argv.
pub const INT_DEFAULTS: Pool = Pool {
    ordinary: &[
        "0",
        "1",
        "-1",
        "9223372036854775807",
        "-9223372036854775808",
    ],
    adversarial: &["9223372036854775808", "1.5", "x", ""],
};

/// `bool` defaults.
pub const BOOL_DEFAULTS: Pool = Pool {
    ordinary: &["true", "false"],
    adversarial: &["yes", "1", ""],
};

/// `string` defaults.
pub const STRING_DEFAULTS: Pool = Pool {
    ordinary: &["x", "a b", "é", "x.example.com"],
    adversarial: &[
        "",
        "a\r\nb",
        "a\u{0}b",
        "a\tb",
        "[::1]",
        "65536",
        "/",
        "?#",
        "%",
        "${params.x}",
        "\"",
    ],
};

/// Ordinary integers.
pub const INTEGERS: &[i128] = &[0, 1, 2, 100];

/// Integers at the bounds (and past them: `u64::MAX` does not fit the model's `i64`).
pub const BOUND_INTEGERS: &[i128] = &[
    -1,
    65_536,
    i64::MAX as i128,
    i64::MIN as i128,
    u64::MAX as i128,
];
