//! Did-you-mean suggestions for unknown names.

/// Whether `suggestion` (one of [`did_you_mean`]'s) is a misspelling of `name`, not another word:
/// the same but for letter case, or within one edit per four letters of the shorter (at least
/// one; an edit adds, removes or changes a letter, or swaps two neighbours). `regoin` → `region`
/// and `urll` → `url` are; `name` → `namespace` and `tag` → `stage` are other words, which a
/// did-you-mean may name but a rename must not write, as it would change what is meant.
pub fn is_misspelling(name: &str, suggestion: &str) -> bool {
    let name = ascii_lowercase(name);
    let suggestion = ascii_lowercase(suggestion);
    let shorter = name.chars().count().min(suggestion.chars().count());
    strsim::osa_distance(name.as_ref(), suggestion.as_ref()) <= (shorter / 4).max(1)
}

/// The candidates closest to `name`, best first: at most three, each close enough to be a likely
/// typo (Jaro-Winkler similarity ≥ 0.8, or a case-insensitive match, or one containing the other
/// when both have at least three letters: `s` is in `cluster` by chance).
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let lower = ascii_lowercase(name);
    let lower = lower.as_ref();
    let mut letters = Letters::of(lower);
    // The best three so far, by score (highest first) then name, each name once (a name has one
    // score).
    let mut best: Vec<(f64, &str)> = Vec::with_capacity(4);
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        let other = ascii_lowercase(candidate);
        let other = other.as_ref();
        let score = if other == lower {
            2.0
        } else {
            // Most candidates of a large document cannot come close: the bound rules them out
            // without the similarity's own work (and, once three are found, those that could not
            // pass the third), and a candidate that lacks a letter of the shorter of the two
            // holds neither the other.
            let floor = match best.get(2) {
                Some((third, _)) => third.max(SIMILAR),
                None => SIMILAR,
            };
            let (similarity, may_contain) =
                match letters.as_mut().and_then(|name| name.bound(other)) {
                    // Over the floor of a likely typo, under the third's: it cannot pass.
                    Some((bound, _))
                        if bound < floor - BOUND_MARGIN
                            && floor > SIMILAR
                            && bound >= SIMILAR - BOUND_MARGIN =>
                    {
                        continue;
                    }
                    Some((bound, shared)) if bound < floor - BOUND_MARGIN => {
                        (bound, shared == lower.len().min(other.len()))
                    }
                    _ => (strsim::jaro_winkler(lower, other), true),
                };
            let contains = may_contain
                && lower.len() >= 3
                && other.len() >= 3
                && (other.contains(lower) || lower.contains(other));
            if similarity >= SIMILAR {
                similarity
            } else if contains {
                0.79
            } else {
                continue;
            }
        };
        if best.iter().any(|(_, kept)| *kept == candidate) {
            continue;
        }
        let at = best.partition_point(|kept| ranked(kept, &(score, candidate)).is_lt());
        best.insert(at, (score, candidate));
        best.truncate(3);
    }
    best.into_iter().map(|(_, candidate)| candidate).collect()
}

/// The order of suggestions: the higher score first, then the name.
fn ranked(a: &(f64, &str), b: &(f64, &str)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1))
}

/// The Jaro-Winkler similarity from which a candidate is a likely typo.
const SIMILAR: f64 = 0.8;

/// How far under [`SIMILAR`] a bound must be to rule a candidate out: more than the rounding of
/// the similarity's few floating-point operations.
const BOUND_MARGIN: f64 = 1e-9;

/// The letters of an ASCII name, counted, to bound its similarity to a candidate.
struct Letters<'a> {
    text: &'a str,
    counts: [u32; 128],
    /// `counts`, less what the candidate being bounded matched (put back after each).
    left: [u32; 128],
}

impl<'a> Letters<'a> {
    /// The letters of `text`; `None` when it is empty or not ASCII (no bound is given then).
    fn of(text: &'a str) -> Option<Letters<'a>> {
        if text.is_empty() || !text.is_ascii() {
            return None;
        }
        let mut counts = [0u32; 128];
        for byte in text.bytes() {
            counts[usize::from(byte)] += 1;
        }
        Some(Letters {
            text,
            counts,
            left: counts,
        })
    }

    /// An upper bound of `strsim::jaro_winkler(self.text, other)`, for a non-empty ASCII `other`,
    /// with how many letters (counted with repeats, wherever they are) both hold.
    ///
    /// Jaro is `(m / |a| + m / |b| + (m - t) / m) / 3` for `m` matching characters and `t`
    /// transpositions: `m` is at most the characters both hold (counted with repeats, wherever
    /// they are) and `t` at least 0, and it is 0 without a match. Winkler's boost
    /// `j + 0.1 * l * (1 - j)` (for `j > 0.7`, `l` the common prefix up to 4) grows with `j` and
    /// never takes it past 1.
    fn bound(&mut self, other: &str) -> Option<(f64, usize)> {
        if other.is_empty() || !other.is_ascii() {
            return None;
        }
        let mut shared = 0u32;
        for byte in other.bytes() {
            let count = &mut self.left[usize::from(byte)];
            if *count > 0 {
                *count -= 1;
                shared += 1;
            }
        }
        for byte in other.bytes() {
            self.left[usize::from(byte)] = self.counts[usize::from(byte)];
        }
        if shared == 0 {
            return Some((0.0, 0));
        }
        let matched = shared as usize;
        let shared = f64::from(shared);
        let jaro = (shared / self.text.len() as f64 + shared / other.len() as f64 + 1.0) / 3.0;
        let prefix = self
            .text
            .bytes()
            .zip(other.bytes())
            .take(4)
            .take_while(|(a, b)| a == b)
            .count();
        Some((jaro + 0.1 * prefix as f64 * (1.0 - jaro), matched))
    }
}

/// `text` in ASCII lower case, copied only when it has an upper-case letter (field and entry
/// names rarely do, and a document can have an unknown name in every entry).
fn ascii_lowercase(text: &str) -> std::borrow::Cow<'_, str> {
    if text.bytes().any(|byte| byte.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(text.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::{did_you_mean, is_misspelling};

    #[test]
    fn a_misspelling_is_a_few_edits_and_another_word_is_not() {
        for (name, suggestion) in [
            ("regoin", "region"),
            ("urll", "url"),
            ("htp", "http"),
            ("GTE", "GET"),
            ("stratgy", "strategy"),
            ("Timeout", "timeout"),
            ("acitons", "actions"),
        ] {
            assert!(is_misspelling(name, suggestion), "{name} -> {suggestion}");
        }
        for (name, suggestion) in [("name", "namespace"), ("tag", "stage"), ("id", "ids2")] {
            assert!(!is_misspelling(name, suggestion), "{name} -> {suggestion}");
        }
    }

    #[test]
    fn ranks_close_names_first() {
        let fields = [
            "url", "method", "headers", "body", "follow", "paginate", "window",
        ];
        assert_eq!(did_you_mean("urll", fields), vec!["url"]);
        assert_eq!(did_you_mean("header", fields), vec!["headers"]);
        assert_eq!(did_you_mean("Method", fields), vec!["method"]);
        assert!(did_you_mean("zzzz", fields).is_empty());
    }

    /// What `did_you_mean` gave before candidates were ruled out by a bound: the similarity of
    /// every candidate.
    fn unbounded<'a>(name: &str, candidates: &[&'a str]) -> Vec<&'a str> {
        let lower = name.to_ascii_lowercase();
        let mut scored: Vec<(f64, &str)> = candidates
            .iter()
            .copied()
            .filter(|candidate| *candidate != name)
            .filter_map(|candidate| {
                let other = candidate.to_ascii_lowercase();
                let score = if other == lower {
                    2.0
                } else {
                    let similarity = strsim::jaro_winkler(&lower, &other);
                    let contains = lower.len() >= 3
                        && other.len() >= 3
                        && (other.contains(&lower) || lower.contains(&other));
                    if similarity >= 0.8 {
                        similarity
                    } else if contains {
                        0.79
                    } else {
                        return None;
                    }
                };
                Some((score, candidate))
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        scored.dedup_by(|a, b| a.1 == b.1);
        scored.into_iter().take(3).map(|(_, c)| c).collect()
    }

    #[test]
    fn the_bound_rules_out_only_candidates_that_could_not_be_suggested() {
        // Names as a large document has them, their near misses, and edge cases: repeated,
        // reordered and shared letters, short names, upper case, non-ASCII and empty.
        let mut names: Vec<String> = Vec::new();
        for stem in [
            "apps", "run", "healthy", "sorted", "a", "ab", "ba", "abc", "cab", "aaab",
        ] {
            for n in [0, 1, 7, 10, 12, 21, 100] {
                names.push(format!("{stem}_{n}"));
            }
            names.push(stem.to_owned());
            names.push(stem.to_uppercase());
            names.push(stem.chars().rev().collect());
        }
        names.extend(["", "é", "apps_é", "x", "xy", "yx", "zzzz"].map(str::to_owned));
        let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut compared = 0;
        for name in &candidates {
            for typo in [
                name.to_string(),
                format!("{name}z"),
                name.replacen('p', "z", 1),
                name.replacen('_', "", 1),
                name.chars().skip(1).collect(),
            ] {
                assert_eq!(
                    did_you_mean(&typo, candidates.iter().copied()),
                    unbounded(&typo, &candidates),
                    "{typo}"
                );
                compared += 1;
            }
        }
        assert!(compared > 500, "{compared}");
    }
}
