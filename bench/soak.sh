#!/usr/bin/env bash
# bench/soak.sh — concurrent soak test of bloomfilter and cmsketch updates.
#
#   bash bench/soak.sh            (60 s)
#   bash bench/soak.sh --quick    (10 s, for CI)
#   bash bench/soak.sh --seconds N [--clients N]
#
# Against the server in PGHOST/PGPORT when PGHOST is set (the extension must
# be installed there; the test connects as a superuser, postgres unless PGUSER
# says otherwise, and uses its own database, bs_soak, which it drops),
# otherwise as root against a throwaway server started with scripts/lib.sh
# (which builds and installs the extension first).
#
# pgbench runs 8 clients (2 threads; --clients changes that) over 4 hot rows
# that all of them update at once, each holding a Bloom filter and a
# count-min sketch:
#
#   add       UPDATE hot SET f = bloom_add(f, v), c = cms_add(c, v) on one row
#             (READ COMMITTED: concurrent updates of a row queue up and each
#             re-reads the row it waited for; a waiting add can still be
#             chosen as a deadlock victim through the row's lock queue),
#   add_two   the same on two rows, in random order, at REPEATABLE READ: two
#             clients can deadlock (40P01) or find their row updated since
#             their snapshot (40001); pgbench rolls back and retries those
#             until they commit (--max-tries=0), so a retried transaction
#             counts once,
#   probe     bloom_contains / cms_estimate of a random value on a random row,
#             and of the most recently committed values: they must be found.
#
# Every add also inserts (row, value) into the log table `added` in the same
# transaction, so `added` holds exactly the committed adds.  At the end:
#   * no false negatives: every logged value is reported present by its row's
#     filter, and every estimate is at least the number of logged adds of that
#     value to that row;
#   * no lost or doubled update: each row's filter and sketch are
#     byte-identical to bloom_agg / cms_agg over that row's log (adds commute:
#     bits are ORed and counters summed), and cms_total and items_added equal
#     the number of logged adds;
#   * the log holds one entry per add transaction that pgbench counted (two
#     for add_two), and at most two per client more: transactions in flight
#     when the time ran out, which the server committed but pgbench did not
#     count.
# The probe transactions check the first property while the soak runs: a miss
# raises division_by_zero, which pgbench reports as a failed client.
#
# Prints transactions per second, failures and retries (serialization and
# deadlock), and the checks; exits non-zero on any violation or failure.
set -euo pipefail

ARGS=("$@")
SECONDS_TO_RUN=60
CLIENTS=8
THREADS=2
HOT_ROWS=4
VALUES_RANGE=5000          # values drawn from 1..VALUES_RANGE: many repeats
while [ $# -gt 0 ]; do
	case $1 in
		--quick) SECONDS_TO_RUN=10; shift ;;
		--seconds) SECONDS_TO_RUN=$2; shift 2 ;;
		--clients) CLIENTS=$2; shift 2 ;;
		*) echo "usage: bench/soak.sh [--quick] [--seconds N] [--clients N]" >&2; exit 2 ;;
	esac
done

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -n "${PGHOST:-}" ]; then
	PG_BIN=${PG_BIN:-/usr/lib/postgresql/${BS_PG_MAJOR:-15}/bin}
	export PGUSER=${PGUSER:-postgres}
	echo "==> soak against the server at $PGHOST:${PGPORT:-5432}" >&2
else
	source "$ROOT/scripts/lib.sh"
	bs_require_root "${ARGS[@]}"
	bs_install_packages
	bs_build_install
	bs_start_server
fi
PGBENCH=$PG_BIN/pgbench
DB=bs_soak
WORK=$(mktemp -d /tmp/bloomsketch-soak.XXXXXX)
cleanup() {
	rm -rf "$WORK"
	"$PG_BIN/dropdb" --if-exists "$DB" >/dev/null 2>&1 || true
	if declare -F bs_stop_server >/dev/null; then bs_stop_server; fi
}
trap cleanup EXIT

sql() { "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

"$PG_BIN/dropdb" --if-exists "$DB" >/dev/null 2>&1
"$PG_BIN/createdb" "$DB"
# A short deadlock_timeout: a deadlock is detected (and retried) after 50 ms
# instead of the default second.
sql <<SQL
ALTER DATABASE $DB SET deadlock_timeout = '50ms';
CREATE EXTENSION bloomsketch;
CREATE TABLE hot (id int PRIMARY KEY, f bloomfilter NOT NULL, c cmsketch NOT NULL);
INSERT INTO hot SELECT g, bloom_create(20000, 0.01), cms_create(0.01, 0.01) FROM generate_series(1, $HOT_ROWS) g;
CREATE TABLE added (seq bigserial PRIMARY KEY, row_id int NOT NULL, v bigint NOT NULL);
CREATE INDEX ON added (row_id, v);
SQL

cat >"$WORK/add.sql" <<SQL
\\set row random(1, $HOT_ROWS)
\\set v random(1, $VALUES_RANGE)
BEGIN;
UPDATE hot SET f = bloom_add(f, :v::bigint), c = cms_add(c, :v::bigint) WHERE id = :row;
INSERT INTO added (row_id, v) VALUES (:row, :v);
END;
SQL
cat >"$WORK/add_two.sql" <<SQL
\\set a random(1, $HOT_ROWS)
\\set b 1 + (:a + random(0, $HOT_ROWS - 2)) % $HOT_ROWS
\\set v random(1, $VALUES_RANGE)
\\set w random(1, $VALUES_RANGE)
BEGIN ISOLATION LEVEL REPEATABLE READ;
UPDATE hot SET f = bloom_add(f, :v::bigint), c = cms_add(c, :v::bigint) WHERE id = :a;
INSERT INTO added (row_id, v) VALUES (:a, :v);
UPDATE hot SET f = bloom_add(f, :w::bigint), c = cms_add(c, :w::bigint) WHERE id = :b;
INSERT INTO added (row_id, v) VALUES (:b, :w);
END;
SQL
# One snapshot per statement: a logged value visible to it was added by a
# transaction whose UPDATE is visible too.
cat >"$WORK/probe.sql" <<SQL
\\set row random(1, $HOT_ROWS)
\\set v random(1, $VALUES_RANGE)
SELECT bloom_contains(f, :v::bigint), cms_estimate(c, :v::bigint) FROM hot WHERE id = :row;
SELECT 1 / (count(*) FILTER (WHERE NOT bloom_contains(h.f, a.v) OR cms_estimate(h.c, a.v) < 1) = 0)::int
FROM (SELECT row_id, v FROM added ORDER BY seq DESC LIMIT 50) a JOIN hot h ON h.id = a.row_id;
SELECT 1 / (cms_estimate(c, :v::bigint) >= (SELECT count(*) FROM added WHERE row_id = :row AND v = :v))::int
FROM hot WHERE id = :row;
SQL

echo "==> pgbench: $CLIENTS clients, $THREADS threads, ${SECONDS_TO_RUN} s, $HOT_ROWS hot rows" >&2
set +e
"$PGBENCH" -n -c "$CLIENTS" -j "$THREADS" -T "$SECONDS_TO_RUN" --max-tries=0 --failures-detailed \
	-f "$WORK/add.sql@6" -f "$WORK/add_two.sql@2" -f "$WORK/probe.sql@2" "$DB" >"$WORK/pgbench.out" 2>"$WORK/pgbench.err"
pgbench_status=$?
set -e
status=0
if [ $pgbench_status -ne 0 ]; then
	echo "FAILED pgbench exited with status $pgbench_status:"
	grep -v '^pgbench: .*(retrying\|^$' "$WORK/pgbench.err" | head -20 | sed 's/^/    /'
	status=1
fi

# pgbench's summary: the totals, then one block per script.
field() { sed -n "s/^$1: *\([0-9.]*\).*/\1/p" "$WORK/pgbench.out" | head -1; }
tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' "$WORK/pgbench.out")
processed=$(field 'number of transactions actually processed')
failed=$(field 'number of failed transactions')
serialization=$(field 'number of serialization failures')
deadlocks=$(field 'number of deadlock failures')
retried=$(field 'number of transactions retried')
retries=$(field 'total number of retries')
script_processed() {  # the "- N transactions" line of script $1's block
	awk -v name="$1" '$0 ~ "^SQL script [0-9]+: .*" name "$" {found = 1; next}
		found && /transactions \(/ {sub(/^ *- */, ""); print $1; exit}' "$WORK/pgbench.out"
}
adds=$(script_processed add.sql)
add_twos=$(script_processed add_two.sql)
probes=$(script_processed probe.sql)
echo "pgbench: ${processed:-?} transactions in ${SECONDS_TO_RUN} s, ${tps:-?} tps" \
	"(add ${adds:-?}, add_two ${add_twos:-?}, probe ${probes:-?})"
# pgbench counts retries but not their causes; the server counts deadlocks.
server_deadlocks=$(sql -c "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
echo "errors: ${retries:-?} serialization/deadlock errors, each rolled back and retried" \
	"(${server_deadlocks:-?} deadlocks detected by the server, the rest serialization failures)," \
	"in ${retried:-?} transactions; ${failed:-?} transactions failed after all retries" \
	"(serialization ${serialization:-?}, deadlock ${deadlocks:-?})"
if [ -n "$failed" ] && [ "$failed" -ne 0 ]; then
	echo "FAILED $failed transactions failed after all retries"; status=1
fi

check() {  # check NAME SQL: the query returns the number of violations
	local n
	n=$(sql -c "$2")
	if [ "$n" = 0 ]; then
		echo "ok     $1"
	else
		echo "FAILED $1: $n violations"; status=1
	fi
}
logged=$(sql -c "SELECT count(*) FROM added")
distinct=$(sql -c "SELECT count(*) FROM (SELECT DISTINCT row_id, v FROM added) d")
echo "log: $logged committed adds, $distinct distinct (row, value) pairs"
check "no false negatives: every committed value is in its row's filter" \
	"SELECT count(*) FROM added a JOIN hot h ON h.id = a.row_id WHERE NOT bloom_contains(h.f, a.v)"
check "no under-estimate: every estimate >= committed adds of that value to that row" \
	"SELECT count(*) FROM (SELECT row_id, v, count(*) AS n FROM added GROUP BY row_id, v) a
	 JOIN hot h ON h.id = a.row_id WHERE cms_estimate(h.c, a.v) < a.n"
check "cms_total and items_added equal the committed adds of each row" \
	"SELECT count(*) FROM hot h WHERE (cms_total(h.c), (bloom_info(h.f)).items_added) IS DISTINCT FROM
	 (SELECT (count(*), count(*)) FROM added a WHERE a.row_id = h.id)"
check "each row's filter and sketch are byte-identical to bloom_agg/cms_agg over its log" \
	"SELECT count(*) FROM hot h WHERE EXISTS (SELECT 1 FROM added a WHERE a.row_id = h.id) AND
	 (h.f, h.c) IS DISTINCT FROM (SELECT (bloom_agg(a.v, 20000, 0.01), cms_agg(a.v, 0.01, 0.01))
	                              FROM added a WHERE a.row_id = h.id)"
if [ -n "$adds" ] && [ -n "$add_twos" ]; then
	# pgbench does not count a transaction still in flight when the time is
	# up, though the server may have committed it: at most 2 adds per client.
	counted=$((adds + 2 * add_twos))
	check "the log holds the $counted adds of the transactions pgbench counted, and at most $((2 * CLIENTS)) more (in flight at the end): $((logged - counted)) more" \
		"SELECT CASE WHEN count(*) BETWEEN $counted AND $counted + 2 * $CLIENTS THEN 0 ELSE 1 END FROM added"
else
	echo "FAILED could not read the per-script transaction counts from pgbench's output"; status=1
fi

if [ $status -ne 0 ]; then
	echo "--- pgbench output"; cat "$WORK/pgbench.out"
fi
exit $status
