-- citizen-api, PostgreSQL: a planar index for the first step of the nearest-first list.
--
-- The nearest-first page first finds how far its last row can be (store/postgres/nearest.rs):
-- the greatest geodesic distance among `limit + 1 + offset` issues near the point. Any such set
-- of issues gives a correct bound, so they are now found by a KNN walk of this planar (degrees)
-- index instead of the geography one, whose every step computes distances on the spheroid: the
-- whole page's statement ran 1.4 times as fast at 1 000 000 reports (pgbench, docs/benchmarks.md).
-- The rows within the bound are still read and ordered by their geodesic distance through
-- `issues_public_location`, so the page is unchanged.
CREATE INDEX issues_public_location_planar ON issues USING gist ((location::public.geometry))
    WHERE status <> 'moved';
