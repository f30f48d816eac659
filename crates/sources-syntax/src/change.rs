//! The changed part of a text between two versions, found by comparing them from both ends.

/// The changed part of a text: `old[start..old_end]` became `new[start..new_end]`; the bytes
/// before `start` and after the ends are the same in both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// First changed byte, in both texts.
    pub start: usize,
    /// End of the replaced bytes in the old text.
    pub old_end: usize,
    /// End of the replacing bytes in the new text.
    pub new_end: usize,
}

impl Change {
    /// The smallest change turning `old` into `new` (longest common prefix, then the longest
    /// common suffix of what is left); `None` when they are equal.
    pub fn between(old: &str, new: &str) -> Option<Change> {
        let (old, new) = (old.as_bytes(), new.as_bytes());
        let start = common_prefix(old, new);
        if start == old.len() && start == new.len() {
            return None;
        }
        let room = old.len().min(new.len()) - start;
        let suffix = common_suffix(&old[old.len() - room..], &new[new.len() - room..]);
        Some(Change {
            start,
            old_end: old.len() - suffix,
            new_end: new.len() - suffix,
        })
    }

    /// No change, at the end of a text of `len` bytes.
    pub const fn none(len: usize) -> Change {
        Change {
            start: len,
            old_end: len,
            new_end: len,
        }
    }

    /// How much longer the new text is.
    pub const fn delta(&self) -> isize {
        self.new_end as isize - self.old_end as isize
    }

    /// Whether the change turns a text of `old_len` bytes into one of `new_len`: its ends lie
    /// in order inside both, and what follows them has the same length.
    pub fn fits(&self, old_len: usize, new_len: usize) -> bool {
        self.start <= self.old_end
            && self.start <= self.new_end
            && self.old_end <= old_len
            && self.new_end <= new_len
            && old_len - self.old_end == new_len - self.new_end
    }
}

/// Length of the common prefix, compared a block at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let len = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= len && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    while at < len && a[at] == b[at] {
        at += 1;
    }
    at
}

/// Length of the common suffix of two slices of equal length.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let len = a.len();
    let mut matched = 0;
    while matched + BLOCK <= len
        && a[len - matched - BLOCK..len - matched] == b[len - matched - BLOCK..len - matched]
    {
        matched += BLOCK;
    }
    while matched < len && a[len - matched - 1] == b[len - matched - 1] {
        matched += 1;
    }
    matched
}

#[cfg(test)]
mod tests {
    use super::Change;

    #[test]
    fn the_change_is_what_lies_between_the_common_ends() {
        assert_eq!(Change::between("abc", "abc"), None);
        let change = Change::between("a: 1\nb: 2\n", "a: 1\nb: 22\n").expect("a change");
        assert_eq!((change.start, change.old_end, change.new_end), (9, 9, 10));
        assert_eq!(change.delta(), 1);
        assert!(change.fits(10, 11) && !change.fits(11, 11));
        // A repeated letter: the prefix is taken first, so the suffix does not overlap it.
        let change = Change::between("aaa", "aa").expect("a change");
        assert_eq!((change.start, change.old_end, change.new_end), (2, 3, 2));
        assert_eq!(Change::none(4).delta(), 0);
    }
}
