#!/bin/bash
# bench/topk_accuracy.sh — heavy hitters side by side: bloomsketch's topk_agg
# against topn_add_agg of Citus's postgresql-topn (issue 38), measured
# against exact counts.
#
#   PGHOST=... PGPORT=... PGUSER=... [PG_BIN=.../bin] bash bench/topk_accuracy.sh
#
# Runs against a PostgreSQL 15 server where bloomsketch is installed, in a
# scratch database bloomsketch_topk_accuracy (C locale) that it drops at the
# end.  It first builds postgresql-topn from TOPN_TARBALL with PGXS into the
# PostgreSQL of PG_BIN (or PG_CONFIG; default as scripts/lib.sh: BS_PG_BIN or
# Debian's; installing needs write access to it), which must be the
# server's installation; when topn cannot be built or loaded it says so and
# measures topk alone (TOPN_BUILD=0 skips the build and uses a topn already
# installed; KEEP_DB=1 keeps the database).  ROWS (default 1,000,000) sizes
# the generated data sets; the word stream has its own size.  Both sides get
# the values as text (topn takes only text).
#
# Data, all of it the same on every run and machine (no random(): uniform
# numbers are read from md5 of a tag and the row number):
#   zipf1.1, zipf1.5  ROWS values drawn from Zipf(s) over 1..100000 (value i
#                     with probability proportional to i^-s, by the inverse
#                     of the cumulative distribution), written as text;
#   flat              0.89 ROWS values uniform over 1..100000, plus ten planted
#                     heavy values j * 9973 (j = 1..10) with ROWS/500 * j rows
#                     each (2,000 to 20,000 rows at 10^6);
#   words             every word of 13 license texts of base-files in
#                     /usr/share/common-licenses (Apache-2.0 Artistic CC0-1.0
#                     GFDL-1.2 GFDL-1.3 GPL-1 GPL-2 GPL-3 LGPL-2 LGPL-2.1
#                     LGPL-3 MPL-1.1 MPL-2.0, the regular files Debian 12 has
#                     there and Debian 13 still has), in that order: bytes
#                     A-Z lower-cased, a word is a longest run of a-z,
#                     anything else separates words (36,934 words, 2,094
#                     distinct on Debian 12's base-files 12.4).
# Row orders: random (sorted by md5 of the row number), rare first and heavy
# first (sorted by true count, ascending or descending, a value's rows
# together, ties by value), and for the words also their order in the files.
#
# Builds, for K = 100 counters each side (topk_agg(v, K) and topn_add_agg(v)
# under SET topn.number_of_counters = K): serial; and 16 parts, each
# aggregated serially, split by hash (of the row position), by range (of the
# row position) and by value (md5 of the value), merged by the aggregate in
# part order (topk_merge_agg, topn_union_agg) and by a balanced tree of
# pairwise merges (topk's +, topn_union).  Serial builds at K = 192 too.
# topk_merge_agg also merges the 16 parts in 10 more orders (sorted by md5 of
# the order's number and the part), and so does the balanced tree of +, its
# leaves in each of those orders.  Every data set is also shuffled SHUFFLES
# (default 6) more ways (md5 of another tag each) and built every way but the
# 10 orders, topk and topn: the random order is one draw, and on the flat
# column, whose true top 100 beyond the ten planted values are noise values of
# 20 occurrences against a mean of 9, one draw's recall is mostly chance; the
# random order is judged by its means over the shuffles.
#
# Measures, with f(x) the true count of x, N the rows, f_K the K-th largest
# true count and T_K = {x : f(x) >= f_K} (the true top K; exactly K values
# when the top K is well defined, f_K > f_(K+1), else the boundary's ties
# all count as hits), and L_K the first K values a result lists (topk: in
# topk_items' order; topn: by frequency descending, ties by value):
#   recall@K = |L_K & T_K| / K, precision@K = |L_K & T_K| / |L_K|;
#   max err/N = max over listed x of |estimate(x) - f(x)| / N, the estimate
#   being topk's count (its lower bound) and topn's frequency;
#   topk's bound width/N = max over listed x of (upper_bound - lower_bound)/N;
#   violations = listed x with f(x) outside [lower_bound, upper_bound];
#   bytes = pg_column_size of the result as the aggregate returns it
#   (uncompressed), stored = pg_column_size of the result read back from a
#   table of its own (id int, summary), where PostgreSQL compresses a row over
#   ~2 KB.
# Prints the Markdown tables and summary lines (bench/README.md).
CALLER_PG_BIN=${PG_BIN:-}
source "$(dirname "$0")/../scripts/lib.sh" # bs_log, BS_ROOT, PG_BIN default
if [ -n "$CALLER_PG_BIN" ]; then
	PG_BIN=$CALLER_PG_BIN
elif [ -n "${PG_CONFIG:-}" ]; then
	PG_BIN=$("$PG_CONFIG" --bindir)
fi
PG_CONFIG=${PG_CONFIG:-$PG_BIN/pg_config}
PSQL=${PSQL:-$PG_BIN/psql}
ROWS=${ROWS:-1000000}
SHUFFLES=${SHUFFLES:-6}
TOPN_TARBALL=${TOPN_TARBALL:-$(cd "$(dirname "$0")/.." && pwd)/../shared/deps/topn-2.7.0.tar.gz}
TOPN_BUILD=${TOPN_BUILD:-1}
LICENSES=/usr/share/common-licenses
LICENSE_FILES=(Apache-2.0 Artistic CC0-1.0 GFDL-1.2 GFDL-1.3 GPL-1 GPL-2 GPL-3 LGPL-2 LGPL-2.1 LGPL-3 MPL-1.1 MPL-2.0)
DB=bloomsketch_topk_accuracy
WORK=$(mktemp -d /tmp/bloomsketch-topk-accuracy.XXXXXX)

psql_db() { "$PSQL" -X -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
# Every session: no parallel plans, seq scans from the table's first block,
# so that an aggregate sees the rows in the order they were written.
SESSION="SET client_min_messages = warning; SET max_parallel_workers_per_gather = 0;
	SET synchronize_seqscans = off; SET jit = off; SET work_mem = '256MB';"

"$PSQL" -X -q -v ON_ERROR_STOP=1 -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" \
	-c "CREATE DATABASE $DB TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
if [ "${KEEP_DB:-0}" = 1 ]; then # to inspect study_* tables afterwards
	trap 'rm -rf "$WORK"' EXIT
else
	trap '"$PSQL" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
fi
psql_db -c "CREATE EXTENSION bloomsketch"

# ---------------------------------------------------------------------------
# topn: build it into PG_BIN's PostgreSQL and load it, or say why not.
# ---------------------------------------------------------------------------
TOPN=0
TOPN_NOTE=
build_topn() {
	if [ ! -r "$TOPN_TARBALL" ]; then
		TOPN_NOTE="no topn source at $TOPN_TARBALL"
		return 1
	fi
	tar -xzf "$TOPN_TARBALL" -C "$WORK" || { TOPN_NOTE="cannot unpack $TOPN_TARBALL"; return 1; }
	if ! { make -C "$WORK/topn" PG_CONFIG="$PG_CONFIG" && make -C "$WORK/topn" PG_CONFIG="$PG_CONFIG" install; } \
		>"$WORK/topn_build.log" 2>&1; then
		tail -20 "$WORK/topn_build.log" >&2
		TOPN_NOTE="topn did not build or install with $PG_CONFIG (log above)"
		return 1
	fi
	bs_log "built and installed topn from $TOPN_TARBALL with $PG_CONFIG"
}
if [ "$TOPN_BUILD" = 0 ] || build_topn; then
	if psql_db -c "CREATE EXTENSION topn" 2>"$WORK/topn_load.log"; then
		TOPN=1
		TOPN_NOTE="topn $(psql_db -At -c "SELECT extversion FROM pg_extension WHERE extname = 'topn'")"
	else
		cat "$WORK/topn_load.log" >&2
		TOPN_NOTE="topn built but CREATE EXTENSION topn failed (is the server PG_BIN's PostgreSQL?)"
	fi
fi
if [ "$TOPN" = 1 ]; then
	bs_log "comparing with $TOPN_NOTE"
else
	bs_log "TOPN NOT AVAILABLE: $TOPN_NOTE; measuring topk alone"
fi

# ---------------------------------------------------------------------------
# Tables of results and the functions that fill them.
# ---------------------------------------------------------------------------
psql_db <<'SQL'
-- a uniform number in [0, 1) from md5 of a tag and a row number
CREATE FUNCTION study_uniform(tag text, id bigint) RETURNS float8 LANGUAGE sql IMMUTABLE AS
$$ SELECT ('x' || substr(md5(tag || ':' || id), 1, 13))::bit(52)::bigint / 4503599627370496.0::float8 $$;
CREATE TABLE study_truth (ds text, v text, f bigint, vpart int, PRIMARY KEY (ds, v));
CREATE TABLE study_results (id serial, ds text, ord text, build text, k int, tk topksketch, tn jsonb);
CREATE TABLE study_items (ds text, ord text, build text, k int, side text, rank bigint, item text,
	est bigint, lo bigint, hi bigint);
CREATE TABLE study_meta (ds text, ord text, build text, k int, side text, listed bigint, bytes int, stored int);
-- the result of a balanced tree of pairwise merges of the parts, in order,
-- by the function named merge (topk_merge, the function of topk's +, or
-- topn_union)
CREATE FUNCTION study_tree(parts anyarray, merge text) RETURNS anyelement LANGUAGE plpgsql AS $$
DECLARE
	next parts%TYPE;
BEGIN
	WHILE cardinality(parts) > 1 LOOP
		next := parts[1:0];
		FOR i IN 1 .. cardinality(parts) BY 2 LOOP
			IF i < cardinality(parts) THEN
				EXECUTE format('SELECT array_append($1, %I($2, $3))', merge) INTO next USING next, parts[i], parts[i + 1];
			ELSE
				next := array_append(next, parts[i]);
			END IF;
		END LOOP;
		parts := next;
	END LOOP;
	RETURN parts[1];
END $$;
SQL

# ---------------------------------------------------------------------------
# Data: each generator fills study_src(id, v) (id: the row's place in the
# data set's own order).
# ---------------------------------------------------------------------------
zipf_sql() { # TAG EXPONENT
	cat <<-SQL
		CREATE TEMP TABLE cdf AS
			SELECT i, sum(i::float8 ^ (-$2::float8)) OVER (ORDER BY i) AS c FROM generate_series(1, 100000) i;
		UPDATE cdf SET c = c / (SELECT max(c) FROM cdf);
		CREATE INDEX ON cdf (c);
		ANALYZE cdf;
		CREATE TABLE study_src AS
			SELECT id, coalesce((SELECT i FROM cdf WHERE c >= u ORDER BY c LIMIT 1), 100000)::text AS v
			FROM (SELECT id, study_uniform('$1', id) AS u FROM generate_series(1, $ROWS) id) s;
	SQL
}
flat_sql() {
	cat <<-SQL
		CREATE TABLE study_src AS
			SELECT id, (floor(study_uniform('flat', id) * 100000) + 1)::int::text AS v
			FROM generate_series(1, $ROWS - $ROWS / 500 * 55) id;
		INSERT INTO study_src
			SELECT $ROWS - $ROWS / 500 * 55 + row_number() OVER (ORDER BY j, r), (j * 9973)::text
			FROM generate_series(1, 10) j, generate_series(1, $ROWS / 500 * j) r;
	SQL
}
words_sql() {
	local f
	for f in "${LICENSE_FILES[@]}"; do
		[ -f "$LICENSES/$f" ] || { echo "missing $LICENSES/$f (Debian's base-files has it)" >&2; exit 1; }
	done
	(cd "$LICENSES" && cat "${LICENSE_FILES[@]}") | LC_ALL=C tr 'A-Z' 'a-z' | LC_ALL=C grep -oE '[a-z]+' \
		>"$WORK/words.txt"
	cat <<-SQL
		CREATE TABLE study_src (id bigserial, v text);
		\\copy study_src (v) FROM '$WORK/words.txt'
	SQL
}

# order_sql DATASET ORDER: study_rows(pos, v, hpart, rpart, vpart), written
# in ORDER, with the part of each split.
order_sql() {
	local key
	case $2 in
		random) key="md5('$1:shuffle:' || s.id)" ;;
		shuffle\ *) key="md5('$1:shuffle${2#shuffle }:' || s.id)" ;;
		rare) key="t.f, s.v, s.id" ;;
		heavy) key="t.f DESC, s.v, s.id" ;;
		file) key="s.id" ;;
	esac
	cat <<-SQL
		DROP TABLE IF EXISTS study_rows;
		CREATE TABLE study_rows AS
			SELECT pos, v, ((pos * 2654435761) % 4294967296) / 268435456 AS hpart,
				(pos - 1) * 16 / (SELECT count(*) FROM study_src) AS rpart, vpart
			FROM (SELECT row_number() OVER (ORDER BY $key) AS pos, s.v, t.vpart
				FROM study_src s JOIN study_truth t ON t.ds = '$1' AND t.v = s.v) o
			ORDER BY pos;
		VACUUM ANALYZE study_rows;
	SQL
}

# builds_sql DATASET ORDER [ORDERS]: every build of the data set in that
# order, into study_results; the merges in 10 more orders unless ORDERS is 0.
builds_sql() {
	local ds=$1 ord=$2 orders=${3:-1} tn_agg="NULL::jsonb" tn_fold="NULL::jsonb" tn_tree="NULL::jsonb" k
	if [ "$TOPN" = 1 ]; then
		tn_agg="topn_add_agg(v)" tn_fold="topn_union_agg(tn ORDER BY part)"
		tn_tree="study_tree(array_agg(tn ORDER BY part), 'topn_union')"
	fi
	for k in 100 192; do
		[ "$TOPN" = 1 ] && echo "SET topn.number_of_counters = $k;"
		echo "INSERT INTO study_results (ds, ord, build, k, tk, tn)
			SELECT '$ds', '$ord', 'serial', $k, topk_agg(v, $k), $tn_agg FROM study_rows;"
	done
	[ "$TOPN" = 1 ] && echo "SET topn.number_of_counters = 100;"
	# HashAggregate keeps each part's rows in scan order (a sort might not)
	cat <<-SQL
		SET enable_sort = off;
		CREATE TEMP TABLE parts AS
			SELECT 'hash' AS split, hpart AS part, topk_agg(v, 100) AS tk, $tn_agg AS tn FROM study_rows GROUP BY hpart
			UNION ALL
			SELECT 'range', rpart, topk_agg(v, 100), $tn_agg FROM study_rows GROUP BY rpart
			UNION ALL
			SELECT 'value', vpart, topk_agg(v, 100), $tn_agg FROM study_rows GROUP BY vpart;
		RESET enable_sort;
		INSERT INTO study_results (ds, ord, build, k, tk, tn)
			SELECT '$ds', '$ord', split || ', merge_agg', 100, topk_merge_agg(tk ORDER BY part), $tn_fold
			FROM parts GROUP BY split
			UNION ALL
			SELECT '$ds', '$ord', split || ', tree', 100, study_tree(array_agg(tk ORDER BY part), 'topk_merge'), $tn_tree
			FROM parts GROUP BY split;
	SQL
	[ "$orders" = 1 ] && cat <<-SQL
		INSERT INTO study_results (ds, ord, build, k, tk)
			SELECT '$ds', '$ord', split || ', order ' || r, 100, topk_merge_agg(tk ORDER BY md5(r || ':' || part))
			FROM parts, generate_series(1, 10) r GROUP BY split, r
			UNION ALL
			SELECT '$ds', '$ord', split || ', tree in order ' || r, 100,
				study_tree(array_agg(tk ORDER BY md5(r || ':' || part)), 'topk_merge')
			FROM parts, generate_series(1, 10) r GROUP BY split, r;
	SQL
	echo "DROP TABLE parts;"
}

# record_sql DATASET ORDER: the listed items and sizes of the data set's
# results in that order.
record_sql() {
	cat <<-SQL
		-- new values of the same bytes (the casts and || build them afresh,
		-- uncompressed), so that what study_results compressed stays out
		CREATE TEMP TABLE stored_topk AS
			SELECT id, tk::bytea::topksketch AS tk FROM study_results WHERE ds = '$1' AND ord = '$2';
		CREATE TEMP TABLE stored_topn AS
			SELECT id, tn || '{}' AS tn FROM study_results WHERE ds = '$1' AND ord = '$2';
		INSERT INTO study_meta
			SELECT ds, ord, build, k, 'topk', (SELECT count(*) FROM topk_items(r.tk)), pg_column_size(r.tk::bytea::topksketch),
				pg_column_size(s.tk)
			FROM study_results r JOIN stored_topk s USING (id)
			UNION ALL
			SELECT ds, ord, build, k, 'topn', (SELECT count(*) FROM jsonb_object_keys(r.tn)), pg_column_size(r.tn || '{}'),
				pg_column_size(s.tn)
			FROM study_results r JOIN stored_topn s USING (id) WHERE r.tn IS NOT NULL;
		DROP TABLE stored_topk, stored_topn;
		INSERT INTO study_items
			-- columns by name, so that a build with more columns reads the same
			SELECT ds, ord, build, k, 'topk', i.ordinality, i.value, i.count, i.lower_bound, i.upper_bound
			FROM study_results, topk_items(tk) WITH ORDINALITY AS i
			WHERE ds = '$1' AND ord = '$2'
			UNION ALL
			SELECT ds, ord, build, k, 'topn',
				row_number() OVER (PARTITION BY build, k ORDER BY e.value::bigint DESC, e.key), e.key, e.value::bigint,
				NULL, NULL
			FROM study_results, jsonb_each_text(tn) e
			WHERE ds = '$1' AND ord = '$2' AND tn IS NOT NULL;
	SQL
}

DATASETS=(zipf1.1 zipf1.5 flat words)
for ds in "${DATASETS[@]}"; do
	bs_log "$ds: generating"
	{
		echo "$SESSION"
		echo "DROP TABLE IF EXISTS study_src;"
		case $ds in
			zipf1.1) zipf_sql "$ds" 1.1 ;;
			zipf1.5) zipf_sql "$ds" 1.5 ;;
			flat) flat_sql ;;
			words) words_sql ;;
		esac
		cat <<-SQL
			INSERT INTO study_truth
				SELECT '$ds', v, count(*), ('x' || substr(md5(v), 1, 8))::bit(32)::int & 15 FROM study_src GROUP BY v;
		SQL
	} | psql_db
	orders=(random rare heavy)
	[ "$ds" = words ] && orders+=(file)
	for ord in "${orders[@]}"; do
		bs_log "$ds, $ord order: building"
		{
			echo "$SESSION"
			order_sql "$ds" "$ord"
			builds_sql "$ds" "$ord"
			record_sql "$ds" "$ord"
		} | psql_db
	done
	for shuffle in $(seq 1 "$SHUFFLES"); do
		bs_log "$ds, shuffle $shuffle: building"
		{
			echo "$SESSION"
			order_sql "$ds" "shuffle $shuffle"
			builds_sql "$ds" "shuffle $shuffle" 0
			record_sql "$ds" "shuffle $shuffle"
		} | psql_db
	done
done
psql_db -c "DROP TABLE study_rows, study_src"
bs_log "data and builds done in $SECONDS s"

# ---------------------------------------------------------------------------
# Scores and the tables.
# ---------------------------------------------------------------------------
psql_db <<'SQL'
CREATE TABLE study_ranks AS
	SELECT ds, sum(f) AS n,
		max(f) FILTER (WHERE r = 10) AS f10, max(f) FILTER (WHERE r = 11) AS f11,
		max(f) FILTER (WHERE r = 100) AS f100, max(f) FILTER (WHERE r = 101) AS f101
	FROM (SELECT ds, f, row_number() OVER (PARTITION BY ds ORDER BY f DESC) AS r FROM study_truth) t
	GROUP BY ds;
CREATE TABLE study_scores AS
	SELECT m.ds, m.ord, m.build, m.k, m.side, m.listed, m.bytes, m.stored,
		q.f10 > q.f11 AS def10, q.f100 > q.f101 AS def100,
		count(i.item) FILTER (WHERE i.rank <= 10 AND t.f >= q.f10) / 10.0 AS r10,
		count(i.item) FILTER (WHERE i.rank <= 10 AND t.f >= q.f10) / nullif(least(m.listed, 10), 0)::numeric AS p10,
		count(i.item) FILTER (WHERE i.rank <= 100 AND t.f >= q.f100) / 100.0 AS r100,
		count(i.item) FILTER (WHERE i.rank <= 100 AND t.f >= q.f100) / nullif(least(m.listed, 100), 0)::numeric AS p100,
		max(abs(i.est - coalesce(t.f, 0)))::float8 / q.n AS maxerr,
		max(i.hi - i.lo)::float8 / q.n AS width,
		count(i.item) FILTER (WHERE NOT (i.lo <= coalesce(t.f, 0) AND coalesce(t.f, 0) <= i.hi)) AS violations
	FROM study_meta m
	JOIN study_ranks q USING (ds)
	LEFT JOIN study_items i USING (ds, ord, build, k, side)
	LEFT JOIN study_truth t ON t.ds = i.ds AND t.v = i.item
	GROUP BY m.ds, m.ord, m.build, m.k, m.side, m.listed, m.bytes, m.stored, q.n, q.f10, q.f11, q.f100, q.f101;
SQL

echo
echo "Rows per data set: $(psql_db -At -c "SELECT string_agg(format('%s N = %s, %s distinct, f(10..11) = %s..%s, '
	'f(100..101) = %s..%s', ds, n, (SELECT count(*) FROM study_truth t WHERE t.ds = q.ds), f10, f11, f100, f101), '; '
	ORDER BY ds) FROM study_ranks q")."
[ "$TOPN" = 1 ] || TOPN_NOTE="topn NOT MEASURED ($TOPN_NOTE)"
echo "Comparison: $TOPN_NOTE. Cells are topk / topn; * marks a recall or precision of a top K that is not" \
	"well defined (f(K) = f(K+1))."
echo
psql_db -At <<'SQL'
CREATE FUNCTION study_cell(a numeric, b numeric, digits int, defined boolean) RETURNS text LANGUAGE sql AS $$
	SELECT coalesce(round(a, digits)::text, '–') || ' / ' || coalesce(round(b, digits)::text, '–')
		|| CASE WHEN defined THEN '' ELSE '*' END $$;
SELECT '| data | order | build | K | items | recall@10 | precision@10 | recall@100 | precision@100 | max err/N | bytes '
	'| stored | topk bound width/N | topk violations |';
SELECT '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |', a.ds, a.ord, a.build, a.k,
		study_cell(a.listed, b.listed, 0, true), study_cell(a.r10, b.r10, 2, a.def10),
		study_cell(a.p10, b.p10, 2, a.def10), study_cell(a.r100, b.r100, 2, a.def100),
		study_cell(a.p100, b.p100, 2, a.def100), study_cell(a.maxerr::numeric, b.maxerr::numeric, 5, true),
		study_cell(a.bytes, b.bytes, 0, true), study_cell(a.stored, b.stored, 0, true), round(a.width::numeric, 5),
		a.violations)
FROM study_scores a
LEFT JOIN study_scores b ON b.side = 'topn' AND (b.ds, b.ord, b.build, b.k) = (a.ds, a.ord, a.build, a.k)
WHERE a.side = 'topk' AND a.build NOT LIKE '%order%' AND a.ord NOT LIKE 'shuffle%'
ORDER BY a.ds, a.ord, a.k, a.build = 'serial' DESC, a.build;
SQL
echo
psql_db -At <<'SQL'
SELECT format('Summary at K = %s, averages over %s rows (topk / topn): items %s, recall@10 %s, precision@10 %s, '
		'recall@100 %s, precision@100 %s, max err/N %s, bytes %s, stored %s; topk bound width/N %s; '
		'topk violations %s in all. '
		'Rows where topk''s recall is at least topn''s - 0.02 (of those whose top K is well defined): '
		'top 10 %s of %s, top 100 %s of %s.',
		a.k, count(*), study_cell(avg(a.listed), avg(b.listed), 1, true), study_cell(avg(a.r10), avg(b.r10), 3, true),
		study_cell(avg(a.p10), avg(b.p10), 3, true), study_cell(avg(a.r100), avg(b.r100), 3, true),
		study_cell(avg(a.p100), avg(b.p100), 3, true),
		study_cell(avg(a.maxerr)::numeric, avg(b.maxerr)::numeric, 5, true),
		study_cell(avg(a.bytes), avg(b.bytes), 0, true), study_cell(avg(a.stored), avg(b.stored), 0, true),
		round(avg(a.width)::numeric, 5), sum(a.violations),
		count(*) FILTER (WHERE a.def10 AND a.r10 >= b.r10 - 0.02), count(*) FILTER (WHERE a.def10),
		count(*) FILTER (WHERE a.def100 AND a.r100 >= b.r100 - 0.02), count(*) FILTER (WHERE a.def100))
FROM study_scores a
LEFT JOIN study_scores b ON b.side = 'topn' AND (b.ds, b.ord, b.build, b.k) = (a.ds, a.ord, a.build, a.k)
WHERE a.side = 'topk' AND a.build NOT LIKE '%order%' AND a.ord NOT LIKE 'shuffle%'
GROUP BY a.k ORDER BY a.k;
SELECT format('All topk results, the 10 merge orders included: %s listed values checked against their bounds, '
		'%s violations.',
	sum(listed), sum(violations)) FROM study_scores WHERE side = 'topk';
SQL
echo
echo "topk_merge_agg's recall@100 over 10 more orders of the 16 parts, against the balanced tree of + in part"
echo "order and in the same 10 orders (K = 100):"
echo
psql_db -At <<'SQL'
CREATE TABLE study_spread AS
	SELECT t.ds, t.ord, split_part(t.build, ',', 1) AS split, t.def100, t.r100 AS tree,
		(SELECT r100 FROM study_scores f WHERE (f.ds, f.ord, f.side) = (t.ds, t.ord, 'topk')
			AND f.build = split_part(t.build, ',', 1) || ', merge_agg') AS fold,
		min(o.r100) AS lo, percentile_disc(0.5) WITHIN GROUP (ORDER BY o.r100) AS median, max(o.r100) AS hi,
		max(abs(o.r100 - t.r100)) AS dev,
		min(ot.r100) AS tree_lo, percentile_disc(0.5) WITHIN GROUP (ORDER BY ot.r100) AS tree_median,
		max(ot.r100) AS tree_hi, max(abs(o.r100 - ot.r100)) AS pair_dev, avg(o.r100) AS mean,
		avg(ot.r100) AS tree_mean
	FROM study_scores t
	JOIN study_scores o ON (o.ds, o.ord, o.side) = (t.ds, t.ord, 'topk')
		AND o.build LIKE split_part(t.build, ',', 1) || ', order %'
	JOIN study_scores ot ON (ot.ds, ot.ord, ot.side) = (t.ds, t.ord, 'topk')
		AND ot.build = split_part(t.build, ',', 1) || ', tree in order ' || split_part(o.build, ', order ', 2)
	WHERE t.side = 'topk' AND t.build LIKE '%, tree'
	GROUP BY t.ds, t.ord, t.build, t.def100, t.r100;
SELECT '| data | order | split | tree of +, part order | merge_agg, part order | merge_agg, 10 orders: min | median '
	'| max | largest \|order - tree, part order\| | tree of +, 10 orders: min | median | max '
	'| largest \|merge_agg - tree\|, same order |';
SELECT '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
SELECT format('| %s | %s | %s | %s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |', ds, ord, split, round(tree, 2),
		CASE WHEN def100 THEN '' ELSE '*' END, round(fold, 2), round(lo, 2), round(median, 2), round(hi, 2), round(dev, 2),
		round(tree_lo, 2), round(tree_median, 2), round(tree_hi, 2), round(pair_dev, 2))
FROM study_spread ORDER BY ds, ord, split;
SELECT '';
SELECT format('Summary: over %s data set × order × split rows, the 10 orders'' recall@100 was within 0.02 of the tree''s '
		'in part order in %s rows (largest difference %s, average %s), and within 0.02 of the tree''s in the same '
		'order in %s rows (largest difference %s, average %s); the medians over the 10 orders were within 0.02 in %s '
		'rows, and merge_agg''s median was at least the tree''s - 0.02 in %s. Spread over the 10 orders '
		'(max - min): merge_agg %s on average and %s at most, the tree %s and %s. Average recall@100: tree in part '
		'order %s, merge_agg in part order %s, over the 10 orders tree %s, merge_agg %s. Of the %s rows whose top 100 '
		'is well defined, the 10 orders were within 0.02 of the tree''s in part order in %s and at least it - 0.02 '
		'in %s; merge_agg''s median was within 0.02 of the tree''s median in the same orders in %s.',
		count(*), count(*) FILTER (WHERE dev <= 0.02), round(max(dev), 2), round(avg(dev), 3),
		count(*) FILTER (WHERE pair_dev <= 0.02), round(max(pair_dev), 2), round(avg(pair_dev), 3),
		count(*) FILTER (WHERE abs(median - tree_median) <= 0.02), count(*) FILTER (WHERE median >= tree_median - 0.02),
		round(avg(hi - lo), 3), round(max(hi - lo), 2), round(avg(tree_hi - tree_lo), 3), round(max(tree_hi - tree_lo), 2),
		round(avg(tree), 3), round(avg(fold), 3), round(avg(tree_mean), 3), round(avg(mean), 3),
		count(*) FILTER (WHERE def100), count(*) FILTER (WHERE def100 AND dev <= 0.02),
		count(*) FILTER (WHERE def100 AND lo >= tree - 0.02),
		count(*) FILTER (WHERE def100 AND abs(median - tree_median) <= 0.02))
FROM study_spread;
SQL
echo
echo "Random order, over $((SHUFFLES + 1)) shuffles: the random order above and $SHUFFLES more (md5 of another tag"
echo "each), every build (cells topk / topn: the mean over the shuffles; recall@100's range; in how many shuffles"
echo "topk's recall@100 was at least topn's - 0.02):"
echo
psql_db -At <<'SQL'
CREATE TABLE study_shuffled AS
	SELECT a.ds, a.build, a.k, a.def10, a.def100, count(*) AS shuffles,
		avg(a.r10) AS r10, avg(b.r10) AS n10, avg(a.r100) AS r100, avg(b.r100) AS n100,
		min(a.r100) AS r100_lo, max(a.r100) AS r100_hi, min(b.r100) AS n100_lo, max(b.r100) AS n100_hi,
		avg(a.maxerr) AS maxerr, avg(b.maxerr) AS n_maxerr, sum(a.violations) AS violations,
		count(*) FILTER (WHERE a.r100 >= b.r100 - 0.02) AS close100,
		count(*) FILTER (WHERE b.r100 >= a.r100 - 0.02) AS close100_topn
	FROM study_scores a
	LEFT JOIN study_scores b ON b.side = 'topn' AND (b.ds, b.ord, b.build, b.k) = (a.ds, a.ord, a.build, a.k)
	WHERE a.side = 'topk' AND (a.ord = 'random' OR a.ord LIKE 'shuffle%') AND a.build NOT LIKE '%order%'
	GROUP BY a.ds, a.build, a.k, a.def10, a.def100;
SELECT '| data | build | K | shuffles | recall@10 | recall@100 | recall@100 range | max err/N | topk violations '
	'| shuffles with topk >= topn - 0.02 |';
SELECT '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|';
SELECT format('| %s | %s | %s | %s | %s | %s | %s–%s / %s–%s | %s | %s | %s of %s |', ds, build, k, shuffles,
		study_cell(r10, n10, 3, def10), study_cell(r100, n100, 3, def100), round(r100_lo, 2), round(r100_hi, 2),
		round(n100_lo, 2), round(n100_hi, 2), study_cell(maxerr::numeric, n_maxerr::numeric, 5, true), violations,
		close100, shuffles)
FROM study_shuffled ORDER BY ds, k, build = 'serial' DESC, build;
SELECT '';
SELECT format('Summary: over %s random-order rows, mean recall@10 %s, recall@100 %s, max err/N %s (topk / topn). '
		'Rows where topk''s mean recall is at least topn''s mean - 0.02 (of those whose top K is well defined): '
		'top 10 %s of %s, top 100 %s of %s. Single shuffles: topk''s recall@100 at least topn''s - 0.02 in %s of '
		'%s, and topn''s at least topk''s - 0.02 in %s.',
		count(*), study_cell(avg(r10), avg(n10), 3, true), study_cell(avg(r100), avg(n100), 3, true),
		study_cell(avg(maxerr)::numeric, avg(n_maxerr)::numeric, 5, true),
		count(*) FILTER (WHERE def10 AND r10 >= n10 - 0.02), count(*) FILTER (WHERE def10),
		count(*) FILTER (WHERE def100 AND r100 >= n100 - 0.02), count(*) FILTER (WHERE def100),
		sum(close100) FILTER (WHERE def100), sum(shuffles) FILTER (WHERE def100),
		sum(close100_topn) FILTER (WHERE def100))
FROM study_shuffled;
-- every K = 100 row of the first table, the random order's by its means over the shuffles
CREATE TABLE study_judged AS
	SELECT a.ds, a.ord, a.build, a.def10, a.def100, a.r10, b.r10 AS n10, a.r100, b.r100 AS n100, a.maxerr,
		b.maxerr AS n_maxerr
	FROM study_scores a
	LEFT JOIN study_scores b ON b.side = 'topn' AND (b.ds, b.ord, b.build, b.k) = (a.ds, a.ord, a.build, a.k)
	WHERE a.side = 'topk' AND a.k = 100 AND a.build NOT LIKE '%order%' AND a.ord NOT IN ('random')
		AND a.ord NOT LIKE 'shuffle%'
	UNION ALL
	SELECT ds, 'random', build, def10, def100, r10, n10, r100, n100, maxerr, n_maxerr
	FROM study_shuffled WHERE k = 100;
SELECT format('At K = 100, the random order by its means over the shuffles and the other orders as in the first '
		'table, %s rows (topk / topn): recall@10 %s, recall@100 %s, max err/N %s. Rows where topk''s recall is at '
		'least topn''s - 0.02 (of those whose top K is well defined): top 10 %s of %s, top 100 %s of %s.',
		count(*), study_cell(avg(r10), avg(n10), 3, true), study_cell(avg(r100), avg(n100), 3, true),
		study_cell(avg(maxerr)::numeric, avg(n_maxerr)::numeric, 5, true),
		count(*) FILTER (WHERE def10 AND r10 >= n10 - 0.02), count(*) FILTER (WHERE def10),
		count(*) FILTER (WHERE def100 AND r100 >= n100 - 0.02), count(*) FILTER (WHERE def100))
FROM study_judged;
SQL
