//! Writing news categories: a tree (a category's parent must exist and must not be the category
//! or one of its descendants, `domain::news::check_parent`), and a category with children stays.
//! Each write runs in one transaction of the store in which no other category write runs, so
//! the tree it checks is the tree it changes.

use uuid::Uuid;

use crate::store::news::{
    CategoryError, NewNewsCategory, NewsCategory, NewsCategoryChange, NewsStore,
};
use crate::store::Instant;

/// Creates a category under an existing parent.
pub async fn create(
    news: &dyn NewsStore,
    new: &NewNewsCategory,
    now: Instant,
) -> Result<NewsCategory, CategoryError> {
    let mut tx = news.begin_news_category_write().await?;
    let id = Uuid::now_v7();
    if let Some(parent) = new.parent_id {
        let tree = tx.tree().await?;
        domain::news::check_parent(id, parent, &tree).map_err(CategoryError::Parent)?;
    }
    let created = tx.insert_category(id, new, now).await?;
    tx.commit().await?;
    Ok(created)
}

/// Changes a category; a new parent must exist and must not be the category or one of its
/// descendants.
pub async fn update(
    news: &dyn NewsStore,
    id: Uuid,
    change: &NewsCategoryChange,
    now: Instant,
) -> Result<NewsCategory, CategoryError> {
    let mut tx = news.begin_news_category_write().await?;
    let tree = tx.tree().await?;
    if !tree.contains_key(&id) {
        return Err(CategoryError::NotFound);
    }
    if let Some(Some(parent)) = change.parent_id {
        domain::news::check_parent(id, parent, &tree).map_err(CategoryError::Parent)?;
    }
    let updated = tx.update_category(id, change, now).await?;
    tx.commit().await?;
    Ok(updated)
}

/// Deletes a category without children: its links to news items and the subscriptions to it go
/// with it.
pub async fn delete(news: &dyn NewsStore, id: Uuid) -> Result<(), CategoryError> {
    let mut tx = news.begin_news_category_write().await?;
    let tree = tx.tree().await?;
    if !tree.contains_key(&id) {
        return Err(CategoryError::NotFound);
    }
    if tree.values().any(|parent| *parent == Some(id)) {
        return Err(CategoryError::HasChildren);
    }
    tx.delete_category(id).await?;
    tx.commit().await?;
    Ok(())
}
