//! The news of one generation in memory, with the orders of the news list (`domain::news`):
//! newest first (date, then id, descending); nearest first (geodesic distance, then id), then
//! the items without a location (id descending). The pages are the ones the database backends
//! answer, item for item, cursors and ties included (tests.rs checks it against brute force).

use std::collections::HashMap;
use std::sync::Arc;

use domain::geo::{bbox_around, rounded_distance_m, LonLat};
use domain::news::{located_after, NewsCursor};
use rstar::primitives::GeomWithData;
use rstar::{RTree, AABB};
use uuid::Uuid;

use crate::store::news::{NewsCategory, NewsItem, NewsQuery, NewsSnapshot};

/// A located item in the R-tree: `[lon, lat]` and its position in `by_date`.
type Located = GeomWithData<[f64; 2], u32>;

/// The first reach beyond the cursor's distance, in metres; it doubles until it holds a page.
const FIRST_REACH_M: f64 = 100.0;
/// A reach past which the box around any point is the whole globe: every located item is a
/// candidate.
const GLOBE_M: f64 = 21_000_000.0;

/// Every news item and category of one generation.
pub struct NewsModel {
    categories: Vec<NewsCategory>,
    /// Newest first: date descending, then id descending.
    by_date: Vec<Arc<NewsItem>>,
    by_id: HashMap<Uuid, u32>,
    /// Positions in `by_date` of the items without a location, id descending.
    unlocated: Vec<u32>,
    located: RTree<Located>,
}

impl NewsModel {
    /// Indexes a snapshot (CPU only: run it off the request threads).
    pub fn build(snapshot: NewsSnapshot) -> Self {
        let mut items = snapshot.items;
        items.sort_by(|a, b| b.date.cmp(&a.date).then(b.id.cmp(&a.id)));
        let by_date: Vec<Arc<NewsItem>> = items.into_iter().map(Arc::new).collect();
        let mut by_id = HashMap::with_capacity(by_date.len());
        let mut unlocated = Vec::new();
        let mut points = Vec::new();
        for (position, item) in by_date.iter().enumerate() {
            let position = u32::try_from(position).unwrap_or(u32::MAX);
            by_id.insert(item.id, position);
            match item.location {
                Some(at) => points.push(Located::new([at.lon, at.lat], position)),
                None => unlocated.push(position),
            }
        }
        unlocated.sort_by(|a, b| by_date[*b as usize].id.cmp(&by_date[*a as usize].id));
        Self {
            categories: snapshot.categories,
            by_date,
            by_id,
            unlocated,
            located: RTree::bulk_load(points),
        }
    }

    pub fn len(&self) -> usize {
        self.by_date.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_date.is_empty()
    }

    /// Every category, by name then id.
    pub fn categories(&self) -> Vec<NewsCategory> {
        self.categories.clone()
    }

    pub fn item(&self, id: Uuid) -> Option<NewsItem> {
        let position = *self.by_id.get(&id)?;
        Some(self.at(position).clone())
    }

    fn at(&self, position: u32) -> &NewsItem {
        &self.by_date[position as usize]
    }

    /// A page of the list, as `NewsStore::news_page` answers it.
    pub fn page(&self, query: &NewsQuery) -> Vec<NewsItem> {
        let Some(near) = &query.near else {
            return match &query.after {
                None | Some(NewsCursor::Date { .. }) => self.newest_first(query),
                Some(_) => Vec::new(),
            };
        };
        let mut items = match &query.after {
            Some(NewsCursor::Date { .. }) => return Vec::new(),
            Some(NewsCursor::Unlocated { .. }) => Vec::new(),
            _ => self.nearest_first(query, near.point),
        };
        let room = (query.limit as usize).saturating_sub(items.len());
        if room > 0 && near.radius_m.is_none() {
            items.extend(self.unlocated_after(query, room));
        }
        items
    }

    fn newest_first(&self, query: &NewsQuery) -> Vec<NewsItem> {
        let start = match &query.after {
            Some(NewsCursor::Date { date, id: Some(id) }) => self
                .by_date
                .partition_point(|item| (item.date, item.id) >= (*date, *id)),
            Some(NewsCursor::Date { date, id: None }) => {
                self.by_date.partition_point(|item| item.date >= *date)
            }
            _ => 0,
        };
        self.by_date[start..]
            .iter()
            .filter(|item| in_categories(item, &query.categories))
            .take(query.limit as usize)
            .map(|item| NewsItem::clone(item))
            .collect()
    }

    fn unlocated_after(&self, query: &NewsQuery, room: usize) -> Vec<NewsItem> {
        let start = match &query.after {
            Some(NewsCursor::Unlocated { id: Some(id) }) => self
                .unlocated
                .partition_point(|position| self.at(*position).id >= *id),
            _ => 0,
        };
        self.unlocated[start..]
            .iter()
            .map(|position| self.at(*position))
            .filter(|item| in_categories(item, &query.categories))
            .take(room)
            .cloned()
            .collect()
    }

    /// Located items after the cursor, nearest first then by id. The candidates lie in a box
    /// around the point that certainly holds every item within the reach; the reach starts just
    /// beyond the cursor's distance and doubles until it holds a page (or the radius, or the
    /// globe, is reached): every item within the reach is nearer than every item beyond it, so
    /// the page is exact, ties included.
    fn nearest_first(&self, query: &NewsQuery, point: LonLat) -> Vec<NewsItem> {
        let radius = query.near.and_then(|n| n.radius_m);
        let start = match &query.after {
            Some(NewsCursor::Distance { metres, .. }) => metres.max(0.0),
            _ => 0.0,
        };
        let limit = query.limit as usize;
        let mut step = FIRST_REACH_M;
        let mut found = loop {
            let reach = start + step;
            let (bound, last) = match radius {
                Some(r) => (reach.min(r), reach >= r),
                None => (reach, reach >= GLOBE_M),
            };
            let found = self.within(query, point, bound, last && radius.is_none());
            if last || found.len() >= limit {
                break found;
            }
            step *= 2.0;
        };
        found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        found.truncate(limit);
        found
            .into_iter()
            .map(|(d, _, position)| {
                let mut item = self.at(position).clone();
                item.distance = Some(d);
                item
            })
            .collect()
    }

    /// `(distance, id, position)` of the located items after the cursor, in the categories,
    /// within `bound` metres (every located item when `everywhere`).
    fn within(
        &self,
        query: &NewsQuery,
        point: LonLat,
        bound: f64,
        everywhere: bool,
    ) -> Vec<(f64, Uuid, u32)> {
        let [min_lon, min_lat, max_lon, max_lat] = bbox_around(point, bound);
        let candidates: Box<dyn Iterator<Item = &Located>> = if everywhere {
            Box::new(self.located.iter())
        } else {
            let envelope = AABB::from_corners([min_lon, min_lat], [max_lon, max_lat]);
            Box::new(self.located.locate_in_envelope(&envelope))
        };
        let mut found = Vec::new();
        for candidate in candidates {
            let item = self.at(candidate.data);
            let [lon, lat] = *candidate.geom();
            let d = rounded_distance_m(point, LonLat { lon, lat });
            if (everywhere || d <= bound)
                && located_after(query.after.as_ref(), d, &item.id)
                && in_categories(item, &query.categories)
            {
                found.push((d, item.id, candidate.data));
            }
        }
        found
    }
}

/// `categories` already holds the chosen categories' descendants; empty: every item.
fn in_categories(item: &NewsItem, categories: &[Uuid]) -> bool {
    categories.is_empty()
        || item
            .categories
            .iter()
            .any(|(id, _)| categories.contains(id))
}
