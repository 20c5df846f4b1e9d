-- citizen-api, SQLite: a version number on each issue row, moved by every change of the row.
--
-- A public list row is the issue with the copies of its report (migration 0014). Each replica
-- keeps the JSON it wrote for a row (the list's row cache, docs/citizen-api.md) under the
-- row's id and `row_version`; a page reads the ids and versions it shows and writes out the
-- kept JSON of every row whose version it still has. So the number moves with every update of
-- the row, whatever changed and whoever wrote it (the API, the copy triggers of 0014, bulk
-- SQL): a trigger, so no write path can forget it. Ids are never reused, so (id, version)
-- names one content for good.
--
-- SQLite's triggers cannot change NEW: the trigger writes the number after the update, and
-- only when the update did not move it itself (so it runs once per update; recursive triggers
-- are off, and its own update changes no column another trigger watches).
ALTER TABLE issues ADD COLUMN row_version INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER issues_row_version AFTER UPDATE ON issues
WHEN NEW.row_version = OLD.row_version
BEGIN
    UPDATE issues SET row_version = OLD.row_version + 1 WHERE id = NEW.id;
END;
