//! `citizen-api import-news <file.json>`: publishes a batch of news items.
//!
//! The file is a JSON array of items in the shape of `POST /news` (`title`, `description`,
//! `image`, `date`, `location`, `categories`), each optionally with an `id`: an item with an id
//! replaces the stored item of that id or is created under it, so importing a file again
//! changes nothing; an item without one is always created. Every item is checked before any is
//! written, their categories too (one bad item: nothing is imported, and the error names its
//! position); each item is then written in its own transaction.

use std::path::Path;

use anyhow::Context as _;
use uuid::Uuid;

use crate::app::news::NewsItemInput;
use crate::store::composition::Stores;
use crate::store::news::NewsError;
use crate::store::Instant;

/// What an import did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportSummary {
    pub created: usize,
    pub replaced: usize,
}

/// Reads and imports `file`.
pub async fn import_file(
    stores: &Stores,
    file: &Path,
    now: Instant,
) -> anyhow::Result<ImportSummary> {
    let text = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    // Held to the shape of `POST /news` as the API holds its bodies: an item is an object.
    let mut de = serde_json::Deserializer::from_slice(&text);
    let items: Vec<NewsItemInput> =
        serde::Deserialize::deserialize(service_kit::extract::strict::Strict(&mut de))
            .and_then(|items| de.end().map(|()| items))
            .with_context(|| format!("{} is not a JSON array of news items", file.display()))?;
    import(stores, items, now).await
}

/// Checks every item, then writes them in order.
pub async fn import(
    stores: &Stores,
    items: Vec<NewsItemInput>,
    now: Instant,
) -> anyhow::Result<ImportSummary> {
    let mut drafts = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        let id = item.id;
        let draft = item
            .into_draft(now)
            .map_err(|err| anyhow::anyhow!("item {index}: {err}"))?;
        drafts.push((index, id, draft));
    }
    let known: std::collections::HashSet<Uuid> = stores
        .news
        .news_categories()
        .await?
        .into_iter()
        .map(|c| c.id)
        .collect();
    for (index, _, draft) in &drafts {
        if let Some(unknown) = draft.categories.iter().find(|c| !known.contains(c)) {
            anyhow::bail!("item {index}: no news category has the id {unknown}");
        }
    }
    let mut summary = ImportSummary::default();
    for (index, id, draft) in drafts {
        let news = &stores.news;
        let done = match id {
            Some(id) => match news.update_news_item(id, &draft, now).await {
                Err(NewsError::NotFound) => {
                    news.create_news_item(id, &draft, now).await.map(|_| false)
                }
                other => other.map(|_| true),
            },
            None => news
                .create_news_item(Uuid::now_v7(), &draft, now)
                .await
                .map(|_| false),
        };
        match done {
            Ok(true) => summary.replaced += 1,
            Ok(false) => summary.created += 1,
            Err(err) => anyhow::bail!("item {index}: {err}"),
        }
    }
    Ok(summary)
}
