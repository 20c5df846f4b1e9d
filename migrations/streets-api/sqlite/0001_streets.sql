-- Streets of the city, served read-only by streets-api. Replaced as a whole by `streets-api import`.
CREATE TABLE streets (
    -- Integer key shared with the R*Tree below.
    pk          INTEGER PRIMARY KEY,
    -- The public `_id`: a UUID, never all digits (all digits means a street number).
    id          TEXT NOT NULL UNIQUE,
    -- I_GM_U: the city's street number, unique; kept with the same id across re-imports.
    number      INTEGER NOT NULL UNIQUE,
    -- N_GM_U: the street name as published.
    name        TEXT NOT NULL,
    -- The name folded for search (NFKD, no diacritics, lowercase, words separated by one space).
    name_folded TEXT NOT NULL,
    -- The geometry as served (GeoJSON MultiLineString, WGS84), so reads need no conversion.
    geojson     TEXT NOT NULL,
    -- The same coordinates packed for exact distance checks in Rust: little-endian f64 pairs
    -- per line, each line preceded by its point count as a little-endian u32.
    coords      BLOB NOT NULL
);

CREATE INDEX streets_name_order_idx ON streets (name_folded, number);

-- Bounding boxes for the radius prefilter; the exact distance is computed in Rust.
CREATE VIRTUAL TABLE streets_rtree USING rtree(pk, min_lon, max_lon, min_lat, max_lat);
