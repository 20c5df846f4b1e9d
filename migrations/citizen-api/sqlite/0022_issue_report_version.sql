-- citizen-api, SQLite: the issues of a report with their row versions, from the index alone.
--
-- The public detail is kept per replica under the sum of its issue rows' versions (migration
-- 0021, docs/citizen-api.md). An anonymous detail request reads only that sum and the vote count
-- before it writes what was kept; with `row_version` in the index of issues by report, that sum
-- is read from the index without a lookup of each issue row. The index keeps its name (the
-- admin list names it in `INDEXED BY`) and still serves every lookup by report.
DROP INDEX issues_report;
CREATE INDEX issues_report ON issues (report_id, row_version);
