//! The one thread on which the diagnostics workers analyse documents.
//!
//! The allocator (mimalloc, in the `sources` binary) gives memory back per thread: what one thread
//! allocated and another frees waits on the owner's list until the owner allocates again. When
//! analyses ran on whichever blocking thread was free, a large analysis could stay resident after
//! it was freed, held by an idle thread. On one thread, each analysis is built, and the one it
//! replaces freed, by the same owner, so resident memory follows the open documents. Analyses of
//! different documents take turns; requests that need an analysis first still compute it where
//! they run.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Sender, channel};
use std::sync::{Mutex, OnceLock, PoisonError};

/// Stack of the analysis thread: as much as the main thread of the command line has.
const STACK_BYTES: usize = 8 * 1024 * 1024;

type Job = Box<dyn FnOnce() + Send>;

/// The queue of the analysis thread, started on first use; `None` when it could not start.
fn queue() -> Option<&'static Mutex<Sender<Job>>> {
    static QUEUE: OnceLock<Option<Mutex<Sender<Job>>>> = OnceLock::new();
    QUEUE
        .get_or_init(|| {
            let (sender, jobs) = channel::<Job>();
            std::thread::Builder::new()
                .name("sources-analysis".to_owned())
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    for job in jobs {
                        // A panic ends that job only; its caller sees the result missing.
                        let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
                    }
                })
                .ok()
                .map(|_| Mutex::new(sender))
        })
        .as_ref()
}

/// Frees `value` on the analysis thread, which most likely allocated it (a closed document's
/// analyses); frees it here when that thread is not running.
pub(crate) fn free<T: Send + 'static>(value: T) {
    let Some(queue) = queue() else {
        return;
    };
    let job: Job = Box::new(move || drop(value));
    // A send fails only when the thread has ended; the job, and `value` with it, is dropped here.
    let _ = queue
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .send(job);
}

/// Runs `job` on the analysis thread and waits for its result; `None` if the job panicked or the
/// thread could not be started.
pub(crate) async fn run<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (sender, result) = tokio::sync::oneshot::channel();
    let queue = queue()?;
    let sent = queue
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .send(Box::new(move || {
            let _ = sender.send(job());
        }));
    sent.ok()?;
    result.await.ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_run_on_one_thread_and_a_panic_ends_only_its_job() {
        let name = || std::thread::current().name().map(str::to_owned);
        assert_eq!(run(name).await, Some(Some("sources-analysis".to_owned())));
        assert_eq!(run(|| -> u8 { panic!("a broken job") }).await, None);
        assert_eq!(run(|| 2 + 2).await, Some(4), "the thread still serves");
        let (sender, freed) = tokio::sync::oneshot::channel::<()>();
        free(sender);
        assert!(freed.await.is_err(), "the value was dropped");
    }
}
