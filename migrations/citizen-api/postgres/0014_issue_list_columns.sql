-- citizen-api, PostgreSQL: the public list reads one table.
--
-- The public list shows one row per issue with its report's text, location, flags and media.
-- Reading those through the report (a reports_pkey probe per row, four buffer accesses) and the
-- media (a second query probing media_report per row) was about half of the list's database
-- work at 100 000 reports (docs/benchmarks.md, 2026-11-23): the page's issues themselves are
-- read in index order from neighbouring pages. So the columns the list shows are copied onto the
-- issue, and the list reads `issues` alone.
--
-- The copies are kept by triggers, so no write path can forget them:
--   - a new issue (filing, a move, a category added by an officer) takes its report's columns
--     and media when it is inserted;
--   - `explicit` and `processed_at`, the only report columns that change, are copied on update;
--   - a report's media added or deleted rewrites `media` on its issues.
-- `media` is the report's media in upload order as a JSON array of
-- {id, filename, media_type, size_bytes}, the shape the detail query builds.

ALTER TABLE issues
    ADD COLUMN author            TEXT,
    ADD COLUMN title             TEXT,
    ADD COLUMN description       TEXT,
    ADD COLUMN search            TEXT,
    ADD COLUMN longitude         DOUBLE PRECISION,
    ADD COLUMN latitude          DOUBLE PRECISION,
    ADD COLUMN location_radius_m DOUBLE PRECISION,
    ADD COLUMN explicit          BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN processed_at      TIMESTAMPTZ,
    ADD COLUMN media             JSON NOT NULL DEFAULT '[]';

-- A report's media as the list shows them.
CREATE FUNCTION report_media_json(report UUID) RETURNS JSON
LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
    SELECT coalesce(json_agg(json_build_object('id', m.id, 'filename', m.filename,
                                               'media_type', m.media_type,
                                               'size_bytes', m.size_bytes) ORDER BY m.position),
                    '[]')
    FROM media m WHERE m.report_id = report
$$;

UPDATE issues i
SET author = r.author, title = r.title, description = r.description, search = r.search,
    longitude = r.longitude, latitude = r.latitude, location_radius_m = r.location_radius_m,
    explicit = r.explicit, processed_at = r.processed_at, media = report_media_json(r.id)
FROM reports r WHERE r.id = i.report_id;

ALTER TABLE issues
    ALTER COLUMN title SET NOT NULL,
    ALTER COLUMN description SET NOT NULL,
    ALTER COLUMN search SET NOT NULL;

CREATE FUNCTION issues_copy_report() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    SELECT r.author, r.title, r.description, r.search, r.longitude, r.latitude,
           r.location_radius_m, r.explicit, r.processed_at, report_media_json(r.id)
    INTO NEW.author, NEW.title, NEW.description, NEW.search, NEW.longitude, NEW.latitude,
         NEW.location_radius_m, NEW.explicit, NEW.processed_at, NEW.media
    FROM reports r WHERE r.id = NEW.report_id;
    RETURN NEW;
END
$$;
CREATE TRIGGER issues_copy_report BEFORE INSERT ON issues
FOR EACH ROW EXECUTE FUNCTION issues_copy_report();

CREATE FUNCTION reports_copy_to_issues() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE issues SET explicit = NEW.explicit, processed_at = NEW.processed_at
    WHERE report_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER reports_copy_to_issues AFTER UPDATE OF explicit, processed_at ON reports
FOR EACH ROW WHEN (OLD.explicit IS DISTINCT FROM NEW.explicit
                   OR OLD.processed_at IS DISTINCT FROM NEW.processed_at)
EXECUTE FUNCTION reports_copy_to_issues();

CREATE FUNCTION media_copy_to_issues() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    report UUID := CASE WHEN TG_OP = 'DELETE' THEN OLD.report_id ELSE NEW.report_id END;
BEGIN
    IF report IS NOT NULL THEN
        UPDATE issues SET media = report_media_json(report) WHERE report_id = report;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER media_copy_to_issues AFTER INSERT OR DELETE ON media
FOR EACH ROW EXECUTE FUNCTION media_copy_to_issues();

-- `q` on the list filters the issues themselves now; rare words are found through this index.
CREATE INDEX issues_public_search ON issues USING gin (search public.gin_trgm_ops)
    WHERE status <> 'moved';
