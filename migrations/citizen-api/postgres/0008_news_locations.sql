-- citizen-api, PostgreSQL: nothing to do. The SQLite migration of this number adds a spatial
-- index of the news items' locations; here the GiST index of 0004 serves the nearest-first news
-- list. Kept so both dialects number their migrations alike.
SELECT 1;
