-- citizen-api, PostgreSQL: digests (spec 2.8; docs/notifications.md, "Digests").
--
-- A citizen whose settings name an interval gets one message per period instead of one per
-- notification. A digest is written once per account and period end (the primary key: two
-- replicas writing the same digest write it once) and delivered through notification_deliveries
-- like any entry: its rows carry the tag of the period's newest entry (the identity of a repeat)
-- and the digest's own texts, which replace the entry's.
CREATE TABLE notification_digests (
    subject    TEXT NOT NULL,
    period_end TIMESTAMPTZ NOT NULL,
    tag        TEXT NOT NULL,
    entries    INTEGER NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (subject, period_end)
);

ALTER TABLE notification_deliveries ADD COLUMN digest_title TEXT;
ALTER TABLE notification_deliveries ADD COLUMN digest_body TEXT;
