#!/usr/bin/env bash
# bench/run.sh — server-side benchmark of bloomsketch on 10,000,000 rows.
#
#   bash bench/run.sh        (as root; installs, builds, runs a throwaway server)
#   bash bench/run.sh bloom  (the Bloom filter section only)
#   bash bench/run.sh cms    (the count-min sketch section only, see below)
#
# Times, on a fully cached 10M-row table, building a Bloom filter with bloom_agg
# against a plain count() of the same column, hll_add_agg as a peer sketch, and
# probing a filter per row (bloom_contains) against the exact semi-join.  Each
# query runs once to warm up, then 5 times; the figure is the median of the
# 5 "Execution Time"s of EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON), which
# excludes planning and sending the result to the client.  Also measures the
# backend's peak anonymous memory while building the filter and the filter's
# measured false-positive rate.  Writes the table to bench/results/server.md.
# The count-min sketch section at the end times cms_agg and cms_estimate the
# same way and writes bench/results/server_cms.md.
# The targets are printed as PASS/FAIL for information only: the exit status
# says whether the benchmark ran, not whether the targets were met.
source "$(dirname "$0")/../scripts/lib.sh"
source "$(dirname "$0")/lib.sh"
bs_require_root "$@"

# Which sections to run: all (the default), bloom or cms.
MODE=${1:-all}
case $MODE in
	all | bloom | cms) ;;
	*)
		echo "usage: bench/run.sh [all|bloom|cms]" >&2
		exit 2
		;;
esac
run_bloom() { [ "$MODE" != cms ]; }
run_cms() { [ "$MODE" != bloom ]; }

ROWS=10000000
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
# Timing.  The queries run in rounds, each round a fresh psql session running
# every query once, in order: round 0 is the warm-up, rounds 1..$RUNS are
# measured.  Interleaving the queries this way exposes them all to the same
# background load, which keeps the ratios meaningful on a busy machine.  The
# figure per query is the median of its $RUNS "Execution Time"s (ms).
# ---------------------------------------------------------------------------
EXPLAIN="EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON)"
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
# before anything is timed: otherwise the first timed query of each session
# pays ~0.5 s of page faults that the others do not.
PREAMBLE="LOAD 'bloomsketch';
LOAD 'hll';
SELECT count(*) FROM t;
SELECT count(*) FROM other;
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
for ((round = 0; round <= RUNS; round++)); do
	bs_log "round $round of $RUNS$([ $round -eq 0 ] && echo ' (warm-up)')"
	{
		printf '%s\n' "$PREAMBLE"
		for label in "${LABELS[@]}"; do printf '%s %s;\n' "$EXPLAIN" "${STATEMENT[$label]}"; done
	} | sql >"$WORK/round$round.out"
	mapfile -t times < <(sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p' "$WORK/round$round.out")
	if [ ${#times[@]} -ne ${#LABELS[@]} ]; then
		cat "$WORK/round$round.out" >&2
		echo "round $round: expected ${#LABELS[@]} execution times, got ${#times[@]}" >&2
		exit 1
	fi
	line=
	for i in "${!LABELS[@]}"; do
		[ "$round" -gt 0 ] && echo "${times[$i]}" >>"$WORK/times.$i"
		line+="${LABELS[$i]} ${times[$i]%.*}  "
	done
	bs_log "  ms: $line"
done
for i in "${!LABELS[@]}"; do
	label=${LABELS[$i]}
	sort -g "$WORK/times.$i" >"$WORK/sorted.$i"
	MEDIAN[$label]=$(sed -n "$(((RUNS + 1) / 2))p" "$WORK/sorted.$i")
	MIN[$label]=$(head -1 "$WORK/sorted.$i")
	MAX[$label]=$(tail -1 "$WORK/sorted.$i")
done
# the plan the planner chose for G (the last query), from the last round
G_PLAN_TEXT=$(awk -v n=$((${#LABELS[@]} - 1)) '/^Execution Time/ { seen++; next } seen == n' "$WORK/round$RUNS.out")
G_PLAN=$(sed -nE 's/^ *(-> +)?([A-Z][A-Za-z ]*[a-z])( on [a-z_]+)?  \(cost.*/\2\3/p' <<<"$G_PLAN_TEXT" | paste -sd',' - | sed 's/,/, /g')
G_BATCHES=$(grep -m1 -oE 'Batches: [0-9]+' <<<"$G_PLAN_TEXT" || true)
NON_MEMBERS=$((ROWS - G_COUNT))
FALSE_POSITIVES=$((F_COUNT - G_COUNT))

# ---------------------------------------------------------------------------
# Peak memory: a fresh session warms its caches on a tiny filter, publishes its
# pid, and waits until a background loop has read the baseline RssAnon (the
# backend's private memory; shared_buffers are RssShmem); the loop then polls
# /proc/<pid>/status every ~2 ms while query B runs (without forking: the
# pause is a read with a timeout on a FIFO nobody writes).  That is fast
# enough to catch the copy PostgreSQL makes of the result when the aggregate
# finishes, which lives only a few milliseconds.
# ---------------------------------------------------------------------------
bs_log "measuring the backend's peak RssAnon during query B"
# rss_anon PID: sets RSS to the RssAnon of PID in kB (no fork)
rss_anon() {
	local key value rest
	RSS=0
	while read -r key value rest; do
		if [ "$key" = RssAnon: ]; then RSS=$value; return; fi
	done <"/proc/$1/status"
}
(
	while [ ! -s "$WORK/mem.pid" ]; do sleep 0.01; done
	pid=$(cat "$WORK/mem.pid")
	mkfifo "$WORK/tick"
	exec {tick}<>"$WORK/tick"
	rss_anon "$pid"
	base=$RSS peak=$RSS samples=0
	touch "$WORK/mem.ready"
	while [ ! -e "$WORK/mem.done" ]; do
		rss_anon "$pid"
		[ "$RSS" -gt "$peak" ] && peak=$RSS
		samples=$((samples + 1))
		read -r -t 0.002 -u "$tick" || true
	done
	echo "$base $peak $samples" >"$WORK/mem.result"
) &
POLLER=$!
sql >"$WORK/mem.out" <<SQL
SELECT (bloom_info(bloom_agg(i, 1000, $FPR))).bytes FROM generate_series(1::bigint, 1000) i;
\o $WORK/mem.pid.tmp
SELECT pg_backend_pid();
\o
\! mv $WORK/mem.pid.tmp $WORK/mem.pid
\! while [ ! -e $WORK/mem.ready ]; do sleep 0.01; done
$EXPLAIN SELECT bloom_agg(id, $CAPACITY, $FPR) FROM t;
\! touch $WORK/mem.done
SQL
wait "$POLLER"
read -r MEM_BASE MEM_PEAK MEM_SAMPLES <"$WORK/mem.result"
MEM_QUERY_MS=$(sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p' "$WORK/mem.out")
MEM_DELTA_KB=$((MEM_PEAK - MEM_BASE))
MEM_LIMIT_KB=$((FILTER_BYTES / 1024 + 64 * 1024))

# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------
ratio() { awk -v a="${MEDIAN[$1]}" -v b="${MEDIAN[$2]}" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v r="$1" -v l="$2" 'BEGIN { print (r <= l ? "PASS" : "FAIL") }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k / 1024 }'; }

report() {
	local label r
	echo "| query | median ms | min ms | max ms |"
	echo "|---|---:|---:|---:|"
	for label in "${LABELS[@]}"; do
		printf '| %s. `%s` | %.1f | %.1f | %.1f |\n' "$label" "${QUERY[$label]}" \
			"${MEDIAN[$label]}" "${MIN[$label]}" "${MAX[$label]}"
	done
	echo
	echo "| ratio | value | target | |"
	echo "|---|---:|---|---|"
	while read -r num den limit; do
		r=$(ratio "$num" "$den")
		if [ "$limit" = - ]; then
			printf '| %s/%s | %s | - | |\n' "$num" "$den" "$r"
		else
			printf '| %s/%s | %s | <= %s | %s |\n' "$num" "$den" "$r" "$limit" "$(verdict "$r" "$limit")"
		fi
	done <<-EOF
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

{
	echo "# bloomsketch server benchmark"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
		"$(awk '/^MemTotal/ { printf "%.0f GB RAM", $2 / 1048576 }' /proc/meminfo)"
	echo "- server: $(sql -c 'SHOW server_version'), shared_buffers=3GB, work_mem=1GB," \
		"max_parallel_workers_per_gather=0, jit=off"
	echo "- data: t $ROWS rows ($T_SIZE), other $ROWS rows ($OTHER_SIZE), both prewarmed" \
		"into shared_buffers"
	echo "- load average (1, 5, 15 min) before timing: $LOAD_START; at the end:" \
		"$(cut -d' ' -f1-3 /proc/loadavg) (a load above 1 means other processes shared the CPUs)"
	echo
	report
} >"$WORK/report.md"

mkdir -p "$RESULTS_DIR"
cp "$WORK/report.md" "$RESULTS_DIR/server.md"
echo
cat "$WORK/report.md"
echo
bs_log "written to bench/results/server.md"
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

CMS_EXPLAIN="EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON)"
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
for ((round = 0; round <= RUNS; round++)); do
	bs_log "cms round $round of $RUNS$([ $round -eq 0 ] && echo ' (warm-up)')"
	{
		# map the tables' shared buffers before timing (see PREAMBLE)
		echo "LOAD 'bloomsketch'; SELECT count(*) FROM t; SELECT count(*) FROM cms_probe; SELECT count(*) FROM cms_groups;"
		for label in "${CMS_LABELS[@]}"; do printf '%s %s;\n' "$CMS_EXPLAIN" "${CMS_QUERY[$label]}"; done
	} | sql >"$WORK/cms_round$round.out"
	mapfile -t times < <(sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p' "$WORK/cms_round$round.out")
	if [ ${#times[@]} -ne ${#CMS_LABELS[@]} ]; then
		cat "$WORK/cms_round$round.out" >&2
		echo "cms round $round: expected ${#CMS_LABELS[@]} execution times, got ${#times[@]}" >&2
		exit 1
	fi
	line=
	for i in "${!CMS_LABELS[@]}"; do
		[ "$round" -gt 0 ] && echo "${times[$i]}" >>"$WORK/cms_times.$i"
		line+="${CMS_LABELS[$i]} ${times[$i]%.*}  "
	done
	bs_log "  ms: $line"
done
for i in "${!CMS_LABELS[@]}"; do
	label=${CMS_LABELS[$i]}
	sort -g "$WORK/cms_times.$i" >"$WORK/cms_sorted.$i"
	CMS_MEDIAN[$label]=$(sed -n "$(((RUNS + 1) / 2))p" "$WORK/cms_sorted.$i")
	CMS_MIN[$label]=$(head -1 "$WORK/cms_sorted.$i")
	CMS_MAX[$label]=$(tail -1 "$WORK/cms_sorted.$i")
done
# the aggregation strategy of the grouped query (N), from the last round
CMS_N_PLAN=$(awk -v n=6 '/^Execution Time/ { seen++; next } seen == n' "$WORK/cms_round$RUNS.out" |
	grep -m1 -oE '(HashAggregate|GroupAggregate|MixedAggregate)' || true)

cms_ratio() { awk -v a="${CMS_MEDIAN[$1]}" -v b="${CMS_MEDIAN[$2]}" 'BEGIN { printf "%.2f", a / b }'; }
cms_verdict() { awk -v r="$1" -v l="$2" 'BEGIN { print (r <= l ? "PASS" : "FAIL") }'; }

cms_report() {
	local label r
	echo "| query | median ms | min ms | max ms |"
	echo "|---|---:|---:|---:|"
	for label in "${CMS_LABELS[@]}"; do
		printf '| %s. `%s` | %.1f | %.1f | %.1f |\n' "$label" "${CMS_QUERY[$label]}" \
			"${CMS_MEDIAN[$label]}" "${CMS_MIN[$label]}" "${CMS_MAX[$label]}"
	done
	echo
	echo "| ratio | value | target | |"
	echo "|---|---:|---|---|"
	while read -r num den limit; do
		r=$(cms_ratio "$num" "$den")
		if [ "$limit" = - ]; then
			printf '| %s/%s | %s | - | |\n' "$num" "$den" "$r"
		else
			printf '| %s/%s | %s | <= %s | %s |\n' "$num" "$den" "$r" "$limit" "$(cms_verdict "$r" "$limit")"
		fi
	done <<-EOT
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

{
	echo "# bloomsketch server benchmark: count-min sketches"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
		"$(awk '/^MemTotal/ { printf "%.0f GB RAM", $2 / 1048576 }' /proc/meminfo)"
	echo "- server: $(sql -c 'SHOW server_version'), shared_buffers=3GB, work_mem=1GB," \
		"max_parallel_workers_per_gather=0, jit=off"
	echo "- data: t $ROWS rows ($T_SIZE), cms_groups $ROWS rows, cms_probe $CMS_PROBES rows, prewarmed into shared_buffers"
	echo "- load average (1, 5, 15 min) before timing: $CMS_LOAD_START; at the end:" \
		"$(cut -d' ' -f1-3 /proc/loadavg) (a load above 1 means other processes shared the CPUs)"
	echo
	cms_report
} >"$WORK/cms_report.md"

mkdir -p "$RESULTS_DIR"
cp "$WORK/cms_report.md" "$RESULTS_DIR/server_cms.md"
echo
cat "$WORK/cms_report.md"
echo
bs_log "written to bench/results/server_cms.md"
fi # run_cms
