-- citizen-api, SQLite: the public list reads one table.
--
-- The public list shows one row per issue with its report's text, location, flags and media.
-- Reading those through the report (a probe of its primary key per row) and the media (a second
-- query probing media_report per row) was most of the list's work; the page's issues themselves
-- are read in index order. So the columns the list shows are copied onto the issue (the location
-- already is, migration 0001), and the list reads `issues` alone. PostgreSQL's migration of this
-- number does the same.
--
-- The copies are kept by triggers, so no write path can forget them:
--   - a new issue (filing, a move, a category added by an officer) takes its report's columns
--     and media once inserted;
--   - `explicit` and `processed_at`, the only report columns that change, are copied on update;
--   - a report's media added or deleted rewrites `media` on its issues.
-- `media` is the report's media in upload order as a JSON array of
-- {id, filename, media_type, size_bytes}, the shape the detail query builds (the view
-- `report_copies`). The media are gathered from a subquery ordered by position, written
-- without an ORDER BY inside the aggregate, which SQLite's own shell before 3.44 cannot read.

-- What an issue copies of its report, media included (one place for the triggers and the bulk
-- loaders).
CREATE VIEW report_copies AS
SELECT r.id AS report_id, r.author, r.title, r.description, r.search, r.location_radius_m,
       r.explicit, r.processed_at,
       (SELECT json_group_array(json(o.m)) FROM (
            SELECT json_object('id', m.id, 'filename', m.filename, 'media_type', m.media_type,
                               'size_bytes', m.size_bytes) AS m
            FROM media m WHERE m.report_id = r.id ORDER BY m.position) o) AS media
FROM reports r;

ALTER TABLE issues ADD COLUMN author TEXT;
ALTER TABLE issues ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE issues ADD COLUMN description TEXT NOT NULL DEFAULT '';
ALTER TABLE issues ADD COLUMN search TEXT NOT NULL DEFAULT '';
ALTER TABLE issues ADD COLUMN location_radius_m REAL;
ALTER TABLE issues ADD COLUMN explicit INTEGER NOT NULL DEFAULT 0;
ALTER TABLE issues ADD COLUMN processed_at INTEGER;
ALTER TABLE issues ADD COLUMN media TEXT NOT NULL DEFAULT '[]';

UPDATE issues SET
    (author, title, description, search, location_radius_m, explicit, processed_at, media) =
        (SELECT v.author, v.title, v.description, v.search, v.location_radius_m, v.explicit,
                v.processed_at, v.media FROM report_copies v WHERE v.report_id = issues.report_id);

CREATE TRIGGER issues_copy_report AFTER INSERT ON issues
BEGIN
    UPDATE issues SET
        (author, title, description, search, location_radius_m, explicit, processed_at, media) =
            (SELECT v.author, v.title, v.description, v.search, v.location_radius_m, v.explicit,
                    v.processed_at, v.media FROM report_copies v WHERE v.report_id = NEW.report_id)
    WHERE id = NEW.id;
END;

CREATE TRIGGER reports_copy_to_issues AFTER UPDATE OF explicit, processed_at ON reports
WHEN OLD.explicit IS NOT NEW.explicit OR OLD.processed_at IS NOT NEW.processed_at
BEGIN
    UPDATE issues SET explicit = NEW.explicit, processed_at = NEW.processed_at
    WHERE report_id = NEW.id;
END;

CREATE TRIGGER media_insert_copy_to_issues AFTER INSERT ON media
WHEN NEW.report_id IS NOT NULL
BEGIN
    UPDATE issues
    SET media = (SELECT v.media FROM report_copies v WHERE v.report_id = NEW.report_id)
    WHERE report_id = NEW.report_id;
END;

CREATE TRIGGER media_delete_copy_to_issues AFTER DELETE ON media
WHEN OLD.report_id IS NOT NULL
BEGIN
    UPDATE issues
    SET media = (SELECT v.media FROM report_copies v WHERE v.report_id = OLD.report_id)
    WHERE report_id = OLD.report_id;
END;
