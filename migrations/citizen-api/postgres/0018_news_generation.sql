-- citizen-api, PostgreSQL: the news generation, a number that moves with every change of the
-- news.
--
-- Every replica keeps the news list in memory (the news read model) and rebuilds it when this
-- number moves: its staleness check reads this one row instead of the news. So the number moves
-- with every committed change of what the list shows: news items, their links to categories and
-- the news categories (names and parents show in the list and its filters). Triggers move it in
-- the same transaction as the change, so no write path can forget it (the API, `import-news`,
-- bulk SQL); the news snapshot (store/postgres/news.rs) reads it with the news in one snapshot.
-- Subscriptions do not show in the list and do not move it.
--
-- Statement-level triggers (TRUNCATE too): a statement pays once however many rows it writes, so
-- a bulk load moves the number once. A statement that writes no row moves it as well, which
-- costs the replicas a needless rebuild, never a stale list. The writing transaction holds the
-- row until it ends, so news writes queue on it (an editor's writes, rare); category writes take
-- it before their table lock, the order item writes take them in (store/postgres/
-- news_categories.rs).
CREATE TABLE news_generation (
    id         SMALLINT PRIMARY KEY CHECK (id = 1),
    generation BIGINT NOT NULL
);
INSERT INTO news_generation (id, generation) VALUES (1, 1);

CREATE FUNCTION news_generation_move() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE news_generation SET generation = generation + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER news_items_generation
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON news_items
FOR EACH STATEMENT EXECUTE FUNCTION news_generation_move();

CREATE TRIGGER news_item_categories_generation
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON news_item_categories
FOR EACH STATEMENT EXECUTE FUNCTION news_generation_move();

CREATE TRIGGER news_categories_generation
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON news_categories
FOR EACH STATEMENT EXECUTE FUNCTION news_generation_move();
