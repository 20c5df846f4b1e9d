-- citizen-api, PostgreSQL: undelivered rows are given up after a maximum age (issue 11).

-- When a delivery row was written. A push or an e-mail that could not go out for longer than
-- notifications.delivery.max_age_hours (default 72; a long outage of the push service or the
-- mail server, or delivery turned on after running off for weeks) is marked failed with
-- last_error 'expired' instead of being sent late: "your report was accepted" three weeks after
-- the fact is noise, and the feed still holds the entry. Rows written before this migration take
-- their first due time, which is when they were written.
ALTER TABLE notification_deliveries ADD COLUMN created_at TIMESTAMPTZ;
UPDATE notification_deliveries SET created_at = next_attempt_at WHERE created_at IS NULL;
ALTER TABLE notification_deliveries ALTER COLUMN created_at SET DEFAULT now();
ALTER TABLE notification_deliveries ALTER COLUMN created_at SET NOT NULL;

-- The worker finds open rows past the age without reading the ended ones.
CREATE INDEX notification_deliveries_open_age ON notification_deliveries (created_at)
    WHERE done_at IS NULL AND failed_at IS NULL;
