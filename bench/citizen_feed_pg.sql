-- citizen-api notification feed benchmark data, PostgreSQL: :n feed entries (psql -v n=…) over
-- :accounts accounts (bench-1 … bench-<accounts>), in a database the service has migrated.
-- Entries are spread evenly over the accounts (n / accounts each), one every 10 minutes per
-- account going back from 2026-11-01; every second entry shares its sent_at with the next one,
-- so pages are measured over ties; the newest 5 of each account are unread. inserted_at is unique
-- per account, as the service keeps it. Deterministic. The secondary indexes are dropped for the
-- load and recreated from their definitions after it; the closing VACUUM sets the visibility
-- map, as autovacuum does for a table in service (the feed page is an index-only scan).
\set ON_ERROR_STOP on
SET search_path = citizen_api, public;

CREATE TEMP TABLE saved_indexes AS
SELECT indexname, indexdef FROM pg_indexes ix
WHERE schemaname = 'citizen_api' AND tablename = 'notifications'
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                  WHERE c.conindid = format('%I.%I', ix.schemaname, ix.indexname)::regclass);
SELECT format('DROP INDEX citizen_api.%I', indexname) FROM saved_indexes \gexec

INSERT INTO notifications (tag, subject, event_id, title, body, url, icon, sent_at, inserted_at,
                           read_at)
SELECT md5('feed' || g)::uuid::text,
       'bench-' || (g % :accounts + 1),
       md5('event' || g)::uuid,
       'Your report has a new status',
       '“Broken lamp ' || g || '” is now accepted.',
       NULL, NULL,
       timestamptz '2026-11-01' - ((g / :accounts / 2) * interval '10 minutes'),
       timestamptz '2026-11-01' - ((g / :accounts) * interval '10 minutes'),
       CASE WHEN g / :accounts >= 5 THEN timestamptz '2026-11-02' END
FROM generate_series(0, :n - 1) g;

SELECT indexdef FROM saved_indexes \gexec
VACUUM ANALYZE notifications;
