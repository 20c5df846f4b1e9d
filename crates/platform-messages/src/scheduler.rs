//! Publishes a notice when a validity window starts or ends.
//!
//! [`Scheduler::run_due`] queues a notice for every client with a window start or end since the
//! previous run; tests call it directly with the injected clock's time. In production
//! [`Scheduler::run`] loops: run what is due, then sleep until the next window change of any client
//! (at most [`MAX_IDLE`], so windows written by other replicas are picked up) or until a write here
//! wakes it.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, Notify};

use crate::clock::Clock;
use crate::notify::Notifier;
use crate::store::{Instant, MessageStore};

/// Longest sleep of the production loop.
pub const MAX_IDLE: Duration = Duration::from_secs(60);

pub struct Scheduler {
    store: Arc<dyn MessageStore>,
    notifier: Notifier,
    clock: Arc<dyn Clock>,
    /// Window changes at or before this instant have been handled.
    done_until: Mutex<Instant>,
    wake: Notify,
}

impl Scheduler {
    /// A scheduler that considers everything up to the clock's current time handled (the
    /// republish at connect covers the state at start).
    pub fn new(store: Arc<dyn MessageStore>, notifier: Notifier, clock: Arc<dyn Clock>) -> Self {
        let now = clock.now();
        Self {
            store,
            notifier,
            clock,
            done_until: Mutex::new(now),
            wake: Notify::new(),
        }
    }

    /// Queues a notice for every client with a window start or end in `(previous run, now]`;
    /// returns how many clients were queued.
    pub async fn run_due(&self, now: Instant) -> anyhow::Result<usize> {
        let mut done_until = self.done_until.lock().await;
        if now <= *done_until {
            return Ok(0);
        }
        let clients = self.store.clients_with_change_in(*done_until, now).await?;
        for client in &clients {
            tracing::debug!(client_id = client, "validity window started or ended");
            self.notifier.changed(client);
        }
        *done_until = now;
        Ok(clients.len())
    }

    /// Tells the production loop that the windows may have changed (after a write).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// The production loop on the real clock; never returns.
    pub async fn run(self: Arc<Self>) {
        loop {
            let now = self.clock.now();
            let mut sleep = MAX_IDLE;
            match self.run_due(now).await {
                Ok(_) => match self.store.next_change_after(now).await {
                    Ok(Some(next)) => {
                        let until = (next - now).to_std().unwrap_or_default();
                        sleep = sleep.min(until);
                    }
                    Ok(None) => {}
                    Err(err) => tracing::warn!(
                        error = format!("{err:#}"),
                        "scheduler: cannot read the next change"
                    ),
                },
                Err(err) => {
                    tracing::warn!(
                        error = format!("{err:#}"),
                        "scheduler: cannot read due window changes"
                    );
                    sleep = Duration::from_secs(5);
                }
            }
            tokio::select! {
                () = tokio::time::sleep(sleep) => {}
                () = self.wake.notified() => {}
            }
        }
    }
}
