//! Evaluation errors: each names the entry that failed and the cause, on one line.

use crate::io::IoError;

/// What a refusal that lint predicts ends with: the front end replaces it with the lint finding
/// itself when the settings or a suppression comment hid that finding.
pub const RUN_LINT: &str = " (run `sources lint`)";

/// A failed evaluation of one entry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("source `{entry}`: {cause}")]
pub struct EvalError {
    /// The entry whose fetch or evaluation failed.
    pub entry: String,
    /// Why.
    pub cause: Cause,
}

impl EvalError {
    /// An error of `entry`.
    pub fn new(entry: impl Into<String>, cause: impl Into<Cause>) -> EvalError {
        EvalError {
            entry: entry.into(),
            cause: cause.into(),
        }
    }

    /// The entry whose evaluation was refused before any I/O for what a lint error says (the
    /// innermost failure), if that is how this one failed.
    pub fn refused_before_io(&self) -> Option<&str> {
        let mut innermost = self;
        while let Cause::Child(child) = &innermost.cause {
            innermost = child;
        }
        match &innermost.cause {
            Cause::Refused { .. }
            | Cause::Unsupported(_)
            | Cause::Cycle(_)
            | Cause::UnknownSource(_) => Some(&innermost.entry),
            _ => None,
        }
    }
}

/// Why an entry could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Cause {
    /// The outside world failed (network, process, file, timeout).
    #[error(transparent)]
    Io(#[from] IoError),
    /// The server answered with a status outside 200–299.
    #[error("HTTP {status} from {method} {url}: {body}")]
    Status {
        /// The status code.
        status: u16,
        /// The method sent.
        method: String,
        /// The URL requested (credentials in it redacted).
        url: String,
        /// The start of the response body.
        body: String,
    },
    /// A `json` source returned something that is not JSON.
    #[error("{what} is not JSON ({detail}): {snippet}")]
    NotJson {
        /// `response`, `output`, `file`, `line` or `frame`.
        what: &'static str,
        /// The parser's complaint.
        detail: String,
        /// The start of the text.
        snippet: String,
    },
    /// A dot-path (`root`, `next_path`, `total_path`, `cursor`) does not exist in the value.
    #[error("{field} `{path}` not found: {detail}")]
    MissingPath {
        /// Which field holds the path.
        field: &'static str,
        /// The path as written.
        path: String,
        /// Where the walk stopped.
        detail: String,
    },
    /// A parameter could not be bound.
    #[error("{0}")]
    Param(String),
    /// A CEL expression failed to compile or evaluate.
    #[error("{field} `{expression}`: {detail}")]
    Expression {
        /// The field holding the expression (`where`, `keep.name`, `by`, …).
        field: String,
        /// The expression as written.
        expression: String,
        /// What went wrong.
        detail: String,
    },
    /// A reference to an entry that does not exist.
    #[error("unknown source `{0}`")]
    UnknownSource(String),
    /// Entries that depend on each other in a cycle.
    #[error("reference cycle: {0}")]
    Cycle(String),
    /// A child or lookup failed; the inner error names it.
    #[error("{0}")]
    Child(Box<EvalError>),
    /// A `paginate` walk was sent back to a page it already fetched.
    #[error(
        "page {page} links back to {url}, already fetched as page {first}: the walk would never end (check the server's next link at `next_path`)"
    )]
    PageLoop {
        /// The page whose link repeats (1-based, the page that would have been fetched).
        page: u64,
        /// The repeated URL (credentials redacted).
        url: String,
        /// The page that fetched it first.
        first: u64,
    },
    /// A `paginate` walk ran past the deadline of the whole walk.
    #[error(
        "the whole page walk may take at most {}; it ran out after {pages} page(s) and {items} items",
        crate::format_duration(*.deadline)
    )]
    WalkDeadline {
        /// The deadline of the whole walk.
        deadline: std::time::Duration,
        /// Pages fetched before it.
        pages: u64,
        /// Items read before it.
        items: usize,
    },
    /// One run read entries more often than [`crate::engine::MAX_READS`] allows.
    #[error(
        "one run may read entries at most {limit} times, and this one needs more: an entry is read \
         once per parameter set, but a streamed one once per path that reads it, and a `join` \
         lookup once per row with its own parameters; read fewer such entries, or fold steps into \
         one `pipe`"
    )]
    TooManyReads {
        /// The limit.
        limit: usize,
    },
    /// A rendered value that its constructor (`sources_check::request`) refuses, before any I/O.
    #[error("{what}: {refusal}")]
    Refused {
        /// What could not be done (`cannot send GET http://`), credentials redacted.
        what: String,
        /// Why.
        refusal: sources_check::request::Refusal,
    },
    /// One run copied more values it had already read than [`crate::engine::MAX_COPIED`] allows.
    #[error(
        "one run may copy at most {limit} JSON values of entries it already read, and this one \
         needs more: each path that reads an entry holds its own copy of its rows (the same child \
         twice in a `merge`), so copies multiply at each level; read each entry once, or fold \
         steps into one `pipe`"
    )]
    TooManyCopies {
        /// The limit.
        limit: usize,
    },
    /// A response read as a list of items (a `paginate` page, an anchored window's page) holds
    /// something else at `root`: what the server sent, after I/O.
    #[error("{whose} holds {found} at `root`, not a list of items")]
    NotAList {
        /// Which response (`page 2`).
        whose: String,
        /// What it holds (`an object`).
        found: &'static str,
    },
    /// The configuration asks for something the engine cannot do (explained).
    #[error("{0}")]
    Unsupported(String),
}

/// `error` in one line naming the lint error that predicts it in place of [`RUN_LINT`], when the
/// evaluator refused an entry of `config` before any I/O and one of `hidden` (errors the settings
/// file or a suppression comment hides) lies inside it; `None` otherwise. What `sources try` and
/// the editor's "▶ try" both say.
pub fn naming_hidden(
    error: &EvalError,
    hidden: &[sources_check::hidden::Hidden],
    config: &sources_config::Config,
) -> Option<String> {
    let entry = error.refused_before_io()?;
    let finding = sources_check::hidden::name_in(hidden, config, entry)?;
    // The finding says what running `sources lint` would have said.
    let said = error.to_string().replace(RUN_LINT, "");
    Some(format!("{said} ({finding})"))
}

impl From<EvalError> for Cause {
    fn from(error: EvalError) -> Cause {
        Cause::Child(Box::new(error))
    }
}
