#!/bin/bash
# bench/cancel_latency.sh — how soon a cancel request ends a long statement
# (issue 36: target <= 1 s), for each aggregate and analysis function.
#
#   PGHOST=... PGPORT=... PGUSER=... bash bench/cancel_latency.sh [ROWS [CUTS [ONLY]]]
#
# Runs against a server where bloomsketch is installed, in a scratch database
# bloomsketch_cancel_bench that it drops at the end.  The issue's figures are
# at ROWS = 20,000,000 (the default); a smoke test takes ROWS = 100000.
# ONLY, an extended regular expression, keeps the statements whose label
# matches it.
#
# Each query first runs to its end once (its time T; the analysis queries,
# which would run for hours, are given T = 20 s).  Then it runs CUTS more
# times (default 5), and another session sends pg_cancel_backend to it at
# T/(CUTS+1), 2T/(CUTS+1), ..., so that the cancel lands in each phase of the
# work (for bloom_fit_agg: the growth and merges of its hash list, the switch
# to bits, the final folds).  The latency of a cut is the time from the
# cancel request to the end of the statement's client (psql, which exits on
# the 57014 error); the table shows the median and the largest.  A cut
# that comes after the statement ended (a run faster than the first) is
# left out.  The latency includes starting the psql that sends the cancel
# and the time the backend waits for a core on a loaded machine.
set -euo pipefail

ROWS=${1:-20000000}
CUTS=${2:-5}
ONLY=${3:-}
DB=bloomsketch_cancel_bench
PSQL=${PSQL:-psql}
APP=bloomsketch_cancel_bench
psql_db() { "$PSQL" -X -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

"$PSQL" -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
trap '"$PSQL" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true' EXIT

psql_db <<SQL
CREATE EXTENSION bloomsketch;
CREATE TABLE t AS SELECT i AS id FROM generate_series(1::bigint, $ROWS) i;
VACUUM (FREEZE, ANALYZE) t;
SQL

# label | query | T for queries that never end on their own (empty: measure it)
# The text form takes a volatile rate so that the planner does not fold the
# call into a constant: folding copies the 683 MB filter and its 911 MB text
# inside PostgreSQL's planner, which does not poll for interrupts.
QUERIES=(
	"bloom_fit_agg, max_bits 2^32|SELECT bloom_info(bloom_fit_agg(id, 0.01, 4294967296)) FROM t|"
	"bloom_fit_agg, default ceiling|SELECT bloom_info(bloom_fit_agg(id, 0.01)) FROM t|"
	"bloom_agg|SELECT bloom_info(bloom_agg(id, $ROWS, 0.01)) FROM t|"
	"bloom_agg, blocked|SELECT bloom_info(bloom_agg(id, $ROWS, 0.01, 'blocked')) FROM t|"
	"cms_agg|SELECT cms_info(cms_agg(id)) FROM t|"
	"topk_agg|SELECT topk_info(topk_agg(id, 1000)) FROM t|"
	"bloom_union_agg of 40 filters of 120 MB|SELECT bloom_info(bloom_union_agg(bloom_add(bloom_create(100000000, 0.01), i))) FROM generate_series(1, 40) i|"
	"text form of a 683 MB filter|SELECT octet_length(bloom_create(570000000, 0.01 + 0 * random())::text)|"
	"bloom_fpr_exact|SELECT count(bloom_fpr_exact(m, 10000, 16000)) FROM generate_series(1000000, 1999999) m|20"
	"bloom_optimal_bits|SELECT count(bloom_optimal_bits(n, 1e-12)) FROM generate_series(100000000, 199999999) n|20"
)

now() { date +%s.%N; }

# run_cut QUERY DELAY: run QUERY, cancel it DELAY s after its start (none if
# DELAY is empty); prints "elapsed latency" (latency "-" without a cancel).
run_cut() {
	local query=$1 delay=$2 start cancel_at end pid status=0
	start=$(now)
	PGAPPNAME=$APP psql_db -c "SET max_parallel_workers_per_gather = 0" -c "$query" >/dev/null 2>&1 &
	pid=$!
	if [ -z "$delay" ]; then
		wait $pid || status=$?
		end=$(now)
		[ $status -eq 0 ] || { echo "query failed: $query" >&2; exit 1; }
		echo "$(echo "$end - $start" | bc -l) -"
		return
	fi
	sleep "$delay"
	cancel_at=$(now)
	psql_db -At -c "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE application_name = '$APP' AND state = 'active'" >/dev/null
	wait $pid || status=$?
	end=$(now)
	if [ $status -eq 0 ]; then
		echo "not cancelled (finished first), left out: $query" >&2
		echo "$(echo "$end - $start" | bc -l) -"
		return
	fi
	echo "$(echo "$end - $start" | bc -l) $(echo "$end - $cancel_at" | bc -l)"
}

printf '| %-40s | %9s | %14s | %15s |\n' "statement" "T (s)" "median latency" "largest latency"
printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..42})" "-----------" "----------------" "-----------------"
for entry in "${QUERIES[@]}"; do
	IFS='|' read -r label query fixed <<<"$entry"
	[[ -z "$ONLY" || "$label" =~ $ONLY ]] || continue
	if [ -n "$fixed" ]; then
		total=$fixed
	else
		read -r total _ < <(run_cut "$query" "")
	fi
	latencies=()
	for ((c = 1; c <= CUTS; c++)); do
		delay=$(echo "$total * $c / ($CUTS + 1)" | bc -l)
		read -r _ latency < <(run_cut "$query" "$delay")
		[ "$latency" = - ] || latencies+=("$latency")
	done
	[ ${#latencies[@]} -gt 0 ] || { echo "no cut cancelled: $label" >&2; continue; }
	sorted=$(printf '%s\n' "${latencies[@]}" | sort -g)
	median=$(echo "$sorted" | sed -n "$(((${#latencies[@]} + 1) / 2))p")
	largest=$(echo "$sorted" | tail -1)
	printf '| %-40s | %9.1f | %14.3f | %15.3f |\n' "$label" "$total" "$median" "$largest"
done
