-- citizen-api, SQLite: every file written to the media store is named by a row from the
-- moment it is written (issue 51, item 6; docs/citizen-api/filing.md, "Nothing left behind").
--
-- A form's file gets its row here, committed, before its bytes are written; the transaction
-- that inserts its `media` row (a report's filing, an officer's statement) deletes this one, and
-- an editor's upload deletes it once answered. A row older than `media.pending_max_age_minutes`
-- belongs to a request that died (a killed process, a lost database): the pending-upload sweep
-- deletes its file, then the row. The sweep first marks the rows it takes (`swept_at`), so a
-- filing still committing finds its file taken and fails instead of keeping a row without file.
CREATE TABLE pending_uploads (
    media_id   TEXT PRIMARY KEY,
    written_at INTEGER NOT NULL,
    swept_at   INTEGER
);
CREATE INDEX pending_uploads_age ON pending_uploads ((COALESCE(swept_at, written_at)));
