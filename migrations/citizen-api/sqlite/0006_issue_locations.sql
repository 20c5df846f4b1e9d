-- citizen-api, SQLite: a spatial index of the issues' locations (an R*Tree), so the public list
-- nearest first and the radius filter read the issues near the point instead of every issue.
-- SQLite has no index on a computed distance; PostgreSQL's GiST index on issues.location does
-- this there.

-- One entry per located issue; a point is a box of zero size. The R*Tree stores 32-bit floats
-- rounded outwards, so it is a prefilter: the exact distance test stays in the query. The issue
-- is named by its id (an auxiliary column), not by its rowid, which VACUUM may renumber.
CREATE VIRTUAL TABLE issue_locations USING rtree (
    id, min_lon, max_lon, min_lat, max_lat,
    +issue_id TEXT
);

INSERT INTO issue_locations (min_lon, max_lon, min_lat, max_lat, issue_id)
SELECT longitude, longitude, latitude, latitude, id FROM issues WHERE longitude IS NOT NULL;

-- Kept in step with the issues by triggers (filing, moving and the bulk loads alike). Issues keep
-- their location for life and are deleted only with their report, so the two triggers that look
-- an entry up by its auxiliary column (a scan of the R*Tree) practically never run.
CREATE TRIGGER issue_locations_insert AFTER INSERT ON issues
WHEN NEW.longitude IS NOT NULL AND NEW.latitude IS NOT NULL
BEGIN
    INSERT INTO issue_locations (min_lon, max_lon, min_lat, max_lat, issue_id)
    VALUES (NEW.longitude, NEW.longitude, NEW.latitude, NEW.latitude, NEW.id);
END;

CREATE TRIGGER issue_locations_update AFTER UPDATE OF longitude, latitude ON issues
BEGIN
    DELETE FROM issue_locations WHERE issue_id = OLD.id;
    INSERT INTO issue_locations (min_lon, max_lon, min_lat, max_lat, issue_id)
    SELECT NEW.longitude, NEW.longitude, NEW.latitude, NEW.latitude, NEW.id
    WHERE NEW.longitude IS NOT NULL AND NEW.latitude IS NOT NULL;
END;

CREATE TRIGGER issue_locations_delete AFTER DELETE ON issues
BEGIN
    DELETE FROM issue_locations WHERE issue_id = OLD.id;
END;
