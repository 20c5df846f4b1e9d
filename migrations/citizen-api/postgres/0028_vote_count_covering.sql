-- citizen-api, PostgreSQL: a report's active vote tokens counted from the index alone.
--
-- Every row of a public list page, the detail and `orderBy=votes` count the report's tokens
-- that are neither revoked nor expired at the request's instant (docs/citizen-api.md). Through
-- `vote_tokens_target (target_id) WHERE revoked_at IS NULL` each counted token was a heap fetch
-- for its `expires_at`; with `expires_at` in the index the count is an index-only scan wherever
-- the visibility map allows. The index keeps its name and its condition.
CREATE INDEX vote_tokens_target_expiry ON vote_tokens (target_id, expires_at)
    WHERE revoked_at IS NULL;
DROP INDEX vote_tokens_target;
ALTER INDEX vote_tokens_target_expiry RENAME TO vote_tokens_target;
