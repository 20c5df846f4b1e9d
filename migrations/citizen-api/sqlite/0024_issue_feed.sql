-- citizen-api, SQLite: the issue feed, which issues changed since a reader last looked.
--
-- A replica that keeps the public list's issues in memory (docs/citizen-api.md, "The issue
-- feed") must learn every change to them, whoever made it. Each issue row carries the feed's
-- position of its last change (`change_seq`): one more than the largest in the table, set by
-- trigger on insert and on every update (next to `row_version`). SQLite has one writer at a
-- time, so positions are taken in commit order: a reader that has seen every row below position
-- p asks for `change_seq >= p` (p is one more than the largest it saw). Rows written before this
-- migration keep 0, so a read from position 0 returns them with the rest.
ALTER TABLE issues ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX issues_changes ON issues (change_seq);

-- Every update of a row moves its version and its position (the trigger's own update, and the
-- insert trigger's below, change `change_seq`, so they do not fire it again).
DROP TRIGGER issues_row_version;
CREATE TRIGGER issues_row_version AFTER UPDATE ON issues
WHEN NEW.row_version = OLD.row_version AND NEW.change_seq = OLD.change_seq
BEGIN
    UPDATE issues SET row_version = OLD.row_version + 1,
        change_seq = (SELECT max(change_seq) FROM issues) + 1
    WHERE id = NEW.id;
END;

CREATE TRIGGER issues_change_insert AFTER INSERT ON issues
BEGIN
    UPDATE issues SET change_seq = (SELECT max(change_seq) FROM issues) + 1 WHERE id = NEW.id;
END;
