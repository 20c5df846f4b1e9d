-- citizen-api, PostgreSQL: the issues of a report with their row versions, from the index alone.
--
-- The public detail is kept per replica under the sum of its issue rows' versions (migration
-- 0021, docs/citizen-api.md). An anonymous detail request reads only that sum and the vote count
-- before it writes what was kept; with `row_version` included in the index of issues by report,
-- that sum is an index-only scan wherever the visibility map allows (VACUUM keeps it). The index
-- keeps its name and still serves every lookup by report. Building it holds writes to `issues`
-- for its duration (about a second per million issues).
CREATE INDEX issues_report_version ON issues (report_id) INCLUDE (row_version);
DROP INDEX issues_report;
ALTER INDEX issues_report_version RENAME TO issues_report;
