#!/usr/bin/env bash
# Dump and restore of tables holding bloomfilter values, in custom and plain
# format, and COPY in text and binary: every value must come back byte for
# byte.  Runs against the server in PGHOST/PGPORT (scripts/test.sh starts one).
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"; for db in bs_dump_src bs_dump_custom bs_dump_plain; do "$PG_BIN/dropdb" --if-exists "$db" >/dev/null 2>&1 || true; done' EXIT

psql() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

for db in bs_dump_src bs_dump_custom bs_dump_plain; do "$PG_BIN/dropdb" --if-exists "$db" >/dev/null 2>&1; done
"$PG_BIN/createdb" bs_dump_src
psql -d bs_dump_src <<'SQL'
CREATE EXTENSION bloomsketch;
CREATE TABLE filters (id int PRIMARY KEY, f bloomfilter);
INSERT INTO filters
SELECT g, bloom_agg(i, 20000, 0.01) FROM generate_series(1, 60000) i, LATERAL (SELECT i % 3 AS g) s GROUP BY g;
INSERT INTO filters VALUES (10, bloom_create(10)), (11, bloom_add(bloom_create(100), 'text value')),
	(12, bloom_add(bloom_create(100), '10.0.0.1'::inet)), (13, NULL),
	(14, (SELECT bloom_agg(i, 2000000) FROM generate_series(1, 100) i));  -- sparse: stored compressed
SQL
digest="SELECT string_agg(id || ':' || coalesce(md5(f::bytea), 'null'), ',' ORDER BY id) FROM filters"
want=$(psql -At -d bs_dump_src -c "$digest")

"$PG_BIN/pg_dump" -Fc -f "$work/dump.custom" bs_dump_src
"$PG_BIN/createdb" bs_dump_custom
"$PG_BIN/pg_restore" -d bs_dump_custom "$work/dump.custom"
"$PG_BIN/pg_dump" -Fp -f "$work/dump.sql" bs_dump_src
"$PG_BIN/createdb" bs_dump_plain
psql -d bs_dump_plain -f "$work/dump.sql" >/dev/null

psql -d bs_dump_src -c "\\copy filters TO '$work/copy.bin' (FORMAT binary)" \
	-c "\\copy filters TO '$work/copy.txt'" \
	-c "CREATE TABLE from_bin (LIKE filters)" -c "CREATE TABLE from_txt (LIKE filters)" \
	-c "\\copy from_bin FROM '$work/copy.bin' (FORMAT binary)" \
	-c "\\copy from_txt FROM '$work/copy.txt'"

status=0
for check in "bs_dump_custom:filters" "bs_dump_plain:filters" "bs_dump_src:from_bin" "bs_dump_src:from_txt"; do
	db=${check%%:*}; table=${check##*:}
	got=$(psql -At -d "$db" -c "${digest/FROM filters/FROM $table}")
	if [ "$got" = "$want" ]; then
		echo "ok     $db.$table: every value identical"
	else
		echo "FAILED $db.$table differs"; status=1
	fi
done
exit $status
