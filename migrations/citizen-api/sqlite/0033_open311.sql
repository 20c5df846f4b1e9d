-- citizen-api: the Open311 facade (docs/open311.md).
--
-- `media_link` is the photo link an Open311 integrator sent with a filing (`media_url`): kept as
-- text, never fetched by the server, shown only where the integrator's own clients read it (the
-- request's `media_url` when the report has no photo of its own).
ALTER TABLE reports ADD COLUMN media_link TEXT;

-- Incremental sync (`GET requests?updated_after=`) and mySociety's `servicerequestupdates`
-- find what changed in a window from these two: each status change and each statement.
CREATE INDEX issue_changes_at ON issue_changes (at);
CREATE INDEX statements_at ON statements (inserted_at);
