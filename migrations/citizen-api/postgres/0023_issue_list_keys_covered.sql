-- citizen-api, PostgreSQL: nothing. SQLite's migration of this number widens its list indexes
-- so a page's row keys are read from them alone; on PostgreSQL an index-only scan would also
-- need every page all-visible, and the page statements measured 8-16 % faster for a 225 MB index
-- (docs/benchmarks.md), so the indexes stay as they are. The number keeps both dialects'
-- migrations in step.
SELECT 1;
