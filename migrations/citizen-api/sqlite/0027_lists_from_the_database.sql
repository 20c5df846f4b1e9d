-- citizen-api, SQLite: every list, detail and timeline is answered by the database, so what fed
-- the per-replica copies goes (docs/decisions.md, "Lists from the database").
--
-- Retired: the issue rows' `row_version` (0021: the key of the kept JSON rows and details) and
-- `change_seq` (0024: the issue feed), the vote tokens' `change_seq` (0026: the vote feed), and
-- the categories' generation (0025), each with its triggers and indexes. The copies of the
-- report's columns and media on its issues (0014) stay: the public list reads `issues` alone
-- through them. A column is dropped only after every index and trigger naming it.
DROP TRIGGER issues_row_version;
DROP TRIGGER issues_change_insert;
DROP INDEX issues_changes;

-- The list indexes carried the keys the kept rows were checked by (0023); a page now reads
-- its rows, so they hold their walk's columns again (the date index keeps `search`, 0020:
-- `q` is tested on index entries). Names and orders are unchanged.
DROP INDEX issues_public_by_date;
CREATE INDEX issues_public_by_date
    ON issues (report_inserted_at DESC, id DESC, search) WHERE status <> 'moved';
DROP INDEX issues_public_by_category;
CREATE INDEX issues_public_by_category ON issues (category_id, report_inserted_at DESC, id DESC)
    WHERE status <> 'moved';
DROP INDEX issues_public_by_status;
CREATE INDEX issues_public_by_status ON issues (status, report_inserted_at DESC, id DESC);

-- The index of issues by report carried `row_version` (0022); it keeps its name (the admin list
-- names it in `INDEXED BY`).
DROP INDEX issues_report;
CREATE INDEX issues_report ON issues (report_id);

ALTER TABLE issues DROP COLUMN row_version;
ALTER TABLE issues DROP COLUMN change_seq;

DROP TRIGGER vote_tokens_change_insert;
DROP TRIGGER vote_tokens_change_update;
DROP INDEX vote_tokens_changes;
ALTER TABLE vote_tokens DROP COLUMN change_seq;

DROP TRIGGER report_categories_generation_insert;
DROP TRIGGER report_categories_generation_update;
DROP TRIGGER report_categories_generation_delete;
DROP TRIGGER category_officers_generation_insert;
DROP TRIGGER category_officers_generation_update;
DROP TRIGGER category_officers_generation_delete;
DROP TABLE category_generation;
