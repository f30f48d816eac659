//! The allocation a closed collection's items are kept in, and the emptied buffers reused.

/// Largest buffer, in bytes, whose items [`boxed`] copies into an allocation of their size.
const MAX_SPARE_BYTES: usize = 64 * 1024;

/// The items of a closed collection as the tree keeps them: in an allocation of exactly their
/// size, and `items`' buffer emptied into `spare` for the next collection opened.
///
/// A vector grows by doubling, and shrinking it in place (as `into_boxed_slice` does) leaves the
/// allocator's block as it was when the new size is at least half of it (mimalloc's rule): a
/// mapping of 3 entries kept the block of 4. A large buffer is moved instead: its pages past the
/// last item were never written, so they take no memory, and a copy would double it for a while.
pub(super) fn boxed<T>(mut items: Vec<T>, spare: &mut Vec<Vec<T>>) -> Box<[T]> {
    if items.capacity() * size_of::<T>() > MAX_SPARE_BYTES {
        return items.into_boxed_slice();
    }
    let exact = items.drain(..).collect();
    spare.push(items);
    exact
}

/// The items of a collection built in a vector of its own, in an allocation of exactly their size
/// (the reason is [`boxed`]'s; a large buffer is moved, a small one copied and freed).
pub(super) fn exact<T>(mut items: Vec<T>) -> Box<[T]> {
    if items.len() == items.capacity() || items.capacity() * size_of::<T>() > MAX_SPARE_BYTES {
        return items.into_boxed_slice();
    }
    items.drain(..).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_collections_are_copied_to_their_size_and_large_ones_moved() {
        let mut spare = Vec::new();
        let mut small = Vec::with_capacity(4);
        small.extend([1u64, 2, 3]);
        assert_eq!(*boxed(small, &mut spare), [1, 2, 3]);
        assert_eq!(
            spare.len(),
            1,
            "the emptied buffer is kept for the next collection"
        );
        assert!(spare[0].is_empty() && spare[0].capacity() >= 4);

        let items = MAX_SPARE_BYTES / size_of::<u64>() + 1;
        let large: Vec<u64> = (0..items as u64).collect();
        let start = large.as_ptr();
        let large = boxed(large, &mut spare);
        assert_eq!(
            (large.len(), large.as_ptr()),
            (items, start),
            "moved, not copied"
        );
        assert_eq!(spare.len(), 1, "a large buffer is not kept");
    }

    #[test]
    fn a_vector_of_its_own_is_copied_to_its_size() {
        let mut small = Vec::with_capacity(4);
        small.extend([1u64, 2, 3]);
        let start = small.as_ptr();
        let copied = exact(small);
        assert_eq!(*copied, [1, 2, 3]);
        assert_ne!(
            copied.as_ptr(),
            start,
            "copied into an allocation of three items"
        );

        let full = vec![1u64, 2];
        let start = full.as_ptr();
        let moved = exact(full);
        assert_eq!(moved.as_ptr(), start, "already its size: moved");
    }
}
