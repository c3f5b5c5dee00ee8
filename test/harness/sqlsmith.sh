#!/usr/bin/env bash
# test/harness/sqlsmith.sh — random SQL over bloomfilter, cmsketch and topksketch
# values with sqlsmith (Debian package sqlsmith).
#
#   test/harness/sqlsmith.sh [MAX_QUERIES] [SECONDS]     (defaults 20000 and 180)
#
# Creates a database with the extension and tables holding the three types next
# to bigint, int, text, bytea, float, boolean, timestamptz and uuid columns
# (valid values of several schemes and families, their serialized bytes and
# text forms, a few NULLs), then runs sqlsmith on it (--exclude-catalog, so
# that its queries draw on these tables) until MAX_QUERIES or SECONDS,
# whichever comes first.  Reports the queries run and how many ended in an
# error (most are type or argument errors of random SQL, which is expected)
# and, when the server log is readable, the SQLSTATEs of the errors raised
# in the extension's own code.  Fails when the server crashed
# (test/harness/fuzz_watch.sh).
#
# Uses PGHOST/PGPORT/PGUSER (a superuser); BS_SERVER_LOG names the server
# log; SQLSMITH_SEED (default 1) seeds sqlsmith's generator.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/fuzz_watch.sh"

max=${1:-20000}
budget=${2:-180}
seed=${SQLSMITH_SEED:-1}
db=bs_sqlsmith_$$
work=$(mktemp -d /tmp/bs-sqlsmith.XXXXXX)
cleanup() {
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
# A step that could not run: say so, and whether the server crashed.
fail() {
	echo "FAILED: $1"
	watch_check || true
	echo "sqlsmith: $((SECONDS - started)) s, FAILED"
	exit 1
}
started=$SECONDS

watch_start "$work"
psql -X -q -v ON_ERROR_STOP=1 -d postgres \
	-c "CREATE DATABASE $db" \
	-c "ALTER DATABASE $db SET log_error_verbosity = verbose" || fail "cannot create a database"
tables_ok=1
psql -X -q -v ON_ERROR_STOP=1 -d "$db" <<'SQL' || tables_ok=0
CREATE EXTENSION bloomsketch;
CREATE TABLE events (id bigint, user_id bigint, small int, word text, raw bytea,
	score float8, flag boolean, seen timestamptz, tag uuid);
INSERT INTO events
SELECT i, i % 97, i % 7, 'w' || (i % 31), decode(md5(i::text), 'hex'), i / 3.0,
	i % 2 = 0, timestamptz '2024-01-01' + i * interval '1 hour', md5((i % 13)::text)::uuid
FROM generate_series(1, 2000) i;
UPDATE events SET word = NULL WHERE id % 50 = 0;

CREATE TABLE daily (day int, users bloomfilter, words bloomfilter, n bigint, label text);
INSERT INTO daily
SELECT id % 5, bloom_agg(user_id, 100, 0.01), bloom_agg(word, 40, 0.05), count(*), min(word)
FROM events GROUP BY id % 5;
INSERT INTO daily
SELECT 10 + row_number() OVER (), f, NULL, 0, s
FROM (SELECT s, bloom_agg(user_id, 50, 0.02, s) AS f
	FROM events, unnest(ARRAY['double_square', 'double_cube', 'partition', 'independent', 'blocked']) s
	GROUP BY s) x;
INSERT INTO daily VALUES (20, bloom_create(10, 0.1), bloom_create(1000, 0.001, -1), NULL, NULL);

CREATE TABLE sketches (id int, hits cmsketch, words cmsketch, n bigint, word text);
INSERT INTO sketches
SELECT id % 4, cms_agg(user_id, 0.05, 0.05), cms_agg(word, small::bigint, 0.1, 0.01), sum(small), min(word)
FROM events GROUP BY id % 4;
INSERT INTO sketches VALUES (9, cms_create_dims(5, 3), cms_create(0.2, 0.2, 7), NULL, NULL);

CREATE TABLE serialized (id int, bloom_bytes bytea, bloom_text text, cms_bytes bytea, cms_text text);
INSERT INTO serialized
SELECT d.day, d.users::bytea, d.users::text, s.hits::bytea, s.hits::text
FROM daily d JOIN sketches s ON s.id = d.day;
INSERT INTO serialized
SELECT 100 + id, substring(bloom_bytes FROM 1 FOR 30), left(bloom_text, 40),
	cms_bytes || '\x00'::bytea, replace(cms_text, 'v2', 'v3')
FROM serialized;

-- Values stored out of line (uncompressed and compressed) and compressed
-- inline, structured values, and filters and sketches large enough to be
-- TOASTed: the paths that once hashed a TOAST pointer instead of its value.
CREATE TABLE long_values (id int, body text, blob bytea, tags text[], doc jsonb, span numrange);
ALTER TABLE long_values ALTER COLUMN blob SET STORAGE EXTERNAL;
INSERT INTO long_values
SELECT i, CASE WHEN i % 2 = 0 THEN repeat(md5(i::text), 120) ELSE repeat('ab', 3000) || i END,
	decode(repeat(md5(i::text), 100), 'hex'), ARRAY['t' || i, repeat('x', i * 50)],
	jsonb_build_object('n', i / 4.0, 'w', repeat('y', i * 30)), numrange(i, i * 1.50)
FROM generate_series(1, 60) i;
CREATE TABLE long_filters (id int, f bloomfilter, c cmsketch);
INSERT INTO long_filters
SELECT 1, bloom_agg(body, 4000000, 0.01), cms_agg(body, 0.00001, 0.01) FROM long_values
UNION ALL SELECT 2, bloom_agg(tags, 100), cms_agg(doc) FROM long_values
UNION ALL SELECT 3, bloom_agg(blob, 100, 0.01, 'blocked'), cms_agg(span) FROM long_values;

CREATE TABLE heavy (id int, words topksketch, users topksketch, tags topksketch, n bigint);
INSERT INTO heavy
SELECT id % 4, topk_agg(word, 5), topk_agg(user_id, 10, 0.05), topk_agg(tag, 3), count(*)
FROM events GROUP BY id % 4;
INSERT INTO heavy VALUES (9, 'topk:v1:none:counters=5:entries=0:total=0:error=0:bytes=0:', NULL, NULL, 0);
INSERT INTO heavy
SELECT 20, topk_agg(body, 5), NULL, topk_agg(span, 3), count(*) FROM long_values;

-- The element-wise functions (bloom_contains_each, ...) take anyarray, for
-- which sqlsmith makes no values, and two of them return sets, which it does
-- not call: concrete SQL wrappers, inlined into its queries so that the C
-- functions run, over the arrays of id_lists and of its own expressions.
CREATE TABLE id_lists (id int, ids bigint[], words text[], days date[]);
INSERT INTO id_lists
SELECT id % 6, array_agg(user_id ORDER BY id), array_agg(word ORDER BY id),
	array_agg(seen::date ORDER BY id)
FROM events GROUP BY id % 6;
INSERT INTO id_lists VALUES (10, '{}', '{NULL}', NULL), (11, '[0:1][3:4]={{1,2},{3,NULL}}', '{a,b}', '{}');
CREATE FUNCTION ids_contains_each(f bloomfilter, ids bigint[]) RETURNS boolean[]
	LANGUAGE sql IMMUTABLE AS 'SELECT bloom_contains_each(f, ids)';
CREATE FUNCTION words_contains_each(f bloomfilter, words text[]) RETURNS boolean[]
	LANGUAGE sql IMMUTABLE AS 'SELECT bloom_contains_each(f, words)';
CREATE FUNCTION ids_contains_all(f bloomfilter, ids bigint[]) RETURNS boolean
	LANGUAGE sql IMMUTABLE AS 'SELECT bloom_contains_all(f, ids)';
CREATE FUNCTION words_contains_any(f bloomfilter, words text[]) RETURNS boolean
	LANGUAGE sql IMMUTABLE AS 'SELECT bloom_contains_any(f, words)';
CREATE FUNCTION ids_members(f bloomfilter, ids bigint[]) RETURNS bigint[]
	LANGUAGE sql IMMUTABLE AS 'SELECT array(SELECT bloom_members(f, ids))';
CREATE FUNCTION ids_add_each(f bloomfilter, ids bigint[]) RETURNS bloomfilter
	LANGUAGE sql IMMUTABLE AS 'SELECT bloom_add_each(f, ids)';
CREATE FUNCTION days_add_each(f bloomfilter, days date[]) RETURNS bloomfilter
	LANGUAGE sql IMMUTABLE AS 'SELECT bloom_add_each(f, days)';
CREATE FUNCTION ids_estimate_each(s cmsketch, ids bigint[]) RETURNS bigint[]
	LANGUAGE sql IMMUTABLE AS 'SELECT cms_estimate_each(s, ids)';
CREATE FUNCTION words_add_each(s cmsketch, words text[], n bigint) RETURNS cmsketch
	LANGUAGE sql IMMUTABLE AS 'SELECT cms_add_each(s, words, n)';
CREATE FUNCTION words_topk_each(t topksketch, words text[]) RETURNS bigint[]
	LANGUAGE sql IMMUTABLE AS 'SELECT topk_estimate_each(t, words)';
CREATE FUNCTION ids_topk_bounds(t topksketch, ids bigint[]) RETURNS bigint[]
	LANGUAGE sql IMMUTABLE AS 'SELECT array(SELECT upper_bound FROM topk_bounds_each(t, ids))';

CREATE VIEW filters AS
SELECT day, users, users::bytea AS bytes, users::text AS spelled, bloom_cardinality(users) AS estimate
FROM daily;
ANALYZE;
SQL
[ "$tables_ok" -eq 1 ] || fail "cannot create the extension and the tables"
echo "database $db ready ($((SECONDS - started)) s); sqlsmith: up to $max queries or $budget s, seed $seed"

rc=0
timeout --signal=INT --kill-after=30 "$budget" \
	sqlsmith --target="host=$PGHOST port=$PGPORT user=$PGUSER dbname=$db" \
	--exclude-catalog --max-queries="$max" --seed="$seed" --verbose \
	>/dev/null 2>"$work/sqlsmith.err" || rc=$?

queries=$(grep -o '^queries: [0-9]*' "$work/sqlsmith.err" | tail -1 | grep -o '[0-9]*$' || true)
rate=$(grep -o '^error rate: [0-9.e-]*' "$work/sqlsmith.err" | tail -1 | sed 's/^error rate: //' || true)
progress=$(grep -E '^[.etCS]+$' "$work/sqlsmith.err" | tr -d '\n' || true)
if [ -z "$queries" ]; then
	queries=${#progress}
fi
errors=$(printf '%s' "$progress" | tr -cd 'etCS' | wc -c)
timeouts=$(printf '%s' "$progress" | tr -cd 't' | wc -c)
echo "sqlsmith: $queries queries, $errors errors (${rate:-?} error rate; $timeouts statement timeouts) in $((SECONDS - started)) s (exit $rc)"
# sqlsmith repeats its error report every 1000 queries: read the last one
echo "most frequent errors naming the extension's types or functions:"
awk '/^queries: / { n = 0 } /^[0-9]+\t/ { lines[n++] = $0 }
	END { for (i = 0; i < n; i++) print lines[i] }' "$work/sqlsmith.err" |
	grep -E 'bloom|cms|topk|sketch' | sort -rn | head -6 | sed 's/^/    /' || true

# The SQLSTATEs of errors raised in the extension's source files (server log).
if [ -n "$WATCH_LOG" ]; then
	ours=$(cd "$here/../../src" && ls pg/*.c core/*/*.c 2>/dev/null | xargs -n1 basename | paste -sd'|')
	tail -c +"$((WATCH_LOG_SIZE + 1))" "$WATCH_LOG" | awk -v ours="$ours" '
		match($0, /ERROR:  [0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z]: /) {
			code = substr($0, RSTART + 8, 5)
			msg = substr($0, RSTART + RLENGTH)
			next
		}
		/LOCATION:  / && code != "" {
			if (match($0, "(" ours "):[0-9]+")) { n[code]++; if (code == "XX000") internal[msg]++ }
			code = ""
		}
		END {
			line = ""
			for (c in n) line = line " " c ": " n[c]
			print "errors raised in bloomsketch code by SQLSTATE:" (line == "" ? " none" : line)
			for (m in internal) print "    XX000 (internal error) x" internal[m] ": " m
		}'
fi

status=0
watch_check || status=1
if [ "$queries" -eq 0 ]; then
	echo "FAILED: sqlsmith ran no query"
	tail -5 "$work/sqlsmith.err"
	status=1
fi
echo "sqlsmith: $((SECONDS - started)) s, $([ "$status" -eq 0 ] && echo passed || echo FAILED)"
exit "$status"
