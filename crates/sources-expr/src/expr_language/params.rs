//! An expr-lang expression over parameters alone: whether it reads the row, and the whole of it
//! as a part evaluated with `params` only (the lexemes give no finer parts).

use crate::ParamPart;
use crate::facts::Facts;

/// Whether the expression reads the row: a name other than `params`.
pub(crate) fn reads_row(facts: &Facts) -> bool {
    facts
        .fields
        .iter()
        .any(|path| path.segments[0].0 != "params")
}

/// The whole expression as a part, when it reads nothing but `params.NAME` and literals.
pub(crate) fn whole(facts: &Facts, text: &str) -> Option<ParamPart> {
    if reads_row(facts) {
        return None;
    }
    let mut names: Vec<(String, std::ops::Range<usize>)> = Vec::new();
    for path in &facts.fields {
        let (name, range) = path.segments.get(1)?;
        if !names.iter().any(|(read, _)| read == name) {
            names.push((name.clone(), range.clone()));
        }
    }
    Some(ParamPart {
        range: 0..text.len(),
        names,
        node: 0,
    })
}
