-- citizen-api, SQLite: a spatial index of the news items' locations (an R*Tree), so the news
-- list nearest first reads the items near the point instead of every located item (as the
-- issues' index of 0006 does for reports). The item is named by its id (an auxiliary column),
-- not by its rowid, which VACUUM may renumber.
CREATE VIRTUAL TABLE news_locations USING rtree (
    id, min_lon, max_lon, min_lat, max_lat,
    +news_id TEXT
);

INSERT INTO news_locations (min_lon, max_lon, min_lat, max_lat, news_id)
SELECT longitude, longitude, latitude, latitude, id FROM news_items WHERE longitude IS NOT NULL;

-- Kept in step by triggers (the editors' writes, imports and bulk loads alike). An update or a
-- delete finds the entry by its auxiliary column, a scan of the R*Tree: editors' changes are rare.
CREATE TRIGGER news_locations_insert AFTER INSERT ON news_items
WHEN NEW.longitude IS NOT NULL AND NEW.latitude IS NOT NULL
BEGIN
    INSERT INTO news_locations (min_lon, max_lon, min_lat, max_lat, news_id)
    VALUES (NEW.longitude, NEW.longitude, NEW.latitude, NEW.latitude, NEW.id);
END;

CREATE TRIGGER news_locations_update AFTER UPDATE OF longitude, latitude ON news_items
BEGIN
    DELETE FROM news_locations WHERE news_id = OLD.id;
    INSERT INTO news_locations (min_lon, max_lon, min_lat, max_lat, news_id)
    SELECT NEW.longitude, NEW.longitude, NEW.latitude, NEW.latitude, NEW.id
    WHERE NEW.longitude IS NOT NULL AND NEW.latitude IS NOT NULL;
END;

CREATE TRIGGER news_locations_delete AFTER DELETE ON news_items
BEGIN
    DELETE FROM news_locations WHERE news_id = OLD.id;
END;
