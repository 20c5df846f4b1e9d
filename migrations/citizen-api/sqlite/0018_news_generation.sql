-- citizen-api, SQLite: the news generation, a number that moves with every change of the news.
--
-- Every replica keeps the news list in memory (the news read model) and rebuilds it when this
-- number moves: its staleness check reads this one row instead of the news. So the number moves
-- with every committed change of what the list shows: news items, their links to categories and
-- the news categories (names and parents show in the list and its filters). Triggers move it in
-- the same transaction as the change, so no write path can forget it (the API, `import-news`,
-- bulk SQL); the news snapshot (store/sqlite/news.rs) reads it with the news in one read
-- transaction. Subscriptions do not show in the list and do not move it. PostgreSQL's migration
-- of this number does the same.
--
-- SQLite has row-level triggers only, so a bulk load moves the number once per row written (an
-- UPDATE of one row on a page already in memory; the news benchmark's load of 100 000 items
-- pays it, the editors' writes do not notice). A `DELETE` without `WHERE` still fires them:
-- SQLite skips its truncate shortcut on a table with triggers.
CREATE TABLE news_generation (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL
);
INSERT INTO news_generation (id, generation) VALUES (1, 1);

CREATE TRIGGER news_items_generation_insert AFTER INSERT ON news_items
BEGIN
    UPDATE news_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER news_items_generation_update AFTER UPDATE ON news_items
BEGIN
    UPDATE news_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER news_items_generation_delete AFTER DELETE ON news_items
BEGIN
    UPDATE news_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER news_item_categories_generation_insert AFTER INSERT ON news_item_categories
BEGIN
    UPDATE news_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER news_item_categories_generation_update AFTER UPDATE ON news_item_categories
BEGIN
    UPDATE news_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER news_item_categories_generation_delete AFTER DELETE ON news_item_categories
BEGIN
    UPDATE news_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER news_categories_generation_insert AFTER INSERT ON news_categories
BEGIN
    UPDATE news_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER news_categories_generation_update AFTER UPDATE ON news_categories
BEGIN
    UPDATE news_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER news_categories_generation_delete AFTER DELETE ON news_categories
BEGIN
    UPDATE news_generation SET generation = generation + 1 WHERE id = 1;
END;
