//! What each log document says, as a pure function of the seed and its number, and the compact
//! token index that lets a `query_string` scan tens of thousands of them in well under a
//! millisecond.

use std::collections::HashMap;
use std::sync::RwLock;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The `log.level` values, by index.
pub const LEVELS: [&str; 4] = ["DEBUG", "INFO", "WARN", "ERROR"];

/// The `service.name` values, by index.
pub const SERVICES: [&str; 8] = [
    "checkout",
    "payments",
    "auth",
    "catalog",
    "gateway",
    "inventory",
    "notifications",
    "search",
];

const FLAGS: [&str; 4] = ["new-checkout", "dark-mode", "fast-search", "one-click-pay"];

/// One generated document's fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// Index into [`LEVELS`].
    pub level: u8,
    /// Index into [`SERVICES`].
    pub service: u8,
    /// The log message.
    pub message: String,
}

/// Generates documents from the seed: document `d` draws from its own ChaCha stream `d`, so it is
/// the same whatever else was generated before.
#[derive(Clone, Debug)]
pub struct DocumentSource {
    rng: ChaCha8Rng,
    id_key: u64,
}

impl DocumentSource {
    /// The source for `seed`.
    pub fn new(seed: u64) -> DocumentSource {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let id_key = rng.random();
        DocumentSource { rng, id_key }
    }

    /// The `_id` of document `doc`: a bijection of its number, so ids never collide.
    pub fn id(&self, doc: u64) -> String {
        format!(
            "{:016x}",
            doc.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.id_key
        )
    }

    /// The fields of document `doc`.
    pub fn document(&self, doc: u64) -> Document {
        let mut rng = self.rng.clone();
        rng.set_stream(doc);
        rng.set_word_pos(0);
        let level: u8 = match rng.random_range(0..100) {
            0..20 => 0,
            20..80 => 1,
            80..93 => 2,
            _ => 3,
        };
        let service = rng.random_range(0..SERVICES.len() as u8);
        let other = SERVICES[rng.random_range(0..SERVICES.len())];
        let number = rng.random_range(100_000..1_000_000_u32);
        let millis = rng.random_range(2..2_000_u32);
        let small = rng.random_range(1..6_u32);
        let variant = rng.random_range(0..4_u8);
        let message = match (level, variant) {
            (0, 0) => format!("cache hit for key product:{number}"),
            (0, 1) => format!("cache miss for key product:{number}"),
            (0, 2) => format!("opened connection {small} to postgres"),
            (0, _) => format!(
                "feature flag {} evaluated to {}",
                FLAGS[number as usize % FLAGS.len()],
                millis % 2 == 0
            ),
            (1, 0) => format!("GET /api/orders/{number} 200 in {millis}ms"),
            (1, 1) => format!("POST /api/cart 201 in {millis}ms"),
            (1, 2) => format!("user u{number} signed in"),
            (1, _) => format!("order {number} placed with {small} items"),
            (2, 0) => format!("slow query on orders took {}ms", millis + 2_000),
            (2, 1) => format!("retrying request to {other} (attempt {small})"),
            (2, 2) => format!("connection pool at {}% capacity", 80 + number % 20),
            (2, _) => format!("GET /api/orders/{number} 429 rate limited"),
            (_, 0) => format!("payment {number} declined: card expired"),
            (_, 1) => format!("timeout calling {other} after {millis}ms"),
            (_, 2) => format!("connection refused by {other}:5432"),
            (_, _) => format!("panic in worker {small}: index out of bounds"),
        };
        Document {
            level,
            service,
            message,
        }
    }
}

/// Splits text into lowercase words: runs of letters and digits.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
}

/// A document's level and service in one byte, `level * 8 + service`: a set of codes fits a
/// `u32` mask, so keyword terms test a document with one shift.
pub fn keyword_code(level: u8, service: u8) -> u8 {
    level << 3 | service
}

const _: () = assert!(SERVICES.len() <= 8 && LEVELS.len() * 8 <= 32);

/// The searchable form of the documents generated so far, by column: keyword codes, and message
/// words as interned ids.
#[derive(Debug, Default)]
pub struct TokenIndex {
    /// Per document, its [`keyword_code`].
    codes: Vec<u8>,
    /// Per document, where its words end in `words` (they start where the previous ones end).
    word_ends: Vec<u32>,
    /// The message words of every document, back to back.
    words: Vec<u32>,
    /// Word → id.
    vocabulary: HashMap<String, u32>,
}

impl TokenIndex {
    /// How many documents are indexed (documents `0..len`).
    pub fn len(&self) -> u64 {
        self.codes.len() as u64
    }

    /// The id of `word` (already lowercase), if any document has it.
    pub fn word_id(&self, word: &str) -> Option<u32> {
        self.vocabulary.get(word).copied()
    }

    /// The keyword codes of the indexed documents below `end`, by document number.
    pub fn codes_below(&self, end: u64) -> &[u8] {
        let end = usize::try_from(end)
            .unwrap_or(usize::MAX)
            .min(self.codes.len());
        &self.codes[..end]
    }

    /// The keyword code of document `doc`, if indexed.
    pub fn code(&self, doc: usize) -> Option<u8> {
        self.codes.get(doc).copied()
    }

    /// The message word ids of document `doc` (empty if it is not indexed).
    pub fn words_of(&self, doc: usize) -> &[u32] {
        let start = doc
            .checked_sub(1)
            .and_then(|previous| self.word_ends.get(previous))
            .map_or(0, |&end| end);
        let end = self.word_ends.get(doc).map_or(start, |&end| end);
        &self.words[start as usize..end as usize]
    }

    /// Indexes documents until `len` are indexed.
    fn extend_to(&mut self, source: &DocumentSource, len: u64) {
        for number in self.len()..len {
            let document = source.document(number);
            for word in words(&document.message) {
                let next_id = self.vocabulary.len() as u32;
                let id = *self.vocabulary.entry(word).or_insert(next_id);
                self.words.push(id);
            }
            self.codes
                .push(keyword_code(document.level, document.service));
            self.word_ends.push(self.words.len() as u32);
        }
    }
}

/// The token index, grown on demand as documents arrive. Readers share it; a reader that needs
/// more documents than are indexed extends it first.
#[derive(Debug, Default)]
pub struct GrowingIndex {
    index: RwLock<TokenIndex>,
}

impl GrowingIndex {
    /// Runs `read` on an index that holds at least the first `len` documents.
    pub fn read<T>(
        &self,
        source: &DocumentSource,
        len: u64,
        read: impl FnOnce(&TokenIndex) -> T,
    ) -> T {
        {
            let index = self
                .index
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if index.len() >= len {
                return read(&index);
            }
        }
        let mut index = self
            .index
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        index.extend_to(source, len);
        read(&index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_depends_only_on_the_seed_and_its_number() {
        let source = DocumentSource::new(11);
        assert_eq!(source.document(5), DocumentSource::new(11).document(5));
        assert_ne!(
            (0..20).map(|doc| source.document(doc)).collect::<Vec<_>>(),
            (0..20)
                .map(|doc| DocumentSource::new(12).document(doc))
                .collect::<Vec<_>>()
        );
        assert_ne!(source.id(0), source.id(1));
    }

    #[test]
    fn the_index_grows_on_demand_and_interns_words() {
        let source = DocumentSource::new(3);
        let index = GrowingIndex::default();
        let indexed = index.read(&source, 50, |index| index.len());
        assert_eq!(indexed, 50);
        index.read(&source, 10, |index| {
            assert_eq!(index.len(), 50);
            let document = source.document(7);
            assert_eq!(
                index.code(7),
                Some(keyword_code(document.level, document.service))
            );
            let ids: Vec<Option<u32>> = words(&document.message)
                .map(|word| index.word_id(&word))
                .collect();
            assert_eq!(
                ids,
                index
                    .words_of(7)
                    .iter()
                    .map(|&id| Some(id))
                    .collect::<Vec<_>>()
            );
            assert!(index.words_of(50).is_empty());
        });
    }
}
