-- citizen-api, PostgreSQL: public report status changes waiting to be published on MQTT
-- (citizen/reports/<report_id>/status; see docs/notifications.md, "Status events on MQTT").
--
-- A row is written in the transaction of the workflow step or filing that changed the report's
-- derived status (nothing for a change that rolled back, nothing lost for one that committed),
-- and deleted once the broker has acknowledged it. `claimed_until` is a publisher's lease: a
-- publisher that crashed after publishing leaves the row to be published again, with the same id.
-- No personal data: the report id, the two statuses and the time.
CREATE TABLE report_status_events (
    id              UUID PRIMARY KEY,
    report_id       UUID NOT NULL,
    previous_status TEXT,
    status          TEXT,
    occurred_at     TIMESTAMPTZ NOT NULL,
    claimed_until   TIMESTAMPTZ
);
-- The publisher's order: oldest first.
CREATE INDEX report_status_events_order ON report_status_events (occurred_at, id);
