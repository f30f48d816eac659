//! The plain [`Diagnostic`] every front end renders, and the rule registry ([`Rule`]).
//!
//! A diagnostic is data: a rule, a severity, a message, a primary span, secondary labels, a help
//! line and optional fixes. Rendering (miette, JSON, SARIF, GitHub, LSP) lives beside each front
//! end. This crate holds no rule logic: the checks live in `sources-config` (decoding) and
//! `sources-check` (everything else).

mod collect;
mod fix;
mod rules;
mod spec;
mod suggest;

pub use collect::{Collected, Collector, order};
pub use fix::{AppliedFix, FixOutcome, apply_safe_fixes, unified_diff};
pub use rules::Rule;
pub use sources_syntax::Span;
pub use suggest::{did_you_mean, is_misspelling};

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The configuration is rejected.
    Error,
    /// The configuration works, but probably not as meant.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A secondary location with its own message ("bound here", "consumed here").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What this place has to do with the diagnostic.
    pub message: String,
}

/// Whether a fix can be applied without a person looking at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applicability {
    /// Mechanical and safe: `sources lint --fix` applies it.
    Safe,
    /// Probably right, but a person should decide (offered in the editor only).
    Unsafe,
}

/// One replacement of a byte range of the original text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The bytes replaced (empty for an insertion).
    pub span: Span,
    /// The new text.
    pub replacement: String,
}

/// A set of edits that together repair one diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, as a command ("Rename `urll` to `url`").
    pub title: String,
    /// The edits, non-overlapping.
    pub edits: Vec<Edit>,
    /// Whether `--fix` may apply it.
    pub applicability: Applicability,
}

/// One problem found in a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule that found it.
    pub rule: Rule,
    /// Its severity (the rule's default unless configured otherwise).
    pub severity: Severity,
    /// What is wrong, naming the key or value.
    pub message: String,
    /// The key or value that is wrong.
    pub span: Span,
    /// The primary label's text, shown under the span (empty: none).
    pub label: String,
    /// Other places that matter.
    pub labels: Vec<Label>,
    /// What to do about it.
    pub help: Option<String>,
    /// Mechanical repairs.
    pub fixes: Vec<Fix>,
    /// What is reported in its place when a suppression or a rule filter hides it: a finding it
    /// stood for (a misspelled required field's `missing-field`), so hiding one finding never
    /// hides another ([`retain_or_stand_in`]).
    pub stand_in: Option<Box<Diagnostic>>,
}

impl Diagnostic {
    /// Replaces every span (its own, its labels', its fixes' edits', its stand-in's) by `moved`
    /// of it.
    pub fn move_spans(&mut self, moved: impl Fn(Span) -> Span) {
        self.move_spans_by(&moved);
    }

    /// [`Diagnostic::move_spans`] through a reference, for the stand-in.
    fn move_spans_by(&mut self, moved: &dyn Fn(Span) -> Span) {
        self.span = moved(self.span);
        for label in &mut self.labels {
            label.span = moved(label.span);
        }
        for fix in &mut self.fixes {
            for edit in &mut fix.edits {
                edit.span = moved(edit.span);
            }
        }
        if let Some(stand_in) = &mut self.stand_in {
            stand_in.move_spans_by(moved);
        }
    }

    /// A diagnostic of `rule` at `span` with the rule's default severity.
    pub fn new(rule: Rule, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            rule,
            severity: rule.default_severity(),
            message: message.into(),
            span,
            label: String::new(),
            labels: Vec::new(),
            help: None,
            fixes: Vec::new(),
            stand_in: None,
        }
    }

    /// Sets what is reported in this diagnostic's place when it is hidden.
    pub fn with_stand_in(mut self, stand_in: Diagnostic) -> Diagnostic {
        self.stand_in = Some(Box::new(stand_in));
        self
    }

    /// Sets the primary label's text.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds a fix.
    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fixes.push(fix);
        self
    }

    /// Adds the fix that replaces `written` (at `span`) with `suggestion`, a did-you-mean of it:
    /// safe (applied by `--fix`) only when it corrects a misspelling ([`is_misspelling`]), else
    /// offered in the editor alone, as another word changes what is meant.
    pub fn with_correction(
        self,
        title: impl Into<String>,
        span: Span,
        written: &str,
        suggestion: &str,
    ) -> Diagnostic {
        let applicability = if is_misspelling(written, suggestion) {
            Applicability::Safe
        } else {
            Applicability::Unsafe
        };
        self.with_fix(Fix {
            title: title.into(),
            edits: vec![Edit {
                span,
                replacement: suggestion.to_owned(),
            }],
            applicability,
        })
    }

    /// Adds a safe fix that replaces `span` with `replacement`.
    pub fn with_replacement(
        self,
        title: impl Into<String>,
        span: Span,
        replacement: impl Into<String>,
    ) -> Diagnostic {
        self.with_fix(Fix {
            title: title.into(),
            edits: vec![Edit {
                span,
                replacement: replacement.into(),
            }],
            applicability: Applicability::Safe,
        })
    }
}

/// Keeps the diagnostics `keep` accepts (it may change them, a severity say); one it refuses is
/// replaced by its stand-in, itself offered to `keep`, so hiding a finding leaves what it stood
/// for reported. The order is kept ([`sort`]ed again when a stand-in came in).
pub fn retain_or_stand_in(
    diagnostics: &mut Vec<Diagnostic>,
    mut keep: impl FnMut(&mut Diagnostic) -> bool,
) {
    let mut stood_in = false;
    let mut kept = Vec::with_capacity(diagnostics.len());
    for diagnostic in diagnostics.drain(..) {
        let mut next = Some(diagnostic);
        while let Some(mut diagnostic) = next {
            if keep(&mut diagnostic) {
                kept.push(diagnostic);
                break;
            }
            next = diagnostic.stand_in.take().map(|stand_in| *stand_in);
            stood_in |= next.is_some();
        }
    }
    if stood_in {
        sort(&mut kept);
    }
    *diagnostics = kept;
}

/// Sorts diagnostics by position, then rule code, then message: the stable order of every output.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(order);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_a_diagnostic_moves_its_stand_in() {
        let stand_in = Diagnostic::new(Rule::MissingField, Span::new(4, 8), "missing `url`");
        let mut diagnostic = Diagnostic::new(Rule::UnknownField, Span::new(20, 24), "`urll`")
            .with_stand_in(stand_in);
        diagnostic.move_spans(|span| span.shifted(10));
        assert_eq!(diagnostic.span, Span::new(30, 34));
        let stand_in = diagnostic.stand_in.expect("the stand-in is kept");
        assert_eq!(stand_in.span, Span::new(14, 18));
    }
}
