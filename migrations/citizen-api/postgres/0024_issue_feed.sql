-- citizen-api, PostgreSQL: the issue feed, which issues changed since a reader last looked.
--
-- A replica that keeps the public list's issues in memory (docs/citizen-api.md, "The issue
-- feed") must learn every change to them, whichever replica, migration or bulk SQL made it, and
-- must never miss one that committed before its read. Each issue row carries the id of the
-- transaction that last wrote it (`changed_xid`, set by trigger on insert and on every update,
-- next to `row_version`). A reader asks for the rows with `changed_xid >= p`, where p is the
-- `xmin` of the snapshot of its previous read: every transaction with an id below that `xmin` had
-- ended when that read ran, so its changes were visible to it; a transaction at or above it may
-- have committed since, and its rows are read again (reading a row twice is harmless). A
-- sequence would not do: numbers are taken before commit, so a smaller one can commit after a
-- larger one has been seen. `xid8` does not wrap around.
--
-- Rows written before this migration keep '0' (older than any reader's position). Adding the
-- column with a constant default rewrites no row; the index takes about a second per million
-- issues and holds writes to `issues` while it is built.
ALTER TABLE issues ADD COLUMN changed_xid xid8 NOT NULL DEFAULT '0';

CREATE OR REPLACE FUNCTION issues_row_version_move() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    NEW.row_version := OLD.row_version + 1;
    NEW.changed_xid := pg_current_xact_id();
    RETURN NEW;
END
$$;

CREATE FUNCTION issues_changed_on_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    NEW.changed_xid := pg_current_xact_id();
    RETURN NEW;
END
$$;
CREATE TRIGGER issues_changed_insert BEFORE INSERT ON issues
FOR EACH ROW EXECUTE FUNCTION issues_changed_on_insert();

CREATE INDEX issues_changes ON issues (changed_xid);
