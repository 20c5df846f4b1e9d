-- citizen-api, SQLite: delivering feed entries over web push and e-mail (see the PostgreSQL
-- migration). The claim runs in BEGIN IMMEDIATE (the write lock) and sets claimed_until, the
-- lease that keeps other workers off the row while it is being sent.
CREATE TABLE notification_deliveries (
    tag             TEXT NOT NULL REFERENCES notifications (tag) ON DELETE CASCADE,
    channel         TEXT NOT NULL CHECK (channel IN ('webpush', 'email')),
    target          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    claimed_until   INTEGER,
    done_at         INTEGER,
    failed_at       INTEGER,
    last_error      TEXT,
    PRIMARY KEY (tag, channel, target)
);
CREATE INDEX notification_deliveries_due ON notification_deliveries (next_attempt_at)
    WHERE done_at IS NULL AND failed_at IS NULL;
