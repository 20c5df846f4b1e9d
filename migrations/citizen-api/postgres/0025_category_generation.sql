-- citizen-api, PostgreSQL: a generation number of the report categories and their officers.
--
-- A replica writes the officers' list from its list index and needs the categories' names and
-- deadlines and each officer's categories at every request, never staler than the request
-- (docs/citizen-api.md, "The admin list from the list index"). Reading them at every request
-- costs a statement per page; instead the issue feed reads this number in the snapshot of
-- every read, and a replica keeps what it read of the categories under the number it had seen
-- before reading them. Every statement that writes a category or an officer assignment moves
-- it, by trigger, whoever writes (the API, bulk SQL), so a kept read is used only while no
-- change has committed since. The row's lock orders concurrent category writes, which are rare.
CREATE TABLE category_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n BIGINT NOT NULL
);
INSERT INTO category_generation (id, n) VALUES (1, 1);

CREATE FUNCTION category_generation_move() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE category_generation SET n = n + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER report_categories_generation
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON report_categories
FOR EACH STATEMENT EXECUTE FUNCTION category_generation_move();
CREATE TRIGGER category_officers_generation
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON category_officers
FOR EACH STATEMENT EXECUTE FUNCTION category_generation_move();
