//! Did-you-mean suggestions for unknown names.

/// The candidates closest to `name`, best first: at most three, each close enough to be a likely
/// typo (Jaro-Winkler similarity ≥ 0.8, or a case-insensitive match, or one containing the other).
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let lower = ascii_lowercase(name);
    let lower = lower.as_ref();
    let mut scored: Vec<(f64, &str)> = candidates
        .into_iter()
        .filter(|candidate| *candidate != name)
        .filter_map(|candidate| {
            let other = ascii_lowercase(candidate);
            let other = other.as_ref();
            let score = if other == lower {
                2.0
            } else {
                let similarity = strsim::jaro_winkler(lower, other);
                let contains = lower.len() >= 3 && (other.contains(lower) || lower.contains(other));
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
    scored
        .into_iter()
        .take(3)
        .map(|(_, candidate)| candidate)
        .collect()
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
    use super::did_you_mean;

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
}
