//! The list index's own thread: where its feed reads (`feed.rs`) and loads run, off the HTTP
//! workers.
//!
//! A feed read is a few hops: the statements go to the database (SQLite's worker threads, or a
//! socket), and each answer wakes the task that asked. Run on an HTTP worker, each wake-up
//! waited behind the pages that worker was writing (a page nearest first is about 0.2 ms of
//! work), so a read took about 1.5 ms, every page waited for one, and a third of the
//! processor sat idle at 16 connections (docs/benchmarks.md, 2026-11-27). On a thread of its
//! own, a read's hops are taken as soon as they are ready; the pages waiting for it are woken
//! on their workers when it is applied.

use std::future::Future;

use tokio::runtime::{Builder, Handle};
use tokio::sync::oneshot;

/// A thread running a single-threaded runtime until this is dropped: its runtime's handle,
/// and the sender whose drop stops it (none when the thread did not start).
pub(super) struct IndexThread(Option<(Handle, oneshot::Sender<()>)>);

impl IndexThread {
    /// Starts the thread. Should that fail (the system refuses a thread), the index's reads
    /// run on the caller's runtime, as they would without it (warned).
    pub(super) fn start() -> Self {
        match Self::spawn() {
            Ok(thread) => thread,
            Err(err) => {
                tracing::warn!(
                    error = format!("{err:#}"),
                    "the list index's thread did not start; its reads run on the HTTP workers"
                );
                Self(None)
            }
        }
    }

    fn spawn() -> std::io::Result<Self> {
        let runtime = Builder::new_current_thread().enable_all().build()?;
        let handle = runtime.handle().clone();
        let (stop, stopped) = oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("list-index".into())
            .spawn(move || {
                // Ends when the sender is dropped with the index; the runtime is dropped
                // outside `block_on`, cancelling what is left on it.
                runtime.block_on(async {
                    let _ = stopped.await;
                });
            })?;
        Ok(Self(Some((handle, stop))))
    }

    /// Starts `work` on the thread (or on the caller's runtime) without waiting for it.
    pub(super) fn spawn_detached(&self, work: impl Future<Output = ()> + Send + 'static) {
        match &self.0 {
            Some((handle, _)) => drop(handle.spawn(work)),
            None => drop(tokio::spawn(work)),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    /// Tells when it is dropped.
    struct Tell(mpsc::Sender<()>);

    impl Drop for Tell {
        fn drop(&mut self) {
            let _ = self.0.send(());
        }
    }

    #[test]
    fn work_runs_on_the_thread_until_it_is_dropped() {
        let thread = IndexThread::start();
        let (name_tx, name) = mpsc::channel();
        let (dropped, told) = mpsc::channel();
        let tell = Tell(dropped);
        thread.spawn_detached(async move {
            let _tell = tell;
            let _ = name_tx.send(std::thread::current().name().map(str::to_owned));
            std::future::pending::<()>().await
        });
        let ran_on = name.recv_timeout(Duration::from_secs(30)).expect("it ran");
        assert_eq!(ran_on.as_deref(), Some("list-index"));
        assert!(told.try_recv().is_err(), "still running");
        // Dropped with the index: the runtime ends, and with it what was left on it.
        drop(thread);
        told.recv_timeout(Duration::from_secs(30))
            .expect("the thread ended");
    }
}
