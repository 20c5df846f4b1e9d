-- citizen-api, PostgreSQL: the feed page is read from its index alone.
--
-- A feed page is up to 101 entries of one account, newest first. Through `notifications_feed`
-- each entry cost a heap fetch on a page of its own (an account's entries are written over
-- weeks, between everyone else's), about half of the database's work for the page. This index
-- carries every column the page shows, so the page is an index-only scan of a few neighbouring
-- index pages: at 1 000 000 entries the page's statement ran twice as fast (pgbench,
-- docs/benchmarks.md "The notification feed"). It replaces `notifications_feed` (same keys).
--
-- The index holds the entry's texts, so an entry must fit a B-tree tuple (about 2 700 bytes
-- after compression). What the service writes is far below that: a fixed title, a body built
-- from a report or news title (at most 256 characters) and a URL of a configured base and an
-- id. Digests are delivered, never written to the feed.
--
-- Index-only scans need the visibility map: new entries are all-visible after a vacuum, so the
-- table is vacuumed after every 1 % of new rows instead of PostgreSQL's default 20 %
-- (entries not yet all-visible cost their heap fetch, as before).
CREATE INDEX notifications_feed_page ON notifications (subject, sent_at DESC, inserted_at DESC)
    INCLUDE (tag, title, body, url, icon, read_at);
DROP INDEX notifications_feed;
ALTER TABLE notifications SET (autovacuum_vacuum_insert_scale_factor = 0.01);
