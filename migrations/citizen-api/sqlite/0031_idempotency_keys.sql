-- citizen-api, SQLite: `Idempotency-Key` of `POST /reports` (issue 51, item 7;
-- docs/citizen-api/filing.md, "Idempotency-Key").
--
-- A filing with the header inserts its row at the start (`status` NULL: in progress; the
-- primary key makes the database the arbiter between replicas), and the filing's own
-- transaction completes it with the answer, so a committed filing always has its stored
-- answer. A failed filing deletes the row. `scope` is a SHA-256 (hex) of the signed-in subject
-- or of the anonymous client's address key, never the subject itself; `request_hash` the
-- SHA-256 of the form's content. Rows older than `reports.idempotency_key_hours` are swept.
CREATE TABLE idempotency_keys (
    scope        TEXT NOT NULL,
    key          TEXT NOT NULL,
    started_at   INTEGER NOT NULL,
    request_hash TEXT,
    status       INTEGER,
    response     TEXT,
    PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_started ON idempotency_keys (started_at);
