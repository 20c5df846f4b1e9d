//! "Nearest first" as each storage backend's statement orders it (`orderBy=location`), computed
//! alike in memory, so that a page written from a replica's list index holds the rows the
//! database would have returned, in its order.
//!
//! The two backends measure differently, and neither is the geodesic distance a row shows:
//! - SQLite orders by the squared distance on the plane tangent at the list's point, with the
//!   WGS84 ellipsoid's metres per degree at that latitude (`store/sqlite/reports.rs`). The
//!   statement's arithmetic is IEEE double arithmetic in a fixed order, repeated here.
//! - PostgreSQL orders by `geography <-> geography`: PostGIS's great-circle distance on a sphere
//!   (`sphere_distance` in liblwgeom, times the sphere's radius). The formula is repeated here
//!   operation by operation with the same libm functions; multiplying by the radius keeps the
//!   order, so the key is the angle.
//!
//! To find the nearest rows without measuring every row, points are placed in a search space
//! ([`SearchSpace::position`]) where the Euclidean distance never exceeds what the key
//! measures ([`Nearness::floor`]): a walk in Euclidean order can stop once the floor passes the
//! page's last key.

use super::LonLat;

/// How a backend orders "nearest first".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NearestOrder {
    /// SQLite: squared metres on the local plane at the list's point.
    LocalPlane,
    /// PostgreSQL: the PostGIS sphere's great-circle angle.
    Sphere,
}

/// Relative slack of [`Nearness::floor`]: rounding in the key's arithmetic and in the search
/// space's positions is some units in the last place, far below this.
const FLOOR_SLACK: f64 = 1e-9;
/// Absolute slack of [`Nearness::floor`] on the local plane, in degrees (about 0.1 µm): far
/// above the rounding of a position's scaled longitude (`SearchSpace`).
const PLANE_ABS_SLACK: f64 = 1e-12;
/// Absolute slack of [`Nearness::floor`] for the sphere: a few units in the last place of a unit
/// vector's components (1e-12 rad is about 6 µm).
const SPHERE_ABS_SLACK: f64 = 1e-12;

impl NearestOrder {
    /// The point's place in the search space: longitude and latitude in degrees on a plane
    /// for [`Self::LocalPlane`], the unit vector for [`Self::Sphere`].
    pub fn position(self, point: LonLat) -> [f64; 3] {
        match self {
            Self::LocalPlane => [point.lon, point.lat, 0.0],
            Self::Sphere => {
                let (lon, lat) = (point.lon.to_radians(), point.lat.to_radians());
                [lat.cos() * lon.cos(), lat.cos() * lon.sin(), lat.sin()]
            }
        }
    }
}

/// Metres per degree of longitude and of latitude on the WGS84 ellipsoid at `lat` (degrees):
/// the local plane's scales, as SQLite's statement binds them.
pub fn metres_per_degree(lat: f64) -> (f64, f64) {
    const A: f64 = 6_378_137.0;
    const E2: f64 = 0.006_694_379_990_14;
    let phi = lat.to_radians();
    let w = 1.0 - E2 * phi.sin().powi(2);
    let n = A / w.sqrt();
    let m = A * (1.0 - E2) / w.powf(1.5);
    let per_radian = std::f64::consts::PI / 180.0;
    (n * phi.cos() * per_radian, m * per_radian)
}

/// PostGIS's `deg2rad`: `M_PI * d / 180.0`, in that order (not `to_radians`, which rounds
/// differently).
fn deg2rad(d: f64) -> f64 {
    std::f64::consts::PI * d / 180.0
}

/// PostGIS's `sphere_distance(s, e)` on points in degrees (in range: PostGIS's normalisation
/// leaves them as they are), in radians.
pub fn sphere_angle(s: LonLat, e: LonLat) -> f64 {
    let (s_lon, s_lat) = (deg2rad(s.lon), deg2rad(s.lat));
    let (e_lon, e_lat) = (deg2rad(e.lon), deg2rad(e.lat));
    let d_lon = e_lon - s_lon;
    let cos_d_lon = d_lon.cos();
    let cos_lat_e = e_lat.cos();
    let sin_lat_e = e_lat.sin();
    let cos_lat_s = s_lat.cos();
    let sin_lat_s = s_lat.sin();
    let t1 = cos_lat_e * d_lon.sin();
    let t2 = cos_lat_s * sin_lat_e - sin_lat_s * cos_lat_e * cos_d_lon;
    let a = (t1 * t1 + t2 * t2).sqrt();
    let b = sin_lat_s * sin_lat_e + cos_lat_s * cos_lat_e * cos_d_lon;
    a.atan2(b)
}

/// Where points are placed to search them (module docs): the backend's order and, on the local
/// plane, the factor its longitudes are multiplied by. With the cosine of the city's latitude
/// there, a degree of the space is about as long east–west as north–south, so the points whose
/// floor is below the page's last key lie in a near circle around the key's circle; with
/// longitudes as they are, at 50° they lay in an ellipse half as large again, and a walk read
/// each of them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchSpace {
    order: NearestOrder,
    lon_scale: f64,
}

impl SearchSpace {
    /// The space of `order` with longitudes as they are.
    pub fn plain(order: NearestOrder) -> Self {
        Self {
            order,
            lon_scale: 1.0,
        }
    }

    /// The space of `order` fitted to places around latitude `lat` (degrees): the local plane's
    /// longitudes times cos(lat), kept within [0.01, 1]; the sphere's unit vectors are left as
    /// they are. Any factor keeps [`Nearness::floor`] below the key; a good one reads fewer
    /// points.
    pub fn around(order: NearestOrder, lat: f64) -> Self {
        let lon_scale = match order {
            NearestOrder::LocalPlane => {
                let cos = lat.to_radians().cos();
                if cos.is_finite() {
                    cos.clamp(0.01, 1.0)
                } else {
                    1.0
                }
            }
            NearestOrder::Sphere => 1.0,
        };
        Self { order, lon_scale }
    }

    pub fn order(&self) -> NearestOrder {
        self.order
    }

    /// The point's place in the space: [`NearestOrder::position`], the local plane's longitude
    /// scaled.
    pub fn position(&self, point: LonLat) -> [f64; 3] {
        let mut position = self.order.position(point);
        if self.order == NearestOrder::LocalPlane {
            position[0] *= self.lon_scale;
        }
        position
    }

    /// The measure of a list from `origin` in this space.
    pub fn nearness(&self, origin: LonLat) -> Nearness {
        Nearness {
            lon_scale: self.lon_scale,
            ..Nearness::new(self.order, origin)
        }
    }
}

/// One list's measure from its point: the key of each row and the floor of the keys beyond a
/// Euclidean distance in the search space.
#[derive(Debug, Clone, Copy)]
pub struct Nearness {
    order: NearestOrder,
    origin: LonLat,
    /// The local plane's metres per degree (longitude, latitude) at the origin.
    scale: (f64, f64),
    /// The search space's factor of longitudes ([`SearchSpace`]).
    lon_scale: f64,
}

impl Nearness {
    /// The measure from `origin` in the plain search space ([`SearchSpace::plain`]).
    pub fn new(order: NearestOrder, origin: LonLat) -> Self {
        let scale = match order {
            NearestOrder::LocalPlane => metres_per_degree(origin.lat),
            NearestOrder::Sphere => (0.0, 0.0),
        };
        Self {
            order,
            origin,
            scale,
            lon_scale: 1.0,
        }
    }

    /// The origin's place in the search space.
    pub fn position(&self) -> [f64; 3] {
        SearchSpace {
            order: self.order,
            lon_scale: self.lon_scale,
        }
        .position(self.origin)
    }

    /// The key the backend orders `point` by (smaller is nearer; ties go by id):
    /// `((lon - o.lon) * kx) * ((lon - o.lon) * kx) + ((lat - o.lat) * ky) * ((lat - o.lat) *
    /// ky)` for SQLite, the angle of `location <-> point` for PostgreSQL.
    pub fn key(&self, point: LonLat) -> f64 {
        match self.order {
            NearestOrder::LocalPlane => {
                let (kx, ky) = self.scale;
                let x = (point.lon - self.origin.lon) * kx;
                let y = (point.lat - self.origin.lat) * ky;
                x * x + y * y
            }
            NearestOrder::Sphere => sphere_angle(point, self.origin),
        }
    }

    /// A key no point farther than `distance2` (squared Euclidean distance in the search
    /// space) from the origin's position can be below.
    pub fn floor(&self, distance2: f64) -> f64 {
        match self.order {
            // With c the space's factor of longitudes, kx² Δlon² + ky² Δlat² =
            // (kx / c)² (c Δlon)² + ky² Δlat² ≥ min(kx / c, ky)² ((c Δlon)² + Δlat²).
            // A scaled longitude is rounded once more: positions are off by some units in the
            // last place of 180°, which matters only between points a nanometre apart.
            NearestOrder::LocalPlane => {
                let k = (self.scale.0 / self.lon_scale).min(self.scale.1);
                let d = (distance2.sqrt() * (1.0 - FLOOR_SLACK) - PLANE_ABS_SLACK).max(0.0);
                k * k * d * d
            }
            // The chord between two unit vectors is never longer than their arc.
            NearestOrder::Sphere => {
                (distance2.sqrt() * (1.0 - FLOOR_SLACK) - SPHERE_ABS_SLACK).max(0.0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::TestRng as Rng;
    use super::*;

    fn squared(a: [f64; 3], b: [f64; 3]) -> f64 {
        a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
    }

    #[test]
    fn the_floor_never_exceeds_the_key() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for order in [NearestOrder::LocalPlane, NearestOrder::Sphere] {
            for _ in 0..20_000 {
                let origin = LonLat {
                    lon: -180.0 + 360.0 * rng.unit(),
                    lat: -85.0 + 170.0 * rng.unit(),
                };
                // Near (down to the same point), in the city, and far.
                let reach = [0.0, 1e-9, 1e-6, 1e-3, 0.1, 10.0][(rng.unit() * 6.0) as usize];
                let point = LonLat {
                    lon: (origin.lon + reach * (rng.unit() - 0.5)).clamp(-180.0, 180.0),
                    lat: (origin.lat + reach * (rng.unit() - 0.5)).clamp(-89.0, 89.0),
                };
                // The plain space, one fitted to the origin's latitude and one to any latitude.
                let spaces = [
                    SearchSpace::plain(order),
                    SearchSpace::around(order, origin.lat),
                    SearchSpace::around(order, -90.0 + 180.0 * rng.unit()),
                ];
                for space in spaces {
                    let near = space.nearness(origin);
                    let d2 = squared(near.position(), space.position(point));
                    let (floor, key) = (near.floor(d2), near.key(point));
                    assert!(
                        floor <= key,
                        "{space:?} {origin:?} {point:?}: floor {floor} > key {key}"
                    );
                }
            }
        }
    }

    /// Places 100 m due north and due east of `origin` on the local plane.
    fn north_and_east(origin: LonLat) -> (LonLat, LonLat) {
        let (kx, ky) = metres_per_degree(origin.lat);
        let north = LonLat {
            lon: origin.lon,
            lat: origin.lat + 100.0 / ky,
        };
        let east = LonLat {
            lon: origin.lon + 100.0 / kx,
            lat: origin.lat,
        };
        (north, east)
    }

    #[test]
    fn a_fitted_plane_measures_alike_east_and_north() {
        let origin = LonLat {
            lon: 14.4213,
            lat: 50.0875,
        };
        let (north, east) = north_and_east(origin);
        let ratio = |space: SearchSpace| {
            let o = space.position(origin);
            squared(space.position(north), o).sqrt() / squared(space.position(east), o).sqrt()
        };
        let fitted = ratio(SearchSpace::around(NearestOrder::LocalPlane, 50.0));
        assert!((fitted - 1.0).abs() < 0.01, "fitted {fitted}");
        let plain = ratio(SearchSpace::plain(NearestOrder::LocalPlane));
        assert!(plain < 0.7, "plain {plain}");
        // The sphere is left as it is.
        assert_eq!(
            SearchSpace::around(NearestOrder::Sphere, 50.0),
            SearchSpace::plain(NearestOrder::Sphere)
        );
    }

    #[test]
    fn keys_order_as_the_backends_do() {
        let origin = LonLat {
            lon: 14.4213,
            lat: 50.0875,
        };
        let same = Nearness::new(NearestOrder::Sphere, origin);
        assert_eq!(same.key(origin), 0.0);
        // Values PostGIS 3.3 returned for `location <-> point` (metres, the WGS84 sphere's
        // radius (2a + b) / 3 times the angle), bit for bit.
        let radius = (2.0 * 6_378_137.0 + 6_378_137.0 * (1.0 - 1.0 / 298.257_223_563)) / 3.0;
        let cases = [(
            LonLat {
                lon: 14.273_212_047_267_833,
                lat: 50.190_016_825_004_55,
            },
            LonLat {
                lon: 14.273_183_719_074_954,
                lat: 50.189_974_488_065_545,
            },
            5.121_454_403_827_661,
        )];
        for (location, point, metres) in cases {
            let angle = Nearness::new(NearestOrder::Sphere, point).key(location);
            assert_eq!(radius * angle, metres);
        }
        // SQLite's expression: a point due north and one due east at the same key distance
        // order by the scales of the origin's latitude.
        let plane = Nearness::new(NearestOrder::LocalPlane, origin);
        let (north, east) = north_and_east(origin);
        assert!((plane.key(north) - 10_000.0).abs() < 1e-6);
        assert!((plane.key(east) - 10_000.0).abs() < 1e-6);
        assert!(plane.key(north) > 0.0);
    }
}
