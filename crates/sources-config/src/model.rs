//! The typed model of one `data.sources` entry: its kind's fields, each with its spans.
//!
//! The doc comment on every field is the field's documentation: the JSON Schema descriptions, the
//! LSP hover text and [`crate::fields`] are all generated from it. Every field is optional in the
//! model (a missing required field is reported and left `None`); the schema marks required ones.

use ecow::EcoString;
use schemars::JsonSchema;
use sources_syntax::{Key, Span};

use crate::enums::{
    Anchor, Emit, Enumeration, Format, Kind, Method, OnError, Order, ParamType, Strategy,
};
use crate::spanned::{AnyValue, Field, NamedMap, Spanned, Text};

/// A template string: literal text with `${params.NAME}`, `${env.NAME}` and `${window.*}` tokens.
pub type Template = Text;
/// A CEL expression over the item's fields (top-level names) and `params.NAME`.
pub type Expression = Text;
/// A parsed Go-style duration.
pub type DurationValue = crate::duration::GoDuration;

/// One entry of `data.sources`: its name, kind and fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    /// The entry's name and the span of its key (the tree's key, moved: inline up to 15 bytes).
    pub name: Spanned<EcoString>,
    /// The span of the entry's value (the map).
    pub span: Span,
    /// The kind from `type`, when it is a known one.
    pub kind: Option<Spanned<Kind>>,
    /// The kind's fields.
    pub body: Body,
    /// Every key written in the entry's map, in source order (also unknown ones). A boxed slice:
    /// the model keeps it as long as it lives and never adds a key.
    pub keys: Box<[Key]>,
}

impl Source {
    /// The kind name of the entry (`http`, `filter`, …), or `?` when `type` is missing or unknown.
    pub fn kind_name(&self) -> &'static str {
        self.kind.as_ref().map_or("?", |kind| kind.value.as_str())
    }

    /// The key of the entry's field that `offset` falls in (key or value), if any.
    pub fn key_at(&self, offset: usize) -> Option<&Key> {
        self.keys.iter().find(|key| key.span.contains(offset))
    }

    /// Whether the entry is declared as a leaf (`http` … `merge`).
    pub fn is_leaf(&self) -> bool {
        self.kind.as_ref().is_some_and(|kind| kind.value.is_leaf())
    }
}

/// One `pipe` stage: an operator entry without a name (and normally without `from`).
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// The span of the stage's map.
    pub span: Span,
    /// The kind from `type`, when it is a known one.
    pub kind: Option<Spanned<Kind>>,
    /// The stage's fields.
    pub body: Body,
    /// Every key written in the stage, in source order.
    pub keys: Box<[Key]>,
}

impl JsonSchema for Stage {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Stage".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        generator.subschema_for::<Body>()
    }
}

/// The fields of an entry, by kind (`type`).
///
/// Each kind's fields are boxed: kinds differ in size (an `http` body is about 0.3 KB, a `filter`
/// 0.1 KB; their rarely written sections such as `window` and `paginate` are boxed again), and a
/// document of 10,000 entries would otherwise pay the largest for every one.
#[derive(Clone, Debug, PartialEq, JsonSchema)]
#[schemars(tag = "type", rename_all = "snake_case")]
pub enum Body {
    /// Fetches a URL over HTTP. Polled with `refresh`, streamed with `follow`, paged with
    /// `paginate`, or read window by window with `window`.
    Http(Box<Http>),
    /// Runs a command (argv, no shell) and reads its standard output.
    Exec(Box<Exec>),
    /// Reads a file, again on every fetch.
    File(Box<File>),
    /// Connects to a WebSocket endpoint; always streamed, one event per frame.
    Websocket(Box<Websocket>),
    /// Inline data; no I/O. `root` slices into it.
    Static(Box<Static>),
    /// Fetches several sources and concatenates their results into one list. Prefer the `union`
    /// operator; `merge` remains for its leaf fields (`refresh`, `timeout`).
    Merge(Box<Merge>),
    /// Operator: passes another entry's output through unchanged.
    Passthrough(Box<Passthrough>),
    /// Operator: keeps the rows of another entry for which `where` is true.
    Filter(Box<Filter>),
    /// Operator: replaces each row by the keys of `keep`.
    Project(Box<Project>),
    /// Operator: adds the keys of `compute` to each row.
    Derive(Box<Derive>),
    /// Operator: sorts the rows of another entry by `by`.
    Sort(Box<Sort>),
    /// Operator: concatenates several entries into one list.
    Union(Box<Union>),
    /// Operator: builds one object whose keys are the outputs of other entries.
    Compose(Box<Compose>),
    /// Operator: for each row of a driver, fetches parameterised lookup sources.
    Join(Box<Join>),
    /// Operator: holds one snapshot of another entry for `ttl`.
    Cache(Box<CacheOperator>),
    /// `type` is missing or not a known kind: no fields were decoded.
    #[schemars(skip)]
    Unknown,
}

impl Body {
    /// The fields every entry has (`parameters`, `pipe`), unless the kind is unknown.
    pub fn common(&self) -> Option<&Common> {
        Some(match self {
            Body::Http(x) => &x.leaf.common,
            Body::Exec(x) => &x.leaf.common,
            Body::File(x) => &x.leaf.common,
            Body::Websocket(x) => &x.leaf.common,
            Body::Static(x) => &x.leaf.common,
            Body::Merge(x) => &x.leaf.common,
            Body::Passthrough(x) => &x.common,
            Body::Filter(x) => &x.common,
            Body::Project(x) => &x.common,
            Body::Derive(x) => &x.common,
            Body::Sort(x) => &x.common,
            Body::Union(x) => &x.common,
            Body::Compose(x) => &x.common,
            Body::Join(x) => &x.common,
            Body::Cache(x) => &x.common,
            Body::Unknown => return None,
        })
    }

    /// The fields shared by leaf sources, for a leaf.
    pub fn leaf(&self) -> Option<&LeafFields> {
        Some(match self {
            Body::Http(x) => &x.leaf,
            Body::Exec(x) => &x.leaf,
            Body::File(x) => &x.leaf,
            Body::Websocket(x) => &x.leaf,
            Body::Static(x) => &x.leaf,
            Body::Merge(x) => &x.leaf,
            _ => return None,
        })
    }

    /// The `window`, on `http` and `exec`.
    pub fn window(&self) -> Option<&Field<Window>> {
        match self {
            Body::Http(x) => x.window.as_deref(),
            Body::Exec(x) => x.window.as_deref(),
            _ => None,
        }
    }

    /// The `from` of a single-input operator.
    pub fn from(&self) -> Option<&Field<String>> {
        match self {
            Body::Passthrough(x) => x.from.as_ref(),
            Body::Filter(x) => x.from.as_ref(),
            Body::Project(x) => x.from.as_ref(),
            Body::Derive(x) => x.from.as_ref(),
            Body::Sort(x) => x.from.as_ref(),
            Body::Cache(x) => x.from.as_ref(),
            _ => None,
        }
    }

    /// The `sources`/`children` fields of a `merge` or `union`.
    pub fn merge_fields(&self) -> Option<&MergeFields> {
        match self {
            Body::Merge(x) => Some(&x.merge),
            Body::Union(x) => Some(&x.merge),
            _ => None,
        }
    }
}

/// Fields every entry may have. Boxed, like the optional fields of [`LeafFields`]: most entries
/// have neither, and an empty box costs one word.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Common {
    /// Typed inputs, referenced as `${params.NAME}` in templates and as `params.NAME` in an
    /// operator's expressions. Map of parameter name to its declaration. Default: none.
    pub parameters: Option<Box<Field<NamedMap<Parameter>>>>,
    /// Transform stages applied to the output, in order: each a `filter`, `project`, `derive`,
    /// `sort` or `cache` without `from`. Default: none.
    pub pipe: Option<Box<Field<Vec<Spanned<Stage>>>>>,
}

/// Fields shared by the leaf kinds (`http`, `exec`, `file`, `websocket`, `static`, `merge`).
///
/// Each is boxed: most entries write few of them, and a document of 100,000 entries, which the
/// editor holds in memory, would otherwise pay every one inline (a `static` body was 512 bytes;
/// the test in this module pins the sizes).
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct LeafFields {
    /// `parameters` and `pipe`.
    #[schemars(flatten)]
    pub common: Common,
    /// Dot-path to the iterable inside the response. Default: the whole value.
    pub root: Option<Box<Field<String>>>,
    /// `json` parses the response; `text` keeps a raw string. Default: `json`.
    pub format: Option<Box<Field<Format>>>,
    /// Poll interval (Go duration, e.g. `30s`): the source is fetched again on that interval. Not
    /// with `follow`. Default: fetched once.
    pub refresh: Option<Box<Field<DurationValue>>>,
    /// Per-fetch time limit (Go duration) on `http`, `exec` and `websocket`; on `websocket` it
    /// bounds only the initial connect and is ignored with `follow: true`. Default: `10s`.
    pub timeout: Option<Box<Field<DurationValue>>>,
    /// Memoises fetches per parameter combination for `ttl`. Default: none.
    pub cache: Option<Box<Field<CacheSpec>>>,
}

/// The fields of an `http` source.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Http {
    /// Shared leaf fields.
    #[schemars(flatten)]
    pub leaf: LeafFields,
    /// The endpoint URL (template). Required.
    #[schemars(required)]
    pub url: Option<Field<Template>>,
    /// The HTTP method (template). Default: `GET`.
    pub method: Option<Field<Template>>,
    /// Request headers: map of header name to template. Default: none.
    pub headers: Option<Field<NamedMap<Template>>>,
    /// Request body (template), sent as written after substitution. Default: none.
    pub body: Option<Field<Template>>,
    /// Holds the response open and emits one event per line. Not with `paginate` or `window`.
    /// Default: `false`.
    pub follow: Option<Field<bool>>,
    /// Walks every page up front and concatenates them. `json` only; not with `follow` or
    /// `window`. Default: none.
    pub paginate: Option<Box<Field<Paginate>>>,
    /// Fetches only the rows on screen, so the server filters and sorts. `json` only; not with
    /// `follow` or `paginate`. Default: none.
    pub window: Option<Box<Field<Window>>>,
}

impl Http {
    /// The method, when `method` is literal text naming a standard method.
    pub fn literal_method(&self) -> Option<Method> {
        use crate::enums::Enumeration;
        let method = self.method.as_ref()?;
        Method::from_name(&method.value.text.to_ascii_uppercase())
    }
}

/// The fields of an `exec` source.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Exec {
    /// Shared leaf fields.
    #[schemars(flatten)]
    pub leaf: LeafFields,
    /// The argv, a list of templates. The first element is looked up in the path; nothing is run
    /// through a shell. Required.
    #[schemars(required)]
    pub command: Option<Field<Vec<Spanned<Template>>>>,
    /// Environment variables (map of name to template) added to or overriding the inherited
    /// environment. Default: none.
    pub env: Option<Field<NamedMap<Template>>>,
    /// Reads standard output line by line as it arrives. Not with `window`. Default: `false`.
    pub follow: Option<Field<bool>>,
    /// One command per window, with offset, limit, filter and sort templated into the argv.
    /// `json` only; not with `follow`. Default: none.
    pub window: Option<Box<Field<Window>>>,
}

/// The fields of a `file` source.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct File {
    /// Shared leaf fields.
    #[schemars(flatten)]
    pub leaf: LeafFields,
    /// The file path (template), re-read on every fetch. Required.
    #[schemars(required)]
    pub path: Option<Field<Template>>,
}

/// The fields of a `websocket` source.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Websocket {
    /// Shared leaf fields.
    #[schemars(flatten)]
    pub leaf: LeafFields,
    /// The `ws://` or `wss://` endpoint (template). Always streamed; one event per frame.
    /// Required.
    #[schemars(required)]
    pub url: Option<Field<Template>>,
    /// Headers sent on the upgrade request: map of header name to template. Default: none.
    pub headers: Option<Field<NamedMap<Template>>>,
    /// Text frames (templates) sent in order right after connecting. Default: none.
    pub initial_messages: Option<Field<Vec<Spanned<Template>>>>,
    /// A websocket always streams; with `follow: true` the `timeout` is ignored. Default: `false`.
    pub follow: Option<Field<bool>>,
}

/// The fields of a `static` source.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Static {
    /// Shared leaf fields.
    #[schemars(flatten)]
    pub leaf: LeafFields,
    /// Inline list, object or scalar; `root` slices into it. Required.
    #[schemars(required)]
    pub data: Option<Field<AnyValue>>,
}

/// The fields of a `merge` source.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Merge {
    /// Shared leaf fields.
    #[schemars(flatten)]
    pub leaf: LeafFields,
    /// The children and how their rows are tagged.
    #[schemars(flatten)]
    pub merge: MergeFields,
}

/// The fields `merge` and `union` share.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct MergeFields {
    /// Child entries by name. Exactly one of `sources` and `children`. Default: none.
    pub sources: Option<Field<Vec<Spanned<String>>>>,
    /// Each row gets a tag under this key whose value is the child's name. Only with `sources`.
    /// Default: none.
    pub tag_field: Option<Field<String>>,
    /// Child entries with per-child tags. Exactly one of `sources` and `children`. Default: none.
    pub children: Option<Field<Vec<Spanned<MergeChild>>>>,
    /// Where tags are written on each row; an empty string writes them at the top level.
    /// Default: `_meta`.
    pub meta_key: Option<Field<String>>,
    /// `fail` aborts on any child error; `skip` drops failed children and returns the rest.
    /// Default: `fail`.
    pub on_error: Option<Field<OnError>>,
}

/// One of `children`: a child entry and its tags.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct MergeChild {
    /// The child entry's name. Required.
    #[schemars(required)]
    pub source: Option<Field<String>>,
    /// Added to every map-shaped row from this child (map of string); existing keys are kept.
    /// Default: none.
    pub tags: Option<Field<NamedMap<String>>>,
}

/// A parameter declaration.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Parameter {
    /// `string`, `int`, `bool` or `duration`. Default: `string`.
    #[schemars(rename = "type")]
    pub kind: Option<Field<ParamType>>,
    /// The source cannot run until a caller supplies a value. Not with `default`. Default:
    /// `false`.
    pub required: Option<Field<bool>>,
    /// Used when no caller supplies a value (written as a string, or a number or boolean kept as
    /// its text). Not with `required`. Default: none.
    pub default: Option<Field<String>>,
    /// One-line summary. Default: none.
    pub description: Option<Field<String>>,
    /// Form field label, where the parameter is rendered as a form field (action inputs, boot
    /// prompts). Default: the parameter's name.
    pub label: Option<Field<String>>,
    /// Form field placeholder text. Default: none.
    pub placeholder: Option<Field<String>>,
    /// Form field choices (list of values). Default: none.
    pub options: Option<Field<Vec<Spanned<String>>>>,
    /// Form field: hide what is typed (secrets). Default: `false`.
    pub mask: Option<Field<bool>>,
    /// Form field position among the parameters. Default: declaration order.
    pub order: Option<Field<i64>>,
}

/// `paginate`: walks every page of an `http` endpoint before returning.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Paginate {
    /// `link`: the response carries the next page's URL. Required.
    #[schemars(required)]
    pub strategy: Option<Field<Strategy>>,
    /// Dot-path into the raw response (before `root`) to the next page's URL; the walk stops when
    /// it is empty. Required for `link`.
    pub next_path: Option<Field<String>>,
    /// Caps the walk; 0 or unset means 20; there is no unlimited value. Default: 20.
    pub max_pages: Option<Field<i64>>,
    /// `fail` returns the error; `skip` returns the pages fetched so far. Default: `fail`.
    pub on_page_error: Option<Field<OnError>>,
}

/// `window`: fetches only the rows on screen, again on scroll, filter or sort.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Window {
    /// Rows per request. Default: 100.
    pub page_size: Option<Field<i64>>,
    /// Extra pages fetched beyond the screen. Default: 0.
    pub prefetch: Option<Field<i64>>,
    /// Dot-path into the raw response to the total match count; without it the table cannot size
    /// its scrollbar. Default: none.
    pub total_path: Option<Field<String>>,
    /// Maps a column title to where a scoped `title:value` term goes: a query parameter on `http`,
    /// a `${window.filters.NAME}` token name on `exec`. Default: none.
    pub filters: Option<Field<NamedMap<String>>>,
    /// Query parameter for the first row wanted. Required on `http`; not on `exec`.
    pub offset_param: Option<Field<String>>,
    /// Query parameter for the page size. Required on `http`; not on `exec`.
    pub limit_param: Option<Field<String>>,
    /// `http` only: query parameter for bare terms, joined with spaces. Default: none.
    pub search_param: Option<Field<String>>,
    /// `http` only: query parameter for the sort field. Default: none.
    pub sort_param: Option<Field<String>>,
    /// `http` only, needs `sort_param`: column title to API sort field; unlisted columns send
    /// their title. Default: none.
    pub sorts: Option<Field<NamedMap<String>>>,
    /// `http` only, needs `sort_param`: prepended for a descending sort; empty sends the same
    /// value both ways. Default: none.
    pub sort_desc_prefix: Option<Field<String>>,
    /// Makes the window anchored: dot-path to each item's cursor. Default: none.
    pub cursor: Option<Field<String>>,
    /// `http`, with `cursor`: what the request changes to walk towards older items (merged into
    /// a JSON `body`, else set as query parameters). Default: none.
    pub older: Option<Field<NamedMap<AnyValue>>>,
    /// `http`, with `cursor`: what the request changes to walk towards newer items. Default: none.
    pub newer: Option<Field<NamedMap<AnyValue>>>,
    /// Where an anchored window opens: `newest` or `oldest`. Needs `cursor`. Default: `newest`.
    pub anchor: Option<Field<Anchor>>,
    /// Event-log sources only; not with `refresh`: the set still gains items at its newest end.
    /// `true` grows while the screen is open; a map names a source and a condition. Default: none.
    pub growing: Option<Field<Growing>>,
    /// Poll interval while growing (Go duration). Needs `growing`. Default: `2s`.
    pub follow_every: Option<Field<DurationValue>>,
    /// Fields written with a value already reported as invalid: rules do not call them missing.
    #[schemars(skip)]
    pub rejected: Vec<&'static str>,
}

impl Window {
    /// Whether the window is anchored (`cursor` is set).
    pub fn is_anchored(&self) -> bool {
        self.cursor.is_some()
    }
}

/// A window field that applies to only some windows: the one table the schema and the checker
/// read.
#[derive(Clone, Copy, Debug)]
pub struct WindowFieldUse {
    /// The field's key.
    pub name: &'static str,
    /// Only an `http` window has it: an `exec` window templates its request into `command`.
    pub http_only: bool,
    /// It does not apply once `cursor` anchors the window.
    pub unanchored_only: bool,
    /// The span of the field's key in a window, when the field is written.
    pub key_span: fn(&Window) -> Option<Span>,
}

/// The window fields that are http-only or unanchored-only, in the order they are reported.
pub const WINDOW_FIELD_USES: [WindowFieldUse; 10] = [
    WindowFieldUse {
        name: "offset_param",
        http_only: true,
        unanchored_only: true,
        key_span: |w| w.offset_param.as_ref().map(|f| f.key_span),
    },
    WindowFieldUse {
        name: "limit_param",
        http_only: true,
        unanchored_only: false,
        key_span: |w| w.limit_param.as_ref().map(|f| f.key_span),
    },
    WindowFieldUse {
        name: "total_path",
        http_only: false,
        unanchored_only: true,
        key_span: |w| w.total_path.as_ref().map(|f| f.key_span),
    },
    WindowFieldUse {
        name: "search_param",
        http_only: true,
        unanchored_only: false,
        key_span: |w| w.search_param.as_ref().map(|f| f.key_span),
    },
    WindowFieldUse {
        name: "sort_param",
        http_only: true,
        unanchored_only: true,
        key_span: |w| w.sort_param.as_ref().map(|f| f.key_span),
    },
    WindowFieldUse {
        name: "sorts",
        http_only: true,
        unanchored_only: true,
        key_span: |w| w.sorts.as_ref().map(|f| f.key_span),
    },
    WindowFieldUse {
        name: "sort_desc_prefix",
        http_only: true,
        unanchored_only: true,
        key_span: |w| w.sort_desc_prefix.as_ref().map(|f| f.key_span),
    },
    WindowFieldUse {
        name: "prefetch",
        http_only: false,
        unanchored_only: true,
        key_span: |w| w.prefetch.as_ref().map(|f| f.key_span),
    },
    WindowFieldUse {
        name: "older",
        http_only: true,
        unanchored_only: false,
        key_span: |w| w.older.as_ref().map(|f| f.key_span),
    },
    WindowFieldUse {
        name: "newer",
        http_only: true,
        unanchored_only: false,
        key_span: |w| w.newer.as_ref().map(|f| f.key_span),
    },
];

/// `growing`: `true`/`false`, or a source and a condition.
#[derive(Clone, Debug, PartialEq, JsonSchema)]
#[schemars(untagged)]
pub enum Growing {
    /// `growing: true` grows for as long as the screen is open (`false` is rejected by the
    /// checker).
    Flag(bool),
    /// Grows while `while` holds over `source`'s value.
    While(GrowingWhile),
}

/// `growing` as a map.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct GrowingWhile {
    /// The entry whose value decides; fetched when the screen opens and polled on its own
    /// `refresh`. Required.
    #[schemars(required)]
    pub source: Option<Field<String>>,
    /// CEL expression over that source's value: true while items are still arriving. Required.
    #[schemars(required, rename = "while")]
    pub condition: Option<Field<Expression>>,
}

/// `cache` on a leaf: memoises fetches keyed on the bound parameter values.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct CacheSpec {
    /// How long an entry stays fresh (Go duration). Required.
    #[schemars(required)]
    pub ttl: Option<Field<DurationValue>>,
    /// Maximum entries; the least recently used is evicted. Negative is unbounded. Default: 100.
    pub size: Option<Field<i64>>,
}

/// `passthrough` operator.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Passthrough {
    /// `parameters` and `pipe`.
    #[schemars(flatten)]
    pub common: Common,
    /// The entry whose output is passed through. Required.
    #[schemars(required)]
    pub from: Option<Field<String>>,
}

/// `filter` operator.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Filter {
    /// `parameters` and `pipe`.
    #[schemars(flatten)]
    pub common: Common,
    /// The entry whose rows are filtered. Required.
    #[schemars(required)]
    pub from: Option<Field<String>>,
    /// CEL expression: a row is kept when it is true. Required.
    #[schemars(required, rename = "where")]
    pub condition: Option<Field<Expression>>,
}

/// `project` operator.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Project {
    /// `parameters` and `pipe`.
    #[schemars(flatten)]
    pub common: Common,
    /// The entry whose rows are reshaped. Required.
    #[schemars(required)]
    pub from: Option<Field<String>>,
    /// Map of output key to CEL expression; each row becomes these keys. Required, non-empty.
    #[schemars(required)]
    pub keep: Option<Field<NamedMap<Expression>>>,
}

/// `derive` operator.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Derive {
    /// `parameters` and `pipe`.
    #[schemars(flatten)]
    pub common: Common,
    /// The entry whose rows get new keys. Required.
    #[schemars(required)]
    pub from: Option<Field<String>>,
    /// Map of new key to CEL expression, added to each row. Required, non-empty.
    #[schemars(required)]
    pub compute: Option<Field<NamedMap<Expression>>>,
}

/// `sort` operator.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Sort {
    /// `parameters` and `pipe`.
    #[schemars(flatten)]
    pub common: Common,
    /// The entry whose rows are sorted. Required.
    #[schemars(required)]
    pub from: Option<Field<String>>,
    /// CEL expression giving each row's sort key. Required.
    #[schemars(required)]
    pub by: Option<Field<Expression>>,
    /// `asc` or `desc`. Default: `asc`.
    pub order: Option<Field<Order>>,
}

/// `union` operator.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Union {
    /// `parameters` and `pipe`.
    #[schemars(flatten)]
    pub common: Common,
    /// The children and how their rows are tagged.
    #[schemars(flatten)]
    pub merge: MergeFields,
}

/// `compose` operator.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Compose {
    /// `parameters` and `pipe`.
    #[schemars(flatten)]
    pub common: Common,
    /// Map of output key to entry name: the object's keys and where their values come from.
    /// Required, non-empty.
    #[schemars(required)]
    pub parts: Option<Field<NamedMap<String>>>,
    /// `fail` aborts on any part's error; `skip` leaves failed parts out (and fails only when
    /// every part fails). Default: `fail`.
    pub on_error: Option<Field<OnError>>,
}

/// `join` operator.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct Join {
    /// `parameters` and `pipe`.
    #[schemars(flatten)]
    pub common: Common,
    /// The entry whose rows drive the lookups. Required.
    #[schemars(required)]
    pub driver: Option<Field<JoinDriver>>,
    /// Map of lookup name to a parameterised leaf and how each driver row binds its parameters.
    /// Required, at least one.
    #[schemars(required)]
    pub lookups: Option<Field<NamedMap<JoinLookup>>>,
    /// `separate` gives `{row: DRIVER_ROW, LOOKUP: RESULT, …}` per driver row; `merged` puts each
    /// lookup's keys into the driver row (both maps), a key the row already has becoming
    /// `LOOKUP_KEY`. Default: `separate`.
    pub emit: Option<Field<Emit>>,
    /// `fail` aborts on any lookup error; `skip` drops the driver row whose lookup failed.
    /// Default: `fail`.
    pub on_error: Option<Field<OnError>>,
}

impl Join {
    /// The lookups whose `from` names `entry`: the ones that read it, each binding the names of
    /// its `on` map.
    pub fn lookups_reading<'a>(&'a self, entry: &'a str) -> impl Iterator<Item = &'a JoinLookup> {
        self.lookups
            .iter()
            .flat_map(|lookups| lookups.value.iter())
            .map(|lookup| &lookup.value.value)
            .filter(move |lookup| lookup.from.as_ref().is_some_and(|from| from.value == entry))
    }
}

/// A join's `driver`.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct JoinDriver {
    /// The entry whose rows drive the lookups. Required.
    #[schemars(required)]
    pub from: Option<Field<String>>,
}

/// One of a join's `lookups`.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct JoinLookup {
    /// A leaf that declares parameters, fetched once per driver row (cached automatically: 60s
    /// TTL, 100 entries). Required.
    #[schemars(required)]
    pub from: Option<Field<String>>,
    /// Map of that source's parameter name to a CEL expression over the driver row. Required.
    #[schemars(required)]
    pub on: Option<Field<NamedMap<Expression>>>,
}

/// `cache` operator.
#[derive(Clone, Debug, Default, PartialEq, JsonSchema)]
pub struct CacheOperator {
    /// `parameters` and `pipe`.
    #[schemars(flatten)]
    pub common: Common,
    /// The entry whose output is held. Required.
    #[schemars(required)]
    pub from: Option<Field<String>>,
    /// How long the snapshot stays fresh (Go duration). Required.
    #[schemars(required)]
    pub ttl: Option<Field<DurationValue>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The editor holds the model of every open document: a document of 100,000 `static` entries
    /// paid 512 bytes a body while most of them were empty `Option`s. The fields most entries
    /// leave out are boxed; these bounds keep them so (mimalloc rounds up to 128, 160, 192, …).
    #[test]
    fn the_bodies_most_entries_use_stay_small() {
        let sizes = [
            ("Source", size_of::<Source>(), 80),
            ("Common", size_of::<Common>(), 16),
            ("LeafFields", size_of::<LeafFields>(), 64),
            ("Static", size_of::<Static>(), 128),
            ("File", size_of::<File>(), 128),
            ("Passthrough", size_of::<Passthrough>(), 64),
            ("Filter", size_of::<Filter>(), 128),
            ("Http", size_of::<Http>(), 320),
            ("Exec", size_of::<Exec>(), 192),
        ];
        for (name, size, bound) in sizes {
            assert!(
                size <= bound,
                "`{name}` is {size} bytes, over {bound}: box the fields most entries leave out \
                 (the model of a large document is held in memory by the editor)"
            );
        }
    }
}
