-- citizen-api news benchmark data, PostgreSQL: :n news items (psql -v n=…) in 12 categories (a
-- tree of 4 parents with 2 children each) in a database the service has migrated. 80 % of the
-- items have a location in the city; dates repeat (every date is shared by 2 items), so the
-- cursor is measured over ties. Deterministic (setseed).
\set ON_ERROR_STOP on
SET search_path = citizen_api, public;
SELECT setseed(0.2026) \g /dev/null

INSERT INTO news_categories (id, name, description, parent_id, created_at, updated_at)
SELECT md5('news-category' || k)::uuid, 'Kategorie ' || k, NULL,
       CASE WHEN k >= 4 THEN md5('news-category' || (k % 4))::uuid END,
       timestamptz '2024-01-01', timestamptz '2024-01-01'
FROM generate_series(0, 11) k;

CREATE TEMP TABLE pick AS
SELECT g, md5('news' || g)::uuid AS id, random() < 0.8 AS located,
       14.33 + random() * 0.27 AS lon, 50.02 + random() * 0.11 AS lat,
       floor(random() * 12)::int AS cat
FROM generate_series(1, :n) g;

INSERT INTO news_items (id, title, description, image, date, longitude, latitude, location,
                        inserted_at, updated_at)
SELECT id, 'Aktualita ' || g, 'Text aktuality ' || g || ' o městě.',
       CASE WHEN g % 3 = 0 THEN 'https://example.org/news/' || g || '.jpg' END,
       timestamptz '2026-01-01' - ((g / 2) * interval '7 minutes'),
       CASE WHEN located THEN lon END, CASE WHEN located THEN lat END,
       CASE WHEN located THEN ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography END,
       timestamptz '2026-01-01', timestamptz '2026-01-01'
FROM pick;

INSERT INTO news_item_categories (news_id, category_id)
SELECT id, md5('news-category' || cat)::uuid FROM pick;

ANALYZE news_categories;
ANALYZE news_items;
ANALYZE news_item_categories;
