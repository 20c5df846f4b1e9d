-- citizen-api vote benchmark data, PostgreSQL: :tokens vote tokens (psql -v tokens=… -v
-- accounts=…) spread evenly over :accounts accounts named bench-1 … bench-N, each on a report
-- of the database (load bench/citizen_pg.sql first). Placed over the 60 days before
-- the load, each expiring 30 days after placing (so about half have expired), a fifth revoked
-- a day after placing. Indexes are dropped during the load and recreated from their own
-- definitions afterwards.
\set ON_ERROR_STOP on
SET search_path = citizen_api, public;
SET maintenance_work_mem = '512MB';
SET session_replication_role = replica;
SELECT setseed(0.1123) \g /dev/null

CREATE TEMP TABLE idx AS
SELECT indexname, indexdef FROM pg_indexes
WHERE schemaname = 'citizen_api' AND tablename = 'vote_tokens' AND indexname <> 'vote_tokens_pkey';
SELECT format('DROP INDEX citizen_api.%I', indexname) FROM idx \gexec

CREATE TEMP TABLE targets AS SELECT row_number() OVER (ORDER BY id) AS k, id FROM reports;
CREATE UNIQUE INDEX ON targets (k);
INSERT INTO vote_accounts (subject, created_at)
SELECT 'bench-' || g, timestamptz '2026-01-01' FROM generate_series(1, :accounts) g;
INSERT INTO vote_tokens (id, subject, target_id, inserted_at, expires_at, revoked_at)
SELECT gen_random_uuid(), 'bench-' || (1 + g % :accounts), t.id, placed,
       placed + interval '30 days',
       CASE WHEN random() < 0.2 THEN placed + interval '1 day' END
FROM (SELECT g, 1 + floor(random() * (SELECT count(*) FROM targets))::bigint AS k,
             now() - random() * interval '60 days' AS placed
      FROM generate_series(1, :tokens) g) p
JOIN targets t ON t.k = p.k;

-- The kept vote counts (migration 0034; its triggers are off during the load): the tokens
-- already expired stop counting, and each report counts the rest anew.
UPDATE vote_tokens SET counted = FALSE WHERE expires_at <= now();
UPDATE reports r SET votes_count = c.n
FROM (SELECT t.id, count(v.id) AS n FROM targets t
      LEFT JOIN vote_tokens v ON v.target_id = t.id AND v.counted AND v.revoked_at IS NULL
      GROUP BY t.id) c
WHERE r.id = c.id AND r.votes_count <> c.n;
UPDATE issues i SET votes_count = r.votes_count
FROM reports r WHERE r.id = i.report_id AND i.votes_count <> r.votes_count;

SELECT indexdef FROM idx \gexec
ANALYZE vote_accounts;
ANALYZE vote_tokens;
