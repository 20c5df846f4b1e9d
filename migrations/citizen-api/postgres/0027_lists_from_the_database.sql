-- citizen-api, PostgreSQL: every list, detail and timeline is answered by the database, so what
-- fed the per-replica copies goes (docs/decisions.md, "Lists from the database").
--
-- Retired: the issue rows' `row_version` (0021: the key of the kept JSON rows and details) and
-- `changed_xid` (0024: the issue feed), the vote tokens' `changed_xid` (0026: the vote feed), and
-- the categories' generation (0025: the officers' list from the index), each with its trigger,
-- function and index. The copies of the report's columns and media on its issues (0014) stay:
-- the public list reads `issues` alone through them.
DROP TRIGGER issues_row_version ON issues;
DROP FUNCTION issues_row_version_move();
DROP TRIGGER issues_changed_insert ON issues;
DROP FUNCTION issues_changed_on_insert();
DROP INDEX issues_changes;
ALTER TABLE issues DROP COLUMN changed_xid;

-- The index of issues by report carried `row_version` (0022); it keeps its name and serves
-- every lookup by report as before.
CREATE INDEX issues_report_id ON issues (report_id);
DROP INDEX issues_report;
ALTER INDEX issues_report_id RENAME TO issues_report;
ALTER TABLE issues DROP COLUMN row_version;

DROP TRIGGER vote_tokens_changed ON vote_tokens;
DROP FUNCTION vote_tokens_changed();
DROP INDEX vote_tokens_changes;
ALTER TABLE vote_tokens DROP COLUMN changed_xid;

-- The planar index (0015) served a step of the nearest-first read that the KNN walk of the
-- geography index (0001) now does alone.
DROP INDEX issues_public_location_planar;

DROP TRIGGER report_categories_generation ON report_categories;
DROP TRIGGER category_officers_generation ON category_officers;
DROP FUNCTION category_generation_move();
DROP TABLE category_generation;
