//! Storage of news categories, news items and the accounts' subscriptions (spec 2.4, 2.5).

use std::collections::HashMap;

use async_trait::async_trait;
use domain::geo::LonLat;
use domain::news::{NewsCursor, ParentError};
use uuid::Uuid;

use service_kit::codec::{DbOption, DbUuid};

use super::{Instant, StoreError, StoreResult};

/// A news category (spec 2.5), read from `news_categories` (`records::NEWS_CATEGORY_COLUMNS`).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct NewsCategory {
    #[sqlx(try_from = "DbUuid")]
    pub id: Uuid,
    pub name: String,
    pub description: Option<String>,
    #[sqlx(try_from = "DbOption<DbUuid>")]
    pub parent_id: Option<Uuid>,
}

/// What an editor sends to create a category.
#[derive(Debug, Clone)]
pub struct NewNewsCategory {
    pub name: String,
    pub description: Option<String>,
    pub parent_id: Option<Uuid>,
}

/// A change of a category: `None` leaves a field as it is; `Some(None)` clears a nullable one.
#[derive(Debug, Clone, Default)]
pub struct NewsCategoryChange {
    pub name: Option<String>,
    pub description: Option<Option<String>>,
    pub parent_id: Option<Option<Uuid>>,
}

/// Why a category write did not happen.
#[derive(Debug, thiserror::Error)]
pub enum CategoryError {
    #[error("no such category")]
    NotFound,
    #[error("the category has child categories")]
    HasChildren,
    #[error("refused parent: {0:?}")]
    Parent(ParentError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for CategoryError {
    fn from(err: sqlx::Error) -> Self {
        Self::Store(err.into())
    }
}

/// A news item (spec 2.4) with its categories (id and name, by name).
#[derive(Debug, Clone, PartialEq)]
pub struct NewsItem {
    pub id: Uuid,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    pub date: Instant,
    pub location: Option<LonLat>,
    pub categories: Vec<(Uuid, String)>,
    /// Metres from the list's `location`, as the list was ordered by (nearest-first lists only).
    pub distance: Option<f64>,
}

/// What an editor sends for a news item (create, and update which replaces every field).
#[derive(Debug, Clone)]
pub struct NewsDraft {
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    pub date: Instant,
    pub location: Option<LonLat>,
    pub categories: Vec<Uuid>,
}

/// Why a news item write did not happen.
#[derive(Debug, thiserror::Error)]
pub enum NewsError {
    #[error("no such news item")]
    NotFound,
    #[error("no such category: {0}")]
    UnknownCategory(Uuid),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for NewsError {
    fn from(err: sqlx::Error) -> Self {
        Self::Store(err.into())
    }
}

/// A page request of the news list.
#[derive(Debug, Clone)]
pub struct NewsQuery {
    /// Items in any of these categories (already with their descendants); empty: all.
    pub categories: Vec<Uuid>,
    /// Nearest first from here (`distance` on each row); with a radius only items within it.
    pub near: Option<domain::geo::LocationParam>,
    /// Where the page starts (after this position); `None`: at the start.
    pub after: Option<NewsCursor<Instant, Uuid>>,
    /// Rows to read (the page size plus one, to tell whether another page follows).
    pub limit: u32,
}

/// Everything the news read model holds, read in one snapshot of the database.
#[derive(Debug, Clone)]
pub struct NewsSnapshot {
    /// The news generation of the snapshot.
    pub generation: i64,
    /// Every category, by name then id.
    pub categories: Vec<NewsCategory>,
    /// Every news item with its categories (by name then id, as the list shows them) and
    /// `distance: None`, in no particular order.
    pub items: Vec<NewsItem>,
}

impl NewsSnapshot {
    /// Gives each item its categories from the links `(news_id, category_id)`, in the order of
    /// `categories` (by name then id, as the database ordered them, collation included), so the
    /// backends read the links without joining or sorting them.
    pub(super) fn assemble(
        generation: i64,
        categories: Vec<NewsCategory>,
        mut items: Vec<NewsItem>,
        links: impl IntoIterator<Item = (Uuid, Uuid)>,
    ) -> Self {
        let rank: HashMap<Uuid, (usize, &str)> = categories
            .iter()
            .enumerate()
            .map(|(at, c)| (c.id, (at, c.name.as_str())))
            .collect();
        let mut of: HashMap<Uuid, Vec<(usize, Uuid, &str)>> = HashMap::new();
        for (news_id, category_id) in links {
            if let Some((at, name)) = rank.get(&category_id) {
                of.entry(news_id)
                    .or_default()
                    .push((*at, category_id, name));
            }
        }
        for item in &mut items {
            if let Some(mut linked) = of.remove(&item.id) {
                linked.sort_unstable_by_key(|l| l.0);
                item.categories = linked
                    .into_iter()
                    .map(|(_, id, name)| (id, name.to_owned()))
                    .collect();
            }
        }
        Self {
            generation,
            categories,
            items,
        }
    }
}

/// Why subscriptions were not changed.
#[derive(Debug, thiserror::Error)]
pub enum SubscriptionError {
    #[error("no such category: {0}")]
    UnknownCategory(Uuid),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for SubscriptionError {
    fn from(err: sqlx::Error) -> Self {
        Self::Store(err.into())
    }
}

/// News categories, news items and subscriptions.
#[async_trait]
pub trait NewsStore: Send + Sync + 'static {
    /// Every category, by name then id.
    async fn news_categories(&self) -> StoreResult<Vec<NewsCategory>>;

    /// Starts a category write (`app::news_categories` runs it).
    async fn begin_news_category_write(&self) -> StoreResult<Box<dyn NewsCategoryTx>>;

    /// A page of the news list (see `domain::news` for the orders).
    async fn news_page(&self, query: &NewsQuery) -> StoreResult<Vec<NewsItem>>;

    /// One news item.
    async fn news_item(&self, id: Uuid) -> StoreResult<Option<NewsItem>>;

    /// Publishes a news item under `id`.
    async fn create_news_item(
        &self,
        id: Uuid,
        draft: &NewsDraft,
        now: Instant,
    ) -> Result<NewsItem, NewsError>;

    /// Replaces a news item's fields and categories.
    async fn update_news_item(
        &self,
        id: Uuid,
        draft: &NewsDraft,
        now: Instant,
    ) -> Result<NewsItem, NewsError>;

    /// Deletes a news item; `false` when there was none.
    async fn delete_news_item(&self, id: Uuid) -> StoreResult<bool>;

    /// The news generation: it moves with every committed change of news items, their
    /// categories' links or news categories (migration 0018), never with subscriptions.
    async fn news_generation(&self) -> StoreResult<i64>;

    /// Every category and news item as of one snapshot, with that snapshot's generation.
    async fn news_snapshot(&self) -> StoreResult<NewsSnapshot>;

    /// The categories an account follows, by id.
    async fn subscriptions(&self, subject: &str) -> StoreResult<Vec<Uuid>>;

    /// Subscribes to or unsubscribes from categories, in one transaction; every category must
    /// exist. Returns how many subscriptions actually changed.
    async fn change_subscriptions(
        &self,
        subject: &str,
        changes: &[(Uuid, bool)],
    ) -> Result<u32, SubscriptionError>;
}

/// A write of news categories in one transaction (`app::news_categories`): no other category
/// write runs until it ends, so the tree it reads is the tree it changes.
#[async_trait]
pub trait NewsCategoryTx: super::WriteTx {
    /// Every category's parent (id → parent id).
    async fn tree(&mut self) -> StoreResult<HashMap<Uuid, Option<Uuid>>>;

    async fn insert_category(
        &mut self,
        id: Uuid,
        new: &NewNewsCategory,
        now: Instant,
    ) -> StoreResult<NewsCategory>;

    async fn update_category(
        &mut self,
        id: Uuid,
        change: &NewsCategoryChange,
        now: Instant,
    ) -> StoreResult<NewsCategory>;

    /// Deletes the category: its links to news items and the subscriptions to it go with it.
    async fn delete_category(&mut self, id: Uuid) -> StoreResult<()>;
}
