-- citizen-api, SQLite: public report status changes waiting to be published on MQTT
-- (citizen/reports/<report_id>/status; see docs/notifications.md, "Status events on MQTT").
--
-- A row is written in the transaction of the workflow step or filing that changed the report's
-- derived status, and deleted once the broker has acknowledged it. `claimed_until` is a
-- publisher's lease (microseconds since the epoch, like every instant here). No personal data.
CREATE TABLE report_status_events (
    id              TEXT PRIMARY KEY,
    report_id       TEXT NOT NULL,
    previous_status TEXT,
    status          TEXT,
    occurred_at     INTEGER NOT NULL,
    claimed_until   INTEGER
);
-- The publisher's order: oldest first.
CREATE INDEX report_status_events_order ON report_status_events (occurred_at, id);
