-- citizen-api, PostgreSQL: each report's count of the vote tokens that count, kept by writes
-- (issue 55, docs/decisions.md "Kept vote counts").
--
-- Every list row and detail counted the report's active tokens at the request's instant (a
-- correlated count per row, 0007/0028), and `orderBy=votes` counted every report's to sort: 8
-- requests a second at 100 000 reports. Now:
--   - a token carries `counted`, true until the expiry sweep finds it expired; it is part of its
--     report's count while `counted AND revoked_at IS NULL`. A place inserts it, a revoke (or a
--     project's deletion) sets `revoked_at`, the sweep clears `counted`, an erasure deletes it;
--   - `reports.votes_count` is the number of such tokens, kept by statement triggers on
--     `vote_tokens` (one update per report a statement touched, whatever wrote it: a function,
--     a replica or bulk SQL), and copied onto the report's issues like the other list columns
--     (0014);
--   - expiry is a write: the sweep (`expire_vote_tokens`, run by every replica each
--     `votes.expiry_sweep_seconds`) clears `counted` on tokens whose `expires_at` has passed. A
--     count therefore drops at the first sweep after its tokens expire, not at the instant; the
--     vote pool itself still counts its tokens at the request's instant (0007), exactly.
--   - the lists walk indexes ordered by `votes_count`, so a page by votes stops after the page.

ALTER TABLE vote_tokens ADD COLUMN counted BOOLEAN NOT NULL DEFAULT TRUE;
UPDATE vote_tokens SET counted = FALSE WHERE expires_at <= now();

ALTER TABLE reports ADD COLUMN votes_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE issues ADD COLUMN votes_count BIGINT NOT NULL DEFAULT 0;
UPDATE reports r SET votes_count = c.n
FROM (SELECT target_id, count(*) AS n FROM vote_tokens
      WHERE counted AND revoked_at IS NULL GROUP BY target_id) c
WHERE r.id = c.target_id;
UPDATE issues i SET votes_count = r.votes_count
FROM reports r WHERE r.id = i.report_id AND r.votes_count <> 0;

-- The counts follow the tokens: one UPDATE of `reports` per statement on `vote_tokens`, with
-- each touched report's difference (projects are targets too and have no row here). A vote
-- touches one report; a place and an officer's step on the same report both lock the report's
-- row before its issues', so they wait for each other and never deadlock.
CREATE FUNCTION vote_tokens_count_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    -- The reports' rows first, in id order: statements that touch several reports (an
    -- erasure, a sweep) take them in one order and never deadlock.
    PERFORM 1 FROM reports WHERE id IN (SELECT target_id FROM new_tokens) ORDER BY id
        FOR NO KEY UPDATE;
    UPDATE reports r SET votes_count = r.votes_count + d.n
    FROM (SELECT target_id, count(*) AS n FROM new_tokens
          WHERE counted AND revoked_at IS NULL GROUP BY target_id) d
    WHERE r.id = d.target_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER vote_tokens_count_insert AFTER INSERT ON vote_tokens
REFERENCING NEW TABLE AS new_tokens
FOR EACH STATEMENT EXECUTE FUNCTION vote_tokens_count_insert();

CREATE FUNCTION vote_tokens_count_update() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    -- The reports' rows first, in id order: statements that touch several reports (an
    -- erasure, a sweep) take them in one order and never deadlock.
    PERFORM 1 FROM reports WHERE id IN (SELECT target_id FROM new_tokens) ORDER BY id
        FOR NO KEY UPDATE;
    UPDATE reports r SET votes_count = r.votes_count + d.n
    FROM (SELECT n.target_id,
                 sum((n.counted AND n.revoked_at IS NULL)::int
                     - (o.counted AND o.revoked_at IS NULL)::int) AS n
          FROM new_tokens n JOIN old_tokens o ON o.id = n.id
          GROUP BY n.target_id) d
    WHERE r.id = d.target_id AND d.n <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER vote_tokens_count_update AFTER UPDATE ON vote_tokens
REFERENCING OLD TABLE AS old_tokens NEW TABLE AS new_tokens
FOR EACH STATEMENT EXECUTE FUNCTION vote_tokens_count_update();

CREATE FUNCTION vote_tokens_count_delete() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    -- The reports' rows first, in id order: statements that touch several reports (an
    -- erasure, a sweep) take them in one order and never deadlock.
    PERFORM 1 FROM reports WHERE id IN (SELECT target_id FROM old_tokens) ORDER BY id
        FOR NO KEY UPDATE;
    UPDATE reports r SET votes_count = r.votes_count - d.n
    FROM (SELECT target_id, count(*) AS n FROM old_tokens
          WHERE counted AND revoked_at IS NULL GROUP BY target_id) d
    WHERE r.id = d.target_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER vote_tokens_count_delete AFTER DELETE ON vote_tokens
REFERENCING OLD TABLE AS old_tokens
FOR EACH STATEMENT EXECUTE FUNCTION vote_tokens_count_delete();

-- The report's count onto its issues (the list reads `issues` alone, 0014), and a new issue
-- takes it with the report's other columns.
CREATE FUNCTION reports_votes_to_issues() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE issues SET votes_count = NEW.votes_count WHERE report_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER reports_votes_to_issues AFTER UPDATE OF votes_count ON reports
FOR EACH ROW WHEN (OLD.votes_count IS DISTINCT FROM NEW.votes_count)
EXECUTE FUNCTION reports_votes_to_issues();

CREATE OR REPLACE FUNCTION issues_copy_report() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    SELECT r.author, r.title, r.description, r.search, r.longitude, r.latitude,
           r.location_radius_m, r.explicit, r.processed_at, report_media_json(r.id),
           r.votes_count
    INTO NEW.author, NEW.title, NEW.description, NEW.search, NEW.longitude, NEW.latitude,
         NEW.location_radius_m, NEW.explicit, NEW.processed_at, NEW.media, NEW.votes_count
    FROM reports r WHERE r.id = NEW.report_id;
    RETURN NEW;
END
$$;

-- The expiry sweep: one batch of at most p_limit tokens whose `expires_at` is at or before
-- p_now stop counting; returns how many, or -1 when another replica's sweep holds the lock.
-- One sweeper at a time (the others' rounds end at once instead of queueing behind it for the
-- same reports' rows); SKIP LOCKED: a token a revoke is changing is left to the next batch, so
-- the sweep never waits on a vote's token while it holds reports' rows.
CREATE FUNCTION expire_vote_tokens(p_now TIMESTAMPTZ, p_limit INTEGER) RETURNS BIGINT
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
DECLARE
    n BIGINT;
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('citizen_api.expire_vote_tokens')) THEN
        RETURN -1;
    END IF;
    UPDATE vote_tokens SET counted = FALSE WHERE id IN (
        SELECT id FROM vote_tokens
        WHERE counted AND revoked_at IS NULL AND expires_at IS NOT NULL AND expires_at <= p_now
        ORDER BY expires_at LIMIT p_limit FOR UPDATE SKIP LOCKED);
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;
CREATE INDEX vote_tokens_counted_expiry ON vote_tokens (expires_at)
    WHERE counted AND revoked_at IS NULL AND expires_at IS NOT NULL;

-- The lists by votes (equal counts: the date, then the id, as `store::sql::order_by`), each
-- beside its date index: the public list, one category, one status, and the officers' list
-- of reports.
CREATE INDEX issues_public_by_votes
    ON issues (votes_count DESC, report_inserted_at DESC, id DESC) WHERE status <> 'moved';
CREATE INDEX issues_public_by_category_votes
    ON issues (category_id, votes_count DESC, report_inserted_at DESC, id DESC)
    WHERE status <> 'moved';
CREATE INDEX issues_public_by_status_votes
    ON issues (status, votes_count DESC, report_inserted_at DESC, id DESC);
CREATE INDEX reports_by_votes ON reports (votes_count DESC, inserted_at DESC, id DESC);
