-- citizen-api, SQLite: a generation number of the report categories and their officers.
--
-- A replica writes the officers' list from its list index and needs the categories' names and
-- deadlines and each officer's categories at every request, never staler than the request
-- (docs/citizen-api.md, "The admin list from the list index"). Reading them at every request
-- costs a statement per page; instead the issue feed reads this number with every read, and a
-- replica keeps what it read of the categories under the number it had seen before reading
-- them. Every insert, update and delete of a category or an officer assignment moves it, by
-- trigger, whoever writes (the API, bulk SQL), so a kept read is used only while no change
-- has committed since.
CREATE TABLE category_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n INTEGER NOT NULL
);
INSERT INTO category_generation (id, n) VALUES (1, 1);

CREATE TRIGGER report_categories_generation_insert AFTER INSERT ON report_categories
BEGIN UPDATE category_generation SET n = n + 1; END;
CREATE TRIGGER report_categories_generation_update AFTER UPDATE ON report_categories
BEGIN UPDATE category_generation SET n = n + 1; END;
CREATE TRIGGER report_categories_generation_delete AFTER DELETE ON report_categories
BEGIN UPDATE category_generation SET n = n + 1; END;
CREATE TRIGGER category_officers_generation_insert AFTER INSERT ON category_officers
BEGIN UPDATE category_generation SET n = n + 1; END;
CREATE TRIGGER category_officers_generation_update AFTER UPDATE ON category_officers
BEGIN UPDATE category_generation SET n = n + 1; END;
CREATE TRIGGER category_officers_generation_delete AFTER DELETE ON category_officers
BEGIN UPDATE category_generation SET n = n + 1; END;
