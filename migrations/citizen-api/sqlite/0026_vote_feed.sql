-- citizen-api, SQLite: the vote feed, which vote tokens were placed or revoked since a reader
-- last looked.
--
-- A replica that keeps the public list's issues in memory (migration 0024) counts their
-- reports' active vote tokens there too (docs/citizen-api.md, "The vote feed"), so it must learn
-- every place and revoke, whoever made it. Tokens are never deleted: a revoke sets `revoked_at`,
-- and a token expires at `expires_at` with no write at all (the reader compares it with the
-- request's instant). As for issues, each token row carries the feed's position of its last
-- change (`change_seq`): one more than the largest in the table, set by trigger on insert and on
-- every update. SQLite has one writer at a time, so positions are taken in commit order. Tokens
-- written before this migration keep 0, so a read from position 0 returns them with the rest.
ALTER TABLE vote_tokens ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX vote_tokens_changes ON vote_tokens (change_seq);

-- Each trigger's own update changes `change_seq`, so neither fires the update trigger again.
CREATE TRIGGER vote_tokens_change_insert AFTER INSERT ON vote_tokens
BEGIN
    UPDATE vote_tokens SET change_seq = (SELECT max(change_seq) FROM vote_tokens) + 1
    WHERE id = NEW.id;
END;

CREATE TRIGGER vote_tokens_change_update AFTER UPDATE ON vote_tokens
WHEN NEW.change_seq = OLD.change_seq
BEGIN
    UPDATE vote_tokens SET change_seq = (SELECT max(change_seq) FROM vote_tokens) + 1
    WHERE id = NEW.id;
END;
