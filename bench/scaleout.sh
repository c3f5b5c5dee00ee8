#!/usr/bin/env bash
# bench/scaleout.sh — parallel query and server-side speed of the aggregates.
#
#   bash bench/scaleout.sh        (as root; installs, builds, runs a throwaway server)
#
# On 10,000,000-row inputs, times every aggregate serially and under a forced
# parallel plan with 2 workers (speed-up = serial / parallel), with the
# leader scanning too (PostgreSQL's default) and with the leader only
# gathering (parallel_leader_participation = off: as many scanning processes
# as this machine has cores), the blocked scheme against count(id), GROUP BY
# over 1,000 groups against hll_add_agg, and shows the plan of a membership
# pre-filter in front of a join, and what filling fresh memory costs
# before and after (bench/fresh_memory.c).  Each
# query runs once to warm up, then 5 times in interleaved rounds (a fresh psql
# session per round); the figure is the median "Execution Time" of EXPLAIN
# (ANALYZE, TIMING OFF).  Writes bench/results/scaleout.md.  Targets print as
# PASS/MISS for information; the exit status says whether the benchmark ran.
#
# The server's shared memory is on huge pages (huge_pages = on, with
# vm.nr_hugepages raised for the run and put back afterwards), as PostgreSQL's
# documentation advises for a large shared_buffers.  A parallel worker is a
# new process that maps the buffers it reads on first touch: with 4 kB pages,
# one page fault per 4 kB, about 36,000 for a worker's third of the 440 MB
# table of ids, which a serial query does not pay (its session mapped the
# buffers before the timed query).  HUGE_PAGES=off bash bench/scaleout.sh
# measures with ordinary pages instead.
source "$(dirname "$0")/../scripts/lib.sh"
bs_require_root "$@"

ROWS=${ROWS:-10000000}
RUNS=${RUNS:-5}
HUGE_PAGES=${HUGE_PAGES:-on}
SHARED_BUFFERS_MB=4096
RESULTS_DIR=$BS_ROOT/bench/results

bs_install_packages postgresql-$BS_PG_MAJOR-hll
bs_build_install
trap bs_stop_server EXIT		# also gives back the huge pages
if [ "$HUGE_PAGES" = on ]; then
	bs_reserve_huge_pages $SHARED_BUFFERS_MB
	HUGE_PAGES=$BS_HUGE_PAGES
	[ "$HUGE_PAGES" = on ] || bs_log "the kernel did not grant the huge pages: measuring with ordinary pages"
fi
bs_log "shared memory on huge pages: $HUGE_PAGES"
bs_start_server shared_buffers=${SHARED_BUFFERS_MB}MB huge_pages=$HUGE_PAGES \
	max_parallel_workers_per_gather=0 jit=off \
	work_mem=1GB autovacuum=off wal_level=minimal max_wal_senders=0 \
	max_wal_size=20GB checkpoint_timeout=1h fsync=off synchronous_commit=off \
	full_page_writes=off max_worker_processes=8 max_parallel_workers=4

sql() { psql -X -A -t -q -v ON_ERROR_STOP=1 "$@"; }

# t(id, g): ids 1..ROWS in 1,000 groups; tiny_values: ROWS one-item filters
# and sketches (the inputs of the merge aggregates); other: half of t's ids.
bs_log "loading $ROWS rows (t, tiny_values, other)"
sql <<SQL >&2
CREATE EXTENSION bloomsketch;
CREATE EXTENSION hll;
CREATE EXTENSION pg_prewarm;
CREATE TABLE t AS SELECT i AS id, (i % 1000)::int AS g FROM generate_series(1::bigint, $ROWS) i;
CREATE TABLE tiny_values AS
	SELECT bloom_add(bloom_create(1, 0.01), i) AS f, cms_add(cms_create_dims(5, 2), i) AS c
	FROM generate_series(1::bigint, $ROWS) i;
CREATE TABLE other AS SELECT i AS id FROM generate_series($ROWS / 2 + 1::bigint, $ROWS / 2 + $ROWS) i;
CREATE TABLE other_filter AS SELECT bloom_agg(id, $ROWS, 0.01) AS f FROM other;
VACUUM (FREEZE, ANALYZE) t; VACUUM (FREEZE, ANALYZE) tiny_values;
VACUUM (FREEZE, ANALYZE) other; VACUUM (FREEZE, ANALYZE) other_filter;
CHECKPOINT;
SELECT sum(pg_prewarm(c)) FROM (VALUES ('t'::regclass), ('tiny_values'), ('other'), ('other_filter')) v(c);
SQL

SERIAL="SET max_parallel_workers_per_gather = 0;"
PARALLEL="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;"
# The same plan with the leader only gathering: two scanning processes on the
# two cores instead of three, and two partial states to combine, not three.
WORKERS_ONLY="$PARALLEL SET parallel_leader_participation = off;"
declare -A QUERY TABLE
LABELS=()
add() { LABELS+=("$1"); QUERY[$1]=$2; TABLE[$1]=${2##* FROM }; TABLE[$1]=${TABLE[$1]%% *}; }
for mode in serial parallel workers-only; do
	case $mode in
		serial) setting=$SERIAL ;;
		parallel) setting=$PARALLEL ;;
		workers-only) setting=$WORKERS_ONLY ;;
	esac
	add "count(id) $mode" "$setting SELECT count(id) FROM t"
	add "bloom_agg(id) $mode" "$setting SELECT bloom_agg(id, $ROWS, 0.01) FROM t"
	add "bloom_union_agg $mode" "$setting SELECT bloom_union_agg(f) FROM tiny_values"
	add "bloom_intersect_agg $mode" "$setting SELECT bloom_intersect_agg(f) FROM tiny_values"
	add "cms_agg(id) $mode" "$setting SELECT cms_agg(id) FROM t"
	add "cms_merge_agg $mode" "$setting SELECT cms_merge_agg(c) FROM tiny_values"
done
add "bloom_agg(id, blocked)" "$SERIAL SELECT bloom_agg(id, $ROWS, 0.01, 'blocked') FROM t"
add "GROUP BY g: bloom_agg" "$SERIAL SELECT g, bloom_agg(id, 10000, 0.01) FROM t GROUP BY g"
add "GROUP BY g: hll_add_agg" "$SERIAL SELECT g, hll_add_agg(hll_hash_bigint(id)) FROM t GROUP BY g"

# One round: every query once, in a fresh session; prints "label<TAB>ms".
round() {
	for label in "${LABELS[@]}"; do
		# the untimed scan maps the input's shared buffers into the session
		# first (otherwise the timed query pays those page faults; parallel
		# workers are new processes and pay them anyway)
		ms=$(sql -c "LOAD 'bloomsketch'" -c "LOAD 'hll'" \
			-c "SELECT count(*) FROM ${TABLE[$label]}" \
			-c "${QUERY[$label]%%SELECT*}" \
			-c "EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) SELECT ${QUERY[$label]#*SELECT }" |
			python3 -c 'import json, sys; s = sys.stdin.read(); print(json.loads(s[s.index("["):])[0]["Execution Time"])' 2>/dev/null ||
			echo NaN)
		printf '%s\t%s\n' "$label" "$ms"
	done
}
WORK=$(mktemp -d /tmp/bloomsketch-scaleout.XXXXXX)
# What fresh memory costs here, before and after the rounds: the parallel
# bloom_agg fills far more fresh 12 MB buffers than the serial one.
cc -O2 -o "$WORK/fresh_memory" "$BS_ROOT/bench/fresh_memory.c"
"$WORK/fresh_memory" >"$WORK/fresh_before.txt"
bs_log "warm-up round"
round >/dev/null
for r in $(seq 1 "$RUNS"); do
	bs_log "round $r of $RUNS"
	round >>"$WORK/times.tsv"
done
"$WORK/fresh_memory" >"$WORK/fresh_after.txt"

mkdir -p "$RESULTS_DIR"
python3 - "$WORK/times.tsv" "$ROWS" "$RUNS" "$HUGE_PAGES" >"$RESULTS_DIR/scaleout.md" <<'PY'
import statistics, sys, collections
times = collections.defaultdict(list)
for line in open(sys.argv[1]):
    label, ms = line.rstrip("\n").split("\t")
    times[label].append(float(ms))
med = {k: statistics.median(v) for k, v in times.items()}
rows, runs = int(sys.argv[2]), sys.argv[3]
print(f"# Scale-out benchmark: {rows:,} rows, median of {runs} runs (ms), shared memory on huge pages: {sys.argv[4]}\n")
print("Parallel: 2 workers and the leader scan; workers only: 2 workers scan, the leader only gathers (parallel_leader_participation = off).\n")
print("| Aggregate | serial | parallel (2 workers) | speed-up | workers only | speed-up | target ≥ 1.6 |")
print("|---|---:|---:|---:|---:|---:|---|")
for name in ["count(id)", "bloom_agg(id)", "bloom_union_agg", "bloom_intersect_agg", "cms_agg(id)", "cms_merge_agg"]:
    s, p, w = med[name + " serial"], med[name + " parallel"], med[name + " workers-only"]
    verdict = "" if name == "count(id)" else " / ".join("PASS" if s / x >= 1.6 else "MISS" for x in (p, w))
    print(f"| `{name}` | {s:,.0f} | {p:,.0f} | {s / p:.2f} | {w:,.0f} | {s / w:.2f} | {verdict} |")
a = med["count(id) serial"]
bl = med["bloom_agg(id, blocked)"]
gb, gh = med["GROUP BY g: bloom_agg"], med["GROUP BY g: hll_add_agg"]
print("\n| Measure | ms | ratio | target | verdict |")
print("|---|---:|---:|---|---|")
print(f"| `bloom_agg(id, {rows}, 0.01, 'blocked')` / `count(id)` | {bl:,.0f} | {bl / a:.2f} | ≤ 1.35 | {'PASS' if bl / a <= 1.35 else 'MISS'} |")
print(f"| `GROUP BY g` (1,000 groups): `bloom_agg(id, 10000, 0.01)` / `hll_add_agg` | {gb:,.0f} / {gh:,.0f} | {gb / gh:.2f} | ≤ 1.2 | {'PASS' if gb / gh <= 1.2 else 'MISS'} |")
PY

# The membership pre-filter: its Filter sits on the scan of t, below the join.
{
	echo
	echo "Fresh memory on this machine (bench/fresh_memory.c), before and after the rounds:"
	echo
	echo '```'
	cat "$WORK/fresh_before.txt" "$WORK/fresh_after.txt"
	echo '```'
	echo
	echo "Plan of a join with a membership pre-filter (the filter is applied to t before the join):"
	echo
	echo '```'
	sql -c "$SERIAL" -c "EXPLAIN (COSTS ON) SELECT count(*) FROM t JOIN other USING (id) WHERE bloom_contains((SELECT f FROM other_filter), t.id)"
	echo '```'
} >>"$RESULTS_DIR/scaleout.md"
cat "$RESULTS_DIR/scaleout.md"
rm -rf "$WORK"
