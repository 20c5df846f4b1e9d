-- citizen-api, PostgreSQL: the vote feed, which vote tokens were placed or revoked since a
-- reader last looked.
--
-- A replica that keeps the public list's issues in memory (migration 0024) counts their
-- reports' active vote tokens there too (docs/citizen-api.md, "The vote feed"), so it must learn
-- every place and revoke, whichever replica, function or bulk SQL made it. Tokens are never
-- deleted: a revoke sets `revoked_at`, and a token expires at `expires_at` with no write at all
-- (the reader compares it with the request's instant). As for issues, each token row carries the
-- id of the transaction that last wrote it (`changed_xid`, set by trigger on insert and on every
-- update); a reader asks for `changed_xid >= p`, p being the `xmin` of its previous read's
-- snapshot (migration 0024 says why that misses nothing).
--
-- Tokens written before this migration keep '0'. Adding the column with a constant default
-- rewrites no row.
ALTER TABLE vote_tokens ADD COLUMN changed_xid xid8 NOT NULL DEFAULT '0';

CREATE FUNCTION vote_tokens_changed() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    NEW.changed_xid := pg_current_xact_id();
    RETURN NEW;
END
$$;
CREATE TRIGGER vote_tokens_changed BEFORE INSERT OR UPDATE ON vote_tokens
FOR EACH ROW EXECUTE FUNCTION vote_tokens_changed();

CREATE INDEX vote_tokens_changes ON vote_tokens (changed_xid);
