use geo::{Destination, Geodesic, Point};

use super::super::test_rng::TestRng as Rng;
use super::*;

/// A random place and one at `metres` from it in a random direction (Karney's direct problem).
fn pair(rng: &mut Rng, metres: f64) -> (LonLat, LonLat) {
    let origin = LonLat {
        lon: -180.0 + 360.0 * rng.unit(),
        lat: -89.99 + 179.98 * rng.unit(),
    };
    let there = Geodesic.destination(
        Point::new(origin.lon, origin.lat),
        360.0 * rng.unit(),
        metres,
    );
    (
        origin,
        LonLat {
            lon: there.x(),
            lat: there.y(),
        },
    )
}

#[test]
fn the_chord_is_within_its_error_of_karneys_distance_and_rounds_alike() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut worst: f64 = 0.0;
    for _ in 0..300_000 {
        // From a millimetre to the limit, as many of each order of magnitude.
        let metres = NEAR_M * 10f64.powf(-7.0 * rng.unit());
        let (origin, place) = pair(&mut rng, metres);
        let from = DistancesFrom::new(origin);
        let exact = distance_m(origin, place);
        let Some(near) = from.near(place) else {
            panic!("{origin:?} {place:?} at {exact} m not measured by the chord");
        };
        worst = worst.max((near - exact).abs());
        assert!(
            (near - exact).abs() <= NEAR_ERROR_M / 2.0,
            "{origin:?} {place:?}: chord {near} m, Karney {exact} m"
        );
        assert_eq!(
            from.rounded_cm(place),
            round_cm(exact),
            "{origin:?} {place:?}"
        );
    }
    assert!(worst > 0.0, "the chord cannot be exact everywhere");
}

#[test]
fn the_same_place_is_at_zero() {
    let here = LonLat {
        lon: 14.4213,
        lat: 50.0875,
    };
    assert_eq!(DistancesFrom::new(here).near(here), Some(0.0));
    assert_eq!(distance_cm(here, here), 0.0);
}

#[test]
fn farther_places_are_measured_by_karney() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for _ in 0..2_000 {
        let metres = NEAR_M * (1.01 + 1_000.0 * rng.unit());
        let (origin, place) = pair(&mut rng, metres);
        let from = DistancesFrom::new(origin);
        assert_eq!(from.near(place), None, "{origin:?} {place:?} at {metres} m");
        assert_eq!(from.rounded_cm(place), round_cm(distance_m(origin, place)));
    }
}

#[test]
fn near_half_a_centimetre_the_exact_distance_rounds() {
    let exact_called = std::cell::Cell::new(false);
    let exact = |metres: f64| {
        let called = &exact_called;
        move || {
            called.set(true);
            metres
        }
    };
    // Within the error of half a centimetre: the exact distance decides, either way.
    assert_eq!(round_cm_near(1.005, exact(1.004_999_99)), 1.0);
    assert!(exact_called.replace(false));
    assert_eq!(round_cm_near(1.004_999_99, exact(1.005_000_01)), 1.01);
    assert!(exact_called.replace(false));
    // Farther from it the chord's value is rounded, and the exact distance is not measured.
    assert_eq!(round_cm_near(1.003, exact(5.0)), 1.0);
    assert_eq!(round_cm_near(1.007, exact(5.0)), 1.01);
    assert!(!exact_called.get());
}

#[test]
fn small_angles_sines_and_cosines_match_the_librarys() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for _ in 0..100_000 {
        let d = SMALL_ANGLE * (2.0 * rng.unit() - 1.0);
        let (sin, cos) = small_sin_cos(d);
        let (want_sin, want_cos) = d.sin_cos();
        assert!(
            (sin - want_sin).abs() <= 2.0 * f64::EPSILON * want_sin.abs(),
            "sin {d}"
        );
        assert!((cos - want_cos).abs() <= 2.0 * f64::EPSILON, "cos {d}");
        // From an origin anywhere, the angle sum is as near the library's as its own rounding.
        let origin = std::f64::consts::PI * (2.0 * rng.unit() - 1.0);
        let (sum_sin, sum_cos) = DistancesFrom::sin_cos_near(origin.sin_cos(), d);
        let (want_sin, want_cos) = (origin + d).sin_cos();
        assert!((sum_sin - want_sin).abs() <= 4e-16, "sin {origin} + {d}");
        assert!((sum_cos - want_cos).abs() <= 4e-16, "cos {origin} + {d}");
    }
}
