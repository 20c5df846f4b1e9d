//! What the officers' figures are computed from (`domain::stats`, `GET /admin/stats`): the
//! issues received in a period, the steps taken in it, and the issues overdue now.

use async_trait::async_trait;
use domain::stats::{Received, Step};
use uuid::Uuid;

use super::{Instant, StoreResult};

/// A period `[from, to)` over some categories (`None`: all of them).
#[derive(Debug, Clone, Copy)]
pub struct StatsQuery<'a> {
    pub categories: Option<&'a [Uuid]>,
    pub from: Instant,
    pub to: Instant,
}

/// The facts of the figures, the same statements on both backends.
#[async_trait]
pub trait StatsStore: Send + Sync + 'static {
    /// Each issue placed in one of the categories within the period (moved away since or not),
    /// with its first public statement and its resolution when they have happened (by now).
    async fn received(&self, query: StatsQuery<'_>) -> StoreResult<Vec<Received<Uuid>>>;

    /// The accepts, resolutions and duplicates made within the period, by their issue's
    /// category.
    async fn steps(&self, query: StatsQuery<'_>) -> StoreResult<Vec<(Uuid, Step)>>;

    /// Per category, its issues past the statement deadline at `now` (`domain::issues::is_overdue`).
    async fn overdue(
        &self,
        categories: Option<&[Uuid]>,
        now: Instant,
    ) -> StoreResult<Vec<(Uuid, u64)>>;
}
