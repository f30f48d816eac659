//! Running one job per item on several threads, with the results handed back in the items' order,
//! so that what is printed from them is the same whatever the number of threads.

use std::num::NonZero;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Stack size of each worker thread: the main thread's usual 8 MiB, so that no input a one-thread
/// run analyses overflows a worker's stack.
const WORKER_STACK_BYTES: usize = 8 * 1024 * 1024;

/// The number of threads to use for `requested` (`0`: one per core this process may use).
pub fn threads(requested: usize) -> usize {
    if requested > 0 {
        requested
    } else {
        std::thread::available_parallelism().map_or(1, NonZero::get)
    }
}

/// Runs `job` on the items, on up to `threads` threads (the calling one among them), each item
/// taken in order by whichever thread is free. Returns the results in the items' order, up to and
/// including the first error: after a job fails no job is started for a later item, and the
/// results of later items that were already running are dropped. With one thread it is a plain
/// loop that stops at the first error.
pub fn map_until_error<T, R, E>(
    items: &[T],
    threads: usize,
    job: impl Fn(&T) -> Result<R, E> + Sync,
) -> Vec<Result<R, E>>
where
    T: Sync,
    R: Send,
    E: Send,
{
    let next = AtomicUsize::new(0);
    let first_failed = AtomicUsize::new(usize::MAX);
    let work = || {
        let mut done = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(index) else {
                break;
            };
            if index > first_failed.load(Ordering::Relaxed) {
                break;
            }
            let result = job(item);
            if result.is_err() {
                first_failed.fetch_min(index, Ordering::Relaxed);
            }
            done.push((index, result));
        }
        done
    };
    let threads = threads.clamp(1, items.len().max(1));
    let mut done = std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .stack_size(WORKER_STACK_BYTES)
                    .spawn_scoped(scope, work)
                    .ok()
            })
            .collect();
        // The calling thread works too; a worker that could not be started leaves its share to
        // the others.
        let mut done = work();
        for worker in workers {
            match worker.join() {
                Ok(more) => done.extend(more),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        done
    });
    done.sort_unstable_by_key(|(index, _)| *index);
    let mut results = Vec::with_capacity(done.len());
    for (_, result) in done {
        let failed = result.is_err();
        results.push(result);
        if failed {
            break;
        }
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_item_order_whatever_the_threads() {
        let items: Vec<u64> = (0..500).collect();
        let expected: Vec<Result<u64, ()>> = items.iter().map(|item| Ok(item * item)).collect();
        for threads in [1, 2, 3, 8] {
            assert_eq!(
                map_until_error(&items, threads, |item| Ok::<_, ()>(item * item)),
                expected,
                "{threads} threads"
            );
        }
    }

    #[test]
    fn the_first_error_ends_the_results_and_no_later_job_starts_on_one_thread() {
        let items: Vec<u32> = (0..100).collect();
        for threads in [1, 2, 4] {
            let started = AtomicUsize::new(0);
            let results = map_until_error(&items, threads, |&item| {
                started.fetch_add(1, Ordering::Relaxed);
                if item == 10 || item == 50 {
                    Err(format!("item {item}"))
                } else {
                    Ok(item)
                }
            });
            assert_eq!(results.len(), 11, "{threads} threads");
            assert_eq!(results[10], Err("item 10".to_owned()));
            assert!(results[..10].iter().all(Result::is_ok));
            if threads == 1 {
                assert_eq!(started.load(Ordering::Relaxed), 11);
            }
        }
    }

    #[test]
    fn no_items_and_zero_threads_are_handled() {
        assert!(map_until_error(&[] as &[u8], 4, |_| Ok::<_, ()>(())).is_empty());
        assert_eq!(map_until_error(&[1], 0, |&x| Ok::<_, ()>(x)), [Ok(1)]);
        assert!(threads(0) >= 1);
        assert_eq!(threads(3), 3);
    }
}
