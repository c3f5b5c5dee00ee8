#!/usr/bin/env bash
# bench/batch.sh — per-value cost of the element-wise functions (many values
# in one call) against the per-row functions and the core's batch loops.
#
#   PGHOST=... PGPORT=... PGUSER=... bash bench/batch.sh
#
# Runs against the server PGHOST/PGPORT/PGUSER name (a superuser; the
# bloomsketch extension installed there), in a scratch database it creates
# and drops.  Loads 10^6 bigint keys 1..10^6 as a table and as one stored
# array, two filters of 12 MB (capacity 10^7 at 1%, ids 500,001 ..
# 10,500,000 added, so half the keys are members), one `double` and one
# `blocked`, and two count-min sketches of the keys modulo 10^5: one of
# cms_agg's default size (304 kB, which the caches hold) and one of 12 MB
# (epsilon 4e-5, the filters' size).  Then times, per value:
#   P  the per-row function over the table of keys (`count(*) WHERE f @> id`,
#      `sum(cms_estimate(s, id))`); for adds the per-row aggregate
#      (bloom_agg, cms_agg), which pipelines its adds already;
#   J  the semi-join pattern of docs/reference.md over the same table end to
#      end (keys in arrays per block of 10,000 ids, bloom_members, or
#      cms_estimate_each and unnest);
#   A  the element-wise function on values preloaded into PL/pgSQL
#      variables (the filter or sketch detoasted, the array held as
#      PL/pgSQL holds arrays): the call alone, reading the array and
#      building the result included (for adds, the copy of the filter or
#      sketch it returns), clock_timestamp() around each call, whose result
#      is only tested for NULL;
#   S  the same function on the array and the filter as stored, read from
#      their tables by the query (detoasting 8 MB of array and the 12 MB
#      filter included);
# All in interleaved rounds (bench_rounds of bench/lib.sh: one warm-up, RUNS
# measured; each round a fresh session): P, J and S as EXPLAIN ANALYZE's
# execution time, then A as three timed calls of each after a warm-up call;
# medians over the rounds.  bench/batch_floor runs the core's loops
# (bs_bloom_test_batch, bs_bloom_test_keys, bs_bloom_add_batch,
# bs_cms_estimate_keys, bs_cms_add_keys) on the same keys and the same
# filter and sketch bytes, once before the rounds and twice after: the
# fastest of the three is the floor (for filters bs_bloom_test_batch and
# bs_bloom_add_batch, the loops the functions use for bigint elements).  Prints a Markdown table of ns per
# value and the ratios against the targets of issue 40: A at least 4 times
# cheaper than P, and within 2 times of the core's loop.  The exit status
# says whether the benchmark ran, not whether the targets were met.  RUNS
# (default 5) and KEYS (default 1000000) may be set.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../scripts/lib.sh"
source "$here/lib.sh"

RUNS=${RUNS:-5}
KEYS=${KEYS:-1000000}
DB=bs_batch_bench_$$
# the epsilon of a 12 MB sketch at delta 0.001 (11 rows of 135,929 counters)
LARGE_EPSILON=0.00004
WORK=$(mktemp -d /tmp/bloomsketch-batch.XXXXXX)
cleanup() {
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
sql() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB"; }

make -s -C "$here" batch_floor >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $DB"
bs_log "loading $KEYS keys, two 12 MB filters and a sketch"
sql >/dev/null <<SQL
CREATE EXTENSION bloomsketch;
CREATE EXTENSION IF NOT EXISTS pg_prewarm;
CREATE TABLE keys AS SELECT i AS id FROM generate_series(1::bigint, $KEYS) i;
CREATE TABLE arrays AS SELECT array_agg(id ORDER BY id) AS a FROM keys;
CREATE TABLE filters AS
	SELECT s AS scheme, (SELECT bloom_agg(i, 10000000, 0.01, s)
		FROM generate_series($KEYS / 2 + 1, $KEYS / 2 + 10000000) i) AS f
	FROM unnest(ARRAY['double', 'blocked']) s;
CREATE TABLE sketches AS
	SELECT 'default' AS size, cms_agg(i % ($KEYS / 10)) AS s FROM generate_series(1::bigint, $KEYS) i
	UNION ALL
	SELECT 'large', cms_agg(i % ($KEYS / 10), $LARGE_EPSILON, 0.001) FROM generate_series(1::bigint, $KEYS) i;
VACUUM (FREEZE, ANALYZE) keys, arrays, filters, sketches;
SELECT count(*) > 0 AS prewarmed FROM (SELECT pg_prewarm(c) FROM (VALUES ('keys'::regclass), ('arrays'), ('filters'),
	('sketches'), ((SELECT reltoastrelid FROM pg_class WHERE oid = 'arrays'::regclass)),
	((SELECT reltoastrelid FROM pg_class WHERE oid = 'filters'::regclass)),
	((SELECT reltoastrelid FROM pg_class WHERE oid = 'sketches'::regclass))) v(c)) p;
SQL
for scheme in double blocked; do
	psql -X -At -d "$DB" -c "SELECT f FROM filters WHERE scheme = '$scheme'" >"$WORK/$scheme.txt"
done
for size in default large; do
	psql -X -At -d "$DB" -c "SELECT s FROM sketches WHERE size = '$size'" >"$WORK/sketch_$size.txt"
done
sizes=$(psql -X -At -d "$DB" -c "SELECT string_agg(label || ' ' || round(bytes / 1e6, 2) || ' MB', ', ')
	FROM (SELECT scheme AS label, octet_length(f::bytea) AS bytes FROM filters
		UNION ALL SELECT 'sketch ' || size, octet_length(s::bytea) FROM sketches) v")
bs_log "filters: $sizes"

declare -A FLOOR
# the core's loops (the fastest of three runs is the floor: the strictest
# for A / floor)
floor_run() {
	bs_log "the core's loops (bench/batch_floor), run $1 of 3"
	"$here/batch_floor" "$KEYS" "$WORK/double.txt" "$WORK/blocked.txt" -c "$WORK/sketch_default.txt" >"$WORK/floor$1.txt"
	"$here/batch_floor" "$KEYS" -c "$WORK/sketch_large.txt" | sed 's/^floor cms_/floor cms_large_/' >>"$WORK/floor$1.txt"
}
floor_medians() {
	local name
	for name in $(awk '$1 == "floor" { print $2 }' "$WORK/floor1.txt"); do
		FLOOR[$name]=$(awk -v n="$name" '$1 == "floor" && $2 == n { print $3 }' "$WORK"/floor[123].txt | sort -g | head -1)
	done
}
floor_run 1

declare -A Q
for scheme in double blocked; do
	f="(SELECT f FROM filters WHERE scheme = '$scheme')"
	Q[P_$scheme]="SELECT count(*) FROM keys WHERE $f @> id"
	Q[J_$scheme]="SELECT count(*) FROM (SELECT array_agg(id) AS ids FROM keys GROUP BY id / 10000) b, bloom_members($f, b.ids)"
	Q[S_$scheme]="SELECT cardinality(bloom_contains_each($f, a)) FROM arrays"
	Q[AP_$scheme]="SELECT bloom_agg(id, 10000000, 0.01, '$scheme') FROM keys"
	Q[SA_$scheme]="SELECT bloom_add_each(bloom_create(10000000, 0.01, 0, '$scheme'), a) FROM arrays"
done
for size in default large; do
	s="(SELECT s FROM sketches WHERE size = '$size')"
	create="cms_create()" options=""
	[ "$size" = large ] && create="cms_create($LARGE_EPSILON, 0.001)" options=", $LARGE_EPSILON, 0.001"
	Q[P_cms_$size]="SELECT sum(cms_estimate($s, id)) FROM keys"
	Q[J_cms_$size]="SELECT sum(e) FROM (SELECT array_agg(id) AS ids FROM keys GROUP BY id / 10000) b, unnest(cms_estimate_each($s, b.ids)) e"
	Q[S_cms_$size]="SELECT cardinality(cms_estimate_each($s, a)) FROM arrays"
	Q[AP_cms_$size]="SELECT cms_agg(id$options) FROM keys"
	Q[SA_cms_$size]="SELECT cms_add_each($create, a) FROM arrays"
done
LABELS=(P_double J_double S_double P_blocked J_blocked S_blocked P_cms_default J_cms_default S_cms_default
	P_cms_large J_cms_large S_cms_large AP_double SA_double AP_blocked SA_blocked AP_cms_default SA_cms_default
	AP_cms_large SA_cms_large)
# A: each element-wise call on values preloaded into PL/pgSQL variables,
# timed alone after one warm-up call of each; three timed calls per round.
# Each call's result is only tested for NULL: assigning it to a variable
# would time PL/pgSQL's copy of it too.
declare -A CALL=([A_double]="bloom_contains_each(fd, a)" [A_blocked]="bloom_contains_each(fb, a)"
	[A_cms_default]="cms_estimate_each(sd, a)" [A_cms_large]="cms_estimate_each(sl, a)"
	[AA_double]="bloom_add_each(ed, a)" [AA_blocked]="bloom_add_each(eb, a)"
	[AA_cms_default]="cms_add_each(esd, a)" [AA_cms_large]="cms_add_each(esl, a)")
PRELOADED=(A_double A_blocked A_cms_default A_cms_large AA_double AA_blocked AA_cms_default AA_cms_large)
timed_calls=
for label in "${PRELOADED[@]}"; do
	timed_calls+="		started := clock_timestamp(); done := ${CALL[$label]} IS NOT NULL;
		label := '$label'; ms := 1000 * extract(epoch FROM clock_timestamp() - started);
		IF round > 0 THEN RETURN NEXT; END IF;
"
done
sql <<SQL
CREATE FUNCTION preloaded_calls(runs integer) RETURNS TABLE (label text, ms float8)
LANGUAGE plpgsql AS \$\$
DECLARE
	fd bloomfilter := (SELECT f FROM filters WHERE scheme = 'double');
	fb bloomfilter := (SELECT f FROM filters WHERE scheme = 'blocked');
	sd cmsketch := (SELECT s FROM sketches WHERE size = 'default');
	sl cmsketch := (SELECT s FROM sketches WHERE size = 'large');
	ed bloomfilter := bloom_create(10000000, 0.01, 0, 'double');
	eb bloomfilter := bloom_create(10000000, 0.01, 0, 'blocked');
	esd cmsketch := cms_create();
	esl cmsketch := cms_create($LARGE_EPSILON, 0.001);
	a bigint[] := (SELECT a FROM arrays);
	done boolean;
	started timestamptz;
BEGIN
	FOR round IN 0 .. runs LOOP
$timed_calls	END LOOP;
END \$\$;
SQL
declare -A MEDIAN MIN MAX
PREAMBLE="SET max_parallel_workers_per_gather = 0; SET jit = off; SET work_mem = '256MB';"
bench_rounds "$WORK" batch "$RUNS" "$PREAMBLE" Q LABELS MEDIAN MIN MAX \
	"SELECT 'preloaded', label, ms FROM preloaded_calls(3);"
for label in "${PRELOADED[@]}"; do
	for ((round = 1; round <= RUNS; round++)); do
		awk -F'|' -v l="$label" '$1 == "preloaded" && $2 == l { print $3 }' "$WORK/batch_round$round.out"
	done | sort -g >"$WORK/preloaded_$label"
	MEDIAN[$label]=$(sed -n "$(((3 * RUNS + 1) / 2))p" "$WORK/preloaded_$label")
	MIN[$label]=$(head -1 "$WORK/preloaded_$label")
	MAX[$label]=$(tail -1 "$WORK/preloaded_$label")
done
floor_run 2

floor_run 3

floor_medians
grep '^members' "$WORK/floor1.txt" >&2 || true

ns() { awk -v ms="$1" -v n="$KEYS" 'BEGIN { printf "%.1f", ms * 1e6 / n }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v r="$1" -v l="$2" -v op="$3" 'BEGIN { print ((op == ">=" ? r >= l : r <= l) ? "met" : "not met") }'; }

echo "# Many values in one call — $KEYS bigint keys, $(date -u +%F), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
echo "Filters: $sizes. ns per value: medians of $RUNS runs (min-max in brackets)."
echo
echo "| work | per row (P) | semi-join pattern (J) | preloaded values (A) | stored values (S) | core loop (floor) | P/A (target >= 4) | A/floor (target <= 2) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
cell() { echo "$(ns "${MEDIAN[$1]}") [$(ns "${MIN[$1]}")-$(ns "${MAX[$1]}")]"; }
row() {
	local what=$1 p=$2 j=$3 a=$4 s=$5 floor=$6 pa af jcell=-
	pa=$(ratio "${MEDIAN[$p]}" "${MEDIAN[$a]}")
	af=$(ratio "$(ns "${MEDIAN[$a]}")" "$floor")
	[ -n "$j" ] && jcell=$(cell "$j")
	printf '| %s | %s | %s | %s | %s | %s | %s (%s) | %s (%s) |\n' "$what" "$(cell "$p")" "$jcell" \
		"$(cell "$a")" "$(cell "$s")" "$floor" "$pa" "$(verdict "$pa" 4 '>=')" "$af" "$(verdict "$af" 2 '<=')"
}
row "membership, double" P_double J_double A_double S_double "${FLOOR[double_test_batch]}"
row "membership, blocked" P_blocked J_blocked A_blocked S_blocked "${FLOOR[blocked_test_batch]}"
row "cms estimates, 12 MB sketch" P_cms_large J_cms_large A_cms_large S_cms_large "${FLOOR[cms_large_estimate_keys]}"
row "cms estimates, 304 kB sketch" P_cms_default J_cms_default A_cms_default S_cms_default "${FLOOR[cms_estimate_keys]}"
row "adds, double (P: bloom_agg)" AP_double "" AA_double SA_double "${FLOOR[double_add_batch]}"
row "adds, blocked (P: bloom_agg)" AP_blocked "" AA_blocked SA_blocked "${FLOOR[blocked_add_batch]}"
row "cms adds, 12 MB (P: cms_agg)" AP_cms_large "" AA_cms_large SA_cms_large "${FLOOR[cms_large_add_keys]}"
row "cms adds, 304 kB (P: cms_agg)" AP_cms_default "" AA_cms_default SA_cms_default "${FLOOR[cms_add_keys]}"
echo
echo "Core loops on a list of keys (bs_bloom_test_keys, the path of elements that are not integers, dates or timestamps): double ${FLOOR[double_test_keys]} ns, blocked ${FLOOR[blocked_test_keys]} ns per value."
echo
echo "Queries:"
echo
for label in "${LABELS[@]}"; do
	printf -- '- %s: `%s`\n' "$label" "${Q[$label]}"
done
echo "- A_*, AA_*: the same calls as S_* and SA_* on values preloaded into PL/pgSQL variables (see the script)"
