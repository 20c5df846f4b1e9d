//! The grid against a plain list of the same points: every box query hands over exactly the
//! points inside the box, through builds, growth past the built extent, rebuilds and removals.

use test_support::XorShift;

use super::*;

fn unit(rng: &mut XorShift) -> f64 {
    rng.below(1_000_000) as f64 / 1e6
}

/// A point of a city-sized patch of the unit sphere (three coordinates that all vary), or of a
/// plane (the third 0), around `centre`.
fn located(rng: &mut XorShift, slot: u32, sphere: bool, centre: [f64; 2], spread: f64) -> Located {
    let (x, y) = (
        centre[0] + spread * (unit(rng) - 0.5),
        centre[1] + spread * (unit(rng) - 0.5),
    );
    let position = if sphere {
        let (lon, lat) = (x.to_radians(), y.to_radians());
        [lat.cos() * lon.cos(), lat.cos() * lon.sin(), lat.sin()]
    } else {
        [x, y, 0.0]
    };
    Located {
        position,
        slot,
        point: LonLat { lon: x, lat: y },
    }
}

fn query(grid: &Grid, bounds: &Bounds) -> Vec<u32> {
    let mut found = Vec::new();
    grid.each_in(bounds, |located| found.push(located.slot));
    found.sort_unstable();
    found
}

fn expected(held: &[Located], bounds: &Bounds) -> Vec<u32> {
    let mut found: Vec<u32> = held
        .iter()
        .filter(|p| {
            (0..3).all(|k| bounds.lower[k] <= p.position[k] && p.position[k] <= bounds.upper[k])
        })
        .map(|p| p.slot)
        .collect();
    found.sort_unstable();
    found
}

/// A box around a held point or anywhere around the patch, of a random size (at times a
/// single point, at times larger than everything).
fn some_box(rng: &mut XorShift, held: &[Located], grid: &Grid) -> Bounds {
    let envelope = grid.envelope();
    let centre = match held.get(rng.below(held.len().max(1))) {
        Some(p) if rng.below(2) == 0 => p.position,
        _ => [0, 1, 2].map(|k| {
            let (lo, hi) = (envelope.lower[k].min(0.0), envelope.upper[k].max(1.0));
            lo + (hi - lo) * (1.4 * unit(rng) - 0.2)
        }),
    };
    let side = match rng.below(4) {
        0 => 0.0,
        1 => 1e3,
        _ => envelope.sides().iter().cloned().fold(1e-6, f64::max) * unit(rng) * 0.3,
    };
    Bounds {
        lower: centre.map(|c| c - side),
        upper: centre.map(|c| c + side),
    }
}

fn check(grid: &Grid, held: &[Located], rng: &mut XorShift, what: &str) {
    assert_eq!(grid.len(), held.len(), "{what}");
    let envelope = grid.envelope();
    for p in held {
        assert!(envelope.contains(&p.position), "{what}: envelope");
    }
    for _ in 0..200 {
        let bounds = some_box(rng, held, grid);
        assert_eq!(
            query(grid, &bounds),
            expected(held, &bounds),
            "{what}: {bounds:?}"
        );
    }
}

#[test]
fn box_queries_equal_the_list_through_growth_rebuilds_and_removals() {
    for sphere in [false, true] {
        for built in [0usize, 1, 40, 3_000] {
            let mut rng = XorShift(0x5eed_0000 + built as u64);
            let (centre, spread) = ([14.4, 50.05], 0.3);
            let mut held: Vec<Located> = (0..built as u32)
                .map(|slot| located(&mut rng, slot, sphere, centre, spread))
                .collect();
            let mut grid = Grid::build(held.clone());
            let what = format!("sphere {sphere}, built with {built}");
            check(&grid, &held, &mut rng, &what);
            // Growth well past the build (a rebuild at each doubling), part of it outside the
            // built extent, with removals on the way.
            let mut slot = built as u32;
            for round in 0..4 {
                for _ in 0..1_500 {
                    let wide = if rng.below(5) == 0 { 4.0 } else { 1.0 };
                    let p = located(&mut rng, slot, sphere, centre, spread * wide);
                    slot += 1;
                    grid.insert(p);
                    held.push(p);
                }
                for _ in 0..400 {
                    let at = rng.below(held.len());
                    let p = held.swap_remove(at);
                    assert!(grid.remove(&p.position, p.slot), "{what}: held");
                    assert!(!grid.remove(&p.position, p.slot), "{what}: removed once");
                }
                check(&grid, &held, &mut rng, &format!("{what}, round {round}"));
            }
        }
    }
}

#[test]
fn points_in_one_place_and_an_empty_grid() {
    let mut rng = XorShift(7);
    let empty = Grid::build(Vec::new());
    assert_eq!(
        query(&empty, &some_box(&mut rng, &[], &empty)),
        Vec::<u32>::new()
    );
    assert!(Bounds {
        lower: [0.0; 3],
        upper: [0.0; 3]
    }
    .contains_bounds(&empty.envelope()));
    // Every point the same place: one cell holds them all, a box of that place finds them.
    let same: Vec<Located> = (0..100)
        .map(|slot| Located {
            position: [0.3, 0.8, 0.5],
            slot,
            point: LonLat { lon: 1.0, lat: 2.0 },
        })
        .collect();
    let grid = Grid::build(same.clone());
    let place = Bounds {
        lower: [0.3, 0.8, 0.5],
        upper: [0.3, 0.8, 0.5],
    };
    assert_eq!(query(&grid, &place), (0..100).collect::<Vec<u32>>());
    check(&grid, &same, &mut rng, "one place");
}

#[test]
fn cells_hold_about_per_cell_points_at_a_build() {
    let mut rng = XorShift(11);
    let points: Vec<Located> = (0..100_000)
        .map(|slot| located(&mut rng, slot, false, [14.4, 50.05], 0.3))
        .collect();
    let grid = Grid::build(points);
    let cells = grid.cells.len() as f64;
    let per_cell = 100_000.0 / cells;
    assert!(
        (0.7 * PER_CELL..=1.3 * PER_CELL).contains(&per_cell),
        "{per_cell} points a cell over {cells} cells"
    );
}
