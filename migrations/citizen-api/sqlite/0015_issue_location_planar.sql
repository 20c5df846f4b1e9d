-- citizen-api, SQLite: nothing to do. The PostgreSQL migration of this number adds a planar
-- index for the first step of the nearest-first list; SQLite reads that list through its
-- R*Tree (migration 0006). Kept so both dialects number their migrations alike.
SELECT 1;
