# Sourced by test/harness/no_false_negatives.sh (which defines check, $DB and
# $PARALLEL_ON): the checks of self-sized filters by group and across sizes,
# and of heavy-hitters summaries.  The checks of the other builders
# (test/harness/no_false_negatives.sh) build bloom_fit_agg filters too.

# ===========================================================================
echo "== bloom_fit_agg: groups of many sizes, unions and intersections across sizes"

# The group of an id: its bit length (1; 2-3; 4-7; ...; 512-1023), so that
# groups hold 1, 2, 4, ... 512 values.
FIT_GROUP="length(ltrim(id::bit(16)::text, '0'))"

# fit_group_check LABEL TABLE ROWS EXTRA-EXPRESSION-OF-j MIN-OVER-CEILING MIN-SIZES
#
# TABLE's ids are 1 .. ROWS.  Every group also holds the same 5 extra values
# (EXTRA, j = 1 .. 5), not in the table.  Per group, bloom_fit_agg with 1, 2
# and 3 arguments (max_bits 1024: with more than 4 distinct values the state
# holds bits, asserted; at least MIN-OVER-CEILING groups go over the
# ceiling; the groups' bloom_fit_agg(v) take at least MIN-SIZES sizes).
# Every value is probed in its group's three filters, in the
# bloom_union_agg of every group's filters (different sizes: the smaller are
# tiled) and in its group's filter | the largest group's; the extra values
# in the bloom_intersect_agg of every group's filters and in each group's
# filter & the largest group's.
fit_group_check() {
	local label=$1 tbl=$2 n=$3 extra=$4 min_over=$5 min_sizes=$6 groups=0 k=$3
	while ((k > 0)); do groups=$((groups + 1)); k=$((k / 2)); done
	check "bloom_fit_agg per GROUP BY group of 1 to 512 values, unions and intersections across sizes: $label" \
		$((7 * n + 15 + 5 * groups)) <<SQL
CREATE TEMP TABLE members AS
	SELECT $FIT_GROUP AS g, v FROM $tbl
	UNION ALL SELECT g, $extra FROM (SELECT DISTINCT $FIT_GROUP AS g FROM $tbl) gs, generate_series(1, 5) j;
CREATE TEMP TABLE groups AS
SELECT g, count(*) AS n, bloom_fit_agg(v) AS f1, bloom_fit_agg(v, 0.001) AS f2, bloom_fit_agg(v, 0.01, 1024) AS f3,
	nfn_fit_form(nfn_fit_state(v, 0.01, 1024), 1024) AS form3, nfn_fit_n(nfn_fit_state(v, 0.01, 1024), 1024) AS n3
FROM members GROUP BY g;
CREATE TEMP TABLE unions AS
SELECT bloom_union_agg(f1) AS u1, bloom_union_agg(f2) AS u2, bloom_union_agg(f3) AS u3,
	bloom_intersect_agg(f1) AS i1, bloom_intersect_agg(f2) AS i2, bloom_intersect_agg(f3) AS i3,
	(SELECT f1 FROM groups ORDER BY n DESC LIMIT 1) AS largest
FROM groups;
CREATE TEMP VIEW probes AS
SELECT x.prober, x.hit
FROM $tbl t JOIN groups gr ON gr.g = $FIT_GROUP, unions u,
	LATERAL (VALUES ('group''s bloom_fit_agg(v)', bloom_contains(gr.f1, t.v)),
		('group''s bloom_fit_agg(v, 0.001)', t.v <@ gr.f2), ('group''s bloom_fit_agg(v, 0.01, 1024)', gr.f3 @> t.v),
		('bloom_union_agg of bloom_fit_agg(v)', bloom_contains(u.u1, t.v)),
		('bloom_union_agg of bloom_fit_agg(v, 0.001)', u.u2 @> t.v),
		('bloom_union_agg of bloom_fit_agg(v, 0.01, 1024)', t.v <@ u.u3),
		('group''s bloom_fit_agg(v) | the largest group''s', bloom_contains(gr.f1 | u.largest, t.v))) x(prober, hit)
UNION ALL
SELECT x.prober, x.hit
FROM unions u, (SELECT $extra AS v FROM generate_series(1, 5) j) e,
	LATERAL (VALUES ('bloom_intersect_agg of bloom_fit_agg(v)', bloom_contains(u.i1, e.v)),
		('bloom_intersect_agg of bloom_fit_agg(v, 0.001)', u.i2 @> e.v),
		('bloom_intersect_agg of bloom_fit_agg(v, 0.01, 1024)', e.v <@ u.i3)) x(prober, hit)
UNION ALL
SELECT 'group''s bloom_fit_agg(v) & the largest group''s', bloom_contains(gr.f1 & u.largest, e.v)
FROM groups gr, unions u, (SELECT $extra AS v FROM generate_series(1, 5) j) e;
CREATE OR REPLACE TEMP VIEW side_checks AS
	SELECT 'groups: $groups, bloom_fit_agg(v) of ' || count(DISTINCT (bloom_info(f1)).bits) || ' sizes' AS what,
		count(*) = $groups AND count(DISTINCT (bloom_info(f1)).bits) >= $min_sizes AS passed FROM groups
	UNION ALL SELECT 'every bloom_fit_agg(v, 0.01, 1024) state of the bits form', bool_and(form3 = 'bits') FROM groups
	UNION ALL SELECT count(*) FILTER (WHERE (bloom_info(f3)).over_ceiling) || ' groups over the 1,024-bit ceiling (want >= $min_over), '
		|| 'each exactly when no size within it meets the rate', count(*) FILTER (WHERE (bloom_info(f3)).over_ceiling) >= $min_over
		AND bool_and((bloom_info(f3)).over_ceiling = nfn_fit_over_ceiling(n3, 0.01, 1024)) FROM groups
	UNION ALL SELECT 'unions at the largest size, flagged over the ceiling when a part is',
		(SELECT (bloom_info(u1)).bits FROM unions) = max((bloom_info(f1)).bits)
		AND (SELECT (bloom_info(u3)).over_ceiling FROM unions) = bool_or((bloom_info(f3)).over_ceiling) FROM groups;
SQL
}
fit_group_check "integers" b_int 1000 "-j::int8" 1 6
fit_group_check "short text" st_short 300 "'extra ' || j" 1 5
fit_group_check "out-of-line compressed text" st_ool_cmp 40 "'extra ' || j" 0 2

# ===========================================================================
echo "== topksketch: heavy values listed, every count within its bounds"

# The probes of a check whose session holds "built" (how, c: the counters
# wanted, s: a summary) and "truth" (v: a value's text form, f: its count in
# the stream): for each summary, every value occurring more than N/(c+1)
# times must be listed (3 per summary here), and every value of the stream
# must have lower_bound <= count <= upper_bound when listed, count <=
# max_error when not.  EXTRA: further side checks, as "UNION ALL SELECT what,
# passed" lines.
topk_probe_sql() {
	cat <<'SQL'
CREATE TEMP TABLE items AS SELECT b.how, i.* FROM built b, topk_items(b.s) i;
CREATE TEMP TABLE infos AS SELECT b.how, b.c, i.counters, i.max_error, topk_total(b.s) AS total FROM built b, topk_info(b.s) i;
CREATE TEMP VIEW probes AS
SELECT n.how || ': value above N/(c+1) listed' AS prober,
	EXISTS (SELECT 1 FROM items i WHERE i.how = n.how AND i.value = t.v) AS hit
FROM infos n, truth t WHERE t.f * (n.counters + 1) > n.total
UNION ALL
SELECT n.how || ': lower_bound <= count <= upper_bound if listed, else count <= max_error',
	CASE WHEN i.value IS NULL THEN t.f <= n.max_error ELSE i.lower_bound <= t.f AND t.f <= i.upper_bound END
FROM infos n CROSS JOIN truth t LEFT JOIN items i ON i.how = n.how AND i.value = t.v;
CREATE OR REPLACE TEMP VIEW side_checks AS
	SELECT n.how || ': ' || n.counters || ' counters (want ' || n.c || '), N ' || n.total || ', max_error ' || n.max_error
		|| ' <= N/(c+1)' AS what,
		n.counters = n.c AND n.total = (SELECT sum(f) FROM truth) AND n.max_error * (n.counters + 1) <= n.total AS passed
	FROM infos n
	UNION ALL SELECT 'every listed value occurs in the stream',
		NOT EXISTS (SELECT 1 FROM items i WHERE NOT EXISTS (SELECT 1 FROM truth t WHERE t.v = i.value))
SQL
	printf '%s;\n' "${1:-}"
}

# topk_check LABEL TABLE ROWS
#
# The stream: each value of TABLE (distinct, ids 1 .. ROWS) cnt times, but
# those of id 1, 2, 3 ROWS, 2 ROWS and 3 ROWS times (nfn_weight): they alone
# occur more than N/(c+1) times for c = 9 or 10.  Summaries built serially by
# topk_agg(v, 10) and topk_agg(v, 5, 0.1) (c = 9), and by topk_merge_agg over
# 7 partial summaries of a GROUP BY that splits every value among them.
topk_check() {
	local stream="SELECT t.v, r FROM $2 t, generate_series(1, nfn_weight(t.id, t.cnt, $3)) r"
	check "topk_agg (k; k, epsilon), topk_merge_agg over GROUP BY partials: $1" $((3 * ($3 + 3))) <<SQL
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE built AS
SELECT 'topk_agg(v, 10)' AS how, 10 AS c, (SELECT topk_agg(v, 10) FROM ($stream) x) AS s
UNION ALL SELECT 'topk_agg(v, 5, 0.1)', 9, (SELECT topk_agg(v, 5, 0.1) FROM ($stream) x)
UNION ALL SELECT 'topk_merge_agg of 7 partials', 10,
	(SELECT topk_merge_agg(p) FROM (SELECT r % 7 AS g, topk_agg(v, 10) AS p FROM ($stream) x GROUP BY r % 7) y);
CREATE TEMP TABLE truth AS SELECT v::text AS v, count(*) AS f FROM ($stream) x GROUP BY v;
$(topk_probe_sql)
SQL
}
topk_check "integers" b_int 1000
topk_check "uuid" ty_uuid 200
topk_check "date" ty_date 200
topk_check "short text" st_short 300
topk_check "out-of-line compressed text" st_ool_cmp 40
topk_check "out-of-line uncompressed text" st_ool_ext 40

# topk_parallel_check TABLE DISTINCT-VALUES
#
# The shuffled streams of setup.sql (hh_par_int, hh_par_text: three values
# above N/101), summarised with 100 counters under a forced parallel plan
# (Gather, partial aggregates and workers launched: asserted), and merged by
# topk_merge_agg from the partial summaries of a GROUP BY in the same plans.
topk_parallel_check() {
	local tbl=$1 Q='$q$'
	check "topk_agg in a forced parallel plan, topk_merge_agg of parallel partials: $tbl" $((2 * ($2 + 3))) <<SQL
DROP TABLE IF EXISTS nfn_topk_$tbl, nfn_topk_merge_$tbl;
$PARALLEL_ON
SELECT nfn_explain(${Q}CREATE TABLE nfn_topk_$tbl AS SELECT topk_agg(v, 100) AS s FROM $tbl${Q},
	'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') AS build_run \gset
CREATE TABLE nfn_topk_merge_$tbl AS
	SELECT topk_merge_agg(p) AS s FROM (SELECT r % 7 AS g, topk_agg(v, 100) AS p FROM $tbl GROUP BY r % 7) y;
CREATE TEMP TABLE built AS
SELECT 'topk_agg(v, 100), parallel' AS how, 100 AS c, s FROM nfn_topk_$tbl
UNION ALL SELECT 'topk_merge_agg of 7 partials', 100, s FROM nfn_topk_merge_$tbl;
CREATE TEMP TABLE truth AS SELECT v::text AS v, count(*) AS f FROM $tbl GROUP BY v;
$(topk_probe_sql "UNION ALL SELECT 'build plan has Gather and Partial Aggregate, workers launched',
	:'build_run' ~ 'Gather' AND :'build_run' ~ 'Partial Aggregate' AND :'build_run' ~ 'Workers Launched: [1-9]'")
SQL
}
topk_parallel_check hh_par_int 100000
topk_parallel_check hh_par_text 20040
