-- citizen-api, SQLite: each report's count of the vote tokens that count, kept by writes (issue
-- 55; the PostgreSQL migration of this number says why and how). Here the triggers are per row:
-- SQLite has no statement triggers, and its one writer at a time leaves no lock order to mind.

ALTER TABLE vote_tokens ADD COLUMN counted INTEGER NOT NULL DEFAULT 1;
-- Instants are microseconds since the epoch.
UPDATE vote_tokens SET counted = 0
WHERE expires_at <= CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER);

ALTER TABLE reports ADD COLUMN votes_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE issues ADD COLUMN votes_count INTEGER NOT NULL DEFAULT 0;
UPDATE reports SET votes_count =
    (SELECT count(*) FROM vote_tokens v
     WHERE v.target_id = reports.id AND v.revoked_at IS NULL AND v.counted)
WHERE id IN (SELECT target_id FROM vote_tokens WHERE counted);
UPDATE issues SET votes_count = (SELECT r.votes_count FROM reports r WHERE r.id = issues.report_id)
WHERE report_id IN (SELECT id FROM reports WHERE votes_count <> 0);

-- The counts follow the tokens, whatever writes them (projects are targets too and have no row
-- here).
CREATE TRIGGER vote_tokens_count_insert AFTER INSERT ON vote_tokens
WHEN NEW.counted AND NEW.revoked_at IS NULL
BEGIN
    UPDATE reports SET votes_count = votes_count + 1 WHERE id = NEW.target_id;
END;

CREATE TRIGGER vote_tokens_count_update AFTER UPDATE OF counted, revoked_at ON vote_tokens
WHEN (OLD.counted AND OLD.revoked_at IS NULL) IS NOT (NEW.counted AND NEW.revoked_at IS NULL)
BEGIN
    UPDATE reports
    SET votes_count = votes_count
        + CASE WHEN NEW.counted AND NEW.revoked_at IS NULL THEN 1 ELSE -1 END
    WHERE id = NEW.target_id;
END;

CREATE TRIGGER vote_tokens_count_delete AFTER DELETE ON vote_tokens
WHEN OLD.counted AND OLD.revoked_at IS NULL
BEGIN
    UPDATE reports SET votes_count = votes_count - 1 WHERE id = OLD.target_id;
END;

-- The report's count onto its issues (the list reads `issues` alone, 0014), and a new issue of
-- a report with votes takes it.
CREATE TRIGGER reports_votes_to_issues AFTER UPDATE OF votes_count ON reports
WHEN OLD.votes_count IS NOT NEW.votes_count
BEGIN
    UPDATE issues SET votes_count = NEW.votes_count WHERE report_id = NEW.id;
END;

CREATE TRIGGER issues_copy_votes AFTER INSERT ON issues
WHEN (SELECT votes_count FROM reports WHERE id = NEW.report_id) <> 0
BEGIN
    UPDATE issues SET votes_count = (SELECT votes_count FROM reports WHERE id = NEW.report_id)
    WHERE id = NEW.id;
END;

-- The expiry sweep's walk: the counted tokens by the instant they expire.
CREATE INDEX vote_tokens_counted_expiry ON vote_tokens (expires_at)
    WHERE counted AND revoked_at IS NULL AND expires_at IS NOT NULL;

-- The lists by votes (equal counts: the date, then the id), each beside its date index (the
-- public one keeps `search`, as 0027's date index: `q` is tested on index entries).
CREATE INDEX issues_public_by_votes
    ON issues (votes_count DESC, report_inserted_at DESC, id DESC, search) WHERE status <> 'moved';
CREATE INDEX issues_public_by_category_votes
    ON issues (category_id, votes_count DESC, report_inserted_at DESC, id DESC)
    WHERE status <> 'moved';
CREATE INDEX issues_public_by_status_votes
    ON issues (status, votes_count DESC, report_inserted_at DESC, id DESC);
CREATE INDEX reports_by_votes ON reports (votes_count DESC, inserted_at DESC, id DESC);
