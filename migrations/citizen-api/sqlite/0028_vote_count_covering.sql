-- citizen-api, SQLite: a report's active vote tokens counted from the index alone.
--
-- Every row of a public list page, the detail and `orderBy=votes` count the report's tokens
-- that are neither revoked nor expired at the request's instant (docs/citizen-api.md). Through
-- `vote_tokens_target (target_id) WHERE revoked_at IS NULL` each counted token was a lookup of
-- its row (a random page of `vote_tokens`) for its `expires_at`; with `expires_at` in the index
-- the count reads the index alone. The index keeps its name and its condition.
DROP INDEX vote_tokens_target;
CREATE INDEX vote_tokens_target ON vote_tokens (target_id, expires_at) WHERE revoked_at IS NULL;
