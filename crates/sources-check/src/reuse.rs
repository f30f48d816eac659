//! What the editor's analysis of one version keeps for the next, entry by entry of
//! `data.sources`: the decoded entry with its decoding diagnostics, and the diagnostics of the
//! checks that read one entry alone ([`check_entry`]), so that the entries an edit did not touch
//! are neither decoded nor checked again.
//!
//! Which entries those are comes from the tree: after [`sources_syntax::Tree::update`] spliced one
//! entry in, every other entry's subtree is the previous one, moved by the change of the text's
//! length when it lies after the edit ([`sources_syntax::Tree::reparsed`]). Decoding an entry
//! whose value is a map reads only its subtree, and a check of one entry reads only that entry's
//! model and its own text, so for a kept entry both give the previous results moved the same way:
//! the model as a [`Placed`] (the previous one with the bytes it moved by, moved only when
//! something reads it: the analysis reads only the entries an edit can change), the diagnostics by
//! [`shift`]. The checks that read other entries keep their own
//! facts here too ([`crate::cross::Facts`]), handed over as an [`Edit`] (none once the memo is
//! over what it keeps, as it is then dropped). The kept diagnostics are the raw ones, before the
//! analysis's stages (suppressions, the front end's filter and bound), which every version runs
//! again.

use sources_config::{EntryReuse, Placed, Source};
use sources_diagnostics::{Collector, Diagnostic};
use sources_syntax::{Key, LineIndex, Node, Value};

use crate::cross::{Edit, Facts};
use crate::expression_language::{self, Tally};
use crate::settings::Language;
use crate::{
    anchored, expressions, foreign, merge, param_expressions, params, runnable, templates, window,
};

/// The most diagnostics a [`Memo`] keeps: a document with more is checked whole on every version
/// rather than holding them all (the editor shows only the first 1,000 anyway).
const MAX_KEPT: usize = 2_000;

/// What a document's last analysed version kept of each entry, for the analysis of the next one
/// ([`crate::analyze_edited`]). Empty at first: then nothing is reused.
#[derive(Debug, Default)]
pub struct Memo {
    /// The length of the text they were found in.
    text_len: usize,
    /// The indexes of `data` in the root's mapping and of `sources` in `data`'s.
    sources_path: Option<[usize; 2]>,
    /// Per entry of `data.sources`, in order.
    entries: Vec<Kept>,
    /// How many entries the analysis that made it took from the memo before it without decoding
    /// them.
    decoded_reused: usize,
    /// How many entries the analysis that made it did not check again.
    reused: usize,
    /// The line index of the text they were found in (shared with that analysis), which the next
    /// version's is made from.
    pub(crate) line_index: Option<LineIndex>,
    /// What the checks that read other entries kept.
    facts: Facts,
    /// The expression language the analysis that made it read the expressions in.
    pub(crate) language: Language,
}

impl Memo {
    /// How many entries the analysis that made this memo did not check again (it took their
    /// diagnostics from the previous version's memo).
    pub fn reused(&self) -> usize {
        self.reused
    }

    /// How many entries the analysis that made this memo did not decode again (it took their
    /// model from the previous version's memo).
    pub fn decoded_reused(&self) -> usize {
        self.decoded_reused
    }

    /// How many entries the analysis that made this memo ran none of the checks that read other
    /// entries for, nor computed the shapes of (it took them from the previous version's memo).
    pub fn cross_reused(&self) -> usize {
        self.facts.reused()
    }
}

/// One entry: where its name started, its model and decoding diagnostics (when it was decoded
/// from a map), and its checks' diagnostics.
#[derive(Debug, Default)]
struct Kept {
    start: usize,
    source: Option<Placed>,
    decoded: Vec<Diagnostic>,
    found: Vec<Diagnostic>,
    /// Its expressions as `expression-language` counts them.
    tally: Tally,
}

/// The checks of one entry that read nothing but that entry and its text; gives its expressions'
/// [`Tally`] for `expression-language`, which reads every entry's.
pub(crate) fn check_entry(
    source: &Source,
    file: &str,
    language: Language,
    out: &mut Collector,
) -> Tally {
    let entries = std::slice::from_ref(source);
    let parsed = templates::EntryTemplates::of(source);
    merge::check_merge(entries, out);
    window::check_window(entries, file, out);
    anchored::check_anchored(entries, out);
    // Each template was parsed once, for `undeclared-param-reference` and the template rules.
    params::check_references(source, parsed.sites(), file, out);
    templates::check_templates(source, parsed.sites(), file, out);
    let expressions = expressions::entry_sites(source);
    expressions::check_expressions(&expressions, file, language, out);
    param_expressions::check_param_expressions(source, &expressions, file, language, out);
    params::check_unused(source, parsed.sites(), &expressions, file, out);
    foreign::check_foreign(parsed.sites(), &expressions, file, out);
    runnable::check_runnable(source, &parsed, file, out);
    expression_language::tally(source, &expressions, language)
}

/// Where `data.sources` is in the tree: the indexes of the first `data` in the root's mapping and
/// of the first `sources` in its mapping, which are the ones the decoder reads.
pub(crate) fn sources_path(root: Option<&Node>) -> Option<[usize; 2]> {
    let Value::Map(root) = &root?.value else {
        return None;
    };
    let data = root
        .entries
        .iter()
        .position(|entry| entry.key.name == "data")?;
    let Value::Map(map) = &root.entries[data].value.value else {
        return None;
    };
    let sources = map
        .entries
        .iter()
        .position(|entry| entry.key.name == "sources")?;
    Some([data, sources])
}

/// What an analysis reuses from the previous version's [`Memo`], and what it keeps for the next.
pub(crate) struct Reuse {
    previous: Memo,
    /// Per entry of the previous version: by how much its spans move, when it still holds.
    moves: Vec<Option<isize>>,
    /// See [`Edit::local`].
    local: Option<(usize, isize)>,
    /// The entries decoded again.
    fresh: Vec<usize>,
    next: Memo,
    /// How many diagnostics `next` holds.
    kept: usize,
    /// Whether the next memo went over [`MAX_KEPT`] (and is dropped).
    over: bool,
}

impl Reuse {
    /// Reuse of `previous` for a text of `text_len` bytes whose tree last reparsed `reparsed`
    /// (see [`sources_syntax::Tree::reparsed`]) and has `data.sources` at `sources_path`.
    pub(crate) fn new(
        previous: Memo,
        reparsed: Option<&[usize]>,
        text_len: usize,
        sources_path: Option<[usize; 2]>,
    ) -> Reuse {
        let (moves, local) = match (reparsed, sources_path) {
            (Some(reparsed), Some(path)) if previous.sources_path == Some(path) => {
                let delta = text_len as isize - previous.text_len as isize;
                let moves = (0..previous.entries.len())
                    .map(|index| movement(reparsed, [path[0], path[1], index], delta))
                    .collect();
                let local = match reparsed {
                    [] => Some((0, 0)),
                    [data, sources, entry, ..] if [*data, *sources] == path => {
                        previous.entries.get(*entry).map(|kept| (kept.start, delta))
                    }
                    _ => None,
                };
                (moves, local)
            }
            _ => (Vec::new(), None),
        };
        // Every moved entry's model is handed on in one loop ahead of decoding, which does little
        // else for each entry: the models lie apart in memory, and a plain loop lets the
        // processor fetch several at once.
        let mut previous = previous;
        for (kept, delta) in previous.entries.iter_mut().zip(&moves) {
            if let (Some(delta), Some(source)) = (*delta, kept.source.as_mut())
                && delta != 0
            {
                *source = source.moved(delta);
            }
        }
        // The next version holds as many entries, give or take the edit's.
        let entries = Vec::with_capacity(previous.entries.len());
        Reuse {
            previous,
            moves,
            local,
            fresh: Vec::new(),
            next: Memo {
                text_len,
                sources_path,
                entries,
                ..Memo::default()
            },
            kept: 0,
            over: false,
        }
    }

    /// The previous version's entry at `index` and by how much it moved, when the tree update
    /// kept it and its name still starts at `start`.
    fn previous(&mut self, index: usize, start: usize) -> Option<(&mut Kept, isize)> {
        let delta = self.moves.get(index).copied().flatten()?;
        let kept = self.previous.entries.get_mut(index)?;
        (kept.start.checked_add_signed(delta) == Some(start)).then_some((kept, delta))
    }

    /// Counts `count` more kept diagnostics; `false` once the memo is over [`MAX_KEPT`].
    fn keep(&mut self, count: usize) -> bool {
        self.kept += count;
        self.over |= self.kept > MAX_KEPT;
        !self.over
    }

    /// Runs [`check_entry`] on the entry at `index` of `data.sources`, or gives the previous
    /// version's diagnostics for it when its subtree was kept, pushing them into `out`; gives its
    /// expressions' [`Tally`] the same way.
    pub(crate) fn check(
        &mut self,
        index: usize,
        source: &Placed,
        file: &str,
        language: Language,
        out: &mut Collector,
    ) -> Tally {
        let start = source.name_span().start();
        let reused = self.previous(index, start).map(|(kept, delta)| {
            let mut found = std::mem::take(&mut kept.found);
            for diagnostic in &mut found {
                shift(diagnostic, delta);
            }
            (found, kept.tally)
        });
        self.next.reused += usize::from(reused.is_some());
        let (found, tally) = reused.unwrap_or_else(|| {
            let mut fresh = Collector::unbounded();
            let tally = check_entry(source, file, language, &mut fresh);
            (fresh.finish().diagnostics, tally)
        });
        if !self.keep(found.len()) {
            out.extend(found);
            return tally;
        }
        out.extend(found.iter().cloned());
        let count = self.next.entries.len();
        match self.next.entries.get_mut(index) {
            Some(kept) if kept.start == start => {
                kept.found = found;
                kept.tally = tally;
            }
            None if count == index => self.next.entries.push(Kept {
                start,
                found,
                tally,
                ..Kept::default()
            }),
            // Out of step with the entries (which cannot happen): nothing is kept for them.
            _ => self.over = true,
        }
        tally
    }

    /// What the checks that read other entries take from the previous version; `None` once the
    /// next memo is over [`MAX_KEPT`] (it is dropped, so they keep nothing for it either).
    pub(crate) fn edit(&mut self) -> Option<Edit> {
        let previous = std::mem::take(&mut self.previous.facts);
        (!self.over).then(|| Edit {
            previous,
            fresh: std::mem::take(&mut self.fresh),
            local: self.local,
        })
    }

    /// Keeps what the checks that read other entries found, for the next version.
    pub(crate) fn keep_facts(&mut self, facts: Facts) {
        self.next.facts = facts;
    }

    /// What this analysis keeps for the next version.
    pub(crate) fn finish(self) -> Memo {
        if self.over {
            return Memo::default();
        }
        self.next
    }
}

impl EntryReuse for Reuse {
    fn reused(&mut self, index: usize, key: &Key, out: &mut Collector) -> Option<Placed> {
        let (kept, delta) = self.previous(index, key.span.start())?;
        let previous = kept.source.take()?;
        if *previous.name() != key.name {
            return None;
        }
        let mut decoded = std::mem::take(&mut kept.decoded);
        if delta != 0 {
            for diagnostic in &mut decoded {
                shift(diagnostic, delta);
            }
        }
        // Its model was moved when the reuse began.
        let source = previous;
        self.next.decoded_reused += 1;
        out.extend(decoded.iter().cloned());
        self.remember(index, &source, decoded);
        Some(source)
    }

    fn decoded(&mut self, index: usize, source: &Placed, diagnostics: &[Diagnostic]) {
        if !self.over {
            self.fresh.push(index);
        }
        self.remember(index, source, diagnostics.to_vec());
    }
}

impl Reuse {
    /// Keeps the decoded entry at `index` for the next version.
    fn remember(&mut self, index: usize, source: &Placed, decoded: Vec<Diagnostic>) {
        if !self.keep(decoded.len()) || self.next.entries.len() != index {
            return;
        }
        self.next.entries.push(Kept {
            start: source.name_span().start(),
            source: Some(source.clone()),
            decoded,
            found: Vec::new(),
            tally: Tally::default(),
        });
    }
}

/// By how much the diagnostics of the entry at `entry` (its index path from the root) move, when
/// the update that parsed again the entry at `reparsed` kept its subtree: not at all before the
/// edit, by `delta` after it; `None` when the entry lies inside what was parsed again.
fn movement(reparsed: &[usize], entry: [usize; 3], delta: isize) -> Option<isize> {
    match reparsed
        .iter()
        .zip(entry)
        .find(|(edited, at)| *edited != at)
    {
        Some((edited, at)) if *edited < at => Some(delta),
        Some(_) => Some(0),
        // One path holds the other: the entry is in what was parsed again (or holds it), unless
        // nothing was (the text did not change).
        None if reparsed.is_empty() => Some(0),
        None => None,
    }
}

/// Moves every span of `diagnostic` by `delta` bytes.
fn shift(diagnostic: &mut Diagnostic, delta: isize) {
    diagnostic.move_spans(|span| span.shifted(delta));
}

#[cfg(test)]
mod tests {
    use super::movement;

    #[test]
    fn entries_before_an_edit_stay_after_it_move_and_inside_it_are_checked_again() {
        // data.sources at [1, 0]; the edit parsed again entry 2 of it (or a field inside it).
        for reparsed in [&[1, 0, 2][..], &[1, 0, 2, 3]] {
            assert_eq!(movement(reparsed, [1, 0, 1], 5), Some(0));
            assert_eq!(movement(reparsed, [1, 0, 2], 5), None);
            assert_eq!(movement(reparsed, [1, 0, 3], 5), Some(5));
        }
        // `data` or `sources` parsed again: nothing holds.
        assert_eq!(movement(&[1], [1, 0, 0], 5), None);
        assert_eq!(movement(&[1, 0], [1, 0, 0], 5), None);
        // An edit elsewhere: before `data` moves it, after it leaves it.
        assert_eq!(movement(&[0, 4], [1, 0, 0], -2), Some(-2));
        assert_eq!(movement(&[2], [1, 0, 7], -2), Some(0));
        assert_eq!(movement(&[1, 1, 0], [1, 0, 7], 3), Some(0));
        // The text did not change.
        assert_eq!(movement(&[], [1, 0, 7], 0), Some(0));
    }
}
