//! Configurations with the deepest chain of entries the format allows, for tests that prove a
//! front end follows one without overflowing its stack.

/// The operator kinds [`chain`] can stack, each reading the entry below it and keeping rows with
/// a number `n` (a `pipe` entry is a passthrough with a sort and a filter in its `pipe`).
pub const CHAIN_KINDS: [&str; 9] = [
    "filter",
    "sort",
    "project",
    "passthrough",
    "union",
    "merge",
    "cache",
    "pipe",
    "derive",
];

/// A YAML configuration of `entries` entries: `s0` is `base` (a flow mapping), and each `sN`
/// above it reads `sN-1` with the kind `kinds[N % kinds.len()]`, one of [`CHAIN_KINDS`]. The top
/// entry, `s{entries - 1}`, starts a chain of exactly `entries` entries.
///
/// # Panics
/// On a kind that is not one of [`CHAIN_KINDS`], or an empty `kinds`.
pub fn chain(base: &str, kinds: &[&str], entries: usize) -> String {
    let mut text = format!("data:\n  sources:\n    s0: {base}\n");
    for level in 1..entries {
        let from = format!("s{}", level - 1);
        let body = match kinds[level % kinds.len()] {
            "passthrough" => format!("{{type: passthrough, from: {from}}}"),
            "filter" => format!("{{type: filter, from: {from}, where: \"n >= 1\"}}"),
            "sort" => format!("{{type: sort, from: {from}, by: n, order: desc}}"),
            "project" => format!("{{type: project, from: {from}, keep: {{n: n}}}}"),
            "derive" => format!("{{type: derive, from: {from}, compute: {{m: \"n + 1\"}}}}"),
            "cache" => format!("{{type: cache, from: {from}, ttl: 5s}}"),
            "union" => format!("{{type: union, sources: [{from}]}}"),
            "merge" => format!("{{type: merge, children: [{{source: {from}}}]}}"),
            "pipe" => format!(
                "{{type: passthrough, from: {from}, pipe: [{{type: sort, by: n}}, {{type: filter, where: \"n < 3\"}}]}}"
            ),
            other => panic!("no chain template for the kind {other:?}"),
        };
        text.push_str(&format!("    s{level}: {body}\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_entry_reads_the_one_below_with_the_kinds_in_turn() {
        assert_eq!(
            chain("{type: static, data: []}", &["merge", "union"], 4),
            "data:\n  sources:\n    s0: {type: static, data: []}\n    \
             s1: {type: union, sources: [s0]}\n    \
             s2: {type: merge, children: [{source: s1}]}\n    \
             s3: {type: union, sources: [s2]}\n"
        );
    }
}
