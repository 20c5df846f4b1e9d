-- citizen-api benchmark data, SQLite: the same city as bench/citizen_pg.sql (same words, shares,
-- states, categories and media; random ids) in a database the service has migrated (it migrates
-- on start). Run as `sqlite3 FILE` with the report count as the first line:
-- `(echo "CREATE TEMP TABLE arg AS SELECT 100000 AS n;"; cat bench/citizen_sqlite.sql) | sqlite3 FILE`.
-- Secondary indexes are dropped during the load and recreated from their own definitions; foreign
-- keys are not enforced by the sqlite3 shell (the data is consistent by construction).
PRAGMA journal_mode = WAL;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -262144;
.bail on

CREATE TEMP TABLE syl (k INTEGER PRIMARY KEY, s TEXT NOT NULL);
INSERT INTO syl VALUES (0, 'pra'), (1, 'ho'), (2, 've'), (3, 'mi'), (4, 'lo'), (5, 'sta'),
  (6, 'kra'), (7, 'ny'), (8, 'do'), (9, 'ce'), (10, 'zi'), (11, 'bu'), (12, 'tre'), (13, 'vy'),
  (14, 'la'), (15, 'ko'), (16, 'ne'), (17, 'ru'), (18, 'po'), (19, 'ska');
CREATE TEMP TABLE words (k INTEGER PRIMARY KEY, w TEXT NOT NULL);
WITH RECURSIVE seq(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM seq WHERE k < 1999)
INSERT INTO words
SELECT k, (SELECT s FROM syl WHERE syl.k = seq.k % 20) || (SELECT s FROM syl WHERE syl.k = (seq.k / 20) % 20)
          || CASE WHEN k >= 400 THEN (SELECT s FROM syl WHERE syl.k = (seq.k / 400) % 20) ELSE '' END
FROM seq;

CREATE TEMP TABLE cat (k INTEGER PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL);
INSERT INTO cat VALUES
  (0, '00000000-0000-4000-8000-000000000000', 'Nezařazené'),
  (1, '00000000-0000-4000-8000-000000000001', 'Komunikace a chodníky'),
  (2, '00000000-0000-4000-8000-000000000002', 'Veřejné osvětlení'),
  (3, '00000000-0000-4000-8000-000000000003', 'Zeleň'),
  (4, '00000000-0000-4000-8000-000000000004', 'Odpady'),
  (5, '00000000-0000-4000-8000-000000000005', 'Doprava'),
  (6, '00000000-0000-4000-8000-000000000006', 'Vandalismus'),
  (7, '00000000-0000-4000-8000-000000000007', 'Hřiště');
-- The service created its default category when it first started: the city's replace it.
DELETE FROM report_categories;
INSERT INTO report_categories (id, name, is_default, statement_deadline_days, created_at)
SELECT id, name, k = 0, CASE WHEN k > 0 THEN 7 + k END, 1672531200000000 FROM cat;

-- Random choices first (st 1..7 open, 8..13 accepted, 14..19 resolved, 20 duplicate), then the
-- words and ids.
CREATE TEMP TABLE pick AS
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < (SELECT n FROM arg))
SELECT n, abs(random()) % 100 AS t1, abs(random()) % 100 AS t2, abs(random()) % 100 AS t3,
       400 + abs(random()) % 1600 AS d1, 400 + abs(random()) % 1600 AS d2,
       400 + abs(random()) % 1600 AS d3, 400 + abs(random()) % 1600 AS d4,
       400 + abs(random()) % 1600 AS d5, 400 + abs(random()) % 1600 AS d6,
       400 + abs(random()) % 1600 AS d7, 400 + abs(random()) % 1600 AS d8,
       400 + abs(random()) % 1600 AS d9, 400 + abs(random()) % 1600 AS d10,
       abs(random()) % 10 < 9 AS located,
       14.33 + (abs(random()) % 1000000) / 1000000.0 * 0.27 AS lon,
       50.02 + (abs(random()) % 1000000) / 1000000.0 * 0.11 AS lat,
       CASE WHEN abs(random()) % 10 = 0 THEN 'citizen-' || (abs(random()) % 5000) END AS author,
       abs(random()) % 8 AS cat1, abs(random()) % 8 AS cat2,
       abs(random()) % 20 = 0 AS moved,
       CASE WHEN n = 1 THEN 1 ELSE 1 + abs(random()) % 20 END AS st,
       lower(hex(randomblob(16))) AS h1, lower(hex(randomblob(16))) AS h2,
       lower(hex(randomblob(16))) AS h3
FROM seq;

CREATE TEMP TABLE gen (n INTEGER PRIMARY KEY, id TEXT, issue1 TEXT, issue2 TEXT, ts INTEGER,
  title TEXT, words TEXT, located INTEGER, lon REAL, lat REAL, author TEXT, cat1 INTEGER,
  cat2 INTEGER, moved INTEGER, status TEXT);
INSERT INTO gen
SELECT n,
       substr(h1, 1, 8) || '-' || substr(h1, 9, 4) || '-' || substr(h1, 13, 4) || '-' || substr(h1, 17, 4) || '-' || substr(h1, 21),
       substr(h2, 1, 8) || '-' || substr(h2, 9, 4) || '-' || substr(h2, 13, 4) || '-' || substr(h2, 17, 4) || '-' || substr(h2, 21),
       substr(h3, 1, 8) || '-' || substr(h3, 9, 4) || '-' || substr(h3, 13, 4) || '-' || substr(h3, 17, 4) || '-' || substr(h3, 21),
       1672531200000000 + n * (94608000000000 / (SELECT n FROM arg)),
       upper(substr((SELECT w FROM words WHERE k = t1), 1, 1)) || substr((SELECT w FROM words WHERE k = t1), 2)
         || ' ' || (SELECT w FROM words WHERE k = t2) || ' ' || (SELECT w FROM words WHERE k = t3),
       (SELECT w FROM words WHERE k = d1) || ' ' || (SELECT w FROM words WHERE k = d2) || ' '
         || (SELECT w FROM words WHERE k = d3) || ' ' || (SELECT w FROM words WHERE k = d4) || ' '
         || (SELECT w FROM words WHERE k = d5) || ' ' || (SELECT w FROM words WHERE k = d6) || ' '
         || (SELECT w FROM words WHERE k = d7) || ' ' || (SELECT w FROM words WHERE k = d8) || ' '
         || (SELECT w FROM words WHERE k = d9) || ' ' || (SELECT w FROM words WHERE k = d10),
       located, lon, lat, author, cat1, cat2, moved,
       CASE WHEN st <= 7 THEN 'open' WHEN st <= 13 THEN 'accepted' WHEN st <= 19 THEN 'resolved'
            ELSE 'duplicate' END
FROM pick;

BEGIN;
INSERT INTO reports (id, author, title, description, search, longitude, latitude,
                     location_radius_m, explicit, inserted_at, processed_at)
SELECT id, author, title, upper(substr(words, 1, 1)) || substr(words, 2) || '.',
       lower(title) || ' ' || words || ' ' || replace(id, '-', ' '),
       CASE WHEN located THEN lon END, CASE WHEN located THEN lat END,
       CASE WHEN located AND n % 10 = 0 THEN 50 END, n % 97 = 0, ts,
       CASE WHEN moved OR status <> 'open' THEN ts + 3600000000 END
FROM gen;

-- The first issue (moved for 5 % of the reports) and, for the moved ones, the issue in the
-- category they were moved to.
INSERT INTO issues (id, report_id, category_id, status, parent_id, has_possible_duplicates,
                    inserted_at, status_changed_at, report_inserted_at, longitude, latitude)
SELECT x.id, g.id, c.id, x.status,
       CASE WHEN x.status = 'duplicate' THEN (SELECT p.issue1 FROM gen p WHERE p.n = g.n - 1) END,
       0, x.at, x.at + CASE x.status WHEN 'open' THEN 0 WHEN 'moved' THEN 3600000000
           WHEN 'resolved' THEN 172800000000 ELSE 86400000000 END,
       g.ts, CASE WHEN g.located THEN g.lon END, CASE WHEN g.located THEN g.lat END
FROM gen g
JOIN (SELECT n, issue1 AS id, CASE WHEN moved THEN 'moved' ELSE status END AS status, cat1 AS cat,
             ts AS at FROM gen
      UNION ALL
      SELECT n, issue2, status, cat2, ts + 3600000000 FROM gen WHERE moved) x ON x.n = g.n
JOIN cat c ON c.k = x.cat;

INSERT INTO issue_changes (id, issue_id, status, parent_id, actor, at)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
             || '-8' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       i.id, s.status, CASE WHEN s.status = 'duplicate' THEN i.parent_id END,
       CASE WHEN s.status = 'open' THEN NULL ELSE 'officer-1' END, i.inserted_at + s.after
FROM issues i
JOIN (SELECT 'open' AS status, 0 AS after UNION ALL SELECT 'moved', 3600000000
      UNION ALL SELECT 'accepted', 86400000000 UNION ALL SELECT 'duplicate', 86400000000
      UNION ALL SELECT 'resolved', 172800000000) s
  ON s.status = 'open' OR s.status = i.status OR (s.status = 'accepted' AND i.status = 'resolved');

INSERT INTO media (id, report_id, filename, media_type, size_bytes, position, inserted_at)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
             || '-8' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       g.id, 'foto-' || g.n || '-' || p.p || '.jpg', 'image/jpeg', 150000 + g.n % 100000, p.p, g.ts
FROM gen g JOIN (SELECT 0 AS p UNION ALL SELECT 1) p ON p.p = 0 OR g.n % 2 = 0
WHERE g.n % 3 = 0;

-- Votes (as bench/citizen_pg.sql): report n has n % 3 tokens (one a report on average) from
-- 100 000 accounts; by (n + t) % 3 a token never expires, expires in 2100, or has expired; one
-- in ten is revoked. Every list row and detail counts them (0.6 a report).
WITH RECURSIVE seq(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM seq WHERE k < 99999)
INSERT INTO vote_accounts (subject, created_at)
SELECT 'bench-voter-' || k, 1672531200000000 FROM seq;
INSERT INTO vote_tokens (id, subject, target_id, inserted_at, expires_at, revoked_at)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
             || '-8' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       'bench-voter-' || ((g.n * 3 + t.t) % 100000), g.id, g.ts + 60000000,
       CASE (g.n + t.t) % 3 WHEN 0 THEN NULL WHEN 1 THEN 4102444800000000
            ELSE g.ts + 120000000 END,
       CASE WHEN (g.n + t.t) % 10 = 0 THEN g.ts + 90000000 END
FROM gen g JOIN (SELECT 0 AS t UNION ALL SELECT 1) t ON t.t < g.n % 3;
COMMIT;
