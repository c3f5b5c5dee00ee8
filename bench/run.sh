#!/usr/bin/env bash
# bench/run.sh — server-side benchmark of bloomsketch on 10,000,000 rows.
#
#   bash bench/run.sh        (as root; installs, builds, runs a throwaway server)
#   bash bench/run.sh bloom  (the Bloom filter section only)
#   bash bench/run.sh cms    (the count-min sketch section only, see below)
#   bash bench/run.sh topk   (the heavy-hitters section only, see below)
#   ROWS=200000 bash bench/run.sh topk   (a quick check that it runs, on fewer rows)
#
# Times, on a fully cached 10M-row table, building a Bloom filter with bloom_agg
# against a plain count() of the same column, hll_add_agg as a peer sketch, and
# probing a filter per row (bloom_contains) against the exact semi-join.  Each
# query runs once to warm up, then 5 times; the figure is the median of the
# 5 "Execution Time"s of EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON), which
# excludes planning and sending the result to the client.  Also measures the
# backend's peak anonymous memory while building the filter and the filter's
# measured false-positive rate.  Writes the table to bench/results/server.md.
# The count-min sketch section times cms_agg and cms_estimate the same way and
# writes bench/results/server_cms.md; the heavy-hitters section at the end
# times topk_agg and writes bench/results/server_topk.md.
# BS_PG_BIN may name the PostgreSQL binaries to build against and run.
# The targets are printed as PASS/FAIL for information only: the exit status
# says whether the benchmark ran, not whether the targets were met.
source "$(dirname "$0")/../scripts/lib.sh"
source "$(dirname "$0")/lib.sh"
bs_require_root "$@"

# Which sections to run: all (the default), bloom, cms or topk.
MODE=${1:-all}
case $MODE in
	all | bloom | cms | topk) ;;
	*)
		echo "usage: bench/run.sh [all|bloom|cms|topk]" >&2
		exit 2
		;;
esac
run_bloom() { [ "$MODE" = all ] || [ "$MODE" = bloom ]; }
run_cms() { [ "$MODE" = all ] || [ "$MODE" = cms ]; }
run_topk() { [ "$MODE" = all ] || [ "$MODE" = topk ]; }

ROWS=${ROWS:-10000000}
RUNS=5                   # measured runs per query, after one warm-up run
CAPACITY=10000000
FPR=0.01
RESULTS_DIR=$BS_ROOT/bench/results

bs_install_packages postgresql-$BS_PG_MAJOR-hll
bs_build_install
# Everything is cached in shared_buffers (3GB holds both tables, ~1.1GB); no
# parallelism, no JIT, no I/O timing; work_mem large enough that the exact
# semi-join (G) hashes 10M ids in memory in one batch; no autovacuum,
# checkpoints or WAL traffic to interfere with the timings.
bs_start_server shared_buffers=3GB max_parallel_workers_per_gather=0 jit=off \
	work_mem=1GB track_io_timing=off autovacuum=off wal_level=minimal \
	max_wal_senders=0 max_wal_size=20GB checkpoint_timeout=1h fsync=off \
	synchronous_commit=off full_page_writes=off

WORK=$(mktemp -d /tmp/bloomsketch-bench.XXXXXX)
trap 'bs_stop_server; rm -rf "$WORK"' EXIT

sql() { psql -X -A -t -q -v ON_ERROR_STOP=1 "$@"; }

# write_report NAME TITLE DATA LOAD_START REPORT: the report of one section,
# headed by the date, the machine, the server, the data and the load average,
# written to bench/results/NAME.md and printed.
write_report() {
	{
		echo "# $2"
		echo
		echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
		echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
			"$(awk '/^MemTotal/ { printf "%.0f GB RAM", $2 / 1048576 }' /proc/meminfo)"
		echo "- server: $(sql -c 'SHOW server_version'), shared_buffers=3GB, work_mem=1GB," \
			"max_parallel_workers_per_gather=0, jit=off"
		echo "- data: $3"
		echo "- load average (1, 5, 15 min) before timing: $4; at the end:" \
			"$(cut -d' ' -f1-3 /proc/loadavg) (a load above 1 means other processes shared the CPUs)"
		echo
		$5
	} >"$WORK/$1.md"
	mkdir -p "$RESULTS_DIR"
	cp "$WORK/$1.md" "$RESULTS_DIR/$1.md"
	echo
	cat "$WORK/$1.md"
	echo
	bs_log "written to bench/results/$1.md"
}

# ---------------------------------------------------------------------------
# Data (bench/lib.sh): t(id, s) with ids 1..10M and 32-character s; other(id)
# with ids 5,000,001..15,000,000, so half of t's ids are in other and half
# are not.
# ---------------------------------------------------------------------------
bs_log "loading t ($ROWS rows)"
{
	echo "CREATE EXTENSION bloomsketch;"
	echo "CREATE EXTENSION pg_prewarm;"
	bench_t_sql "$ROWS"
} | sql | sed 's/^/==> /' >&2
IFS='|' read -r T_SIZE < <(sql -c "SELECT pg_size_pretty(pg_relation_size('t'))")

if run_bloom; then
bs_log "loading other ($ROWS rows) and its filter"
{
	echo "CREATE EXTENSION hll;"
	bench_bloom_tables_sql "$ROWS" "$CAPACITY" "$FPR"
} | sql | sed 's/^/==> /' >&2
read -r FILTER_BYTES FILTER_BITS FILTER_HASHES FILTER_STORED < <(sql -F ' ' -c \
	"SELECT (bloom_info(f)).bytes, (bloom_info(f)).bits, (bloom_info(f)).hashes, pg_column_size(f) FROM other_filter")
IFS='|' read -r OTHER_SIZE < <(sql -c "SELECT pg_size_pretty(pg_relation_size('other'))")
bs_log "t: $T_SIZE, other: $OTHER_SIZE, filter of other: $FILTER_BYTES bytes (m=$FILTER_BITS, k=$FILTER_HASHES, stored $FILTER_STORED bytes)"

# ---------------------------------------------------------------------------
# Timing, in rounds of every query (bench_rounds, bench/lib.sh).  The figure
# per query is the median of its $RUNS "Execution Time"s (ms).
# ---------------------------------------------------------------------------
F_SQL="SELECT count(*) FROM t WHERE bloom_contains((SELECT f FROM other_filter), id)"
G_SQL="SELECT count(*) FROM t WHERE id IN (SELECT id FROM other)"
LABELS=(A B C D E F "F'" G)
declare -A QUERY STATEMENT MEDIAN MIN MAX
QUERY[A]="SELECT count(id) FROM t"
QUERY[B]="SELECT bloom_agg(id, $CAPACITY, $FPR) FROM t"
QUERY[C]="SELECT count(s) FROM t"
QUERY[D]="SELECT bloom_agg(s, $CAPACITY, $FPR) FROM t"
QUERY[E]="SELECT hll_add_agg(hll_hash_bigint(id)) FROM t"
# F: the stored filter of other as a scalar subquery (an InitPlan: the TOASTed
# value is fetched once, and bloom_contains' cache detoasts it once per query).
QUERY[F]=$F_SQL
# F': the same filter as the parameter of a prepared statement, fed from a psql
# variable holding its text form (~16 MB).  EXPLAIN EXECUTE counts evaluating
# that parameter as planning time; the execution probes an in-memory filter.
QUERY[F\']="PREPARE p(bloomfilter) AS SELECT count(*) FROM t WHERE bloom_contains(\$1, id); EXECUTE p(:'filter')"
QUERY[G]=$G_SQL
for label in "${LABELS[@]}"; do STATEMENT[$label]=${QUERY[$label]}; done
STATEMENT[F\']="EXECUTE p(:'filter')"

# What every session needs: the libraries loaded (so no query pays for that),
# the filter in a psql variable and the prepared statement of F'.
# The two scans map every shared buffer of t and other into the new backend
# before anything is timed (bench_map_sql): otherwise the first timed query
# of each session pays page faults that the others do not.
PREAMBLE="LOAD 'bloomsketch';
LOAD 'hll';
$(bench_map_sql t other)
SELECT f::text AS filter FROM other_filter \\gset
PREPARE p(bloomfilter) AS SELECT count(*) FROM t WHERE bloom_contains(\$1, id);"

# The counts of F, F' and G, for the false-positive figure.
bs_log "counting the rows F, F' and G find"
sql >"$WORK/counts.out" <<SQL
$PREAMBLE
SELECT 'F=' || count(*) FROM t WHERE bloom_contains((SELECT f FROM other_filter), id);
EXECUTE p(:'filter') \\gset fp_
\\echo Fp=:fp_count
SELECT 'G=' || count(*) FROM t WHERE id IN (SELECT id FROM other);
SQL
count_of() { sed -n "s/^$1=//p" "$WORK/counts.out"; }
F_COUNT=$(count_of F)
FP_COUNT=$(count_of Fp)
G_COUNT=$(count_of G)
if [ -z "$F_COUNT" ] || [ -z "$FP_COUNT" ] || [ -z "$G_COUNT" ]; then
	cat "$WORK/counts.out" >&2
	echo "could not count the rows of F, F' and G" >&2
	exit 1
fi

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
bench_rounds "$WORK" bloom "$RUNS" "$PREAMBLE" STATEMENT LABELS MEDIAN MIN MAX
# the plan the planner chose for G (the last query), from the last round
G_PLAN_TEXT=$(awk -v n=$((${#LABELS[@]} - 1)) '/^Execution Time/ { seen++; next } seen == n' "$WORK/bloom_round$RUNS.out")
G_PLAN=$(sed -nE 's/^ *(-> +)?([A-Z][A-Za-z ]*[a-z])( on [a-z_]+)?  \(cost.*/\2\3/p' <<<"$G_PLAN_TEXT" | paste -sd',' - | sed 's/,/, /g')
G_BATCHES=$(grep -m1 -oE 'Batches: [0-9]+' <<<"$G_PLAN_TEXT" || true)
NON_MEMBERS=$((ROWS - G_COUNT))
FALSE_POSITIVES=$((F_COUNT - G_COUNT))

# ---------------------------------------------------------------------------
# Peak memory while query B runs (bench_peak_memory, bench/lib.sh).
# ---------------------------------------------------------------------------
bs_log "measuring the backend's peak RssAnon during query B"
bench_peak_memory "$WORK" bloom \
	"SELECT (bloom_info(bloom_agg(i, 1000, $FPR))).bytes FROM generate_series(1::bigint, 1000) i;" \
	"SELECT bloom_agg(id, $CAPACITY, $FPR) FROM t"
MEM_DELTA_KB=$((MEM_PEAK - MEM_BASE))
MEM_LIMIT_KB=$((FILTER_BYTES / 1024 + 64 * 1024))

# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------
mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k / 1024 }'; }

report() {
	bench_report_tables QUERY LABELS MEDIAN MIN MAX <<-EOF
		B A 1.6
		D C 1.6
		F A 1.6
		F G 0.2
		F' A 1.6
		F' G 0.2
		E A -
	EOF
	echo
	printf 'Peak backend memory while building the filter (query B): RssAnon +%s (%s before, %s peak, %d samples, one per %.1f ms); filter size %s; target <= filter size + 64 MB = %s: %s\n' \
		"$(mb $MEM_DELTA_KB)" "$(mb "$MEM_BASE")" "$(mb "$MEM_PEAK")" "$MEM_SAMPLES" \
		"$(awk -v t="$MEM_QUERY_MS" -v n="$MEM_SAMPLES" 'BEGIN { print t / n }')" \
		"$(mb $((FILTER_BYTES / 1024)))" "$(mb $MEM_LIMIT_KB)" \
		"$([ "$MEM_DELTA_KB" -le "$MEM_LIMIT_KB" ] && echo PASS || echo FAIL)"
	echo
	printf 'False positives of F: %d (F counted %d, exact G %d; F'"'"' counted %d) over %d non-members = %.5f measured vs %s configured (filter m=%s bits, k=%s, %s bytes)\n' \
		"$FALSE_POSITIVES" "$F_COUNT" "$G_COUNT" "$FP_COUNT" "$NON_MEMBERS" \
		"$(awk -v f="$FALSE_POSITIVES" -v n="$NON_MEMBERS" 'BEGIN { print f / n }')" \
		"$FPR" "$FILTER_BITS" "$FILTER_HASHES" "$FILTER_BYTES"
	echo
	echo "Times: median of $RUNS runs after one warm-up, server-side \"Execution Time\" of"
	echo "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) (no planning, no result transfer)."
	echo "G plan: ${G_PLAN:-?}${G_BATCHES:+ ($G_BATCHES)}."
}

write_report server "bloomsketch server benchmark" \
	"t $ROWS rows ($T_SIZE), other $ROWS rows ($OTHER_SIZE), both prewarmed into shared_buffers" \
	"$LOAD_START" report
fi # run_bloom

# ===========================================================================
# Count-min sketches (bench/run.sh cms runs this section alone).  On the same
# t: building a sketch with cms_agg against a plain count() of the same column
# (bigint id, 32-character text s), 1,000,000 point queries (cms_estimate)
# against one stored, TOASTed sketch against the same query with hashtext in
# place of cms_estimate, and cms_agg per group over 1,000 groups against
# count(*) per group.  Same method as above: a warm-up round, then $RUNS
# rounds each running every query once in a fresh session; the figure is the
# median "Execution Time".  Writes bench/results/server_cms.md.
# ===========================================================================
if run_cms; then
CMS_PROBES=1000000
CMS_GROUPS=1000
bs_log "cms: storing the sketch of t.s and $CMS_PROBES values to look up"
bench_cms_tables_sql "$CMS_PROBES" "$CMS_GROUPS" | sql | sed 's/^/==> /' >&2
read -r CMS_WIDTH CMS_DEPTH CMS_COPIES CMS_BYTES CMS_STORED < <(sql -F ' ' -c \
	"SELECT (cms_info(sketch)).width, (cms_info(sketch)).depth, (cms_info(sketch)).copies, (cms_info(sketch)).bytes, pg_column_size(sketch) FROM cms_store")
bs_log "cms: sketch of t.s: w=$CMS_WIDTH, d=$CMS_DEPTH, copies=$CMS_COPIES, $CMS_BYTES bytes (stored $CMS_STORED bytes)"
# every value of cms_probe occurs once in t: each estimate is 1 + its error
CMS_ESTIMATE_SUM=$(sql -c "SELECT sum(cms_estimate((SELECT sketch FROM cms_store), s)) FROM cms_probe")

CMS_LABELS=(H I J K L M N O)
declare -A CMS_QUERY CMS_MEDIAN CMS_MIN CMS_MAX
CMS_QUERY[H]="SELECT count(id) FROM t"
CMS_QUERY[I]="SELECT cms_agg(id) FROM t"
CMS_QUERY[J]="SELECT count(s) FROM t"
CMS_QUERY[K]="SELECT cms_agg(s) FROM t"
CMS_QUERY[L]="SELECT sum(cms_estimate((SELECT sketch FROM cms_store), s)) FROM cms_probe"
CMS_QUERY[M]="SELECT sum(hashtext(s)::bigint) FROM cms_probe"
CMS_QUERY[N]="SELECT g, cms_agg(id) FROM cms_groups GROUP BY g"
CMS_QUERY[O]="SELECT g, count(*) FROM cms_groups GROUP BY g"

CMS_LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
# (the preamble maps the tables' shared buffers before timing, see PREAMBLE)
bench_rounds "$WORK" cms "$RUNS" \
	"LOAD 'bloomsketch'; $(bench_map_sql t cms_probe cms_groups)" \
	CMS_QUERY CMS_LABELS CMS_MEDIAN CMS_MIN CMS_MAX
# the aggregation strategy of the grouped query (N), from the last round
CMS_N_PLAN=$(awk -v n=6 '/^Execution Time/ { seen++; next } seen == n' "$WORK/cms_round$RUNS.out" |
	grep -m1 -oE '(HashAggregate|GroupAggregate|MixedAggregate)' || true)

cms_report() {
	bench_report_tables CMS_QUERY CMS_LABELS CMS_MEDIAN CMS_MIN CMS_MAX <<-EOT
		I H 1.4
		K J 1.4
		L M 1.5
		N O -
	EOT
	echo
	printf 'The stored sketch of t.s: w=%s, d=%s, copies=%s, %s bytes in memory, %s bytes stored. ' \
		"$CMS_WIDTH" "$CMS_DEPTH" "$CMS_COPIES" "$CMS_BYTES" "$CMS_STORED"
	printf 'Query L sums %s estimates of values that occur once in t: %s, a mean over-estimate of %s (never below 1; epsilon * ||a||_1 = %s).\n' \
		"$CMS_PROBES" "$CMS_ESTIMATE_SUM" \
		"$(awk -v s="$CMS_ESTIMATE_SUM" -v n="$CMS_PROBES" 'BEGIN { printf "%.1f", s / n - 1 }')" \
		"$(awk -v n="$ROWS" 'BEGIN { printf "%d", n * 0.001 }')"
	echo
	echo "Times: median of $RUNS runs after one warm-up, server-side \"Execution Time\" of"
	echo "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) (no planning, no result transfer)."
	echo "N and O: cms_groups holds t's ids and g = id % $CMS_GROUPS (N's plan: ${CMS_N_PLAN:-?}," \
		"$CMS_GROUPS sketches of $CMS_BYTES bytes, so the counters hit memory at random)."
}

write_report server_cms "bloomsketch server benchmark: count-min sketches" \
	"t $ROWS rows ($T_SIZE), cms_groups $ROWS rows, cms_probe $CMS_PROBES rows, prewarmed into shared_buffers" \
	"$CMS_LOAD_START" cms_report
fi # run_cms

# ===========================================================================
# Heavy hitters (bench/run.sh topk runs this section alone).  On the same t:
# building a summary with topk_agg(id, 100) against a plain count() of the
# same column, with the peer sketches hll_add_agg and cms_agg beside it; the
# same over the text column s and over id % 1000 (1,000 values of 1/1000 of
# the rows each, so the summary of 100 counters keeps reducing); and the
# backend's peak memory while building the summary from all rows and from a
# tenth of them, which the counters bound, not the rows.  The ids are all
# distinct: every row takes a new slot, and every 100 rows the table of 200
# slots is reduced, the worst case for the per-row work.  Same method as
# above.  Writes bench/results/server_topk.md.
# ===========================================================================
if run_topk; then
printf '%s\n' "CREATE EXTENSION IF NOT EXISTS hll;" \
	"SELECT 'prewarmed ' || pg_prewarm('t') || ' blocks';" | sql | sed 's/^/==> /' >&2
TOPK_LABELS=(P Q R S T U V W)
declare -A TOPK_QUERY TOPK_MEDIAN TOPK_MIN TOPK_MAX
TOPK_QUERY[P]="SELECT count(id) FROM t"
TOPK_QUERY[Q]="SELECT topk_agg(id, 100) FROM t"
TOPK_QUERY[R]="SELECT hll_add_agg(hll_hash_bigint(id)) FROM t"
TOPK_QUERY[S]="SELECT cms_agg(id) FROM t"
TOPK_QUERY[T]="SELECT count(s) FROM t"
TOPK_QUERY[U]="SELECT topk_agg(s, 100) FROM t"
TOPK_QUERY[V]="SELECT count(id % 1000) FROM t"
TOPK_QUERY[W]="SELECT topk_agg(id % 1000, 100) FROM t"

TOPK_LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
bench_rounds "$WORK" topk "$RUNS" "LOAD 'bloomsketch'; LOAD 'hll'; $(bench_map_sql t)" \
	TOPK_QUERY TOPK_LABELS TOPK_MEDIAN TOPK_MIN TOPK_MAX

bs_log "measuring the backend's peak RssAnon during query Q, on all rows and on a tenth"
TOPK_WARMUP="SELECT topk_total(topk_agg(i, 100)) FROM generate_series(1::bigint, 1000) i;"
bench_peak_memory "$WORK" topk_all "$TOPK_WARMUP" "SELECT topk_agg(id, 100) FROM t"
TOPK_MEM_ALL_KB=$((MEM_PEAK - MEM_BASE))
bench_peak_memory "$WORK" topk_tenth "$TOPK_WARMUP" "SELECT topk_agg(id, 100) FROM t WHERE id <= $ROWS / 10"
TOPK_MEM_TENTH_KB=$((MEM_PEAK - MEM_BASE))
read -r TOPK_ENTRIES TOPK_ERROR TOPK_BYTES < <(sql -F ' ' -c \
	"SELECT i.entries, i.max_error, i.bytes FROM (SELECT topk_agg(id % 1000, 100) AS s FROM t) v, LATERAL topk_info(v.s) i")

topk_report() {
	bench_report_tables TOPK_QUERY TOPK_LABELS TOPK_MEDIAN TOPK_MIN TOPK_MAX <<-EOT
		Q P 1.6
		R P -
		S P -
		U T -
		W V -
	EOT
	echo
	printf 'Peak backend memory while building the summary of query Q: RssAnon +%d kB over all %d rows, +%d kB over a tenth of them; target: no more over all rows than over a tenth + 1 MB: %s\n' \
		"$TOPK_MEM_ALL_KB" "$ROWS" "$TOPK_MEM_TENTH_KB" \
		"$([ "$TOPK_MEM_ALL_KB" -le $((TOPK_MEM_TENTH_KB + 1024)) ] && echo PASS || echo FAIL)"
	echo
	printf 'Query W'"'"'s summary: %s values listed, max_error %s (each value occurs %d times), %s bytes.\n' \
		"$TOPK_ENTRIES" "$TOPK_ERROR" $((ROWS / 1000)) "$TOPK_BYTES"
	echo
	echo "Times: median of $RUNS runs after one warm-up, server-side \"Execution Time\" of"
	echo "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) (no planning, no result transfer)."
}

write_report server_topk "bloomsketch server benchmark: heavy hitters" \
	"t $ROWS rows ($T_SIZE), prewarmed into shared_buffers" "$TOPK_LOAD_START" topk_report
fi # run_topk
