#!/usr/bin/env bash
# Dump and restore of tables holding bloomfilter, cmsketch and topksketch
# values: pg_dump
# and pg_restore in custom, directory (2 jobs) and plain format, and COPY in
# text, csv and binary.  Every value must come back byte for byte: the md5 of
# each value's serialized form (::bytea) is compared row by row.
#
# The tables hold the three types in several sizes, every value family, every
# probing scheme, NULLs, arrays of them, small values stored inline, sparse
# values that TOAST compresses and dense ones that it stores uncompressed out
# of line.
#
# Runs against the server in PGHOST/PGPORT (scripts/test.sh starts one), as a
# user that may create databases; PG_BIN may name the PostgreSQL binaries.
# Prints one "ok"/"FAILED" line per check and exits non-zero on any failure.
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/${BS_PG_MAJOR:-15}/bin}
DBS=(bs_dump_src bs_dump_custom bs_dump_dir bs_dump_plain)
source "$(dirname "$0")/scratch_dbs.sh"
"$PG_BIN/createdb" bs_dump_src
psql -d bs_dump_src <<'SQL'
CREATE EXTENSION bloomsketch;

-- One row per case; f, c and t are independent columns so that NULLs appear
-- in any of them.
CREATE TABLE sketches (id int PRIMARY KEY, what text NOT NULL, f bloomfilter, c cmsketch,
	t topksketch);

-- Bloom filters of every value family (scheme double).
INSERT INTO sketches (id, what, f) VALUES
	(1, 'empty, family none', bloom_create(10)),
	(2, 'integer', (SELECT bloom_agg(i, 1000) FROM generate_series(1, 500) i)),
	(3, 'text', bloom_add(bloom_add(bloom_create(100, 0.001, -42), 'text value'), '')),
	(4, 'bytea', bloom_add(bloom_create(100), '\x00ff00'::bytea)),
	(5, 'uuid', bloom_add(bloom_create(100), '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid)),
	(6, 'numeric', bloom_add(bloom_create(100), 1.50::numeric)),
	(7, 'float', bloom_add(bloom_create(100), 'NaN'::float8)),
	(8, 'bool', bloom_add(bloom_create(100), true)),
	(9, 'date', bloom_add(bloom_create(100), date '2024-03-01')),
	(10, 'timestamp', bloom_add(bloom_create(100), timestamp '2024-03-01 12:00')),
	(11, 'timestamptz', bloom_add(bloom_create(100), timestamptz '2024-03-01 12:00+00')),
	(12, 'other (inet)', bloom_add(bloom_create(100), '10.0.0.1'::inet)),
	(13, 'other (int4range)', bloom_add(bloom_create(100), int4range(1, 10))),
	(14, 'largest seed', bloom_add(bloom_create(1000, 0.01, 9223372036854775807), 7)),
	(15, 'smallest seed', bloom_add(bloom_create(1000, 0.01, -9223372036854775808), 7));

-- Every probing scheme, filled.
INSERT INTO sketches (id, what, f)
SELECT 20 + n, 'scheme ' || scheme,
	(SELECT bloom_agg(i, 1000, 0.01, scheme) FROM generate_series(1, 1000) i)
FROM unnest(ARRAY['double', 'double_square', 'double_cube', 'partition', 'independent', 'blocked'])
	WITH ORDINALITY s(scheme, n);
INSERT INTO sketches (id, what, f) VALUES
	(27, 'blocked, empty', bloom_create(1000, 0.01, 0, 'blocked')),
	(28, 'partition, text', bloom_add(bloom_create(1000, 0.01, 3, 'partition'), 'x'));

-- Count-min sketches of several families and shapes.
INSERT INTO sketches (id, what, c) VALUES
	(40, 'cms empty, family none', cms_create()),
	(41, 'cms integer', (SELECT cms_agg(i % 100) FROM generate_series(1, 10000) i)),
	(42, 'cms text, weighted, 3 copies', (SELECT cms_agg(w, n, 0.05, 0.001)
		FROM (VALUES ('a', 5000000000), ('b', 1), ('', 2)) t(w, n))),
	(43, 'cms uuid, dims', cms_add(cms_create_dims(100, 5, -1), '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid, 3)),
	(44, 'cms other (inet)', cms_add(cms_create_dims(7, 7), '::1'::inet, 9223372036854775807)),
	(45, 'cms intersection', cms_intersect(
		(SELECT cms_agg(i, 0.01, 0.01) FROM generate_series(1, 1000) i),
		(SELECT cms_agg(i, 0.01, 0.01) FROM generate_series(500, 3000) i))),
	(46, 'cms numeric', cms_add(cms_create(0.1, 0.1), 2.0::numeric));

-- Heavy-hitters summaries of several families, texts and sizes.
INSERT INTO sketches (id, what, t) VALUES
	(90, 'topk empty, family none', 'topk:v1:none:counters=5:entries=0:total=0:error=0:bytes=0:'),
	(91, 'topk integer, reduced', (SELECT topk_agg(i % 37 * (i % 5), 10) FROM generate_series(1, 10000) i)),
	(92, 'topk text, non-ASCII and long', (SELECT topk_agg(repeat('é' || (i % 9), 1 + i % 50), 20)
		FROM generate_series(1, 2000) i)),
	(93, 'topk numeric, texts apart from keys', (SELECT topk_agg(x, 3) FROM unnest('{1.0,1.00,2.50}'::numeric[]) x)),
	(94, 'topk other (inet)', (SELECT topk_agg(('10.0.0.' || i % 7)::inet, 4) FROM generate_series(1, 100) i)),
	(95, 'topk 100000 counters (out of line)', (SELECT topk_agg(i, 100000) FROM generate_series(1, 60000) i));

-- A filter and a sketch in one row, and NULLs.
INSERT INTO sketches VALUES
	(60, 'both', (SELECT bloom_agg(i, 100) FROM generate_series(1, 50) i),
		(SELECT cms_agg(i) FROM generate_series(1, 50) i)),
	(61, 'both NULL', NULL, NULL),
	(62, 'bloom NULL', NULL, cms_create_dims(2, 1)),
	(63, 'cms NULL', bloom_create(1), NULL);

-- Large values: sparse ones that TOAST compresses (a 12 MB filter with 100
-- items, a 4.3 MB empty sketch), dense filters that it stores out of line
-- uncompressed (1.2 MB and 1.9 MB, at capacity) and a 0.6 MB sketch of 10^6
-- rows (out of line; its small counters compress).
INSERT INTO sketches VALUES
	(80, 'large sparse (compressed)', (SELECT bloom_agg(i, 10000000) FROM generate_series(1, 100) i),
		cms_create(0.0001, 0.0001)),
	(81, 'large dense (out of line)', (SELECT bloom_agg(i, 1000000) FROM generate_series(1, 1000000) i),
		(SELECT cms_agg(i, 0.001, 0.0001) FROM generate_series(1, 1000000) i)),
	(82, 'large dense, blocked', (SELECT bloom_agg(i, 1000000, 0.001, 'blocked') FROM generate_series(1, 1000000) i),
		NULL);

-- Arrays of filters and of sketches (their text form nests the values' text forms).
CREATE TABLE arrays (id int PRIMARY KEY, fs bloomfilter[], cs cmsketch[]);
INSERT INTO arrays
SELECT 1, array_agg(f ORDER BY id) FILTER (WHERE id < 30), array_agg(c ORDER BY id) FILTER (WHERE id BETWEEN 40 AND 49)
FROM sketches;
INSERT INTO arrays VALUES (2, ARRAY[NULL, bloom_create(5)], ARRAY[cms_create_dims(3, 2), NULL]), (3, NULL, '{}');
SQL

# One line per row: id, then the md5 of every value's serialized bytes.
digest_sql() {
	case $1 in
	sketches*) echo "SELECT id || ' ' || coalesce(md5(f::bytea), 'null') || ' ' || coalesce(md5(c::bytea), 'null')
		|| ' ' || coalesce(md5(t::bytea), 'null') FROM $1 ORDER BY id" ;;
	arrays*) echo "SELECT id || ' ' || coalesce((SELECT string_agg(coalesce(md5(x::bytea), 'null'), ',' ORDER BY o)
			FROM unnest(fs) WITH ORDINALITY u(x, o)), 'null') || ' ' || coalesce((SELECT string_agg(coalesce(md5(x::bytea), 'null'), ',' ORDER BY o)
			FROM unnest(cs) WITH ORDINALITY u(x, o)), 'null') || ' ' || coalesce(array_length(fs, 1), -1) || ' ' || coalesce(array_length(cs, 1), -1)
		FROM $1 ORDER BY id" ;;
	esac
}
digest() { psql -At -d "$1" -c "$(digest_sql "$2")"; }

for table in sketches arrays; do digest bs_dump_src $table >"$work/want.$table"; done
rows=$(cat "$work/want.sketches" | wc -l)
values=$(psql -At -d bs_dump_src -c "SELECT count(f) + count(c) + count(t) FROM sketches")
echo "source: $rows rows, $values values in sketches, $(wc -l <"$work/want.arrays") rows in arrays"

# The large sparse values must really be stored compressed, and the dense
# ones out of line, or the test does not cover what it claims.
psql -At -d bs_dump_src -c "SELECT id, pg_column_size(f), octet_length(f::bytea), pg_column_size(c), octet_length(c::bytea)
	FROM sketches WHERE id BETWEEN 80 AND 89 ORDER BY id" | while IFS='|' read -r id fs fb cs cb; do
	echo "  row $id: bloomfilter stored in $fs of $fb bytes, cmsketch stored in ${cs:-NULL} of ${cb:-NULL} bytes"
done
status=0
storage=$(psql -At -d bs_dump_src -c "SELECT bool_and(CASE id
		WHEN 80 THEN pg_column_size(f) * 10 < octet_length(f::bytea) AND pg_column_size(c) * 10 < octet_length(c::bytea)
		ELSE pg_column_size(f) >= octet_length(f::bytea) END) FROM sketches WHERE id IN (80, 81, 82)")
if [ "$storage" = t ]; then
	echo "ok     the sparse values are stored compressed, the dense filters uncompressed"
else
	echo "FAILED the large values are not stored as this test assumes"; status=1
fi

# run NAME COMMAND...: one step of a round trip; a failing step fails the check
run() {
	local name=$1; shift
	if ! "$@" >"$work/step.log" 2>&1; then
		echo "FAILED $name: $*"; sed 's/^/    /' "$work/step.log" | tail -20; status=1
		return 1
	fi
}

# pg_dump / pg_restore
if run "pg_dump custom" "$PG_BIN/pg_dump" -Fc -f "$work/dump.custom" bs_dump_src; then
	"$PG_BIN/createdb" bs_dump_custom
	run "pg_restore custom" "$PG_BIN/pg_restore" --exit-on-error -d bs_dump_custom "$work/dump.custom" || true
fi
if run "pg_dump directory" "$PG_BIN/pg_dump" -Fd -j 2 -f "$work/dump.dir" bs_dump_src; then
	"$PG_BIN/createdb" bs_dump_dir
	run "pg_restore directory" "$PG_BIN/pg_restore" --exit-on-error -j 2 -d bs_dump_dir "$work/dump.dir" || true
fi
if run "pg_dump plain" "$PG_BIN/pg_dump" -Fp -f "$work/dump.sql" bs_dump_src; then
	"$PG_BIN/createdb" bs_dump_plain
	run "psql restore plain" psql -d bs_dump_plain -f "$work/dump.sql" || true
fi

# COPY through the client, in every format, and binary COPY server to server.
for table in sketches arrays; do
	run "COPY $table" psql -d bs_dump_src \
		-c "\\copy $table TO '$work/$table.txt'" \
		-c "\\copy $table TO '$work/$table.csv' (FORMAT csv)" \
		-c "\\copy $table TO '$work/$table.bin' (FORMAT binary)" \
		-c "CREATE TABLE ${table}_txt (LIKE $table)" \
		-c "CREATE TABLE ${table}_csv (LIKE $table)" \
		-c "CREATE TABLE ${table}_bin (LIKE $table)" \
		-c "CREATE TABLE ${table}_pipe (LIKE $table)" \
		-c "\\copy ${table}_txt FROM '$work/$table.txt'" \
		-c "\\copy ${table}_csv FROM '$work/$table.csv' (FORMAT csv)" \
		-c "\\copy ${table}_bin FROM '$work/$table.bin' (FORMAT binary)" || true
	if ! { psql -d bs_dump_src -c "COPY $table TO STDOUT (FORMAT binary)" |
		psql -d bs_dump_src -c "COPY ${table}_pipe FROM STDIN (FORMAT binary)"; } >"$work/step.log" 2>&1; then
		echo "FAILED binary COPY pipe of $table"; tail -5 "$work/step.log"; status=1
	fi
done

# compare DB TABLE SOURCE_TABLE: every row's digest must equal the source's
compare() {
	local db=$1 table=$2 source=$3 got
	if ! got=$(digest "$db" "$table" 2>&1); then
		echo "FAILED $db.$table: $got" | head -5; status=1; return
	fi
	if [ "$got" = "$(cat "$work/want.$source")" ]; then
		echo "ok     $db.$table: every value identical ($(wc -l <"$work/want.$source") rows)"
	else
		echo "FAILED $db.$table differs from the source; rows that differ (source < > restored):"
		diff <(cat "$work/want.$source") <(printf '%s\n' "$got") | head -20 | sed 's/^/    /' || true
		status=1
	fi
}

for table in sketches arrays; do
	for db in bs_dump_custom bs_dump_dir bs_dump_plain; do
		compare $db $table $table
	done
	for copy in txt csv bin pipe; do
		compare bs_dump_src ${table}_$copy $table
	done
done

# The restored values are usable: the same answers as in the source.
answers="SELECT string_agg(id || ':' || coalesce(bloom_cardinality(f)::text, '-') || ':' || coalesce(cms_total(c)::text, '-')
	|| ':' || coalesce((SELECT string_agg(value || '=' || count, ' ') FROM topk_items(t)), '-'), ',' ORDER BY id) FROM sketches"
want=$(psql -At -d bs_dump_src -c "$answers")
for db in bs_dump_custom bs_dump_dir bs_dump_plain; do
	if [ "$(psql -At -d $db -c "$answers" 2>&1)" = "$want" ]; then
		echo "ok     $db: restored values give the same estimates"
	else
		echo "FAILED $db: restored values give different estimates"; status=1
	fi
done

exit $status
