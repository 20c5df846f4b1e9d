//! The news read model: each replica answers the news list, the news detail and the category
//! list from memory (`model`), with the database as the source of truth.
//!
//! News change only when an editor writes; every committed change of news items, their
//! categories' links or news categories moves the database's *news generation* (migration 0018),
//! and the replica's model follows it within `news.cache.max_staleness_millis`
//! (`service_kit::read_model` states the bound). A write through this replica drops its model
//! before the write answers, so the editor's next read sees the change; reads go to the database
//! until the rebuild is done. Subscriptions are not part of the model.

mod generation;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;
use service_kit::read_model::{ModelSource, ReadModel};
use service_kit::StoreError;
use uuid::Uuid;

pub use generation::NewsModel;

use crate::store::news::{
    NewNewsCategory, NewsCategory, NewsCategoryChange, NewsCategoryTx, NewsDraft, NewsError,
    NewsItem, NewsQuery, NewsSnapshot, NewsStore, SubscriptionError,
};
use crate::store::{Instant, StoreResult, WriteTx};

/// `news.cache.*`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewsCacheSettings {
    /// Most news items a replica holds in memory; more are served from the database (0: every
    /// read goes to the database).
    pub max_items: usize,
    /// How long a replica may answer from memory without confirming the news generation: a
    /// change through another replica is seen within this time.
    pub max_staleness_millis: u64,
}

impl Default for NewsCacheSettings {
    fn default() -> Self {
        Self {
            max_items: 200_000,
            max_staleness_millis: 1_000,
        }
    }
}

/// `news.*`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewsSettings {
    #[serde(default)]
    pub cache: NewsCacheSettings,
}

/// Builds [`NewsModel`]s from the database's store.
pub struct NewsSource {
    store: Arc<dyn NewsStore>,
    max_items: usize,
}

#[async_trait]
impl ModelSource for NewsSource {
    type Model = NewsModel;

    fn name(&self) -> &'static str {
        "news"
    }

    async fn generation(&self) -> anyhow::Result<i64> {
        Ok(self.store.news_generation().await?)
    }

    async fn build(&self) -> anyhow::Result<(i64, Option<NewsModel>)> {
        let snapshot = self.store.news_snapshot().await?;
        let generation = snapshot.generation;
        if snapshot.items.len() > self.max_items {
            return Ok((generation, None));
        }
        let model = tokio::task::spawn_blocking(move || NewsModel::build(snapshot)).await?;
        tracing::info!(items = model.len(), generation, "news read model built");
        Ok((generation, Some(model)))
    }
}

/// A [`NewsStore`] that answers the news reads from the replica's read model (module docs).
pub struct CachedNews {
    inner: Arc<dyn NewsStore>,
    model: ReadModel<NewsSource>,
}

impl CachedNews {
    /// Wraps the database's store; `None` when the cache is off (`max_items = 0`). Nothing is
    /// built before `model().start()`, the readiness check or the first read.
    pub fn new(inner: Arc<dyn NewsStore>, settings: &NewsCacheSettings) -> Option<Arc<Self>> {
        if settings.max_items == 0 {
            return None;
        }
        let source = NewsSource {
            store: inner.clone(),
            max_items: settings.max_items,
        };
        let model = ReadModel::new(source, Duration::from_millis(settings.max_staleness_millis));
        Some(Arc::new(Self { inner, model }))
    }

    pub fn model(&self) -> &ReadModel<NewsSource> {
        &self.model
    }

    /// The model to answer from, or `None` (counted as a database read) for the database.
    async fn current(&self) -> StoreResult<Option<Arc<NewsModel>>> {
        // A failed generation check keeps its class (an unreachable database answers 503).
        let current = self
            .model
            .current()
            .await
            .map_err(StoreError::from_anyhow)?;
        if current.is_none() {
            self.model.count_database_read();
        }
        Ok(current)
    }

    /// Passes a write's outcome through, dropping the model once it committed.
    async fn written<T, E>(&self, outcome: Result<T, E>) -> Result<T, E> {
        if outcome.is_ok() {
            self.model.written().await;
        }
        outcome
    }
}

#[async_trait]
impl NewsStore for CachedNews {
    async fn news_categories(&self) -> StoreResult<Vec<NewsCategory>> {
        match self.current().await? {
            Some(model) => Ok(model.categories()),
            None => self.inner.news_categories().await,
        }
    }

    async fn begin_news_category_write(&self) -> StoreResult<Box<dyn NewsCategoryTx>> {
        Ok(Box::new(WrittenCategories {
            inner: self.inner.begin_news_category_write().await?,
            model: self.model.clone(),
        }))
    }

    async fn news_page(&self, query: &NewsQuery) -> StoreResult<Vec<NewsItem>> {
        match self.current().await? {
            Some(model) => Ok(model.page(query)),
            None => self.inner.news_page(query).await,
        }
    }

    async fn news_item(&self, id: Uuid) -> StoreResult<Option<NewsItem>> {
        match self.current().await? {
            Some(model) => Ok(model.item(id)),
            None => self.inner.news_item(id).await,
        }
    }

    async fn create_news_item(
        &self,
        id: Uuid,
        draft: &NewsDraft,
        now: Instant,
    ) -> Result<NewsItem, NewsError> {
        let outcome = self.inner.create_news_item(id, draft, now).await;
        self.written(outcome).await
    }

    async fn update_news_item(
        &self,
        id: Uuid,
        draft: &NewsDraft,
        now: Instant,
    ) -> Result<NewsItem, NewsError> {
        let outcome = self.inner.update_news_item(id, draft, now).await;
        self.written(outcome).await
    }

    async fn delete_news_item(&self, id: Uuid) -> StoreResult<bool> {
        let outcome = self.inner.delete_news_item(id).await;
        self.written(outcome).await
    }

    async fn subscriptions(&self, subject: &str) -> StoreResult<Vec<Uuid>> {
        self.inner.subscriptions(subject).await
    }

    async fn change_subscriptions(
        &self,
        subject: &str,
        changes: &[(Uuid, bool)],
    ) -> Result<u32, SubscriptionError> {
        self.inner.change_subscriptions(subject, changes).await
    }

    async fn news_generation(&self) -> StoreResult<i64> {
        self.inner.news_generation().await
    }

    async fn news_snapshot(&self) -> StoreResult<NewsSnapshot> {
        self.inner.news_snapshot().await
    }
}

/// A category write through the cache: the model is dropped once the write committed.
struct WrittenCategories {
    inner: Box<dyn NewsCategoryTx>,
    model: ReadModel<NewsSource>,
}

#[async_trait]
impl NewsCategoryTx for WrittenCategories {
    async fn tree(&mut self) -> StoreResult<HashMap<Uuid, Option<Uuid>>> {
        self.inner.tree().await
    }

    async fn insert_category(
        &mut self,
        id: Uuid,
        new: &NewNewsCategory,
        now: Instant,
    ) -> StoreResult<NewsCategory> {
        self.inner.insert_category(id, new, now).await
    }

    async fn update_category(
        &mut self,
        id: Uuid,
        change: &NewsCategoryChange,
        now: Instant,
    ) -> StoreResult<NewsCategory> {
        self.inner.update_category(id, change, now).await
    }

    async fn delete_category(&mut self, id: Uuid) -> StoreResult<()> {
        self.inner.delete_category(id).await
    }
}

#[async_trait]
impl WriteTx for WrittenCategories {
    async fn commit(self: Box<Self>) -> StoreResult<()> {
        self.inner.commit().await?;
        self.model.written().await;
        Ok(())
    }
}
