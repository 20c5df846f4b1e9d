-- citizen-api news benchmark data, SQLite: the items of bench/citizen_news_pg.sql (same shape,
-- its own random numbers). Needs a temp table arg(n) with the number of items.
CREATE TEMP TABLE cats AS
WITH RECURSIVE k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < 11)
SELECT k, printf('00000000-0000-4000-8000-%012x', 1000 + k) AS id FROM k;
INSERT INTO news_categories (id, name, description, parent_id, created_at, updated_at)
SELECT id, 'Kategorie ' || k, NULL,
       CASE WHEN k >= 4 THEN printf('00000000-0000-4000-8000-%012x', 1000 + k % 4) END,
       1704067200000000, 1704067200000000
FROM cats;

CREATE TEMP TABLE pick AS
WITH RECURSIVE seq(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM seq WHERE g < (SELECT n FROM arg))
SELECT g, lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-7' ||
          substr(lower(hex(randomblob(2))), 2) || '-8' || substr(lower(hex(randomblob(2))), 2) ||
          '-' || lower(hex(randomblob(6))) AS id,
       abs(random()) % 10 < 8 AS located,
       14.33 + (abs(random()) % 1000000) / 1000000.0 * 0.27 AS lon,
       50.02 + (abs(random()) % 1000000) / 1000000.0 * 0.11 AS lat,
       abs(random()) % 12 AS cat
FROM seq;

INSERT INTO news_items (id, title, description, image, date, longitude, latitude, inserted_at,
                        updated_at)
SELECT id, 'Aktualita ' || g, 'Text aktuality ' || g || ' o městě.',
       CASE WHEN g % 3 = 0 THEN 'https://example.org/news/' || g || '.jpg' END,
       1767225600000000 - (g / 2) * 420000000,
       CASE WHEN located THEN lon END, CASE WHEN located THEN lat END,
       1767225600000000, 1767225600000000
FROM pick;

INSERT INTO news_item_categories (news_id, category_id)
SELECT p.id, c.id FROM pick p JOIN cats c ON c.k = p.cat;
ANALYZE;
