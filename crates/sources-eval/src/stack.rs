//! The stack an evaluation runs on. Evaluating an entry awaits the entry it reads, so the poll of
//! a chain nests once per entry: the longest chain lint allows
//! ([`MAX_CHAIN_DEPTH`](crate::engine::MAX_CHAIN_DEPTH) entries, every operator kind in turn)
//! needs between 2 and 3 MiB in a debug build. The command line evaluates on the main thread
//! (8 MiB unless `ulimit -s` says otherwise); anything that would evaluate on a runtime's worker
//! or blocking threads (2 MiB) runs [`with_evaluation_stack`] instead.

/// The stack size of an evaluation thread: several times what the deepest chain needs in a debug
/// build. Untouched stack pages cost no memory.
pub const EVALUATION_STACK_BYTES: usize = 16 << 20;

/// Runs `work` on a new thread with [`EVALUATION_STACK_BYTES`] of stack and waits for its result.
/// An error when the thread cannot start, or when `work` panics.
pub fn with_evaluation_stack<T: Send>(work: impl FnOnce() -> T + Send) -> std::io::Result<T> {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .name("sources-evaluate".to_owned())
            .stack_size(EVALUATION_STACK_BYTES)
            .spawn_scoped(scope, work)?;
        thread
            .join()
            .map_err(|_| std::io::Error::other("the evaluation stopped with a panic"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_runs_and_its_result_or_panic_comes_back() {
        let name = with_evaluation_stack(|| std::thread::current().name().map(str::to_owned));
        assert_eq!(name.expect("ran").as_deref(), Some("sources-evaluate"));
        let panicked = with_evaluation_stack(|| panic!("a bug")).expect_err("a panic");
        assert_eq!(panicked.to_string(), "the evaluation stopped with a panic");
    }
}
