#!/bin/bash
# bench/fit.sh — bloom_fit_agg against bloom_agg (issue 28): time and bytes.
#
#   PGHOST=... PGPORT=... PGUSER=... bash bench/fit.sh [ROWS [NGROUPS [ROUNDS]]]
#
# Runs against a server where bloomsketch is installed (make install), in a
# scratch database bloomsketch_fit_bench that it drops at the end.  The
# issue's figures are at ROWS = 10,000,000 and NGROUPS = 1,000 (the defaults);
# a smoke test of the script takes ROWS = 100000.
#
#   A  SELECT bloom_agg(id, ROWS, 0.01) FROM t          the capacity form, sized for all rows
#   B  SELECT bloom_fit_agg(id, 0.01) FROM t            the self-sized form (target: B/A <= 1.5)
#   C  bloom_agg(id, LARGEST, 0.01) ... GROUP BY g      NGROUPS groups whose sizes follow Zipf(1.1),
#                                                       every filter sized for the largest group
#   D  bloom_fit_agg(id, 0.01) ... GROUP BY g           the same groups, each sized for itself
#
# Times are the server's Execution Time of EXPLAIN (ANALYZE, TIMING OFF),
# median of ROUNDS rounds after a warm-up round; bytes are the sum over the
# groups of bloom_info(f).bytes.  Parallel query and JIT are off so that the
# two forms are timed on the same plan.
set -euo pipefail

ROWS=${1:-10000000}
NGROUPS=${2:-1000}
ROUNDS=${3:-5}
DB=bloomsketch_fit_bench
PSQL=${PSQL:-psql}
psql_db() { "$PSQL" -X -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

"$PSQL" -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
trap '"$PSQL" -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB"' EXIT

psql_db <<SQL
CREATE EXTENSION bloomsketch;
CREATE TABLE t AS SELECT i AS id FROM generate_series(1::bigint, $ROWS) i;
-- Zipf(1.1): group r (1-based) gets ROWS * r^-1.1 / H rows, H the sum over r
CREATE TABLE zipf_sizes AS
SELECT r AS g, greatest(1, round($ROWS * r ^ -1.1 / (SELECT sum(x ^ -1.1) FROM generate_series(1, $NGROUPS) x)))::bigint AS size
FROM generate_series(1, $NGROUPS) r;
CREATE TABLE z AS
SELECT g, (g::bigint << 32) + i AS id FROM zipf_sizes, LATERAL generate_series(1, size) i;
VACUUM (FREEZE, ANALYZE) t;
VACUUM (FREEZE, ANALYZE) z;
SQL
LARGEST=$(psql_db -At -c "SELECT max(size) FROM zipf_sizes")
ZROWS=$(psql_db -At -c "SELECT sum(size) FROM zipf_sizes")

declare -A QUERY=(
	[A]="SELECT bloom_agg(id, $ROWS, 0.01) FROM t"
	[B]="SELECT bloom_fit_agg(id, 0.01) FROM t"
	[C]="SELECT g, bloom_agg(id, $LARGEST, 0.01) FROM z GROUP BY g"
	[D]="SELECT g, bloom_fit_agg(id, 0.01) FROM z GROUP BY g"
)

# Execution Time in ms of one query, in a fresh session.
time_query() {
	psql_db -At <<SQL | sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p'
SET max_parallel_workers_per_gather = 0;
SET jit = off;
SET work_mem = '4GB';
EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) ${QUERY[$1]};
SQL
}

declare -A TIMES
for round in $(seq 0 "$ROUNDS"); do
	for q in A B C D; do
		t=$(time_query "$q")
		[ "$round" -gt 0 ] && TIMES[$q]="${TIMES[$q]:-} $t"
	done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
declare -A MED
for q in A B C D; do MED[$q]=$(echo "${TIMES[$q]}" | median); done

bytes() {
	psql_db -At -c "SET work_mem = '4GB'; SELECT sum((bloom_info(f)).bytes) FROM (${QUERY[$1]}) s(g, f)"
}
BYTES_A=$(psql_db -At -c "SELECT (bloom_info(f)).bytes FROM (${QUERY[A]}) s(f)")
BYTES_B=$(psql_db -At -c "SELECT (bloom_info(f)).bytes FROM (${QUERY[B]}) s(f)")
BYTES_C=$(bytes C)
BYTES_D=$(bytes D)
OVER=$(psql_db -At -c "SELECT count(*) FILTER (WHERE (bloom_info(f)).over_ceiling) FROM (${QUERY[D]}) s(g, f)")

cat <<REPORT
# bloom_fit_agg benchmark: $ROWS rows; $NGROUPS Zipf(1.1) groups, $ZROWS rows, largest $LARGEST
# $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg), median of $ROUNDS rounds

| | query | ms (median) | bytes stored |
|---|---|---:|---:|
| A | bloom_agg(id, $ROWS, 0.01) | ${MED[A]} | $BYTES_A |
| B | bloom_fit_agg(id, 0.01) | ${MED[B]} | $BYTES_B |
| C | bloom_agg(id, $LARGEST, 0.01) GROUP BY g | ${MED[C]} | $BYTES_C |
| D | bloom_fit_agg(id, 0.01) GROUP BY g | ${MED[D]} | $BYTES_D |

B/A time $(awk -v b="${MED[B]}" -v a="${MED[A]}" 'BEGIN {printf "%.2f", b / a}') (target <= 1.5);
C/D bytes $(awk -v c="$BYTES_C" -v d="$BYTES_D" 'BEGIN {printf "%.1f", c / d}') (target >= 10); D/C time $(awk -v c="${MED[C]}" -v d="${MED[D]}" 'BEGIN {printf "%.2f", d / c}');
groups over their ceiling: $OVER
REPORT
