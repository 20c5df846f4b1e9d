//! The list index orders nearest first by each backend's own measure (`domain::geo::nearest`):
//! the key computed in memory equals, bit for bit, what the backend's statement computes for the
//! same points: SQLite's local-plane expression, PostgreSQL's `geography <-> geography` (the
//! PostGIS sphere's radius times the angle). Random pairs across a city, some a few metres apart.

use domain::geo::{metres_per_degree, LonLat, NearestOrder, Nearness};
use service_kit::db::{Database, DatabaseSettings};
use sqlx::Row;
use test_support::{on_both_backends, XorShift};

use crate::helpers::TestApp;

on_both_backends!(crate::helpers::spawn_app;
    keys_in_memory_equal_the_statements_keys,
);

/// Deterministic pairs: a location and the list's point.
fn pairs() -> Vec<(LonLat, LonLat)> {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let mut unit = move || rng.unit();
    (0..2_000)
        .map(|i| {
            let point = LonLat {
                lon: 14.2 + 0.5 * unit(),
                lat: 49.9 + 0.3 * unit(),
            };
            let location = if i % 3 == 0 {
                LonLat {
                    lon: point.lon + 1e-4 * unit(),
                    lat: point.lat + 1e-4 * unit(),
                }
            } else {
                LonLat {
                    lon: 14.2 + 0.5 * unit(),
                    lat: 49.9 + 0.3 * unit(),
                }
            };
            (location, point)
        })
        .collect()
}

async fn keys_in_memory_equal_the_statements_keys(app: TestApp) {
    let settings = DatabaseSettings {
        max_connections: 1,
        ..app.settings.database.clone()
    };
    let db = Database::connect(&settings, citizen_api::store::SCHEMA)
        .await
        .unwrap();
    let pairs = pairs();
    let mut differing = Vec::new();
    for (location, point) in &pairs {
        let (got, want) = match &db {
            Database::Postgres(pool) => {
                let metres: f64 = sqlx::query(
                    "SELECT public.ST_SetSRID(public.ST_MakePoint($1, $2), 4326)::public.geography \
                     <-> public.ST_SetSRID(public.ST_MakePoint($3, $4), 4326)::public.geography",
                )
                .bind(location.lon)
                .bind(location.lat)
                .bind(point.lon)
                .bind(point.lat)
                .fetch_one(pool)
                .await
                .unwrap()
                .get(0);
                // WGS84's sphere as PostGIS takes it: (2a + b) / 3.
                let a = 6_378_137.0;
                let radius = (2.0 * a + a * (1.0 - 1.0 / 298.257_223_563)) / 3.0;
                let angle = Nearness::new(NearestOrder::Sphere, *point).key(*location);
                (radius * angle, metres)
            }
            Database::Sqlite(pool) => {
                let (kx, ky) = metres_per_degree(point.lat);
                let key: f64 = sqlx::query(
                    "SELECT ((?1 - ?3) * ?5) * ((?1 - ?3) * ?5) + ((?2 - ?4) * ?6) * ((?2 - ?4) * ?6)",
                )
                .bind(location.lon)
                .bind(location.lat)
                .bind(point.lon)
                .bind(point.lat)
                .bind(kx)
                .bind(ky)
                .fetch_one(pool)
                .await
                .unwrap()
                .get(0);
                let mine = Nearness::new(NearestOrder::LocalPlane, *point).key(*location);
                (mine, key)
            }
        };
        if got.to_bits() != want.to_bits() {
            differing.push((location, point, got, want));
        }
    }
    assert!(
        differing.is_empty(),
        "{} of {}: {:?}",
        differing.len(),
        pairs.len(),
        &differing[..differing.len().min(5)]
    );
}
