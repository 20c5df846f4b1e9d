-- citizen-api, PostgreSQL: a version number on each issue row, moved by every change of the row.
--
-- A public list row is the issue with the copies of its report (migration 0014). Each replica
-- keeps the JSON it wrote for a row (the list's row cache, docs/citizen-api.md) under the
-- row's id and `row_version`; a page reads the ids and versions it shows and writes out the
-- kept JSON of every row whose version it still has. So the number moves with every update of
-- the row, whatever changed and whoever wrote it (the API, the copy triggers of 0014, bulk
-- SQL): a trigger, so no write path can forget it. Ids are never reused, so (id, version)
-- names one content for good. Adding the column with a constant default rewrites no row.
ALTER TABLE issues ADD COLUMN row_version BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION issues_row_version_move() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    NEW.row_version := OLD.row_version + 1;
    RETURN NEW;
END
$$;

CREATE TRIGGER issues_row_version BEFORE UPDATE ON issues
FOR EACH ROW EXECUTE FUNCTION issues_row_version_move();
