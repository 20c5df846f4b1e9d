-- citizen-api, SQLite: ended deliveries are deleted after a while (issue 11).

-- A delivery row that is done or failed is kept notifications.delivery.retain_days (default 30)
-- so that support can answer "did my e-mail go out, and what did the mail server say?", then the
-- delivery worker deletes it in batches. This index finds ended rows by the time they ended,
-- without reading the open rows the worker claims (those have their own partial index).
CREATE INDEX notification_deliveries_ended ON notification_deliveries (coalesce(done_at, failed_at))
    WHERE done_at IS NOT NULL OR failed_at IS NOT NULL;
