-- citizen-api, SQLite: the date index of the public list carries the folded search text.
--
-- `q` walks the issues newest first and tests `search` on each (a common word matches one issue
-- in six, so a page of 100 reads ~700). With `search` in the index SQLite tests it on the index
-- entry and looks up only the matching issues' rows: 211-285 µs against 310-436 µs for the page
-- at 1 000 000 reports (docs/benchmarks.md). The index keeps its name and its order, so every
-- other walk by date is unchanged; SQLite has no size limit on an index entry.
DROP INDEX issues_public_by_date;
CREATE INDEX issues_public_by_date
    ON issues (report_inserted_at DESC, id DESC, search) WHERE status <> 'moved';
