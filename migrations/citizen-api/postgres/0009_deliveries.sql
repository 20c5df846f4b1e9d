-- citizen-api, PostgreSQL: delivering feed entries over web push and e-mail (issue 11).

-- One row per feed entry and channel target, written by the outbox drain in the transaction
-- that inserts the entry, for recipients whose settings are enabled with no digest interval
-- (recipients with a daily/weekly/monthly interval get no row: digests are not built yet).
-- channel 'webpush': target is the subscription's endpoint; 'email': the subscriber's subject.
-- The delivery worker claims due rows (FOR UPDATE SKIP LOCKED) and sets claimed_until, a lease:
-- other replicas skip the row until it ends, and a worker that crashed after claiming leaves a
-- row that is taken again once the lease is over (at-least-once; the repeat carries the same
-- push Topic / e-mail Message-ID, both derived from the tag). attempts counts claims; a retry
-- moves next_attempt_at on with exponential backoff; done_at / failed_at end the row.
CREATE TABLE notification_deliveries (
    tag             TEXT NOT NULL REFERENCES notifications (tag) ON DELETE CASCADE,
    channel         TEXT NOT NULL CHECK (channel IN ('webpush', 'email')),
    target          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ NOT NULL,
    claimed_until   TIMESTAMPTZ,
    done_at         TIMESTAMPTZ,
    failed_at       TIMESTAMPTZ,
    last_error      TEXT,
    PRIMARY KEY (tag, channel, target)
);
-- The worker's claim: open rows by due time.
CREATE INDEX notification_deliveries_due ON notification_deliveries (next_attempt_at)
    WHERE done_at IS NULL AND failed_at IS NULL;
