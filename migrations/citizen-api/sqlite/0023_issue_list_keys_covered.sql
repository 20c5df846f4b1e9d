-- citizen-api, SQLite: a list page's row keys from its index alone.
--
-- Since the row cache (migration 0021, docs/citizen-api.md) a page of the public list by date,
-- category or status reads only each row's key: the issue id, `row_version`, its point, and the
-- report id its vote count is found by. With those columns (and `status`, which the partial
-- indexes' condition names) in each index, SQLite reads the page from the index alone instead
-- of looking up each issue's row, which for one category or one status lies on a different page
-- of `issues` for nearly every row. At 1 000 000 reports: category and status pages 16-19 %
-- faster, the default page 10-17 %, `q` 11 % (docs/benchmarks.md); the three indexes grow by
-- about 60 MB each. The indexes keep their names and orders, so every walk is unchanged.
DROP INDEX issues_public_by_date;
CREATE INDEX issues_public_by_date ON issues (
    report_inserted_at DESC, id DESC, search, report_id, row_version, longitude, latitude, status
) WHERE status <> 'moved';

DROP INDEX issues_public_by_category;
CREATE INDEX issues_public_by_category ON issues (
    category_id, report_inserted_at DESC, id DESC, report_id, row_version, longitude, latitude,
    status
) WHERE status <> 'moved';

DROP INDEX issues_public_by_status;
CREATE INDEX issues_public_by_status ON issues (
    status, report_inserted_at DESC, id DESC, report_id, row_version, longitude, latitude
);
