-- citizen-api, PostgreSQL: placing and revoking vote tokens as one statement each, so one
-- account's requests (serialised by its lock) each hold the lock for a single round trip.
--
-- Both are VOLATILE: every statement inside takes a fresh snapshot, so the count made after the
-- account's row is locked sees every token committed before the lock was granted — the same
-- guarantee as the separate statements they replace. Called outside an explicit transaction, the
-- statement is its own transaction and the lock is released at its commit. With p_sync = false
-- the commit does not wait for the WAL flush (votes.synchronous_commit, docs/decisions.md).

-- Places the tokens p_ids on p_target when they fit the account's pool of p_max.
-- found: whether p_target is a report or a project; active: the account's active tokens before;
-- placed: how many were placed (0 when they did not fit, or the target is unknown).
CREATE FUNCTION place_vote_tokens(
    p_subject TEXT, p_target UUID, p_ids UUID[], p_now TIMESTAMPTZ, p_expires TIMESTAMPTZ,
    p_max BIGINT, p_sync BOOLEAN
) RETURNS TABLE (found BOOLEAN, active BIGINT, placed BIGINT)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    n BIGINT;
BEGIN
    IF NOT p_sync THEN
        PERFORM set_config('synchronous_commit', 'off', true);
    END IF;
    IF NOT EXISTS (SELECT 1 FROM reports WHERE id = p_target)
       AND NOT EXISTS (SELECT 1 FROM projects WHERE id = p_target) THEN
        RETURN QUERY SELECT false, 0::BIGINT, 0::BIGINT;
        RETURN;
    END IF;
    -- The account's lock, its row created on its first vote.
    PERFORM 1 FROM vote_accounts WHERE subject = p_subject FOR UPDATE;
    IF NOT FOUND THEN
        INSERT INTO vote_accounts (subject, created_at) VALUES (p_subject, p_now)
            ON CONFLICT DO NOTHING;
        PERFORM 1 FROM vote_accounts WHERE subject = p_subject FOR UPDATE;
    END IF;
    SELECT count(*) INTO n FROM vote_tokens
        WHERE subject = p_subject AND revoked_at IS NULL
          AND (expires_at IS NULL OR expires_at > p_now);
    IF n + cardinality(p_ids) > p_max THEN
        RETURN QUERY SELECT true, n, 0::BIGINT;
        RETURN;
    END IF;
    INSERT INTO vote_tokens (id, subject, target_id, inserted_at, expires_at)
        SELECT id, p_subject, p_target, p_now, p_expires FROM unnest(p_ids) AS id;
    RETURN QUERY SELECT true, n, cardinality(p_ids)::BIGINT;
END
$$;

-- Revokes up to p_count of the account's active tokens on p_target, the most recently placed
-- first; returns how many were revoked.
CREATE FUNCTION revoke_vote_tokens(
    p_subject TEXT, p_target UUID, p_count BIGINT, p_now TIMESTAMPTZ, p_sync BOOLEAN
) RETURNS BIGINT
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    n BIGINT;
BEGIN
    IF NOT p_sync THEN
        PERFORM set_config('synchronous_commit', 'off', true);
    END IF;
    PERFORM 1 FROM vote_accounts WHERE subject = p_subject FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 0; -- never voted: nothing to revoke
    END IF;
    UPDATE vote_tokens SET revoked_at = p_now WHERE id IN (
        SELECT id FROM vote_tokens
        WHERE subject = p_subject AND target_id = p_target AND revoked_at IS NULL
          AND (expires_at IS NULL OR expires_at > p_now)
        ORDER BY inserted_at DESC, id DESC LIMIT p_count);
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;
