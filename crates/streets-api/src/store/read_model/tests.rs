//! The indexes against brute force on generated data large enough for every level of the
//! name tree (tens of thousands of word starts) and for the R-tree's inner nodes.

use super::names::NameIndex;
use super::radius::RadiusIndex;
use domain::geo::{bbox_of_lines, distance_to_lines_estimate_m, distance_to_lines_m, LonLat};
use test_support::XorShift;

const WORDS: &[&str] = &[
    "nova",
    "nove",
    "nov",
    "n",
    "stara",
    "na",
    "u",
    "ulice",
    "ul",
    "1",
    "12",
    "karla",
    "karlov",
    "zizkova",
    "strasse",
    "spalena",
    "v",
    "vinohradska",
    "a",
    "ab",
    "abc",
];

fn names(rng: &mut XorShift, n: usize) -> Vec<String> {
    (0..n)
        .map(|_| {
            let words = 1 + rng.below(5);
            (0..words)
                .map(|_| WORDS[rng.below(WORDS.len())])
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

fn oracle(names: &[String], q: &str) -> Vec<u32> {
    let mut hits: Vec<_> = names
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            test_support::name_rank(name, q).map(|r| (r, name.as_str(), i as u32))
        })
        .collect();
    hits.sort();
    hits.into_iter().map(|h| h.2).collect()
}

#[test]
fn name_search_yields_the_rank_order_of_brute_force() {
    let mut rng = XorShift(0x1234_5678_9abc_def1);
    let all = names(&mut rng, 12_000);
    let index = NameIndex::new(all.iter().map(|s| s.clone().into_boxed_str()).collect());
    let mut queries: Vec<String> = [
        "n", "nov", "nova", "u", "ul", "ulice", "1", "12", "a", "ab", "abc", "abcd", "k", "karl",
        "nova nov", "u ul", "a a", "z", "zz", "x",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for _ in 0..30 {
        queries.push(all[rng.below(all.len())].clone());
    }
    for q in &queries {
        let expected = oracle(&all, q);
        for (offset, limit) in [
            (0, 100),
            (0, 1),
            (3, 20),
            (99, 100),
            (500, 100),
            (1000, 100),
        ] {
            let got = index.search(q, offset, limit);
            let want: Vec<u32> = expected.iter().skip(offset).take(limit).copied().collect();
            assert_eq!(got, want, "q={q} offset={offset} limit={limit}");
        }
    }
    // Empty index.
    let empty = NameIndex::new(Vec::new());
    assert!(empty.search("a", 0, 100).is_empty());
}

/// The radius index's exactness rests on this bound (`domain::geo`): checked against the
/// geodesic over the estimate's whole domain.
#[test]
fn the_distance_estimate_stays_within_its_bound_of_the_geodesic() {
    // A deterministic spread of points and segments: latitudes up to the domain's edge,
    // distances from a metre to the domain's ~11 km, every direction.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mut checked, mut worst_per_km) = (0, 0.0_f64);
    for _ in 0..20_000 {
        let p = LonLat {
            lon: -179.0 + 358.0 * next(),
            lat: -80.0 + 160.0 * next(),
        };
        let scale = 0.12 * 10f64.powf(-4.0 * next()); // 1.2e-5° .. 0.12°
        let a = [
            p.lon + scale * (next() - 0.5),
            p.lat + scale * (next() - 0.5),
        ];
        let b = [a[0] + scale * (next() - 0.5), a[1] + scale * (next() - 0.5)];
        let lines = vec![vec![a, b]];
        let exact = distance_to_lines_m(p, &lines);
        let Some((estimate, bound)) = distance_to_lines_estimate_m(p, &lines) else {
            continue;
        };
        let error = (exact - estimate).abs();
        assert!(
            error <= bound,
            "{p:?} {lines:?}: {exact} vs {estimate} ± {bound}"
        );
        if exact > 1000.0 {
            worst_per_km = worst_per_km.max(error / exact * 1000.0);
        }
        checked += 1;
    }
    assert!(checked > 15_000, "{checked}");
    // The bound allows 10 mm per km; the estimate is far better than that.
    assert!(worst_per_km < 5e-4, "{worst_per_km} m per km");
}

#[test]
fn radius_search_orders_like_the_exact_distances() {
    let mut rng = XorShift(0x0ddb_a11c_afe5_eed5);
    let mut lines: Vec<Vec<Vec<[f64; 2]>>> = (0..20_000)
        .map(|_| {
            let (lon, lat) = (14.2 + rng.unit() * 0.4, 49.9 + rng.unit() * 0.3);
            vec![vec![
                [lon, lat],
                [lon + rng.unit() * 0.002, lat + rng.unit() * 0.002],
            ]]
        })
        .collect();
    // Three streets from one point: exact ties, ordered by index.
    for k in 0..3 {
        lines.push(vec![vec![
            [14.4, 50.0],
            [14.4 + 0.001 * f64::from(k), 50.001],
        ]]);
    }
    // Some streets of several lines (one of a single point), so that the flat line buffer is
    // read at the right ranges.
    for (i, street) in lines.iter_mut().enumerate().step_by(5) {
        let [lon, lat] = street[0][0];
        street.push(vec![[lon - 0.003, lat - 0.002], [lon - 0.001, lat - 0.003]]);
        if i % 10 == 0 {
            street.push(vec![[lon + 0.004, lat]]);
        }
    }
    let boxes: Vec<_> = lines.iter().map(|l| bbox_of_lines(l).unwrap()).collect();
    let index = RadiusIndex::new(&boxes, &lines).unwrap();
    let mut points: Vec<LonLat> = (0..300)
        .map(|_| LonLat {
            lon: 14.2 + rng.unit() * 0.4,
            lat: 49.9 + rng.unit() * 0.3,
        })
        .collect();
    points.push(LonLat {
        lon: 14.4,
        lat: 49.9997,
    });
    for point in points {
        for radius in [50.0, 300.0, 2000.0] {
            let mut want: Vec<(f64, u32)> = lines
                .iter()
                .enumerate()
                .map(|(i, l)| (distance_to_lines_m(point, l), i as u32))
                .filter(|(d, _)| *d <= radius)
                .collect();
            want.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let want: Vec<u32> = want.into_iter().map(|w| w.1).take(1000).collect();
            let got = index.within(point, radius, |_| true, 0, 1000);
            assert_eq!(got, want, "{point:?} r={radius}");
            let odd = index.within(point, radius, |i| i % 2 == 1, 1, 5);
            let want_odd: Vec<u32> = want
                .iter()
                .filter(|i| *i % 2 == 1)
                .skip(1)
                .take(5)
                .copied()
                .collect();
            assert_eq!(odd, want_odd);
        }
    }
}
