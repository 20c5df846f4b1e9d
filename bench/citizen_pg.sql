-- citizen-api benchmark data, PostgreSQL: :n reports (psql -v n=…) in a database the service has
-- migrated (`citizen-api migrate`), generated in bulk SQL. Deterministic (setseed).
-- Every column and CHECK of the migrations is respected; `search` is exactly what the service's
-- fold produces for title + description + id (the words are lowercase ASCII, the fold of a
-- hyphenated UUID is its hex groups separated by spaces). Secondary indexes are dropped during the
-- load and recreated from their own definitions afterwards (as a restore does), and foreign-key
-- triggers are skipped during the load (the data is consistent by construction).
\set ON_ERROR_STOP on
SET search_path = citizen_api, public;
SET maintenance_work_mem = '512MB';
SET session_replication_role = replica;
-- Thirteen joins on the word table below: keep them in the written order (no planning search).
SET join_collapse_limit = 1;
SELECT setseed(0.2026) \g /dev/null

-- Czech-like words without diacritics: title words 0..99 (two syllables), description words
-- 400..1999 (three syllables).
CREATE FUNCTION pg_temp.w(n int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT s[1 + n % 20] || s[1 + (n / 20) % 20] || CASE WHEN n >= 400 THEN s[1 + (n / 400) % 20] ELSE '' END
  FROM (SELECT ARRAY['pra', 'ho', 've', 'mi', 'lo', 'sta', 'kra', 'ny', 'do', 'ce', 'zi', 'bu',
                     'tre', 'vy', 'la', 'ko', 'ne', 'ru', 'po', 'ska'] AS s) x $$;

CREATE TEMP TABLE cat AS
SELECT k, md5('category' || k)::uuid AS id,
       (ARRAY['Nezařazené', 'Komunikace a chodníky', 'Veřejné osvětlení', 'Zeleň', 'Odpady',
              'Doprava', 'Vandalismus', 'Hřiště'])[k + 1] AS name
FROM generate_series(0, 7) k;
INSERT INTO report_categories (id, name, is_default, statement_deadline_days, created_at)
SELECT id, name, k = 0, CASE WHEN k > 0 THEN 7 + k END, timestamptz '2023-01-01' FROM cat;

-- One row per report: what its report, issues, changes and media are made of (the word numbers
-- first, then their words through hash joins on a small table).
CREATE TEMP TABLE words AS SELECT k, pg_temp.w(k) AS w FROM generate_series(0, 1999) k;
CREATE TEMP TABLE pick AS
SELECT g AS n, floor(random() * 100)::int AS t1, floor(random() * 100)::int AS t2,
       floor(random() * 100)::int AS t3,
       400 + floor(random() * 1600)::int AS d1, 400 + floor(random() * 1600)::int AS d2,
       400 + floor(random() * 1600)::int AS d3, 400 + floor(random() * 1600)::int AS d4,
       400 + floor(random() * 1600)::int AS d5, 400 + floor(random() * 1600)::int AS d6,
       400 + floor(random() * 1600)::int AS d7, 400 + floor(random() * 1600)::int AS d8,
       400 + floor(random() * 1600)::int AS d9, 400 + floor(random() * 1600)::int AS d10,
       random() < 0.9 AS located,
       14.33 + random() * 0.27 AS lon,
       50.02 + random() * 0.11 AS lat,
       CASE WHEN random() < 0.1 THEN 'citizen-' || floor(random() * 5000)::int END AS author,
       floor(random() * 8)::int AS cat1,
       floor(random() * 8)::int AS cat2,
       random() < 0.05 AS moved,
       CASE WHEN g = 1 THEN 0 ELSE width_bucket(random(), 0, 1, 20) END AS st
FROM generate_series(1, :n) g;
CREATE TEMP TABLE gen AS
SELECT p.n, md5('report' || p.n)::uuid AS id,
       md5('issue-a-' || p.n)::uuid AS issue1,
       md5('issue-b-' || p.n)::uuid AS issue2,
       timestamptz '2023-01-01 00:00:00+00'
           + make_interval(secs => p.n * (3 * 365 * 86400.0 / :n)) AS ts,
       initcap(t1.w) || ' ' || t2.w || ' ' || t3.w AS title,
       concat_ws(' ', d1.w, d2.w, d3.w, d4.w, d5.w, d6.w, d7.w, d8.w, d9.w, d10.w) AS words,
       p.located, p.lon, p.lat, p.author, p.cat1, p.cat2, p.moved, p.st
FROM pick p
JOIN words t1 ON t1.k = p.t1 JOIN words t2 ON t2.k = p.t2 JOIN words t3 ON t3.k = p.t3
JOIN words d1 ON d1.k = p.d1 JOIN words d2 ON d2.k = p.d2 JOIN words d3 ON d3.k = p.d3
JOIN words d4 ON d4.k = p.d4 JOIN words d5 ON d5.k = p.d5 JOIN words d6 ON d6.k = p.d6
JOIN words d7 ON d7.k = p.d7 JOIN words d8 ON d8.k = p.d8 JOIN words d9 ON d9.k = p.d9
JOIN words d10 ON d10.k = p.d10;
-- st 0..7 open (35 %), 8..13 accepted (30 %), 14..19 resolved (30 %), 20 duplicate (5 %).
ALTER TABLE gen ADD COLUMN status text;
UPDATE gen SET status = CASE WHEN st <= 7 THEN 'open' WHEN st <= 13 THEN 'accepted'
                             WHEN st <= 19 THEN 'resolved' ELSE 'duplicate' END;

-- Secondary indexes: dropped now, recreated from their definitions after the load.
CREATE TEMP TABLE saved_indexes AS
SELECT indexname, indexdef FROM pg_indexes ix
WHERE schemaname = 'citizen_api'
  AND tablename IN ('reports', 'issues', 'issue_changes', 'media', 'vote_tokens')
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                  WHERE c.conindid = format('%I.%I', ix.schemaname, ix.indexname)::regclass);
SELECT format('DROP INDEX citizen_api.%I', indexname) FROM saved_indexes \gexec

INSERT INTO reports (id, author, title, description, search, longitude, latitude,
                     location_radius_m, location, explicit, inserted_at, processed_at)
SELECT id, author, title, upper(left(words, 1)) || substr(words, 2) || '.',
       lower(title) || ' ' || words || ' ' || replace(id::text, '-', ' '),
       CASE WHEN located THEN lon END, CASE WHEN located THEN lat END,
       CASE WHEN located AND n % 10 = 0 THEN 50 END,
       CASE WHEN located THEN ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography END,
       n % 97 = 0, ts,
       CASE WHEN moved OR status <> 'open' THEN ts + interval '1 hour' END
FROM gen;

-- Two photos on every sixth report, one on the other thirds.
INSERT INTO media (id, report_id, filename, media_type, size_bytes, position, inserted_at)
SELECT md5('media' || n || p)::uuid, id, 'foto-' || n || '-' || p || '.jpg', 'image/jpeg',
       150000 + n % 100000, p, ts
FROM gen CROSS JOIN generate_series(0, 1) p
WHERE n % 3 = 0 AND (p = 0 OR n % 2 = 0);

-- The first issue (moved for 5 % of the reports) and, for the moved ones, the issue in the
-- category they were moved to; each carries its report's columns and media as the list reads
-- them (migration 0014; its triggers are off during the load).
INSERT INTO issues (id, report_id, category_id, status, parent_id, has_possible_duplicates,
                    inserted_at, status_changed_at, report_inserted_at, location,
                    author, title, description, search, longitude, latitude, location_radius_m,
                    explicit, processed_at, media)
SELECT x.id, g.id, c.id, x.status,
       CASE WHEN x.status = 'duplicate' THEN md5('issue-a-' || (g.n - 1))::uuid END,
       FALSE, x.at, x.at + CASE x.status WHEN 'open' THEN interval '0'
           WHEN 'moved' THEN interval '1 hour' WHEN 'resolved' THEN interval '2 days'
           ELSE interval '1 day' END,
       g.ts, r.location, r.author, r.title, r.description, r.search, r.longitude, r.latitude,
       r.location_radius_m, r.explicit, r.processed_at, coalesce(m.media, '[]')
FROM gen g
JOIN reports r ON r.id = g.id
LEFT JOIN (SELECT report_id,
                  json_agg(json_build_object('id', id, 'filename', filename,
                                             'media_type', media_type, 'size_bytes', size_bytes)
                           ORDER BY position) AS media
           FROM media GROUP BY report_id) m ON m.report_id = g.id
CROSS JOIN LATERAL (VALUES (g.issue1, CASE WHEN g.moved THEN 'moved' ELSE g.status END, g.cat1, g.ts),
                           (g.issue2, g.status, g.cat2, g.ts + interval '1 hour')) x(id, status, cat, at)
JOIN cat c ON c.k = x.cat
WHERE x.id = g.issue1 OR g.moved;

-- Changes: every issue opens; then its steps (open → accepted → resolved, open → duplicate,
-- open → moved).
INSERT INTO issue_changes (id, issue_id, status, parent_id, actor, at)
SELECT md5('change' || i.id || s.status)::uuid, i.id, s.status,
       CASE WHEN s.status = 'duplicate' THEN i.parent_id END,
       CASE WHEN s.status = 'open' THEN NULL ELSE 'officer-1' END,
       i.inserted_at + s.after
FROM issues i
CROSS JOIN LATERAL (VALUES ('open', interval '0'), ('moved', interval '1 hour'),
                           ('accepted', interval '1 day'), ('duplicate', interval '1 day'),
                           ('resolved', interval '2 days')) s(status, after)
WHERE s.status = 'open' OR s.status = i.status
   OR (s.status = 'accepted' AND i.status = 'resolved');

-- Votes (as bench/citizen_sqlite.sql): report n has n % 3 tokens (one a report on average) from
-- 100 000 accounts; by (n + t) % 3 a token never expires, expires in 2100, or has expired; one
-- in ten is revoked. Every list row and detail counts them (0.6 a report).
INSERT INTO vote_accounts (subject, created_at)
SELECT 'bench-voter-' || k, timestamptz '2023-01-01 00:00:00+00' FROM generate_series(0, 99999) k;
INSERT INTO vote_tokens (id, subject, target_id, inserted_at, expires_at, revoked_at)
SELECT md5('vote' || g.n || '-' || t)::uuid, 'bench-voter-' || ((g.n * 3 + t) % 100000), g.id,
       g.ts + interval '1 minute',
       CASE (g.n + t) % 3 WHEN 0 THEN NULL WHEN 1 THEN timestamptz '2100-01-01 00:00:00+00'
            ELSE g.ts + interval '2 minutes' END,
       CASE WHEN (g.n + t) % 10 = 0 THEN g.ts + interval '90 seconds' END
FROM gen g CROSS JOIN generate_series(0, 1) t
WHERE t < g.n % 3;

-- The kept vote counts (migration 0034; its triggers are off during the load).
UPDATE vote_tokens SET counted = FALSE WHERE expires_at <= now();
UPDATE reports r SET votes_count = c.n
FROM (SELECT target_id, count(*) AS n FROM vote_tokens
      WHERE counted AND revoked_at IS NULL GROUP BY target_id) c
WHERE r.id = c.target_id;
UPDATE issues i SET votes_count = r.votes_count
FROM reports r WHERE r.id = i.report_id AND r.votes_count <> 0;

SELECT indexdef FROM saved_indexes \gexec
SET session_replication_role = origin;
-- VACUUM as well as ANALYZE: the steady state autovacuum keeps (every page all-visible, so
-- index-only scans need no heap visits), instead of whatever autovacuum has reached when the
-- measuring starts.
VACUUM (ANALYZE) report_categories, reports, issues, issue_changes, media, vote_accounts,
    vote_tokens;
