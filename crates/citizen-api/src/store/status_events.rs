//! Public report status changes waiting to be published on MQTT
//! (`citizen/reports/<report_id>/status`).
//!
//! A change is recorded in the transaction of the workflow step (or filing) that caused it, and
//! only when the report's derived status really changed: accepting one of two open issues leaves
//! the report open and publishes nothing. The publisher claims rows for a lease, publishes them
//! (QoS 1, waiting for the broker's acknowledgement) and removes them; one the broker did not
//! acknowledge is given back with the rest of its round, and a crash in between publishes them
//! again after the lease, with the same event id (at least once), in order per report.

use async_trait::async_trait;
use domain::issues::IssueStatus;
use uuid::Uuid;

use super::{Instant, StoreResult};

/// One public status change of a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusEvent {
    /// The change's identity (the same when it is published again after a crash).
    pub id: Uuid,
    pub report_id: Uuid,
    /// The report's status before the change (`None`: just filed, or only moved issues).
    pub previous: Option<IssueStatus>,
    /// The report's status after it.
    pub status: Option<IssueStatus>,
    pub occurred_at: Instant,
}

#[async_trait]
pub trait StatusEventStore: Send + Sync + 'static {
    /// Claims up to `limit` unpublished changes, oldest first, for `lease_secs` (rows another
    /// publisher holds are skipped; a lease that ran out is taken again). A change is not
    /// claimed while an earlier change of its report is held under a lease: a report's changes
    /// are published in order even when a publisher died holding one.
    async fn claim_status_events(
        &self,
        limit: u32,
        lease_secs: u32,
        now: Instant,
    ) -> StoreResult<Vec<StatusEvent>>;

    /// Removes published changes.
    async fn remove_status_events(&self, ids: &[Uuid]) -> StoreResult<()>;

    /// Gives claimed changes back unpublished (the broker did not acknowledge one of them), so
    /// that the next claim takes them again before any later change of their reports.
    async fn release_status_events(&self, ids: &[Uuid]) -> StoreResult<()>;

    /// Removes every unpublished change (status events are off: nobody will publish them);
    /// how many.
    async fn discard_status_events(&self) -> StoreResult<u64>;
}
