-- citizen-api, PostgreSQL: the vote pool (spec 2.6, rule 5).

-- One row per account that ever voted. Places and revokes of one account lock this row first
-- (SELECT … FOR UPDATE), so they run one after the other on every replica, and the pool
-- arithmetic (active tokens <= max_count) is checked against a count nobody else is changing.
CREATE TABLE vote_accounts (
    subject    TEXT PRIMARY KEY,
    created_at TIMESTAMPTZ NOT NULL
);

-- A placed token. Active while revoked_at IS NULL and (expires_at IS NULL OR expires_at > now):
-- expiry needs no batch job, every count compares with the current instant.
CREATE TABLE vote_tokens (
    id          UUID PRIMARY KEY,
    subject     TEXT NOT NULL REFERENCES vote_accounts (subject),
    target_id   UUID NOT NULL,
    inserted_at TIMESTAMPTZ NOT NULL,
    expires_at  TIMESTAMPTZ,
    revoked_at  TIMESTAMPTZ,
    CHECK (expires_at IS NULL OR expires_at > inserted_at)
);
-- The account's unrevoked tokens (pool count, revoke by target, newest first).
CREATE INDEX vote_tokens_account ON vote_tokens (subject, target_id, inserted_at DESC, id DESC)
    WHERE revoked_at IS NULL;
-- The account's list, newest first.
CREATE INDEX vote_tokens_list ON vote_tokens (subject, inserted_at DESC, id DESC);
-- A target's votes (votes_count).
CREATE INDEX vote_tokens_target ON vote_tokens (target_id) WHERE revoked_at IS NULL;
