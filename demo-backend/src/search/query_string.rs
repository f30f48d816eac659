//! The `query_string` grammar the corner models: `field:value` terms over `log.level`,
//! `service.name` and `message`, and bare words, joined by AND.
//!
//! `log.level` and `service.name` are keywords: a term matches the whole value, ignoring case.
//! `message` is text: a term matches whole words, and a value of several words (quote it to keep
//! its spaces, as in `message:"connection refused"`) matches them in sequence. A bare word or
//! quoted phrase matches any of the three fields. `AND` may be written between terms; `*` alone
//! matches every document. Other query syntax (OR, NOT, grouping, wildcards, ranges, fuzziness,
//! boosts) is refused rather than misread.

use super::documents::{LEVELS, SERVICES, TokenIndex, keyword_code, words};

/// The field a term applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `log.level`.
    Level,
    /// `service.name`.
    Service,
    /// `message`.
    Message,
    /// A bare term: any of the three.
    Any,
}

/// One term of a query string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// Where it applies.
    pub field: Field,
    /// The value, unquoted.
    pub value: String,
}

/// Parses a query string into terms joined by AND; an empty list matches every document. The
/// error is the reason, to be wrapped in Elasticsearch's `Failed to parse query [...]`.
pub fn parse(text: &str) -> Result<Vec<Term>, String> {
    if text.trim() == "*" {
        return Ok(Vec::new());
    }
    let mut terms = Vec::new();
    let mut after_and = false;
    for chunk in chunks(text)? {
        if !chunk.quoted && chunk.text == "AND" {
            if terms.is_empty() || after_and {
                return Err("AND must stand between two terms".into());
            }
            after_and = true;
            continue;
        }
        after_and = false;
        terms.push(term(&chunk)?);
    }
    if after_and {
        return Err("AND must stand between two terms".into());
    }
    Ok(terms)
}

/// A run of text up to unquoted whitespace. `quoted` is set when any part of it was in quotes;
/// `bare` is the part before the first quote.
struct Chunk {
    text: String,
    bare: String,
    quoted: bool,
}

fn chunks(text: &str) -> Result<Vec<Chunk>, String> {
    let mut chunks = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return Ok(chunks);
        }
        let mut chunk = Chunk {
            text: String::new(),
            bare: String::new(),
            quoted: false,
        };
        while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
            if c == '"' {
                chunk.quoted = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(inner) => chunk.text.push(inner),
                        None => return Err("a quote is not closed".into()),
                    }
                }
            } else {
                chunk.text.push(c);
                if !chunk.quoted {
                    chunk.bare.push(c);
                }
            }
        }
        chunks.push(chunk);
    }
}

fn term(chunk: &Chunk) -> Result<Term, String> {
    let bare = chunk.bare.as_str();
    if !chunk.quoted && matches!(bare, "OR" | "NOT" | "||" | "&&") {
        return Err(format!("[{bare}] is not modelled: terms are joined by AND"));
    }
    if let Some(operator) = bare.chars().next().filter(|c| matches!(c, '+' | '-' | '!')) {
        return Err(format!(
            "the [{operator}] operator is not modelled: terms are joined by AND"
        ));
    }
    if let Some(special) = bare.chars().find(|c| "()[]{}*?~^/\\<>=".contains(*c)) {
        return Err(format!(
            "[{special}] is not modelled: grouping, ranges, wildcards, regular expressions, fuzziness and boosts are not supported"
        ));
    }
    if chunk.text.trim().is_empty() {
        return Err("an empty phrase matches nothing".into());
    }
    let Some((field, _)) = bare.split_once(':') else {
        return Ok(Term {
            field: Field::Any,
            value: chunk.text.clone(),
        });
    };
    let field = match field {
        "log.level" => Field::Level,
        "service.name" => Field::Service,
        "message" => Field::Message,
        other => {
            return Err(format!(
                "unknown field [{other}]: the fields are log.level, service.name and message"
            ));
        }
    };
    let value = chunk.text[chunk.text.find(':').map_or(0, |colon| colon + 1)..].to_string();
    if value.trim().is_empty() {
        return Err(format!("the term [{}] has no value", chunk.text));
    }
    Ok(Term { field, value })
}

/// A query resolved against the token index: the keyword codes every keyword-only term accepts,
/// folded into one mask, and the terms that may also need the message.
#[derive(Clone, Debug)]
pub struct Matcher {
    keywords: u32,
    others: Vec<CompiledTerm>,
}

impl Matcher {
    /// Resolves `terms` (joined by AND) against `index`.
    pub fn new(terms: &[Term], index: &TokenIndex) -> Matcher {
        let mut keywords = u32::MAX;
        let mut others = Vec::new();
        for term in terms.iter().map(|term| CompiledTerm::new(term, index)) {
            if term.phrase.is_none() {
                keywords &= term.codes;
            } else {
                others.push(term);
            }
        }
        Matcher { keywords, others }
    }

    /// Whether document `doc`, with keyword code `code`, matches every term.
    pub fn matches_code(&self, index: &TokenIndex, doc: usize, code: u8) -> bool {
        self.keywords >> code & 1 != 0
            && self
                .others
                .iter()
                .all(|term| term.matches(index, doc, code))
    }

    /// Whether document `doc` is indexed and matches every term.
    pub fn matches(&self, index: &TokenIndex, doc: u64) -> bool {
        let doc = usize::try_from(doc).unwrap_or(usize::MAX);
        index
            .code(doc)
            .is_some_and(|code| self.matches_code(index, doc, code))
    }
}

/// One term resolved against the token index: the keyword codes it accepts, and the word ids a
/// message must contain in sequence (`None`: the term does not look at messages).
#[derive(Clone, Debug)]
struct CompiledTerm {
    codes: u32,
    phrase: Option<Vec<u32>>,
}

impl CompiledTerm {
    fn new(term: &Term, index: &TokenIndex) -> CompiledTerm {
        let levels = keyword_matches(&LEVELS, &term.value);
        let services = keyword_matches(&SERVICES, &term.value);
        let level_codes = codes(|level, _| levels.contains(&level));
        let service_codes = codes(|_, service| services.contains(&service));
        let phrase = || {
            let ids: Option<Vec<u32>> = words(&term.value)
                .map(|word| index.word_id(&word))
                .collect();
            // A word no document has: the phrase matches no message, an empty one likewise.
            Some(ids.filter(|ids| !ids.is_empty()).unwrap_or_default())
        };
        match term.field {
            Field::Level => CompiledTerm {
                codes: level_codes,
                phrase: None,
            },
            Field::Service => CompiledTerm {
                codes: service_codes,
                phrase: None,
            },
            Field::Message => CompiledTerm {
                codes: 0,
                phrase: phrase(),
            },
            Field::Any => CompiledTerm {
                codes: level_codes | service_codes,
                phrase: phrase(),
            },
        }
    }

    fn matches(&self, index: &TokenIndex, doc: usize, code: u8) -> bool {
        self.codes >> code & 1 != 0
            || self.phrase.as_deref().is_some_and(|phrase| {
                let message = index.words_of(doc);
                match phrase {
                    [] => false,
                    [word] => message.contains(word),
                    _ => message.windows(phrase.len()).any(|window| window == phrase),
                }
            })
    }
}

/// The indexes of the keyword values equal to `value`, ignoring case.
fn keyword_matches(values: &[&str], value: &str) -> Vec<u8> {
    (0..values.len() as u8)
        .filter(|&index| values[usize::from(index)].eq_ignore_ascii_case(value))
        .collect()
}

/// The mask of the keyword codes whose level and service satisfy `accept`.
fn codes(accept: impl Fn(u8, u8) -> bool) -> u32 {
    let mut mask = 0;
    for level in 0..LEVELS.len() as u8 {
        for service in 0..SERVICES.len() as u8 {
            if accept(level, service) {
                mask |= 1 << keyword_code(level, service);
            }
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(field: Field, value: &str) -> Term {
        Term {
            field,
            value: value.into(),
        }
    }

    #[test]
    fn parses_fields_bare_words_phrases_and_and() {
        let terms = parse(
            r#"log.level:ERROR AND service.name:payments message:"connection refused" timeout "card expired""#,
        );
        assert_eq!(
            terms.expect("parses"),
            vec![
                term(Field::Level, "ERROR"),
                term(Field::Service, "payments"),
                term(Field::Message, "connection refused"),
                term(Field::Any, "timeout"),
                term(Field::Any, "card expired"),
            ]
        );
        assert_eq!(parse("  *  ").expect("match all"), Vec::new());
        assert_eq!(parse("").expect("empty"), Vec::new());
        assert_eq!(
            parse("message:product:123").expect("colon in value"),
            vec![term(Field::Message, "product:123")]
        );
    }

    #[test]
    fn refuses_what_it_does_not_model() {
        // Each refusal names what is wrong with the query, in the words the 400 answer carries.
        for (query, reason) in [
            ("a OR b", "[OR] is not modelled: terms are joined by AND"),
            ("NOT a", "[NOT] is not modelled"),
            ("-a", "the [-] operator is not modelled"),
            ("a*", "[*] is not modelled: grouping, ranges, wildcards"),
            ("(a)", "[(] is not modelled"),
            (
                "host:web",
                "unknown field [host]: the fields are log.level, service.name and message",
            ),
            ("message:", "the term [message:] has no value"),
            ("AND a", "AND must stand between two terms"),
            ("a AND", "AND must stand between two terms"),
            ("\"open", "a quote is not closed"),
            ("a~2", "[~] is not modelled"),
            ("\"\"", "an empty phrase matches nothing"),
            ("message:\" \"", "has no value"),
        ] {
            let refusal = parse(query).expect_err(query);
            assert!(
                refusal.contains(reason),
                "{query}: `{refusal}` does not say `{reason}`"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_parses_or_is_refused_without_panicking(text in "[ a-zA-Z0-9:.\"*()~+-]{0,40}|\\PC{0,40}") {
            if let Ok(terms) = parse(&text) {
                proptest::prop_assert!(terms.iter().all(|term| !term.value.trim().is_empty()));
            }
        }
    }
}
