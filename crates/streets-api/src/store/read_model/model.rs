//! One import's streets in memory, ready to answer every read the API has.
//!
//! Streets are indexed by ascending number (`0..n`), so a position in that order is also the
//! "by number" order of the plain list. Each street's GeoJSON feature is serialised once, into
//! one shared buffer; an answer is a list of slices of it.

use actix_web::web::Bytes;
use domain::geo::{bbox_of_lines, BBox};
use std::collections::HashMap;
use std::ops::Range;

use super::names::NameIndex;
use super::radius::RadiusIndex;
use crate::model::{write_feature, Feature, ItemsPage, ItemsQuery, StoredStreet, StreetQuery};
use crate::store::DatasetSnapshot;

pub(crate) struct Model {
    /// Street number → where its feature lies in `features`. A hash lookup touches one or two
    /// cache lines, where a binary search over 100 000 numbers missed the cache at most of its
    /// 17 steps (4 % of the CPU of `GET /streets/{number}`), and holding the span here saves
    /// the miss of reading it from `spans`.
    numbers: HashMap<i64, (u32, u32)>,
    /// `_id` → street index.
    ids: HashMap<Box<str>, u32>,
    /// Every feature, one after the other.
    features: Bytes,
    /// Where each street's feature lies in `features`.
    spans: Vec<Range<u32>>,
    /// Street number by street index.
    number_of: Vec<i64>,
    /// The bounding box of every street.
    extent: Option<BBox>,
    names: NameIndex,
    radius: RadiusIndex,
}

/// Why a snapshot cannot become a model.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BuildError {
    #[error("street {0} has no coordinates")]
    NoCoordinates(i64),
    #[error("the streets' features or points exceed the 32-bit offsets of the model")]
    TooLarge,
    #[error("serialising street {0}: {1}")]
    Serialise(i64, serde_json::Error),
}

impl Model {
    /// Builds the model of a snapshot (streets by ascending number, as the stores read them).
    pub(crate) fn build(snapshot: DatasetSnapshot) -> Result<Self, BuildError> {
        let DatasetSnapshot { mut streets, .. } = snapshot;
        streets.sort_by_key(|s| s.number);
        let mut buffer = Vec::with_capacity(streets.len() * 320);
        let mut spans = Vec::with_capacity(streets.len());
        let mut boxes = Vec::with_capacity(streets.len());
        let mut numbers = HashMap::with_capacity(streets.len());
        let mut ids = HashMap::with_capacity(streets.len());
        let mut folded = Vec::with_capacity(streets.len());
        let mut lines = Vec::with_capacity(streets.len());
        let mut number_of = Vec::with_capacity(streets.len());
        for (i, street) in streets.into_iter().enumerate() {
            let StoredStreet {
                id,
                number,
                name,
                name_folded,
                lines: street_lines,
            } = street;
            let start = offset(buffer.len())?;
            write_feature(&mut buffer, &id, number, &name, &street_lines)
                .map_err(|e| BuildError::Serialise(number, e))?;
            let end = offset(buffer.len())?;
            spans.push(start..end);
            boxes.push(bbox_of_lines(&street_lines).ok_or(BuildError::NoCoordinates(number))?);
            numbers.insert(number, (start, end));
            number_of.push(number);
            ids.insert(id.into_boxed_str(), offset(i)?);
            folded.push(name_folded.into_boxed_str());
            lines.push(street_lines);
        }
        let extent = boxes.iter().copied().reduce(|a: BBox, b| {
            [
                a[0].min(b[0]),
                a[1].min(b[1]),
                a[2].max(b[2]),
                a[3].max(b[3]),
            ]
        });
        Ok(Self {
            number_of,
            extent,
            numbers,
            ids,
            features: Bytes::from(buffer),
            spans,
            radius: RadiusIndex::new(&boxes, &lines).map_err(|_| BuildError::TooLarge)?,
            names: NameIndex::new(folded),
        })
    }

    /// How many streets the model holds.
    pub(crate) fn len(&self) -> usize {
        self.numbers.len()
    }

    fn bytes(&self, street: u32) -> &[u8] {
        let span = &self.spans[street as usize];
        &self.features[span.start as usize..span.end as usize]
    }

    /// A street's feature, copied: sharing a slice of `features` would count a reference on the
    /// one atomic of the whole buffer, a cache line that every worker thread writes.
    fn feature(&self, street: u32) -> Feature {
        Feature::from_bytes(Bytes::copy_from_slice(self.bytes(street)))
    }

    pub(crate) fn by_number(&self, number: i64) -> Option<Feature> {
        let &(start, end) = self.numbers.get(&number)?;
        Some(Feature::from_bytes(Bytes::copy_from_slice(
            &self.features[start as usize..end as usize],
        )))
    }

    pub(crate) fn by_id(&self, id: &str) -> Option<Feature> {
        self.ids.get(id).map(|&i| self.feature(i))
    }

    /// The answer to a search, in the order the API promises (see `StreetStore::find_streets`).
    pub(crate) fn find(&self, query: &StreetQuery) -> Vec<Feature> {
        self.find_streets(query)
            .into_iter()
            .map(|i| self.feature(i))
            .collect()
    }

    /// [`find`](Self::find) as one JSON array, copied once from `features`.
    pub(crate) fn find_json(&self, query: &StreetQuery) -> Bytes {
        let streets = self.find_streets(query);
        let len = streets
            .iter()
            .map(|&i| self.bytes(i).len() + 1)
            .sum::<usize>()
            + 2;
        let mut out = Vec::with_capacity(len);
        out.push(b'[');
        for (n, &i) in streets.iter().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            out.extend_from_slice(self.bytes(i));
        }
        out.push(b']');
        out.into()
    }

    /// The bounding box of every street.
    pub(crate) fn extent(&self) -> Option<BBox> {
        self.extent
    }

    /// A page of the features API's items.
    pub(crate) fn items(&self, query: &ItemsQuery) -> ItemsPage {
        let (offset, limit) = (query.offset as usize, query.limit as usize);
        let name = query.name.as_deref();
        let mut page = ItemsPage::default();
        let push_all = |page: &mut ItemsPage, streets: &[u32]| {
            let streets = streets.get(offset.min(streets.len())..).unwrap_or_default();
            for &i in streets.iter().take(limit) {
                page.push(self.number_of[i as usize], self.bytes(i));
            }
        };
        match (&query.bbox, name) {
            (Some(bbox), name) => {
                let streets = self
                    .radius
                    .intersecting(bbox, |i| name.is_none_or(|n| self.names.folded(i) == n));
                page.matched = streets.len() as u64;
                push_all(&mut page, &streets);
            }
            (None, Some(name)) => {
                let streets = self.names.equal(name);
                page.matched = streets.len() as u64;
                push_all(&mut page, streets);
            }
            (None, None) => {
                page.matched = self.len() as u64;
                let end = (offset + limit).min(self.len());
                for i in offset.min(end)..end {
                    if let Ok(i) = u32::try_from(i) {
                        page.push(self.number_of[i as usize], self.bytes(i));
                    }
                }
            }
        }
        page
    }

    /// The streets answering a search, in order.
    fn find_streets(&self, query: &StreetQuery) -> Vec<u32> {
        let (offset, limit) = (query.offset as usize, query.limit as usize);
        if query.matches_nothing() {
            return Vec::new();
        }
        let name = query.name_text();
        let streets: Vec<u32> = match (query.near, name) {
            (Some(near), name) => {
                // The name filter of the SQL backends: the name, or a word of it, starts with q
                // (`LIKE 'q%' OR LIKE '% q%'`).
                let word = name.map(|q| format!(" {q}"));
                let keep = |i: u32| match (name, &word) {
                    (Some(q), Some(word)) => {
                        let folded = self.names.folded(i);
                        folded.starts_with(q) || folded.contains(word.as_str())
                    }
                    _ => true,
                };
                self.radius
                    .within(near.point, near.radius_m, keep, offset, limit)
            }
            (None, Some(q)) => self.names.search(q, offset, limit),
            (None, None) => {
                let end = (offset + limit).min(self.len());
                (offset.min(end)..end)
                    .filter_map(|i| u32::try_from(i).ok())
                    .collect()
            }
        };
        streets
    }
}

fn offset(i: usize) -> Result<u32, BuildError> {
    u32::try_from(i).map_err(|_| BuildError::TooLarge)
}
