-- citizen-api, SQLite: undelivered rows are given up after a maximum age (see the PostgreSQL
-- migration). Instants are INTEGER microseconds; rows written before this migration take their
-- first due time, which is when they were written. Every insert sets created_at.
ALTER TABLE notification_deliveries ADD COLUMN created_at INTEGER;
UPDATE notification_deliveries SET created_at = next_attempt_at WHERE created_at IS NULL;

CREATE INDEX notification_deliveries_open_age ON notification_deliveries (created_at)
    WHERE done_at IS NULL AND failed_at IS NULL;
