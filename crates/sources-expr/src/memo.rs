//! Compile outcomes remembered process-wide by language and text. The outcome is a pure function
//! of the two, and compiling is the checker's most expensive step (the CEL parser costs about as
//! much per expression as parsing a hundred lines of YAML): an expression written in many entries
//! is compiled once, and the editor, which analyses every version of a document, compiles only
//! the expressions whose text changed. Only the facts are kept, not the program.

use std::sync::{Arc, Mutex, PoisonError};

use foldhash::HashMap;

use crate::{CompileError, Facts, Language};

/// What compiling one text gave.
type Outcome = Result<Arc<Facts>, CompileError>;

/// The facts of `source` as `language`, or its first compile error, remembered.
pub(crate) fn facts(language: Language, source: &str) -> Outcome {
    static MEMO: Mutex<CompileMemo> = Mutex::new(CompileMemo::new());
    if let Some(outcome) = MEMO
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(language, source)
    {
        return outcome;
    }
    let outcome = crate::compile(language, source).map(|compiled| Arc::new(compiled.facts));
    MEMO.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(language, source, outcome.clone());
    outcome
}

/// Compile outcomes by language and text, bounded: when the texts kept reach
/// [`CompileMemo::BYTES`], the memo starts over (a document with that many distinct expressions is
/// rare, and then it only costs the compiles it would have cost anyway).
struct CompileMemo {
    /// Per language, the outcomes by text.
    outcomes: Vec<(Language, HashMap<String, Outcome>)>,
    bytes: usize,
}

impl CompileMemo {
    /// The most expression text kept, in bytes.
    const BYTES: usize = 1 << 20;

    const fn new() -> CompileMemo {
        CompileMemo {
            outcomes: Vec::new(),
            bytes: 0,
        }
    }

    fn get(&self, language: Language, source: &str) -> Option<Outcome> {
        let (_, outcomes) = self.outcomes.iter().find(|(kept, _)| *kept == language)?;
        outcomes.get(source).cloned()
    }

    fn insert(&mut self, language: Language, source: &str, outcome: Outcome) {
        if source.len() > Self::BYTES / 16 {
            return;
        }
        if self.bytes + source.len() > Self::BYTES {
            self.outcomes.clear();
            self.bytes = 0;
        }
        self.bytes += source.len();
        let at = match self.outcomes.iter().position(|(kept, _)| *kept == language) {
            Some(at) => at,
            None => {
                self.outcomes.push((language, HashMap::default()));
                self.outcomes.len() - 1
            }
        };
        self.outcomes[at].1.insert(source.to_owned(), outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_outcome_is_the_first_error_of_a_fresh_compile() {
        for source in ["status == && x", "a ==\n  b )", "health == 'ok'", ""] {
            let fresh =
                crate::compile(Language::Cel, source).map(|compiled| Arc::new(compiled.facts));
            assert_eq!(facts(Language::Cel, source), fresh, "{source:?}");
            assert_eq!(
                facts(Language::Cel, source),
                fresh,
                "{source:?}, remembered"
            );
        }
    }

    #[test]
    fn the_compile_memo_starts_over_when_full_and_skips_huge_texts() {
        let mut memo = CompileMemo::new();
        let ok = || Ok(Arc::new(Facts::default()));
        let cel = Language::Cel;
        let text = "x".repeat(CompileMemo::BYTES / 16);
        memo.insert(cel, &text, ok());
        assert_eq!(memo.get(cel, &text), Some(ok()));
        memo.insert(cel, &format!("{text}y"), ok());
        assert_eq!(memo.get(cel, &format!("{text}y")), None, "too long to keep");
        for index in 0..16 {
            memo.insert(cel, &format!("{index:02}{}", &text[2..]), ok());
        }
        assert!(memo.bytes <= CompileMemo::BYTES);
        assert_eq!(
            memo.get(cel, &text),
            None,
            "forgotten when the memo started over"
        );
        assert_eq!(memo.get(cel, &format!("15{}", &text[2..])), Some(ok()));
    }
}
