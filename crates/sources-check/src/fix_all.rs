//! `fix_all`: applies every safe fix to a document, re-analysing after each round until nothing
//! more can be fixed, so that fixes skipped for overlapping an earlier one get their turn.

use sources_diagnostics::{Rule, apply_safe_fixes};
use sources_syntax::{LineCol, LineIndex, Syntax};

use crate::analyze;

/// At most this many analyse-and-fix rounds: each round applies at least one fix, and fixes do not
/// reintroduce what they repaired, so real documents settle in two or three.
const MAX_ROUNDS: usize = 16;

/// One fix that `fix_all` applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedFix {
    /// The rule of the diagnostic it repaired.
    pub rule: Rule,
    /// What it did ("Rename `urll` to `url`").
    pub title: String,
    /// Where the diagnostic was, in the text of the round that applied it.
    pub position: LineCol,
}

/// The result of [`fix_all`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixed {
    /// The document with every safe fix applied.
    pub text: String,
    /// The fixes applied, in order.
    pub applied: Vec<AppliedFix>,
}

/// Applies every safe fix of `text` (as `sources lint --fix` does), keeping every other byte:
/// comments, formatting and the order of fields stay as written.
pub fn fix_all(text: &str, syntax: Syntax) -> Fixed {
    let mut current = text.to_owned();
    let mut applied = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let analysis = analyze(&current, syntax);
        let outcome = apply_safe_fixes(&current, &analysis.diagnostics);
        if !outcome.changed() {
            break;
        }
        let index = LineIndex::new(&current);
        applied.extend(outcome.applied.into_iter().map(|fix| AppliedFix {
            rule: fix.rule,
            title: fix.title,
            position: index.line_col(fix.span.start),
        }));
        current = outcome.text;
    }
    Fixed {
        text: current,
        applied,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixes_every_misspelling_and_keeps_comments() {
        let text = "\
data:
  sources:
    # the list
    apps:
      type: htp
      urll: http://127.0.0.1:8099/apps?region=${params.regoin}  # keep me
      parameters:
        region: {default: eu-west}
";
        let fixed = fix_all(text, Syntax::Yaml);
        assert_eq!(
            fixed.text,
            text.replace("htp", "http")
                .replace("urll", "url")
                .replace("regoin", "region")
        );
        assert!(fixed.applied.len() >= 3, "{:?}", fixed.applied);
        assert!(analyze(&fixed.text, Syntax::Yaml).diagnostics.is_empty());
    }

    #[test]
    fn a_clean_document_is_left_alone() {
        let text = "data:\n  sources:\n    a: {type: static, data: [1]}\n";
        let fixed = fix_all(text, Syntax::Yaml);
        assert_eq!(fixed.text, text);
        assert!(fixed.applied.is_empty());
    }
}
