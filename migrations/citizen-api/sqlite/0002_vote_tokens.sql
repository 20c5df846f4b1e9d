-- citizen-api, SQLite: the vote pool (see the PostgreSQL migration). Places and revokes run in
-- BEGIN IMMEDIATE transactions, which hold the database's write lock, so one account's pool is
-- always checked against a count nobody else is changing.

CREATE TABLE vote_accounts (
    subject    TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL
);

CREATE TABLE vote_tokens (
    id          TEXT PRIMARY KEY,
    subject     TEXT NOT NULL REFERENCES vote_accounts (subject),
    target_id   TEXT NOT NULL,
    inserted_at INTEGER NOT NULL,
    expires_at  INTEGER,
    revoked_at  INTEGER,
    CHECK (expires_at IS NULL OR expires_at > inserted_at)
);
CREATE INDEX vote_tokens_account ON vote_tokens (subject, target_id, inserted_at DESC, id DESC)
    WHERE revoked_at IS NULL;
CREATE INDEX vote_tokens_list ON vote_tokens (subject, inserted_at DESC, id DESC);
CREATE INDEX vote_tokens_target ON vote_tokens (target_id) WHERE revoked_at IS NULL;
