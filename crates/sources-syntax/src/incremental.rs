//! Parsing a document's next version from its previous tree: when an edit lies inside one entry of
//! a block mapping, only that entry's text is parsed again and its subtree spliced in.
//!
//! The splice is taken only where parsing the entry alone provably gives what parsing the whole
//! text would: YAML (TOML is always parsed whole), a previous tree without syntax errors, anchors,
//! aliases or merge keys (so no node's value comes from text outside its span), an entry of a block
//! mapping reached through block mappings only, whose new text starts with its key at the same
//! column, indents every other line deeper than that key (so it cannot end the mapping or belong to
//! a parent), holds no tab, lone carriage return, byte order mark or control character, ends at a
//! line end, and parses alone into exactly one entry, without errors, anchors or aliases, under a
//! key no sibling has. The deepest entry holding the edit is tried first, then up to three enclosing
//! ones. Anything else parses the whole text. The entries around it keep their
//! subtrees; those after it move by the edit's length.

use crate::{Change, Entry, Node, Parse, Span, Syntax, Value, yaml};

/// A document's parse, kept so that its next version can be parsed from it.
#[derive(Clone, Debug)]
pub struct Tree {
    syntax: Syntax,
    parse: Parse,
    /// Whether entries may be spliced: YAML that parsed without errors into a root and uses no
    /// anchors, aliases or merge keys.
    splicable: bool,
    /// What the last update parsed again (see [`Tree::reparsed`]).
    reparsed: Option<Vec<usize>>,
    /// What the last update changed (see [`Tree::change`]).
    change: Option<Change>,
}

/// How [`Tree::update`] made the new version's tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reparse {
    /// The text did not change.
    Unchanged,
    /// One entry was parsed again and spliced in; `depth` mappings down (1: a key of the root).
    Spliced {
        /// How deep the reparsed entry's key is.
        depth: usize,
    },
    /// The whole text was parsed again.
    Full,
}

impl Tree {
    /// Parses `text` as [`crate::parse`] does, keeping what the next version needs.
    pub fn new(text: &str, syntax: Syntax) -> Tree {
        let (parse, local) = match syntax {
            Syntax::Yaml if crate::control_character(text).is_none() => yaml::parse_local(text),
            _ => (crate::parse(text, syntax), false),
        };
        let splicable = local && parse.errors.is_empty() && parse.root.is_some();
        Tree {
            syntax,
            parse,
            splicable,
            reparsed: None,
            change: None,
        }
    }

    /// What the last [`Tree::update`] parsed again: the index of each entry from the root's mapping
    /// down to the one it parsed again and spliced in (an empty path when the text did not
    /// change). Every other entry of the previous tree was kept as it was, moved by the change of
    /// the text's length when it lies after the edit, so what was derived from it holds for the
    /// new text too. `None` when the tree was built or parsed whole.
    pub fn reparsed(&self) -> Option<&[usize]> {
        self.reparsed.as_deref()
    }

    /// What the last [`Tree::update`] changed, from the text before it to the text after (an empty
    /// change at the end when the text did not change), found once for every reader of the new
    /// version (its line index too); `None` when the tree was built by [`Tree::new`].
    pub fn change(&self) -> Option<Change> {
        self.change
    }

    /// The parse of the text this tree was last built or updated from.
    pub fn parse(&self) -> &Parse {
        &self.parse
    }

    /// The syntax the tree is parsed as.
    pub fn syntax(&self) -> Syntax {
        self.syntax
    }

    /// The parse, giving up the tree.
    pub fn into_parse(self) -> Parse {
        self.parse
    }

    /// Moves the tree from `old` (the text it was built from) to `new`; the result always equals
    /// `parse(new)`, spans and errors included. Given some other `old` it does not panic: a key
    /// past that text's end makes it parse `new` whole.
    pub fn update(&mut self, old: &str, new: &str) -> Reparse {
        self.update_changed(old, new, Change::between(old, new))
    }

    /// [`Tree::update`] with the change from `old` to `new` the caller already found
    /// ([`Change::between`]; `None` when they are equal), so that the texts are compared once for
    /// every reader of the new version. A change that does not fit the two texts' lengths makes
    /// it parse `new` whole.
    pub fn update_changed(&mut self, old: &str, new: &str, change: Option<Change>) -> Reparse {
        let Some(edit) = change else {
            if old.len() != new.len() {
                *self = Tree::new(new, self.syntax);
                return Reparse::Full;
            }
            self.reparsed = Some(Vec::new());
            self.change = Some(Change::none(new.len()));
            return Reparse::Unchanged;
        };
        if !edit.fits(old.len(), new.len()) {
            *self = Tree::new(new, self.syntax);
            return Reparse::Full;
        }
        if self.splicable
            && let Some(root) = self.parse.root.as_mut()
            && let Some(path) = splice(root, old, new, edit)
        {
            let depth = path.len();
            self.reparsed = Some(path);
            self.change = Some(edit);
            return Reparse::Spliced { depth };
        }
        *self = Tree::new(new, self.syntax);
        self.change = Some(edit);
        Reparse::Full
    }
}

/// One step of the path from the root to the edited entry: the entry's index in its mapping and
/// the text it owns, `[start, end)` in the old text (from its key's line to the next key's line).
#[derive(Clone, Copy, Debug)]
struct Step {
    index: usize,
    start: usize,
    end: usize,
}

/// How many enclosing entries [`splice`] tries, deepest first, before it gives up: enough for an
/// edit inside a field of an entry of `data.sources` to fall back to the entry, `sources` or `data`.
const MAX_TRIES: usize = 4;

/// Splices the edit into the tree at the deepest entry where that is sound, giving the index of
/// each entry on the way to it (its depth is their count); `None` (and the tree untouched) when
/// there is none.
///
/// Each try parses an entry's text alone; after [`MAX_TRIES`] entries the whole text is parsed
/// instead, so a deep document whose edit fails level after level costs a few whole parses at
/// most, not one per level.
fn splice(root: &mut Node, old: &str, new: &str, edit: Change) -> Option<Vec<usize>> {
    let path = path_to(root, old, edit);
    for depth in (0..path.len()).rev().take(MAX_TRIES) {
        let map = mapping_at(root, &path[..depth])?;
        let Some(entry) = reparse_entry(map, path[depth], old, new, edit) else {
            continue;
        };
        let delta = edit.delta();
        let at = path[depth].index;
        map.entries[at] = entry;
        Entry::shift_all(&mut map.entries[at + 1..], delta);
        fix_ends(root, &path[..=depth], delta);
        return Some(path[..=depth].iter().map(|step| step.index).collect());
    }
    None
}

/// The entries from the root down whose text holds the whole edit, each in a block mapping.
fn path_to(root: &Node, old: &str, edit: Change) -> Vec<Step> {
    let mut path = Vec::new();
    let mut node = root;
    let mut end = old.len();
    loop {
        let Value::Map(map) = &node.value else {
            return path;
        };
        if old.as_bytes().get(node.span.start()) == Some(&b'{') || map.entries.is_empty() {
            return path;
        }
        let entries = &map.entries;
        let region = |i: usize| {
            let start = line_start(old, entries[i].key.span.start())?;
            let stop = match entries.get(i + 1) {
                Some(next) => line_start(old, next.key.span.start())?,
                None => end,
            };
            Some((start, stop))
        };
        let after = entries.partition_point(|entry| entry.key.span.start() <= edit.start);
        let candidates = [after, after.wrapping_sub(1)];
        let Some((index, (start, stop))) = candidates
            .into_iter()
            .filter(|&i| i < entries.len())
            .filter_map(|i| Some((i, region(i)?)))
            .find(|&(_, (start, stop))| start <= edit.start && edit.old_end <= stop)
        else {
            return path;
        };
        path.push(Step {
            index,
            start,
            end: stop,
        });
        node = &entries[index].value;
        end = stop;
    }
}

/// The mapping reached by following `path` from the root (every step's value is a mapping).
fn mapping_at<'n>(root: &'n mut Node, path: &[Step]) -> Option<&'n mut crate::Map> {
    let mut node = root;
    for step in path {
        let Value::Map(map) = &mut node.value else {
            return None;
        };
        node = map
            .entries
            .get_mut(step.index)
            .map(|entry| &mut entry.value)?;
    }
    match &mut node.value {
        Value::Map(map) => Some(map),
        _ => None,
    }
}

/// The entry at `step` parsed again from its new text, when that gives what a whole parse would.
fn reparse_entry(
    map: &crate::Map,
    step: Step,
    old: &str,
    new: &str,
    edit: Change,
) -> Option<Entry> {
    let old_entry = &map.entries[step.index];
    let column = old_entry.key.span.start() - step.start;
    if !old.as_bytes()[step.start..old_entry.key.span.start()]
        .iter()
        .all(|&b| b == b' ')
    {
        return None;
    }
    let end = step.end.checked_add_signed(edit.delta())?;
    let region = new.get(step.start..end)?;
    if end < new.len() && !region.ends_with('\n') {
        return None;
    }
    if !entry_text_is_local(region, column) {
        return None;
    }
    let (parse, local) = yaml::parse_local(region);
    if !local || !parse.errors.is_empty() {
        return None;
    }
    let mut root = parse.root?;
    let Value::Map(alone) = &mut root.value else {
        return None;
    };
    if alone.entries.len() != 1 || root.span.start() != column {
        return None;
    }
    let mut entry = std::mem::take(&mut alone.entries).into_vec().pop()?;
    if entry.key.span.start() != column {
        return None;
    }
    let renamed = entry.key.name != old_entry.key.name;
    if renamed
        && map
            .entries
            .iter()
            .any(|other| other.key.name == entry.key.name)
    {
        return None;
    }
    if empty_node_at(&entry, region.len()) {
        return None;
    }
    Entry::shift_all(std::slice::from_mut(&mut entry), step.start as isize);
    Some(entry)
}

/// Whether a value of `entry` is empty and placed at `end`, the end of its text: the parser puts an
/// empty value (such as one that is only a tag, `key: !tag`) at the token after it, which alone is
/// the end of the entry's text but in the document is whatever follows the entry.
fn empty_node_at(entry: &Entry, end: usize) -> bool {
    let mut pending = vec![&entry.value];
    while let Some(node) = pending.pop() {
        if node.span.start() == end && node.span.end() == end {
            return true;
        }
        match &node.value {
            Value::Map(map) => pending.extend(map.entries.iter().map(|entry| &entry.value)),
            Value::Seq(items) => pending.extend(items),
            _ => {}
        }
    }
    false
}

/// Whether an entry's text, alone, parses as it does inside the document: its first line is the
/// key at `column`, every other line that is not blank is indented deeper, and it holds nothing
/// whose meaning depends on where it is (tabs, lone carriage returns, a byte order mark, a
/// directive or document marker, control characters).
fn entry_text_is_local(region: &str, column: usize) -> bool {
    let bytes = region.as_bytes();
    let Some(&first) = bytes.get(column) else {
        return false;
    };
    if !bytes[..column].iter().all(|&b| b == b' ')
        || matches!(
            first,
            b' ' | b'\t' | b'\r' | b'\n' | b'#' | b'?' | b'-' | b'.' | b'%' | b'[' | b'{'
        )
    {
        return false;
    }
    if region.contains(['\t', '\u{feff}']) || crate::control_character(region).is_some() {
        return false;
    }
    if bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
    {
        return false;
    }
    region.split('\n').skip(1).all(|line| {
        let indent = line.bytes().take_while(|&b| b == b' ').count();
        line[indent..].trim_end_matches('\r').is_empty() || indent > column
    })
}

/// The start of the line holding byte `at`; `None` when `at` lies past the end of `text` (a key
/// span from some other text than the tree was built from: the whole text is parsed instead).
fn line_start(text: &str, at: usize) -> Option<usize> {
    let before = text.as_bytes().get(..at)?;
    Some(
        before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |newline| newline + 1),
    )
}

/// After a splice at the end of `path`: moves the entries after each step's entry, and ends each
/// mapping on the path where its last entry's value now ends (a block mapping's span ends there).
fn fix_ends(root: &mut Node, path: &[Step], delta: isize) {
    fn walk(node: &mut Node, path: &[Step], delta: isize) {
        let Value::Map(map) = &mut node.value else {
            return;
        };
        if let Some((step, deeper)) = path.split_first() {
            if !deeper.is_empty() {
                walk(&mut map.entries[step.index].value, deeper, delta);
                Entry::shift_all(&mut map.entries[step.index + 1..], delta);
            }
        }
        let end = map
            .entries
            .last()
            .map_or(node.span.start(), |entry| entry.value.span.end());
        node.span = Span::new(node.span.start(), end.max(node.span.start()));
    }
    walk(root, path, delta);
}
