-- PostgreSQL drops its GeoJSON text column in this migration (geometries are read there as WKB
-- through geozero). SQLite has no geometry type to read WKB from: it keeps its own
-- representation, the served GeoJSON text in `geojson` beside the packed `coords` that distance
-- checks and the read model decode. Nothing changes here; the file exists because both
-- dialects carry the same migrations.
SELECT 1;
