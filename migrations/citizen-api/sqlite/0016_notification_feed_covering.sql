-- citizen-api, SQLite: nothing to do. The PostgreSQL migration of this number makes the feed
-- page an index-only scan (an index that includes the page's columns); SQLite has no INCLUDE,
-- and its feed reads each entry from the table through `notifications_feed` as before. Kept so
-- both dialects number their migrations alike.
SELECT 1;
