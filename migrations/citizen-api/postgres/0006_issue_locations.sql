-- citizen-api, PostgreSQL: nothing to do. The SQLite migration of this number adds a spatial
-- index of the issues' locations; here the GiST index on issues.location (0001) already serves
-- the nearest-first list and the radius filter. Kept so both dialects number their migrations
-- alike.
SELECT 1;
