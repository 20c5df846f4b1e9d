-- Streets of the city, served read-only by streets-api. Replaced as a whole by `streets-api import`.
-- Runs with search_path = streets, public (the service's own schema first; PostGIS lives in public).
CREATE EXTENSION IF NOT EXISTS postgis WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE TABLE streets (
    -- The public `_id`: a UUID, never all digits (all digits means a street number).
    id          TEXT PRIMARY KEY,
    -- I_GM_U: the city's street number, unique; kept with the same id across re-imports.
    number      BIGINT NOT NULL UNIQUE,
    -- N_GM_U: the street name as published.
    name        TEXT NOT NULL,
    -- The name folded for search (NFKD, no diacritics, lowercase, words separated by one space).
    name_folded TEXT NOT NULL,
    -- The geometry as served (GeoJSON MultiLineString, WGS84), so reads need no conversion.
    geojson     TEXT NOT NULL,
    -- The same geometry for distance queries in metres on the spheroid.
    geog        geography(MultiLineString, 4326) NOT NULL
);

-- Radius search: ST_DWithin on geography uses this index.
CREATE INDEX streets_geog_idx ON streets USING gist (geog);
-- Name search: LIKE 'x%' and LIKE '% x%' on the folded name use trigrams.
CREATE INDEX streets_name_trgm_idx ON streets USING gin (name_folded gin_trgm_ops);
-- Stable ordering of name matches.
CREATE INDEX streets_name_order_idx ON streets (name_folded, number);
