# bench/lib.sh — the tables of the server benchmarks, loaded the same way by
# bench/run.sh and bench/ab.sh (both source this file after scripts/lib.sh),
# so that an A/B run times the very data bench/run.sh does.  Each function
# prints SQL for psql; the caller creates the extensions first (bloomsketch,
# or bloomsketch_<tag> in bench/ab.sh; pg_prewarm; hll for the Bloom section).

# bench_t_sql ROWS: t(id, s) with ids 1..ROWS and 32-character s.
bench_t_sql() {
	cat <<-SQL
		CREATE TABLE t AS
			SELECT i AS id, md5(i::text) AS s FROM generate_series(1::bigint, $1) i;
		VACUUM (FREEZE, ANALYZE) t;
	SQL
}

# bench_bloom_tables_sql ROWS CAPACITY FPR: other(id) with ids ROWS/2 + 1 ..
# ROWS/2 + ROWS, so that half of t's ids are in other and half are not; the
# filter of other, built once and stored (TOASTed, ~12 MB at 10M rows); all
# of it prewarmed into shared_buffers with t.
bench_bloom_tables_sql() {
	cat <<-SQL
		CREATE TABLE other AS
			SELECT i AS id FROM generate_series($1 / 2 + 1::bigint, $1 / 2 + $1) i;
		CREATE TABLE other_filter AS
			SELECT bloom_agg(id, $2, $3) AS f FROM other;
		VACUUM (FREEZE, ANALYZE) other;
		VACUUM (FREEZE, ANALYZE) other_filter;
		CHECKPOINT;
		SELECT 'prewarmed ' || sum(pg_prewarm(c)) || ' blocks' FROM (VALUES ('t'::regclass), ('other'), ('other_filter'),
			((SELECT reltoastrelid FROM pg_class WHERE oid = 'other_filter'::regclass))) v(c);
	SQL
}

# bench_cms_tables_sql PROBES GROUPS: cms_agg's default sketch (epsilon =
# delta = 0.001) of t.s, stored TOASTed; the first PROBES values of t.s to
# look up; t's ids with a group number, whose statistics tell the planner
# there are GROUPS groups; all of it prewarmed into shared_buffers with t.
bench_cms_tables_sql() {
	cat <<-SQL
		CREATE TABLE cms_store AS SELECT cms_agg(s) AS sketch FROM t;
		CREATE TABLE cms_probe AS SELECT s FROM t WHERE id <= $1;
		CREATE TABLE cms_groups AS SELECT id, (id % $2)::int AS g FROM t;
		VACUUM (FREEZE, ANALYZE) cms_store;
		VACUUM (FREEZE, ANALYZE) cms_probe;
		VACUUM (FREEZE, ANALYZE) cms_groups;
		CHECKPOINT;
		SELECT 'prewarmed ' || sum(pg_prewarm(c)) || ' blocks' FROM (VALUES ('t'::regclass), ('cms_store'), ('cms_probe'),
			('cms_groups'), ((SELECT reltoastrelid FROM pg_class WHERE oid = 'cms_store'::regclass))) v(c);
	SQL
}
