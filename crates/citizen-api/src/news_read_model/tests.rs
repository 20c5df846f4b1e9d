//! The model's pages against the orders written out by brute force, on generated news with
//! ties in date and in distance (items at the same spot), walked page by page through cursors
//! as the list hands them out.

use chrono::{TimeZone, Utc};
use domain::geo::{rounded_distance_m, LocationParam, LonLat};
use domain::news::NewsCursor;
use test_support::XorShift;
use uuid::Uuid;

use super::NewsModel;
use crate::store::news::{NewsCategory, NewsItem, NewsQuery, NewsSnapshot};

fn category(k: u128) -> NewsCategory {
    NewsCategory {
        id: Uuid::from_u128(k),
        name: format!("c{k}"),
        description: None,
        parent_id: None,
    }
}

/// `n` items: a third without location, the others in a city-sized box with many sharing a
/// spot; dates repeat; zero to two of four categories each.
fn snapshot(n: usize, seed: u64) -> NewsSnapshot {
    let mut rng = XorShift(seed);
    let spots: Vec<(f64, f64)> = (0..n / 4)
        .map(|_| (14.3 + rng.unit() * 0.3, 50.0 + rng.unit() * 0.1))
        .collect();
    let items = (0..n)
        .map(|k| {
            let location = match rng.below(3) {
                0 => None,
                1 => {
                    let (lon, lat) = spots[rng.below(spots.len())];
                    Some(LonLat { lon, lat })
                }
                _ => Some(LonLat {
                    lon: 14.3 + rng.unit() * 0.3,
                    lat: 50.0 + rng.unit() * 0.1,
                }),
            };
            let categories = (0..rng.below(3))
                .map(|_| category(1 + rng.below(4) as u128))
                .map(|c| (c.id, c.name))
                .collect();
            NewsItem {
                id: Uuid::from_u128(u128::from(rng.next_u64()) << 64 | k as u128),
                title: format!("item {k}"),
                description: String::new(),
                image: None,
                date: Utc
                    .timestamp_opt(1_700_000_000 + rng.below(n / 3 + 1) as i64, 0)
                    .unwrap(),
                location,
                categories,
                distance: None,
            }
        })
        .collect();
    NewsSnapshot {
        generation: 1,
        categories: (1..=4).map(category).collect(),
        items,
    }
}

/// The whole list in its order, written out independently of the model.
fn oracle(items: &[NewsItem], near: Option<LocationParam>, categories: &[Uuid]) -> Vec<NewsItem> {
    let chosen = items.iter().filter(|i| {
        categories.is_empty() || i.categories.iter().any(|(c, _)| categories.contains(c))
    });
    let Some(near) = near else {
        let mut all: Vec<NewsItem> = chosen.cloned().collect();
        all.sort_by_key(|i| std::cmp::Reverse((i.date, i.id)));
        return all;
    };
    let mut located: Vec<NewsItem> = chosen
        .clone()
        .filter_map(|i| {
            let d = rounded_distance_m(near.point, i.location?);
            near.radius_m.is_none_or(|r| d <= r).then(|| NewsItem {
                distance: Some(d),
                ..i.clone()
            })
        })
        .collect();
    located.sort_by(|a, b| {
        let (da, db) = (a.distance.unwrap(), b.distance.unwrap());
        da.total_cmp(&db).then(a.id.cmp(&b.id))
    });
    if near.radius_m.is_none() {
        let mut unlocated: Vec<NewsItem> =
            chosen.filter(|i| i.location.is_none()).cloned().collect();
        unlocated.sort_by_key(|i| std::cmp::Reverse(i.id));
        located.extend(unlocated);
    }
    located
}

/// The list walked page by page, each page's cursor taken from its last item.
fn walk(
    model: &NewsModel,
    near: Option<LocationParam>,
    categories: &[Uuid],
    limit: u32,
) -> Vec<NewsItem> {
    let mut out: Vec<NewsItem> = Vec::new();
    let mut after = None;
    loop {
        let page = model.page(&NewsQuery {
            categories: categories.to_vec(),
            near,
            after: after.clone(),
            limit,
        });
        assert!(page.len() <= limit as usize);
        let Some(last) = page.last() else { break };
        after = Some(match (near, last.distance) {
            (None, _) => NewsCursor::Date {
                date: last.date,
                id: Some(last.id),
            },
            (Some(_), Some(metres)) => NewsCursor::Distance {
                metres,
                id: Some(last.id),
            },
            (Some(_), None) => NewsCursor::Unlocated { id: Some(last.id) },
        });
        let full = page.len() == limit as usize;
        out.extend(page);
        assert!(out.len() <= 10_000, "the walk does not end");
        if !full {
            break;
        }
    }
    out
}

#[test]
fn pages_walk_the_whole_order_in_every_mode() {
    for (n, seed) in [(0, 1), (1, 2), (7, 3), (400, 4), (3_000, 5)] {
        let snap = snapshot(n, seed);
        let items = snap.items.clone();
        let model = NewsModel::build(snap);
        let centre = LonLat {
            lon: 14.45,
            lat: 50.05,
        };
        let far = LonLat {
            lon: -120.0,
            lat: -40.0,
        };
        let nears = [
            None,
            Some(LocationParam {
                point: centre,
                radius_m: None,
            }),
            Some(LocationParam {
                point: centre,
                radius_m: Some(1_500.0),
            }),
            Some(LocationParam {
                point: far,
                radius_m: None,
            }),
            Some(LocationParam {
                point: far,
                radius_m: Some(100.0),
            }),
        ];
        let filters = [
            vec![],
            vec![Uuid::from_u128(2)],
            vec![Uuid::from_u128(1), Uuid::from_u128(4)],
        ];
        for near in nears {
            for categories in &filters {
                let want = oracle(&items, near, categories);
                // A page of one over thousands of items is quadratic: small sets only.
                let limits: &[u32] = if n > 500 { &[7, 101] } else { &[1, 3, 20, 101] };
                for &limit in limits {
                    let got = walk(&model, near, categories, limit);
                    let ids =
                        |v: &[NewsItem]| v.iter().map(|i| (i.id, i.distance)).collect::<Vec<_>>();
                    assert_eq!(
                        ids(&got),
                        ids(&want),
                        "n {n} near {near:?} categories {categories:?} limit {limit}"
                    );
                }
            }
        }
        for item in &items {
            assert_eq!(model.item(item.id).as_ref(), Some(item));
        }
    }
}

#[test]
fn cursors_without_an_id_start_after_their_whole_date_or_distance() {
    let snap = snapshot(500, 9);
    let items = snap.items.clone();
    let model = NewsModel::build(snap);
    let by_date = oracle(&items, None, &[]);
    let date = by_date[100].date;
    let page = model.page(&NewsQuery {
        categories: vec![],
        near: None,
        after: Some(NewsCursor::Date { date, id: None }),
        limit: 500,
    });
    let want: Vec<Uuid> = by_date
        .iter()
        .filter(|i| i.date < date)
        .map(|i| i.id)
        .collect();
    assert_eq!(page.iter().map(|i| i.id).collect::<Vec<_>>(), want);

    let near = LocationParam {
        point: LonLat {
            lon: 14.45,
            lat: 50.05,
        },
        radius_m: None,
    };
    let nearest = oracle(&items, Some(near), &[]);
    let metres = nearest[50].distance.unwrap();
    let page = model.page(&NewsQuery {
        categories: vec![],
        near: Some(near),
        after: Some(NewsCursor::Distance { metres, id: None }),
        limit: 1_000,
    });
    let want: Vec<Uuid> = nearest
        .iter()
        .filter(|i| i.distance.is_none_or(|d| d > metres))
        .map(|i| i.id)
        .collect();
    assert_eq!(page.iter().map(|i| i.id).collect::<Vec<_>>(), want);
    // A date cursor with a location, or a distance cursor without one, is past the end.
    for (near, after) in [
        (Some(near), NewsCursor::Date { date, id: None }),
        (None, NewsCursor::Distance { metres, id: None }),
    ] {
        let page = model.page(&NewsQuery {
            categories: vec![],
            near,
            after: Some(after),
            limit: 10,
        });
        assert!(page.is_empty());
    }
}
