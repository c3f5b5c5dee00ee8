-- cmsketch accuracy on a skewed stream: 1,000,000 updates over 100,000
-- distinct items with Zipf(1.1) frequencies.  Estimates never fall below the
-- exact counts, the fraction of items whose estimate is more than
-- epsilon * ||a||_1 too high stays within Theorem 9.1's bound, and the
-- weighted form, merges of disjoint subsets and a parallel plan all give the
-- bytes of the serial one-update-per-row sketch.  Everything printed is a
-- boolean or a sizing constant, so nothing drifts with the data layout.
-- (quietly: the extension exists when the whole suite runs, not when this test runs alone)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;

-- ---- the stream ----
-- A deterministic Zipf(1.1)-shaped multiset (no random numbers): item r, for
-- r = 1..100,000, occurs once, plus its share of 900,000 further updates in
-- proportion to r^-1.1:
--   n_r = 1 + round(C_r) - round(C_{r-1}),  C_r = 900,000 * H_r / H_100000,
--   H_r = sum over s <= r of s^-1.1.
-- The shares telescope, so the n_r sum to exactly 100,000 + 900,000 updates,
-- and each n_r is within 1 of 1 + 900,000 r^-1.1 / H_100000 (the head is a
-- Zipf(1.1) law: item 1 alone takes about 12% of the stream).  `first_id` is
-- the id of the item's first row in the stream.
CREATE TABLE zipfacc_counts AS
WITH weights AS (
	SELECT r, power(r::float8, -1.1) AS p FROM generate_series(1, 100000) r),
shares AS (
	SELECT r, p, 900000 * sum(p) OVER (ORDER BY r) / sum(p) OVER () AS c,
	       900000 * p / sum(p) OVER () AS ideal
	FROM weights),
counts AS (
	SELECT r, ideal, 1 + (round(c) - round(coalesce(lag(c) OVER (ORDER BY r), 0)))::int AS n
	FROM shares)
SELECT r AS item, n, ideal, (sum(n) OVER (ORDER BY r) - n + 1)::bigint AS first_id FROM counts;
SELECT count(*) = 100000 AS items, sum(n) = 1000000 AS updates, min(n) >= 1 AS every_item_occurs,
       bool_and(abs(n - 1 - ideal) <= 1) AS within_one_of_zipf
FROM zipfacc_counts;

-- One row per update: 1,000,000 rows, ids 1..1,000,000.
CREATE TABLE zipfacc_stream AS
SELECT first_id + i AS id, item FROM zipfacc_counts, generate_series(0, n - 1) i;
ANALYZE zipfacc_stream;
-- the exact counts, from the stream itself
CREATE TABLE zipfacc_exact AS SELECT item, count(*) AS n FROM zipfacc_stream GROUP BY item;
SELECT count(*) = 1000000 AS rows, count(DISTINCT id) = 1000000 AS distinct_ids,
       (SELECT count(*) FROM zipfacc_exact) = 100000 AS distinct_items,
       (SELECT bool_and(e.n = c.n) FROM zipfacc_exact e JOIN zipfacc_counts c USING (item)) AS counts_match
FROM zipfacc_stream;

-- ---- the sketches: one update per row, a serial plan ----
-- default: epsilon = delta = 0.001.  coarse: 0.01, 0.01.  copies: 0.01 at
-- delta 0.0001, two independent copies.  tiny: 0.1, 0.1, where items beyond
-- epsilon * ||a||_1 are common enough to count.
CREATE TABLE zipfacc_params (name text, eps float8, dlt float8);
INSERT INTO zipfacc_params VALUES
	('default', 0.001, 0.001), ('coarse', 0.01, 0.01), ('copies', 0.01, 0.0001), ('tiny', 0.1, 0.1);
CREATE TABLE zipfacc_sketches AS
SELECT cms_agg(item) AS s_default, cms_agg(item, 0.01, 0.01) AS s_coarse,
       cms_agg(item, 0.01, 0.0001) AS s_copies, cms_agg(item, 0.1, 0.1) AS s_tiny
FROM zipfacc_stream;
-- one row per parameter pair, for the checks below
CREATE TABLE zipfacc_sketch AS
SELECT p.name, p.eps, p.dlt, s.s
FROM zipfacc_params p JOIN (
	SELECT 'default' AS name, s_default AS s FROM zipfacc_sketches
	UNION ALL SELECT 'coarse', s_coarse FROM zipfacc_sketches
	UNION ALL SELECT 'copies', s_copies FROM zipfacc_sketches
	UNION ALL SELECT 'tiny', s_tiny FROM zipfacc_sketches) s USING (name);
SELECT name, eps AS epsilon, dlt AS delta, i.width, i.depth, i.copies, i.total = 1000000 AS total_ok
FROM zipfacc_sketch, LATERAL cms_info(s) i ORDER BY eps, dlt DESC;

-- ---- accuracy ----
-- Every item's estimate, one call site per sketch (each probes one stored
-- sketch 100,000 times).
CREATE TABLE zipfacc_estimates AS
SELECT e.item, e.n,
       cms_estimate(k.s_default, e.item) AS est_default,
       cms_estimate(k.s_coarse, e.item) AS est_coarse,
       cms_estimate(k.s_copies, e.item) AS est_copies,
       cms_estimate(k.s_tiny, e.item) AS est_tiny
FROM zipfacc_exact e CROSS JOIN zipfacc_sketches k;
CREATE TABLE zipfacc_errors AS
SELECT item, n, name, est - n AS error
FROM zipfacc_estimates,
     LATERAL (VALUES ('default', est_default), ('coarse', est_coarse),
                     ('copies', est_copies), ('tiny', est_tiny)) v(name, est);

-- The bound.  Theorem 9.1 (Kirsch and Mitzenmacher, tech report 2006,
-- section 9.2): with d tables of prime width w and g_j(x) = h1(x) + j h2(x)
-- mod w, for every item i
--   Pr(estimate_i > a_i + epsilon ||a||_1) <= 2/(epsilon w^2) + (2/(epsilon w))^d.
-- The proof writes estimate_i = a_i + A_i + min_j B_{j,i}: A_i counts the
-- items z sharing both h1 and h2 with i, E[A_i] <= ||a||_1 / w^2, so Markov
-- gives Pr(A_i >= epsilon ||a||_1 / 2) <= 2/(epsilon w^2); B_{j,i} counts the
-- other items in i's column of table j, E[B_{j,i}] <= ||a||_1 / w, so
-- Pr(B_{j,i} >= epsilon ||a||_1 / 2) <= 2/(epsilon w); as w is prime such a
-- z collides with i in at most one table, the B_{j,i} are negatively
-- dependent and the probabilities multiply over the d tables.
-- bloomsketch draws h1 uniformly from [0, w) but the step h2 from [1, w - 1]
-- (never 0, see bs_cms.c), so Pr(both equal) = 1/(w (w - 1)) and the first
-- term becomes 2/(epsilon w (w - 1)); the column of table j, h1 + j h2, is
-- still uniform and independent of h2, so the second term is unchanged.  A
-- sketch of `copies` independent structures (own seeds) answers the minimum
-- over them and fails only when all of them fail:
--   bound = (2/(epsilon w (w - 1)) + (2/(epsilon w))^d)^copies,
-- which the sizing keeps at or below delta.  By linearity of expectation the
-- expected number of the 100,000 items beyond epsilon ||a||_1 is at most
-- 100,000 * bound, so the observed fraction is compared with the bound
-- (Markov's inequality makes the bound loose: the observed fraction is far
-- below it, yet above 0 for three of the four sketches, so the comparison
-- is not vacuous).  The expectation in the proof, on one table, also gives
-- E[estimate_i - a_i] <= ||a||_1 / w for every item, so the mean error over
-- the items is compared with that.
CREATE TABLE zipfacc_bounds AS
SELECT name, eps, dlt, i.width, i.total,
       power(2 / (eps * i.width * (i.width - 1)) + power(2 / (eps * i.width), i.depth),
             i.copies) AS bound
FROM zipfacc_sketch, LATERAL cms_info(s) i;
SELECT b.name,
       bool_and(e.error >= 0) AS never_below,
       b.bound <= b.dlt AS bound_within_delta,
       count(*) FILTER (WHERE e.error > b.eps * b.total) > 0 AS some_beyond_epsilon,
       count(*) FILTER (WHERE e.error > b.eps * b.total)::float8 / count(*) <= b.bound AS fraction_within_bound,
       avg(e.error) <= b.total::float8 / b.width AS mean_error_within_bound,
       count(*) FILTER (WHERE e.error > 0) > 0 AS some_over_estimates
FROM zipfacc_errors e JOIN zipfacc_bounds b USING (name)
GROUP BY b.name, b.eps, b.dlt, b.bound, b.total, b.width
ORDER BY b.eps, b.dlt DESC;
-- More copies only lower estimates: the two-copy sketch's first copy is the
-- one-copy sketch at the same epsilon, so est_copies <= est_coarse.
SELECT bool_and(est_copies <= est_coarse) AS copies_never_worse,
       count(*) FILTER (WHERE est_copies < est_coarse) > 0 AS copies_sometimes_better
FROM zipfacc_estimates;

-- One call site probing the four stored sketches in turn (each item asks all
-- four; OFFSET 0 keeps the subquery per item): cms_estimate keeps a detoasted
-- copy of each and must answer as the call sites above, which each probed a
-- single sketch.
SELECT count(*) = 4000 AS probes,
       bool_and(x.estimate = CASE x.name WHEN 'default' THEN e.est_default WHEN 'coarse' THEN e.est_coarse
                                         WHEN 'copies' THEN e.est_copies ELSE e.est_tiny END) AS same_estimates,
       count(DISTINCT x.stored_bytes) = 4 AS four_stored_sizes
FROM zipfacc_estimates e,
     LATERAL (SELECT name, cms_estimate(s, e.item) AS estimate, pg_column_size(s) AS stored_bytes
              FROM zipfacc_sketch OFFSET 0) x
WHERE e.item % 100 = 7;

-- ---- the weighted form: the same bytes from the GROUP BY counts ----
SELECT w.s_default::bytea = k.s_default::bytea AS weighted_default,
       w.s_coarse::bytea = k.s_coarse::bytea AS weighted_coarse,
       w.s_copies::bytea = k.s_copies::bytea AS weighted_copies,
       w.s_tiny::bytea = k.s_tiny::bytea AS weighted_tiny
FROM (SELECT cms_agg(item, n) AS s_default, cms_agg(item, n, 0.01, 0.01) AS s_coarse,
             cms_agg(item, n, 0.01, 0.0001) AS s_copies, cms_agg(item, n, 0.1, 0.1) AS s_tiny
      FROM zipfacc_exact) w, zipfacc_sketches k;

-- ---- merging four disjoint subsets (by a hash of the row id) ----
CREATE TABLE zipfacc_parts AS
SELECT hashint8(id) & 3 AS part, count(*) AS rows, cms_agg(item) AS s_default,
       cms_agg(item, 0.01, 0.01) AS s_coarse, cms_agg(item, 0.01, 0.0001) AS s_copies,
       cms_agg(item, 0.1, 0.1) AS s_tiny
FROM zipfacc_stream GROUP BY 1;
SELECT count(*) = 4 AS four_parts, bool_and(rows > 200000) AS parts_balanced,
       sum(rows) = 1000000 AS parts_cover_stream
FROM zipfacc_parts;
SELECT m.s_default::bytea = k.s_default::bytea AS merged_default,
       m.s_coarse::bytea = k.s_coarse::bytea AS merged_coarse,
       m.s_copies::bytea = k.s_copies::bytea AS merged_copies,
       m.s_tiny::bytea = k.s_tiny::bytea AS merged_tiny
FROM (SELECT cms_merge_agg(s_default) AS s_default, cms_merge_agg(s_coarse) AS s_coarse,
             cms_merge_agg(s_copies) AS s_copies, cms_merge_agg(s_tiny) AS s_tiny
      FROM zipfacc_parts) m, zipfacc_sketches k;

-- ---- a parallel plan gives the same bytes ----
CREATE FUNCTION zipfacc_has_partial_aggregate(query text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan::text LIKE '%"Partial Mode": "Partial"%';
END $$;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
-- (the plan checked is the plan of the very query whose result is printed)
\set q 'SELECT p.s_default::bytea = k.s_default::bytea AS parallel_default, p.s_coarse::bytea = k.s_coarse::bytea AS parallel_coarse, p.s_copies::bytea = k.s_copies::bytea AS parallel_copies, p.s_tiny::bytea = k.s_tiny::bytea AS parallel_tiny FROM (SELECT cms_agg(item) AS s_default, cms_agg(item, 0.01, 0.01) AS s_coarse, cms_agg(item, 0.01, 0.0001) AS s_copies, cms_agg(item, 0.1, 0.1) AS s_tiny FROM zipfacc_stream) p, zipfacc_sketches k'
SELECT zipfacc_has_partial_aggregate(:'q') AS partial_aggregate;
:q;
-- the weighted form in parallel too
\set q 'SELECT p.s::bytea = k.s_default::bytea AS parallel_weighted FROM (SELECT cms_agg(item, n) AS s FROM zipfacc_exact) p, zipfacc_sketches k'
SELECT zipfacc_has_partial_aggregate(:'q') AS partial_aggregate_weighted;
:q;
RESET ALL;
