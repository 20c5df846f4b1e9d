-- Geometries are read from PostGIS as WKB (ST_AsBinary) and decoded by geozero; the served
-- GeoJSON is written in Rust, from the same coordinates PostGIS holds. The GeoJSON text column
-- built at import is therefore no longer read, and goes: `geog` is the one stored geometry.
ALTER TABLE streets DROP COLUMN geojson;
