//! The list index's walk alone, without HTTP or a database (docs/benchmarks.md): a city of
//! uniform random points (Prague's extent, as `scripts/bench-citizen.sh` generates), pages of
//! 100 nearest first from 2 000 random places, in each backend's search space, against the
//! newest page by date of the same index (the baseline of the same run); then the distances
//! those pages show, measured as the rows show them (`DistancesFrom::rounded_cm`) and by
//! Karney's algorithm alone (`distance_m`), µs per page of 100.
//!
//! `cargo run --release -p citizen-api --example nearest_walk -- [ISSUES] [ROUNDS]`
//! (defaults 1 000 000 and 3). Prints µs per page, each round's own.

use std::time::Instant;

use chrono::{TimeDelta, Utc};
use citizen_api::list_index::Index;
use citizen_api::store::{IssueState, ReportFilter};
use domain::geo::{distance_m, DistancesFrom, LocationParam, LonLat, NearestOrder};
use domain::issues::IssueStatus;
use domain::limits::Page;
use domain::reports::{Direction, Order, OrderBy};
use test_support::XorShift;
use uuid::Uuid;

/// A uniform point of the generated city (`bench/generate_city.py`'s extent).
fn place(rng: &mut XorShift) -> LonLat {
    let unit = |rng: &mut XorShift| rng.below(1_000_000) as f64 / 1e6;
    LonLat {
        lon: 14.33 + 0.27 * unit(rng),
        lat: 50.02 + 0.11 * unit(rng),
    }
}

fn city(order: NearestOrder, issues: u32, rng: &mut XorShift) -> Index {
    let start = Utc::now();
    let mut index = Index::new(order);
    for n in 0..issues {
        let filed_at = start - TimeDelta::seconds(i64::from(n));
        index.put(IssueState {
            issue_id: Uuid::from_u128(u128::from(n) + 1),
            report_id: Uuid::from_u128(u128::from(n) + 1 + (1 << 64)),
            category_id: Uuid::from_u128(1 + u128::from(n % 6)),
            status: IssueStatus::Open,
            filed_at,
            point: Some(place(rng)),
            version: 0,
            search: format!("report {n}"),
            placed_at: filed_at,
            has_possible_duplicates: false,
            parent_id: None,
        });
    }
    index.locate();
    index
}

fn filter(by: OrderBy, near: Option<LonLat>) -> ReportFilter {
    ReportFilter {
        categories: Vec::new(),
        statuses: Vec::new(),
        q: None,
        near: near.map(|point| LocationParam {
            point,
            radius_m: None,
        }),
        date_from: None,
        date_to: None,
        order: Order {
            by,
            direction: match by {
                OrderBy::Location => Direction::Asc,
                _ => Direction::Desc,
            },
        },
        page: Page {
            limit: 100,
            offset: 0,
        },
    }
}

/// µs per page over `filters`, and the rows they held (so that nothing is left out).
fn time(index: &Index, filters: &[ReportFilter]) -> (f64, usize) {
    let started = Instant::now();
    let rows: usize = filters
        .iter()
        .map(|f| {
            index
                .page(f, chrono::DateTime::UNIX_EPOCH)
                .map_or(0, |page| page.rows.len())
        })
        .sum();
    let micros = started.elapsed().as_secs_f64() * 1e6 / filters.len() as f64;
    (micros, rows)
}

/// µs per page to measure every row's distance from the page's point, by `measure`.
fn time_distances(
    pages: &[(LonLat, Vec<LonLat>)],
    measure: impl Fn(LonLat, &[LonLat]) -> f64,
) -> (f64, f64) {
    let started = Instant::now();
    let total: f64 = pages.iter().map(|(from, rows)| measure(*from, rows)).sum();
    let micros = started.elapsed().as_secs_f64() * 1e6 / pages.len() as f64;
    (micros, total)
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let issues: u32 = args.next().unwrap_or_else(|| "1000000".into()).parse()?;
    let rounds: u32 = args.next().unwrap_or_else(|| "3".into()).parse()?;
    println!("| order | issues | round | date page µs | nearest page µs | nearest / date | distances shown µs | Karney µs |");
    println!("|---|---|---|---|---|---|---|---|");
    for order in [NearestOrder::LocalPlane, NearestOrder::Sphere] {
        let mut rng = XorShift(0x5eed_0fc1_7e00);
        let index = city(order, issues, &mut rng);
        let nearest: Vec<ReportFilter> = (0..2_000)
            .map(|_| filter(OrderBy::Location, Some(place(&mut rng))))
            .collect();
        let dated = vec![filter(OrderBy::Date, None); 2_000];
        let pages: Vec<(LonLat, Vec<LonLat>)> = nearest
            .iter()
            .filter_map(|f| {
                let from = f.near.as_ref()?.point;
                let rows = index
                    .page(f, chrono::DateTime::UNIX_EPOCH)?
                    .rows
                    .iter()
                    .filter_map(|r| r.point)
                    .collect();
                Some((from, rows))
            })
            .collect();
        for round in 1..=rounds {
            let (date_us, _) = time(&index, &dated);
            let (near_us, rows) = time(&index, &nearest);
            anyhow::ensure!(
                rows == 100 * nearest.len(),
                "a page came short: {rows} rows"
            );
            let (shown_us, shown) = time_distances(&pages, |from, rows| {
                let from = DistancesFrom::new(from);
                rows.iter().map(|row| from.rounded_cm(*row)).sum()
            });
            let (karney_us, karney) = time_distances(&pages, |from, rows| {
                rows.iter()
                    .map(|row| (distance_m(from, *row) * 100.0).round() / 100.0)
                    .sum()
            });
            anyhow::ensure!(
                shown == karney,
                "the distances differ: {shown} and {karney}"
            );
            println!(
                "| {order:?} | {issues} | {round} | {date_us:.1} | {near_us:.1} | {:.1} | {shown_us:.1} | {karney_us:.1} |",
                near_us / date_us
            );
        }
    }
    Ok(())
}
