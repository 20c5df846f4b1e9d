//! The report categories and officers' assignments a replica keeps for the officers' list from
//! the list index, under the categories' generation (migration 0025).
//!
//! Every change of a category or an assignment moves the generation, and every read of the
//! issue feed reads it. A request first has a feed read applied that started after it arrived
//! ([`crate::list_index::ListIndex::sync`]), which gives a generation at least as new as every
//! change committed before the request. What is kept was read after the kept generation was
//! seen, so it is at least that new: it serves every request whose generation is not newer,
//! and is read again otherwise. So the page is never staler than the request, and a page
//! costs no read of the categories while they do not change.

use std::sync::{Arc, Mutex};

use quick_cache::sync::Cache;
use service_kit::auth::Principal;
use service_kit::ApiError;

use super::super::ACCESS_ALL_SCOPE;
use crate::store::admin::Access;
use crate::store::{Category, CategoryStore};

/// A read of categories and the generation seen before it.
type Kept = (i64, Arc<Vec<Category>>);

/// Officers whose categories are kept (the least used are forgotten beyond it).
const OFFICERS: usize = 10_000;

pub struct KeptCategories {
    all: Mutex<Option<Kept>>,
    officers: Cache<String, Kept>,
}

impl Default for KeptCategories {
    fn default() -> Self {
        Self {
            all: Mutex::new(None),
            officers: Cache::new(OFFICERS),
        }
    }
}

impl KeptCategories {
    /// The caller's access and the categories whose issues they may see (every one with
    /// access-all), as of `generation` or later.
    pub async fn visible(
        &self,
        store: &dyn CategoryStore,
        principal: &Principal,
        generation: i64,
    ) -> Result<(Access, Arc<Vec<Category>>), ApiError> {
        if principal.has_scope(ACCESS_ALL_SCOPE) {
            let kept = self.all.lock().ok().and_then(|all| all.clone());
            let categories = match kept {
                Some((seen, categories)) if seen >= generation => categories,
                _ => {
                    let categories = Arc::new(store.categories().await?);
                    if let Ok(mut all) = self.all.lock() {
                        *all = Some((generation, categories.clone()));
                    }
                    categories
                }
            };
            return Ok((Access::All, categories));
        }
        let categories = match self.officers.get(&principal.subject) {
            Some((seen, categories)) if seen >= generation => categories,
            _ => {
                let categories = Arc::new(store.officer_categories(&principal.subject).await?);
                self.officers
                    .insert(principal.subject.clone(), (generation, categories.clone()));
                categories
            }
        };
        let access = Access::Categories(categories.iter().map(|c| c.id).collect());
        Ok((access, categories))
    }
}
