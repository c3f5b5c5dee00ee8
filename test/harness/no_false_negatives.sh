#!/usr/bin/env bash
# Zero false negatives: a differential test of bloomfilter, cmsketch and
# topksketch.
#
# A Bloom filter must never answer "no" for a value that was added, and a
# count-min sketch must never estimate below a value's true count; a
# heavy-hitters summary must list every value that occurs more than N/(c+1)
# times and bound every value's count (docs/topk.md).  Every check below
# builds filters, sketches and summaries from a known set of values, probes
# every one of those values again, counts the misses in SQL and requires 0;
# it also requires the number of probes made to be the number expected, so a
# check that silently probed nothing (an empty set, a join that matched no
# filter, a trigger that did not fire) fails instead of passing.
#
# What varies (each item appears in at least one check):
#  * the type of the values: every family (int2/4/8, numeric with 1.0 = 1.00,
#    float4/8, bool, text, varchar, bpchar, name, bytea, uuid, date, timestamp,
#    timestamptz), values that are equal in SQL but differ in type or spelling,
#    the structured types hashed element by element (int4[], text[], numrange,
#    int4range, a composite, jsonb), and enum and citext, which must be refused;
#  * how the values are stored: inline with a 1- or 4-byte header, compressed
#    inline, out of line compressed and uncompressed, or computed by an
#    expression (the storage forms are asserted, not assumed);
#  * the builder: bloom_agg (2, 3 and 4 arguments, every scheme), bloom_add in
#    a loop, bloom_union_agg, bloom_intersect_agg, cms_agg (4 forms), cms_add,
#    cms_merge_agg; small filters (capacity 1000) and large ones (4 MB+),
#    stored in tables (TOASTed, compressed or not) or used directly;
#  * self-sized filters: bloom_fit_agg with 1, 2 and 3 arguments, groups kept
#    as hash lists and groups past max_bits / 256 kept as bits (the state's
#    form is asserted), groups over a small max_bits, per GROUP BY group of
#    sizes 1 to 512, and unions and intersections of fit filters of
#    different sizes (no member of the union, or of every operand, lost);
#  * heavy hitters: topk_agg (k, and k with epsilon) serial, in forced
#    parallel plans and merged by topk_merge_agg over GROUP BY partials, over
#    integers, uuid, date, short and out-of-line text: every value above
#    N/(c+1) listed, every value's count within its bounds (max_error for an
#    unlisted one);
#  * the prober: bloom_contains, @>, <@ and cms_estimate, from plain SQL, a
#    prepared statement run with a generic plan, a PL/pgSQL loop that keeps a
#    filter in a variable, a cursor fetched in a loop and a trigger, against
#    capacity-sized and self-sized stored filters;
#  * serial against forced parallel plans (the parallel build, fit filters
#    included, must be byte-identical to the serial one; a parallel summary
#    need only keep its guarantees), also under client_encoding LATIN1;
#  * database encodings: filters (capacity-sized and self-sized) built in
#    LATIN1 and EUC_JP databases, moved to a UTF8 database by pg_dump |
#    pg_restore, COPY text and binary, and their text form, and probed there
#    with the same values written as literals, under client_encoding UTF8 and
#    LATIN1 (text is hashed as UTF-8 whatever the database encoding, so these
#    must all answer yes).
#
# Runs against the server in PGHOST/PGPORT (scripts/test.sh starts one), as a
# superuser (it reads TOAST tables to prove where values are stored); PG_BIN
# may name the PostgreSQL binaries.  Creates its own databases and drops them
# on exit.  Prints one "ok"/"FAILED" line per check, with the counts of a
# failure below it, and exits non-zero on any failure.  About a minute.
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
SQL_DIR=$(cd "$(dirname "$0")" && pwd)/no_false_negatives
DB=bs_nfn                # UTF8: most checks, and where moved filters are probed
DB_LATIN1=bs_nfn_latin1
DB_EUCJP=bs_nfn_eucjp
DBS=($DB $DB_LATIN1 $DB_EUCJP)
# The script's literals are UTF-8; a check may override this (LATIN1).
export PGCLIENTENCODING=UTF8

source "$(dirname "$0")/scratch_dbs.sh"

passed=0
failed=0
fail() { # NAME DETAIL...
	local name=$1; shift
	echo "FAILED $name"
	printf '%s\n' "$@" | sed 's/^/    /'
	failed=$((failed + 1))
}

# check NAME EXPECTED_PROBES [DB] <<SQL
#
# Runs the SQL (read from stdin) in DB (default the UTF8 database), which must
# define the temporary view "probes" (see summary.sql) and may redefine
# "side_checks" (what text, passed boolean) with further assertions.  The psql
# variable :tag holds the check's name, for the rows the check puts in
# nfn_tally.  Passes when the probes made are exactly EXPECTED_PROBES, none
# missed and every side check passed.  With PGCLIENTENCODING=LATIN1 in the
# environment, the SQL is sent in LATIN1.
check() {
	local name=$1 want=$2 db=${3:-$DB} out line probes misses broken detail
	{
		echo "CREATE TEMP VIEW side_checks AS SELECT NULL::text AS what, NULL::boolean AS passed WHERE false;"
		if [ "$db" = "$DB" ]; then echo "DELETE FROM nfn_tally WHERE check_name = :'tag';"; fi
		cat
		cat "$SQL_DIR/summary.sql"
	} >"$work/check.sql"
	if [ "${PGCLIENTENCODING}" = LATIN1 ]; then
		iconv -f UTF-8 -t LATIN1 "$work/check.sql" >"$work/check.latin1.sql"
		mv "$work/check.latin1.sql" "$work/check.sql"
	fi
	if ! out=$(psql -At -d "$db" -v tag="$name" -f "$work/check.sql" 2>"$work/check.err"); then
		fail "$name" "the check's SQL raised an error:" "$(grep -v '^psql:.*NOTICE' "$work/check.err" | head -c 1500)"
		return 0
	fi
	line=$(printf '%s\n' "$out" | tail -n 1)
	IFS='|' read -r probes misses broken detail <<<"$line"
	if ! [[ $probes =~ ^[0-9]+$ && $misses =~ ^[0-9]+$ && $broken =~ ^[0-9]+$ ]]; then
		fail "$name" "unexpected output from the check:" "$out"
	elif [ "$misses" -ne 0 ] || [ "$probes" -ne "$want" ] || [ "$broken" -ne 0 ]; then
		local why=()
		[ "$misses" -ne 0 ] && why+=("$misses misses in $probes probes")
		[ "$probes" -ne "$want" ] && why+=("$probes probes made, $want expected")
		[ "$broken" -ne 0 ] && why+=("$broken side checks failed")
		fail "$name: $(IFS=';'; echo "${why[*]}" | sed 's/;/; /g')" "$detail"
	else
		echo "ok     $name: $probes probes, 0 misses"
		passed=$((passed + 1))
	fi
}

# ===========================================================================
# Setup
# Same C locale everywhere, so that only the encoding differs.
psql -d postgres -c "CREATE DATABASE $DB TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" \
	-c "CREATE DATABASE $DB_LATIN1 TEMPLATE template0 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C'" \
	-c "CREATE DATABASE $DB_EUCJP TEMPLATE template0 ENCODING 'EUC_JP' LC_COLLATE 'C' LC_CTYPE 'C'"
psql -d $DB -f "$SQL_DIR/setup.sql"

# One table per value type, ty_<name>(id, v, cnt): N_TYPE rows, with the
# edge values of the type first (NULL-free: a NULL is never added).  Values
# may repeat (bool) or be equal in SQL while spelled differently (numeric
# 1.0 and 1.00, float4 0 and -0): the true count of a value is the sum of
# cnt over the rows equal to it.
N_TYPE=200
TYPE_SQL=""
deftype() { # TABLE TYPE EXPRESSION-OF-i
	TYPE_SQL+="CREATE TABLE $1 (id int, v $2, cnt int);
INSERT INTO $1 SELECT i, ($3)::$2, 1 + i % 3 FROM generate_series(1, $N_TYPE) i;
"
}
deftype ty_int2 int2 "CASE i WHEN 1 THEN -32768 WHEN 2 THEN 32767 WHEN 3 THEN 0 ELSE (i * 97) % 20000 - 10000 END"
deftype ty_int4 int4 "CASE i WHEN 1 THEN -2147483648 WHEN 2 THEN 2147483647 WHEN 3 THEN 0 ELSE i * 7919 - 500000 END"
deftype ty_int8 int8 "CASE i WHEN 1 THEN -9223372036854775808 WHEN 2 THEN 9223372036854775807 WHEN 3 THEN 0 ELSE i * 1000000007::int8 END"
deftype ty_numeric numeric "CASE i WHEN 1 THEN 1.0 WHEN 2 THEN 'NaN' WHEN 3 THEN 0.000 WHEN 4 THEN 1e-30
	WHEN 5 THEN -123456789012345678901234567890.5 WHEN 6 THEN 1E+2 WHEN 7 THEN 1.00 ELSE i::numeric / 8 END"
deftype ty_float4 float4 "CASE i WHEN 1 THEN 'NaN'::float4 WHEN 2 THEN '-0'::float4 WHEN 3 THEN 0::float4
	WHEN 4 THEN 'Infinity'::float4 WHEN 5 THEN '-Infinity'::float4 WHEN 6 THEN 1.5::float4 ELSE (i / 3.0)::float4 END"
deftype ty_float8 float8 "CASE i WHEN 1 THEN 'NaN'::float8 WHEN 2 THEN '-0'::float8 WHEN 3 THEN 0::float8
	WHEN 4 THEN 'Infinity'::float8 WHEN 5 THEN 1e308::float8 WHEN 6 THEN 5e-324::float8 ELSE (i / 3.0)::float8 END"
deftype ty_bool bool "i % 2 = 0"
deftype ty_text text "CASE i WHEN 1 THEN '' ELSE md5(i::text) || repeat('x', i % 5) END"
deftype ty_varchar "varchar(40)" "md5(i::text)"
# char(12): short values are stored padded with blanks; '' is all blanks
deftype ty_bpchar "char(12)" "left(md5(i::text), i % 13)"
deftype ty_name name "CASE i WHEN 1 THEN repeat('z', 63) ELSE 'n' || md5(i::text) END"
deftype ty_bytea bytea "CASE i WHEN 1 THEN ''::bytea WHEN 2 THEN '\\x00'::bytea ELSE decode(md5(i::text), 'hex') END"
deftype ty_uuid uuid "md5(i::text)::uuid"
deftype ty_date date "CASE i WHEN 1 THEN 'infinity'::date WHEN 2 THEN '-infinity'::date WHEN 3 THEN '4713-01-01 BC'::date
	ELSE date '2000-01-01' + i * 37 END"
deftype ty_timestamp timestamp "CASE i WHEN 1 THEN 'infinity'::timestamp WHEN 2 THEN '-infinity'::timestamp
	ELSE timestamp '2000-01-01' + i * interval '1 day 1 hour 7.000013 seconds' END"
deftype ty_timestamptz timestamptz "CASE i WHEN 1 THEN 'infinity'::timestamptz WHEN 2 THEN '-infinity'::timestamptz
	ELSE timestamptz '2000-01-01 00:00:00+00' + i * interval '1 day 1 hour 7.000013 seconds' END"
# structured types (hashed element by element)
deftype ty_int4_arr "int4[]" "CASE i WHEN 1 THEN '{}'::int4[] WHEN 2 THEN '{NULL}'::int4[] WHEN 3 THEN '{{1,2},{3,4}}'::int4[]
	WHEN 4 THEN '[0:1]={7,8}'::int4[] ELSE ARRAY[i, i * 2, -i] END"
deftype ty_text_arr "text[]" "CASE i WHEN 1 THEN '{}'::text[] WHEN 2 THEN ARRAY[NULL, 'é'] ELSE ARRAY[md5(i::text), 'é' || i, ''] END"
deftype ty_numrange numrange "CASE i WHEN 1 THEN 'empty'::numrange WHEN 2 THEN '(,)'::numrange WHEN 3 THEN numrange(1.0, 2.00)
	WHEN 4 THEN numrange(NULL, 5) ELSE numrange(i / 4.0, i / 2.0 + 1, '[]') END"
deftype ty_int4range int4range "CASE i WHEN 1 THEN 'empty'::int4range WHEN 2 THEN '[1,5]'::int4range WHEN 3 THEN '(,)'::int4range
	ELSE int4range(i, i + i % 10 + 1) END"
deftype ty_pair pair "CASE i WHEN 1 THEN ROW(NULL, NULL)::pair WHEN 2 THEN ROW(0, '')::pair ELSE ROW(i, md5(i::text))::pair END"
deftype ty_jsonb jsonb "CASE i WHEN 1 THEN '{}'::jsonb WHEN 2 THEN 'null'::jsonb WHEN 3 THEN '[1, \"a\", null]'::jsonb
	ELSE jsonb_build_object('id', i, 'tags', jsonb_build_array(md5(i::text), 'é'), 'n', i / 4.0) END"
printf '%s\nANALYZE;\n' "$TYPE_SQL" | psql -d $DB

# ===========================================================================
echo "== storage forms of the values (asserted, so that the checks below cover what they claim)"

# storage_check NAME TABLE ROWS CONDITION TOASTED_VALUES
storage_check() {
	check "storage: $1" "$3" <<SQL
CREATE TEMP VIEW probes AS SELECT $4 AS "$1" FROM $2;
CREATE OR REPLACE TEMP VIEW side_checks AS
	SELECT 'values kept in the TOAST table: ' || nfn_toasted_values('$2') || ' (want $5)' AS what,
		nfn_toasted_values('$2') = $5 AS passed
	UNION ALL SELECT 'values distinct', (SELECT count(DISTINCT v) = count(*) FROM $2);
SQL
}
storage_check "inline with a 1-byte header" st_short 300 "pg_column_size(v) = octet_length(v) + 1" 0
storage_check "inline with a 4-byte header, not compressed" st_long4 200 \
	"pg_column_size(v) = octet_length(v) + 4 AND octet_length(v) > 126 AND pg_column_compression(v) IS NULL" 0
storage_check "compressed inline" st_cmp_inline 100 "pg_column_compression(v) IS NOT NULL AND pg_column_size(v) * 10 < octet_length(v)" 0
storage_check "out of line, compressed to more than 2 kB" st_ool_cmp 40 \
	"pg_column_compression(v) IS NOT NULL AND pg_column_size(v) > 2048 AND pg_column_size(v) * 2 < octet_length(v) AND octet_length(v) > 190000" 40
storage_check "out of line, uncompressed (STORAGE EXTERNAL)" st_ool_ext 40 \
	"pg_column_compression(v) IS NULL AND pg_column_size(v) = octet_length(v) AND octet_length(v) > 19000" 40
storage_check "integers" b_int 1000 "v IS NOT NULL" 0

check "storage: stored filters (4 MB ones out of line, compressed in stored, not in stored_ext)" 21 <<'SQL'
CREATE TEMP VIEW probes AS
SELECT 'stored: ' || name || ' as intended' AS prober,
	CASE WHEN name LIKE '%large' THEN pg_column_compression(f) IS NOT NULL AND pg_column_size(f) * 2 < octet_length(f::bytea)
		AND octet_length(f::bytea) > 4000000
	ELSE pg_column_size(f) <= octet_length(f::bytea) + 4 END AS hit
FROM stored
UNION ALL
SELECT 'stored_ext: ' || name || ' as intended',
	CASE WHEN name LIKE '%large' THEN pg_column_compression(f) IS NULL AND pg_column_size(f) >= octet_length(f::bytea)
		AND octet_length(f::bytea) > 4000000
	ELSE pg_column_size(f) <= octet_length(f::bytea) + 4 END
FROM stored_ext
UNION ALL
SELECT 'stored_cms: ' || name || ' not empty', cms_total(s) > 0 FROM stored_cms;
CREATE OR REPLACE TEMP VIEW side_checks AS
	SELECT 'large filters in the TOAST table of stored: ' || nfn_toasted_values('stored') AS what, nfn_toasted_values('stored') >= 3 AS passed
	UNION ALL SELECT 'large filters in the TOAST table of stored_ext: ' || nfn_toasted_values('stored_ext'), nfn_toasted_values('stored_ext') >= 3;
SQL

# ===========================================================================
echo "== value types (plain SQL, filters and sketch used directly)"

# type_check LABEL TABLE PROBE-EXPRESSION-OF-v
# Built with bloom_agg(v, 1000), a 4 MB blocked bloom_agg, bloom_fit_agg with
# 1, 2 and 3 arguments (a 1,024-bit ceiling: a state of bits past 4 distinct
# values, over the ceiling past about 100), and cms_agg over the stream of
# values; each row's value (or the expression, equal in SQL) is probed with
# bloom_contains, @>, <@ and cms_estimate.
type_check() {
	check "type $1" $((8 * N_TYPE)) <<SQL
CREATE TEMP VIEW probes AS
WITH built AS MATERIALIZED (
	SELECT bloom_agg(v, 1000) AS small, bloom_agg(v, 4000000, 0.01, 'blocked') AS large,
		bloom_fit_agg(v) AS fit1, bloom_fit_agg(v, 0.001) AS fit2, bloom_fit_agg(v, 0.01, 1024) AS fit3 FROM $2),
sketch AS MATERIALIZED (SELECT cms_agg(v) AS s FROM $2, generate_series(1, cnt))
SELECT bloom_contains(b.small, x.p) AS "bloom_contains",
	b.small @> x.p AS "@>",
	x.p <@ b.small AS "<@",
	bloom_contains(b.large, x.p) AS "bloom_contains 4 MB blocked",
	bloom_contains(b.fit1, x.p) AS "bloom_fit_agg(v)", x.p <@ b.fit2 AS "bloom_fit_agg(v, 0.001)",
	b.fit3 @> x.p AS "bloom_fit_agg(v, 0.01, 1024)",
	cms_estimate(c.s, x.p) >= (SELECT sum(t2.cnt) FROM $2 t2 WHERE t2.v IS NOT DISTINCT FROM t.v) AS "cms_estimate >= true count"
FROM $2 t CROSS JOIN LATERAL (SELECT $3 AS p FROM (SELECT t.v AS v) z) x, built b, sketch c;
CREATE OR REPLACE TEMP VIEW side_checks AS
	SELECT 'bloom_fit_agg(v, 0.01, 1024) over its ceiling exactly when no size within it meets the rate' AS what,
		(SELECT (i.over_ceiling = nfn_fit_over_ceiling(z.n, 0.01, 1024))
			AND (i.over_ceiling OR (SELECT count(DISTINCT v) < 120 FROM $2))
		 FROM (SELECT bloom_fit_agg(v, 0.01, 1024) AS f, nfn_fit_n(nfn_fit_state(v, 0.01, 1024), 1024) AS n FROM $2) z,
			bloom_info(z.f) i) AS passed;
SQL
}
type_check int2 ty_int2 v
type_check int4 ty_int4 v
type_check int8 ty_int8 v
type_check numeric ty_numeric v
type_check float4 ty_float4 v
type_check float8 ty_float8 v
type_check bool ty_bool v
type_check text ty_text v
type_check varchar ty_varchar v
type_check bpchar ty_bpchar v
type_check name ty_name v
type_check bytea ty_bytea v
type_check uuid ty_uuid v
type_check date ty_date v
type_check timestamp ty_timestamp v
type_check timestamptz ty_timestamptz v
# values equal in SQL, of another type or spelling: the filter must follow =
type_check "int2 probed as int8 (1::int2 = 1::int8)" ty_int2 "v::int8"
type_check "numeric probed at another scale (1.0 = 1.00)" ty_numeric "v * 1.00"
type_check "float4 probed as float8" ty_float4 "v::float8"
type_check "varchar probed as text" ty_varchar "v::text"
type_check "name probed as text" ty_name "v::text"
type_check "bpchar probed with other trailing blanks" ty_bpchar "(v::text || '   ')::bpchar"
# structured types
type_check "int4[]" ty_int4_arr v
type_check "text[]" ty_text_arr v
type_check numrange ty_numrange v
type_check "numrange probed with bounds at another scale" ty_numrange \
	"CASE WHEN isempty(v) THEN v ELSE numrange(lower(v) * 1.00, upper(v) * 1.00,
		CASE WHEN lower_inc(v) THEN '[' ELSE '(' END || CASE WHEN upper_inc(v) THEN ']' ELSE ')' END) END"
type_check int4range ty_int4range v
type_check "composite (pair)" ty_pair v
type_check jsonb ty_jsonb v

# enum and citext have an equality that their bytes do not follow (enum by
# OID, citext case-insensitively): building from them must be refused with
# 22023 or 0A000, not produce a filter that misses equal values.
# citext constants and PL/pgSQL variables (folded to constants in the plan)
# are refused too: nothing converts them to text on the way to the call.
check "enum and citext refused by every builder and prober (22023 or 0A000)" 18 <<'SQL'
CREATE TEMP VIEW probes AS
SELECT x.what || ' -> ' || st AS prober, st IN ('22023', '0A000') AS hit
FROM (VALUES
	('bloom_agg(enum)', $$SELECT bloom_agg(v, 1000) FROM (VALUES ('ok'::nfn_mood)) t(v)$$),
	('bloom_add(enum)', $$SELECT bloom_add(bloom_create(1000), 'ok'::nfn_mood)$$),
	('cms_agg(enum)', $$SELECT cms_agg(v) FROM (VALUES ('ok'::nfn_mood)) t(v)$$),
	('cms_add(enum)', $$SELECT cms_add(cms_create(), 'ok'::nfn_mood)$$),
	('bloom_agg(citext)', $$SELECT bloom_agg(v, 1000) FROM nfn_citext$$),
	('bloom_add(citext)', $$SELECT bloom_add(bloom_create(1000), v) FROM nfn_citext$$),
	('bloom_contains(citext)', $$SELECT bloom_contains(bloom_add(bloom_create(1000), 'abc'), v) FROM nfn_citext$$),
	('@> (citext)', $$SELECT bloom_add(bloom_create(1000), 'abc') @> v FROM nfn_citext$$),
	('<@ (citext)', $$SELECT v <@ bloom_add(bloom_create(1000), 'abc') FROM nfn_citext$$),
	('cms_agg(citext)', $$SELECT cms_agg(v) FROM nfn_citext$$),
	('cms_add(citext)', $$SELECT cms_add(cms_create(), v) FROM nfn_citext$$),
	('cms_estimate(citext)', $$SELECT cms_estimate(cms_add(cms_create(), 'abc'), v) FROM nfn_citext$$),
	('bloom_add(citext constant)', $$SELECT bloom_add(bloom_create(1000), 'Abc'::citext)$$),
	('@> (citext constant)', $$SELECT bloom_add(bloom_create(1000), 'abc') @> 'Abc'::citext$$),
	('<@ (citext constant)', $$SELECT 'Abc'::citext <@ bloom_add(bloom_create(1000), 'abc')$$),
	('cms_add(citext constant)', $$SELECT cms_add(cms_create(), 'Abc'::citext, 2)$$),
	('bloom_contains(PL/pgSQL citext variable)',
		$q$DO $d$ DECLARE c citext := 'Abc'; BEGIN PERFORM bloom_contains(bloom_create(1000), c); END $d$$q$),
	('cms_estimate(PL/pgSQL citext variable)',
		$q$DO $d$ DECLARE c citext := 'Abc'; BEGIN PERFORM cms_estimate(cms_create(), c); END $d$$q$)) x(what, q),
	LATERAL nfn_sqlstate(x.q) st;
SQL

# ===========================================================================
echo "== storage forms x builders (plain SQL)"

# form_check LABEL TABLE
# A small and a 4 MB filter and a sketch built from the stored column, probed
# with the stored values.
form_check() {
	local n
	n=$(psql -At -d $DB -c "SELECT count(*) FROM $2")
	check "values $1" $((7 * n)) <<SQL
CREATE TEMP VIEW probes AS
WITH b AS MATERIALIZED (SELECT bloom_agg(v, 1000) AS small, bloom_agg(v, 4000000, 0.01, 'double') AS large,
	bloom_fit_agg(v) AS fit, bloom_fit_agg(v, 0.01, 1024) AS fit_capped FROM $2),
c AS MATERIALIZED (SELECT cms_agg(v) AS s FROM $2, generate_series(1, cnt))
SELECT bloom_contains(b.small, t.v) AS "bloom_contains", b.small @> t.v AS "@>", t.v <@ b.small AS "<@",
	bloom_contains(b.large, t.v) AS "bloom_contains 4 MB", cms_estimate(c.s, t.v) >= t.cnt AS "cms_estimate >= cnt",
	bloom_contains(b.fit, t.v) AS "bloom_fit_agg(v)", t.v <@ b.fit_capped AS "bloom_fit_agg(v, 0.01, 1024)"
FROM $2 t, b, c;
SQL
}
form_check "inline, 1-byte header" st_short
form_check "inline, 4-byte header" st_long4
form_check "compressed inline" st_cmp_inline
form_check "out of line, compressed" st_ool_cmp
form_check "out of line, uncompressed" st_ool_ext

# Values computed by expressions are plain in-memory values, while the column
# gives TOAST pointers: build from one, probe with the other, both ways; and
# the same contents stored by another table (other TOAST pointers).
check "values from expressions (v || '', a PL/pgSQL function) and another table against the out-of-line column" 480 <<'SQL'
CREATE TEMP VIEW probes AS
WITH from_column AS MATERIALIZED (
	SELECT bloom_agg(v, 1000) AS small, bloom_agg(v, 4000000, 0.01) AS large, bloom_fit_agg(v, 0.001) AS fit,
		(SELECT cms_agg(v) FROM st_ool_cmp, generate_series(1, cnt)) AS s FROM st_ool_cmp),
from_expr AS MATERIALIZED (
	SELECT bloom_agg(v || '', 1000) AS concat_small, bloom_agg(nfn_id(v), 4000000, 0.01) AS func_large,
		bloom_fit_agg(v || '', 0.001) AS concat_fit,
		(SELECT cms_agg(v || '') FROM st_ool_cmp, generate_series(1, cnt)) AS s FROM st_ool_cmp)
SELECT bloom_contains(c.small, t.v || '') AS "built from column, probed with v || ''",
	c.large @> nfn_id(t.v) AS "built from column (4 MB), probed with nfn_id(v)",
	(t.v || '') <@ c.small AS "built from column, v || '' <@ f",
	cms_estimate(c.s, nfn_id(t.v)) >= t.cnt AS "cms from column, estimate of nfn_id(v)",
	bloom_contains(e.concat_small, t.v) AS "built from v || '', probed with the column",
	e.func_large @> t.v AS "built from nfn_id(v) (4 MB), probed with the column",
	bloom_contains(e.func_large, t.v || '') AS "built from nfn_id(v), probed with v || ''",
	cms_estimate(e.s, t.v) >= t.cnt AS "cms from v || '', estimate of the column",
	bloom_contains(c.small, o.v) AS "built from column, probed with the copy in st_ool_copy",
	cms_estimate(c.s, o.v) >= t.cnt AS "cms from column, estimate of the copy in st_ool_copy",
	c.fit @> nfn_id(t.v) AS "bloom_fit_agg from column, probed with nfn_id(v)",
	bloom_contains(e.concat_fit, o.v) AS "bloom_fit_agg from v || '', probed with the copy in st_ool_copy"
FROM st_ool_cmp t JOIN st_ool_copy o USING (id), from_column c, from_expr e;
CREATE OR REPLACE TEMP VIEW side_checks AS
	SELECT 'bloom_fit_agg from the column and from v || '''' byte-identical' AS what,
		(SELECT bloom_fit_agg(v, 0.001) = bloom_fit_agg(v || '', 0.001) FROM st_ool_cmp) AS passed;
SQL

# ===========================================================================
echo "== builders (plain SQL)"

# builder_checks LABEL TABLE ROWS EXTRA-EXPRESSION-OF-g-AND-j (values of the
# set's type that are not in it, for the intersection)
builder_checks() {
	local label=$1 tbl=$2 n=$3 extra=$4
	check "bloom_agg 2/3/4 arguments, every scheme, small and 4 MB; bloom_fit_agg 1/2/3 arguments: $label" $((14 * n)) <<SQL
CREATE TEMP VIEW probes AS
WITH b AS MATERIALIZED (
	SELECT bloom_agg(v, 1000) AS a2, bloom_agg(v, 1000, 0.001) AS a3,
		bloom_agg(v, 1000, 0.01, 'double') AS s_double, bloom_agg(v, 1000, 0.01, 'double_square') AS s_square,
		bloom_agg(v, 1000, 0.01, 'double_cube') AS s_cube, bloom_agg(v, 1000, 0.01, 'partition') AS s_partition,
		bloom_agg(v, 1000, 0.01, 'independent') AS s_independent, bloom_agg(v, 1000, 0.01, 'blocked') AS s_blocked,
		bloom_agg(v, 4000000, 0.01, 'double') AS l_double, bloom_agg(v, 4000000, 0.01, 'blocked') AS l_blocked,
		bloom_fit_agg(v) AS fit1, bloom_fit_agg(v, 0.001) AS fit2, bloom_fit_agg(v, 0.01, 65536) AS fit3,
		bloom_fit_agg(v, 0.01, 1024) AS fit_over
	FROM $tbl)
SELECT bloom_contains(a2, v) AS "bloom_agg(v, 1000)", bloom_contains(a3, v) AS "bloom_agg(v, 1000, 0.001)",
	bloom_contains(s_double, v) AS "double", bloom_contains(s_square, v) AS "double_square",
	bloom_contains(s_cube, v) AS "double_cube", bloom_contains(s_partition, v) AS "partition",
	bloom_contains(s_independent, v) AS "independent", bloom_contains(s_blocked, v) AS "blocked",
	bloom_contains(l_double, v) AS "4 MB double", bloom_contains(l_blocked, v) AS "4 MB blocked",
	bloom_contains(fit1, v) AS "bloom_fit_agg(v)", bloom_contains(fit2, v) AS "bloom_fit_agg(v, 0.001)",
	bloom_contains(fit3, v) AS "bloom_fit_agg(v, 0.01, 65536)", bloom_contains(fit_over, v) AS "bloom_fit_agg(v, 0.01, 1024)"
FROM $tbl, b;
-- a state of the bits form past 65,536 / 256 = 256 distinct values
CREATE OR REPLACE TEMP VIEW side_checks AS
	SELECT 'bloom_fit_agg(v, 0.01, 65536) state of the ' || z.form || ' form, not over its ceiling' AS what,
		z.form = CASE WHEN z.n > 256 THEN 'bits' ELSE 'hashes' END AND NOT (bloom_info(z.f)).over_ceiling AS passed
	FROM (SELECT count(DISTINCT v) AS n, nfn_fit_form(nfn_fit_state(v, 0.01, 65536), 65536) AS form,
		bloom_fit_agg(v, 0.01, 65536) AS f FROM $tbl) z;
SQL
	check "bloom_add and cms_add in a PL/pgSQL loop, stored results probed by SQL: $label" $((6 * n)) <<SQL
CREATE TEMP TABLE built AS SELECT nfn_add_loop('$tbl', 1000) AS small, nfn_add_loop('$tbl', 4000000) AS large,
	nfn_add_loop('$tbl', 1000, 'blocked') AS blocked, nfn_cms_loop('$tbl') AS s;
CREATE TEMP VIEW probes AS
SELECT bloom_contains(b.small, t.v) AS "bloom_contains", b.small @> t.v AS "@>", t.v <@ b.small AS "<@",
	bloom_contains(b.large, t.v) AS "bloom_contains 4 MB", bloom_contains(b.blocked, t.v) AS "bloom_contains blocked",
	cms_estimate(b.s, t.v) >= t.cnt AS "cms_estimate >= cnt"
FROM $tbl t, built b;
SQL
	check "bloom_union_agg, bloom_intersect_agg, cms_merge_agg, small and 4 MB: $label" $((5 * n)) <<SQL
CREATE TEMP VIEW probes AS
WITH parts AS (
	SELECT id % 7 AS g, bloom_agg(v, 1000) AS small, bloom_agg(v, 4000000, 0.01) AS large, cms_agg(v, cnt::bigint) AS s
	FROM $tbl GROUP BY id % 7),
-- every filter of the intersection holds all the values plus 50 of its own
inter_parts AS (
	SELECT g, bloom_agg(x, 1000) AS small, bloom_agg(x, 4000000, 0.01) AS large
	FROM (SELECT g, v AS x FROM $tbl, generate_series(0, 4) g
		UNION ALL SELECT g, $extra FROM generate_series(0, 4) g, generate_series(1, 50) j) u
	GROUP BY g),
u AS MATERIALIZED (SELECT bloom_union_agg(small) AS small, bloom_union_agg(large) AS large, cms_merge_agg(s) AS s FROM parts),
i AS MATERIALIZED (SELECT bloom_intersect_agg(small) AS small, bloom_intersect_agg(large) AS large FROM inter_parts)
SELECT bloom_contains(u.small, t.v) AS "bloom_union_agg small", u.large @> t.v AS "bloom_union_agg 4 MB",
	bloom_contains(i.small, t.v) AS "bloom_intersect_agg small", t.v <@ i.large AS "bloom_intersect_agg 4 MB",
	cms_estimate(u.s, t.v) >= t.cnt AS "cms_merge_agg"
FROM $tbl t, u, i;
SQL
	check "cms_agg in 4 forms: $label" $((4 * n)) <<SQL
CREATE TEMP VIEW probes AS
WITH c AS MATERIALIZED (
	SELECT (SELECT cms_agg(v) FROM $tbl, generate_series(1, cnt)) AS one,
		(SELECT cms_agg(v, cnt::bigint) FROM $tbl) AS weighted,
		(SELECT cms_agg(v, 0.01, 0.01) FROM $tbl, generate_series(1, cnt)) AS eps,
		-- delta < epsilon: two independent copies
		(SELECT cms_agg(v, cnt::bigint, 0.01, 0.0001) FROM $tbl) AS weighted_eps)
SELECT cms_estimate(one, v) >= cnt AS "cms_agg(v)", cms_estimate(weighted, v) >= cnt AS "cms_agg(v, count)",
	cms_estimate(eps, v) >= cnt AS "cms_agg(v, 0.01, 0.01)", cms_estimate(weighted_eps, v) >= cnt AS "cms_agg(v, count, 0.01, 0.0001)"
FROM $tbl, c;
SQL
}
builder_checks "integers" b_int 1000 "-(g * 1000 + j)::int8"
builder_checks "short text" st_short 300 "'extra ' || g || ' ' || j"
builder_checks "out-of-line compressed text" st_ool_cmp 40 "'extra ' || g || ' ' || j"
builder_checks "out-of-line uncompressed text" st_ool_ext 40 "'extra ' || g || ' ' || j"

# ===========================================================================
echo "== probing paths, against stored filters"

# Filters and sketches stored in tables: 'X small' (inline), 'X large'
# (4 MB; compressed in "stored", uncompressed in "stored_ext"), 'X fit' (a
# bloom_fit_agg filter) and the sketch 'X', for X = ool (st_ool_cmp), ext
# (st_ool_ext), int (b_int).

# plain_check X TABLE ROWS
plain_check() {
	check "plain SQL, stored filters (join, scalar subquery, literal): $2" $((10 * $3)) <<SQL
SELECT f::text AS small_literal FROM stored WHERE name = '$1 small' \gset
CREATE TEMP VIEW probes AS
SELECT bloom_contains(s1.f, t.v) AS "bloom_contains, join, 4 MB compressed",
	s2.f @> t.v AS "@>, join, 4 MB uncompressed",
	t.v <@ s3.f AS "<@, join, small",
	bloom_contains((SELECT f FROM stored_ext WHERE name = '$1 large'), t.v) AS "bloom_contains, scalar subquery, 4 MB uncompressed",
	(SELECT f FROM stored WHERE name = '$1 large') @> t.v AS "@>, scalar subquery, 4 MB compressed",
	bloom_contains(:'small_literal'::bloomfilter, t.v) AS "bloom_contains, literal",
	cms_estimate(c.s, t.v) >= t.cnt AS "cms_estimate, join",
	cms_estimate((SELECT s FROM stored_cms WHERE name = '$1'), t.v) >= t.cnt AS "cms_estimate, scalar subquery",
	bloom_contains(s4.f, t.v) AS "bloom_contains, join, fit",
	(SELECT f FROM stored_ext WHERE name = '$1 fit') @> t.v AS "@>, scalar subquery, fit"
FROM $2 t, stored s1, stored_ext s2, stored s3, stored s4, stored_cms c
WHERE s1.name = '$1 large' AND s2.name = '$1 large' AND s3.name = '$1 small' AND s4.name = '$1 fit' AND c.name = '$1';
SQL
}
plain_check ool st_ool_cmp 40
plain_check ext st_ool_ext 40
plain_check int b_int 1000

# Prepared statements, each executed at least 8 times so that the plan cache
# switches to a generic plan (asserted): the filters as parameters (stored
# filters, returned by a function as EXECUTE takes no subquery), and the value
# as a parameter (an out-of-line value, likewise).
prepared_check() { # X TABLE(text) ROWS(divisible by 8)
	local slice=$(($3 / 8))
	check "prepared statements, generic plan: $2" $((9 * $3)) <<SQL
PREPARE nfn_by_filter(bloomfilter, bloomfilter, cmsketch, int, int, bloomfilter) AS
	INSERT INTO nfn_tally SELECT :'tag', x.prober, x.hit FROM $2 t,
		LATERAL (VALUES ('bloom_contains(\$1 4 MB uncompressed, v)', bloom_contains(\$1, t.v)),
			('\$1 @> v', \$1 @> t.v), ('v <@ \$2 small', t.v <@ \$2),
			('cms_estimate(\$3, v)', cms_estimate(\$3, t.v) >= t.cnt),
			('bloom_contains(\$6 fit, v)', bloom_contains(\$6, t.v))) x(prober, hit)
	WHERE t.id BETWEEN \$4 AND \$5;
SELECT format('EXECUTE nfn_by_filter(nfn_filter(%L, %L), nfn_filter(%L, %L), nfn_sketch(%L), %s, %s, nfn_filter(%L, %L))',
	'stored_ext', '$1 large', 'stored', '$1 small', '$1', k * $slice + 1, (k + 1) * $slice, 'stored', '$1 fit')
FROM generate_series(0, 7) k \gexec
PREPARE nfn_by_value(text, bigint) AS
	INSERT INTO nfn_tally
	SELECT :'tag', 'bloom_contains(stored 4 MB compressed, \$1)', bloom_contains(s.f, \$1) FROM stored s WHERE s.name = '$1 large'
	UNION ALL SELECT :'tag', '\$1 <@ stored_ext small', \$1 <@ e.f FROM stored_ext e WHERE e.name = '$1 small'
	UNION ALL SELECT :'tag', '\$1 <@ stored_ext fit', \$1 <@ e.f FROM stored_ext e WHERE e.name = '$1 fit'
	UNION ALL SELECT :'tag', 'cms_estimate(stored, \$1)', cms_estimate(c.s, \$1) >= \$2 FROM stored_cms c WHERE c.name = '$1';
SELECT format('EXECUTE nfn_by_value(nfn_text_value(%L, %s), %s)', '$2', id, cnt) FROM $2 ORDER BY id \gexec
CREATE TEMP VIEW probes AS SELECT prober, hit FROM nfn_tally WHERE check_name = :'tag';
CREATE OR REPLACE TEMP VIEW side_checks AS
	SELECT name || ' ran a generic plan ' || generic_plans || ' times' AS what, generic_plans > 0 AS passed
	FROM pg_prepared_statements WHERE name IN ('nfn_by_filter', 'nfn_by_value');
SQL
}
prepared_check ool st_ool_cmp 40
prepared_check ext st_ool_ext 40

# PL/pgSQL: the filter lives in a variable that each iteration replaces with
# bloom_add's result, and is probed in PL/pgSQL expressions whose call sites
# live across iterations (the 4 MB case gave false negatives; see setup.sql).
check "PL/pgSQL loop, 4 MB filter in a variable, integers 1..60" 270 <<'SQL'
SELECT nfn_plpgsql_int_loop(:'tag', 4000000, 60);
CREATE TEMP VIEW probes AS SELECT prober, hit FROM nfn_tally WHERE check_name = :'tag';
SQL
check "PL/pgSQL loop, small filter in a variable, integers 1..60" 270 <<'SQL'
SELECT nfn_plpgsql_int_loop(:'tag', 1000, 60);
CREATE TEMP VIEW probes AS SELECT prober, hit FROM nfn_tally WHERE check_name = :'tag';
SQL
check "PL/pgSQL loop, 4 MB filter in a variable, out-of-line compressed text" 180 <<'SQL'
SELECT nfn_plpgsql_text_loop(:'tag', 'st_ool_cmp', 4000000);
CREATE TEMP VIEW probes AS SELECT prober, hit FROM nfn_tally WHERE check_name = :'tag';
SQL
check "PL/pgSQL loop, 4 MB filter in a variable, out-of-line uncompressed text" 180 <<'SQL'
SELECT nfn_plpgsql_text_loop(:'tag', 'st_ool_ext', 4000000);
CREATE TEMP VIEW probes AS SELECT prober, hit FROM nfn_tally WHERE check_name = :'tag';
SQL
check "PL/pgSQL loop, small filter in a variable, out-of-line compressed text" 180 <<'SQL'
SELECT nfn_plpgsql_text_loop(:'tag', 'st_ool_cmp', 1000);
CREATE TEMP VIEW probes AS SELECT prober, hit FROM nfn_tally WHERE check_name = :'tag';
SQL
check "PL/pgSQL loop, stored 4 MB and fit filters read into a variable, then added to" 320 <<'SQL'
SELECT nfn_plpgsql_stored_loop(:'tag', 'stored', 'ool large', 'st_ool_cmp');
SELECT nfn_plpgsql_stored_loop(:'tag', 'stored_ext', 'ext large', 'st_ool_ext');
SELECT nfn_plpgsql_stored_loop(:'tag', 'stored', 'ool fit', 'st_ool_cmp');
SELECT nfn_plpgsql_stored_loop(:'tag', 'stored_ext', 'ext fit', 'st_ool_ext');
CREATE TEMP VIEW probes AS SELECT prober, hit FROM nfn_tally WHERE check_name = :'tag';
SQL

# A cursor, DECLAREd in SQL and FETCHed one row at a time by a PL/pgSQL loop:
# the cursor's query probes (its executor is suspended between fetches) and
# the loop probes again with the fetched filter.
cursor_check() { # X TABLE ROWS
	check "cursor, FETCH in a loop: $2" $((8 * $3)) <<SQL
BEGIN;
DECLARE nfn_cur NO SCROLL CURSOR FOR
	SELECT t.v, s.f, fi.f AS fit, bloom_contains(s.f, t.v) AS q_contains, t.v <@ e.f AS q_contained_in,
		bloom_contains(fi.f, t.v) AS q_fit, cms_estimate(c.s, t.v) >= t.cnt AS q_cms
	FROM $2 t, stored s, stored_ext e, stored_ext fi, stored_cms c
	WHERE s.name = '$1 large' AND e.name = '$1 small' AND fi.name = '$1 fit' AND c.name = '$1';
SELECT nfn_drain_cursor('nfn_cur', :'tag');
COMMIT;
CREATE TEMP VIEW probes AS SELECT prober, hit FROM nfn_tally WHERE check_name = :'tag';
SQL
}
cursor_check ool st_ool_cmp 40
cursor_check ext st_ool_ext 40
cursor_check int b_int 1000

# BEFORE INSERT triggers that probe NEW.v against stored filters: one reads
# the 4 MB filter (uncompressed), one the small one, one the fit one; each
# the sketch as well.
trigger_check() { # X TABLE ROWS TARGET
	check "BEFORE INSERT trigger: $2" $((12 * $3)) <<SQL
CREATE TRIGGER nfn_a BEFORE INSERT ON $4 FOR EACH ROW EXECUTE FUNCTION nfn_probe_trigger(:'tag', 'stored_ext', '$1 large', '$1');
CREATE TRIGGER nfn_b BEFORE INSERT ON $4 FOR EACH ROW EXECUTE FUNCTION nfn_probe_trigger(:'tag', 'stored', '$1 small', '$1');
CREATE TRIGGER nfn_c BEFORE INSERT ON $4 FOR EACH ROW EXECUTE FUNCTION nfn_probe_trigger(:'tag', 'stored', '$1 fit', '$1');
INSERT INTO $4 SELECT v, cnt FROM $2;
DROP TRIGGER nfn_a ON $4;
DROP TRIGGER nfn_b ON $4;
DROP TRIGGER nfn_c ON $4;
TRUNCATE $4;
CREATE TEMP VIEW probes AS SELECT prober, hit FROM nfn_tally WHERE check_name = :'tag';
SQL
}
trigger_check ool st_ool_cmp 40 trg_text
trigger_check ext st_ool_ext 40 trg_text
trigger_check int b_int 1000 trg_int

# ===========================================================================
echo "== serial against parallel"

PARALLEL_ON="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;"

# parallel_check TABLE ROWS LEADER-PARTICIPATION(on|off) [LATIN1]
# Builds a 4 MB filter, a blocked one, two fit ones (hash lists, and bits over
# a 65,536-bit ceiling) and a sketch serially and under a forced parallel plan
# (Gather and workers launched: asserted); the parallel ones must be
# byte-identical to the serial ones and, probed in parallel as well, miss
# nothing.  With LATIN1, the session's client_encoding is LATIN1.
parallel_check() {
	local tbl=$1 n=$2 leader=$3 enc=${4:-UTF8} name
	local Q='$q$'
	local aggs="bloom_agg(v, 4000000, 0.01) AS large, bloom_agg(v, 200000, 0.01, 'blocked') AS blocked, cms_agg(v, cnt::bigint) AS s,
		bloom_fit_agg(v) AS fit, bloom_fit_agg(v, 0.001, 65536) AS fit_capped"
	name="parallel build and probe, leader participation $leader, client_encoding $enc: $tbl"
	# Arrays have no typed bloom_agg or cms_agg, and the anyelement ones have
	# no combine function (so that Citus gathers them): their rows are
	# scanned in parallel and aggregated above the Gather; the arrays are
	# then hashed in the workers by the parallel probe.
	local plan_check="'build plan has Gather and Partial Aggregate' AS what, :'build_plan' ~ 'Gather' AND :'build_plan' ~ 'Partial Aggregate'"
	if [ "$tbl" = par_arr ]; then
		plan_check="'build plan has Gather and no Partial Aggregate' AS what, :'build_plan' ~ 'Gather' AND :'build_plan' !~ 'Partial Aggregate'"
	fi
	PGCLIENTENCODING=$enc check "$name" $((5 * n)) <<SQL
SET client_encoding = '$enc';
DROP TABLE IF EXISTS nfn_par_$tbl;
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE serial AS SELECT $aggs FROM $tbl;
$PARALLEL_ON
SET parallel_leader_participation = $leader;
SELECT nfn_explain(${Q}SELECT $aggs FROM $tbl${Q}) AS build_plan \gset
SELECT nfn_explain(${Q}CREATE TABLE nfn_par_$tbl AS SELECT $aggs FROM $tbl${Q}, 'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') AS build_run \gset
-- the filters come in through InitPlans, evaluated by the leader and passed to the workers
CREATE TEMP VIEW probes AS
SELECT bloom_contains((SELECT large FROM nfn_par_$tbl), t.v) AS "bloom_contains, 4 MB built in parallel",
	t.v <@ (SELECT blocked FROM nfn_par_$tbl) AS "<@, blocked built in parallel",
	cms_estimate((SELECT s FROM nfn_par_$tbl), t.v) >= t.cnt AS "cms_estimate, built in parallel",
	bloom_contains((SELECT fit FROM nfn_par_$tbl), t.v) AS "bloom_fit_agg(v), built in parallel",
	t.v <@ (SELECT fit_capped FROM nfn_par_$tbl) AS "bloom_fit_agg(v, 0.001, 65536), built in parallel"
FROM $tbl t;
CREATE OR REPLACE TEMP VIEW side_checks AS
	SELECT $plan_check AS passed
	UNION ALL SELECT 'parallel build launched workers', :'build_run' ~ 'Workers Launched: [1-9]'
	UNION ALL SELECT '4 MB filter identical to serial', (SELECT large FROM nfn_par_$tbl) = (SELECT large FROM serial)
	UNION ALL SELECT 'blocked filter identical to serial', (SELECT blocked::bytea FROM nfn_par_$tbl) = (SELECT blocked::bytea FROM serial)
	UNION ALL SELECT 'sketch identical to serial', (SELECT s FROM nfn_par_$tbl) = (SELECT s FROM serial)
	UNION ALL SELECT 'fit filter identical to serial', (SELECT fit::bytea FROM nfn_par_$tbl) = (SELECT fit::bytea FROM serial)
	UNION ALL SELECT 'capped fit filter identical to serial, over its ceiling',
		(SELECT fit_capped::bytea FROM nfn_par_$tbl) = (SELECT fit_capped::bytea FROM serial)
		AND (SELECT (bloom_info(fit_capped)).over_ceiling FROM serial)
	UNION ALL SELECT 'serial filter identical to the one built under client_encoding UTF8',
		(SELECT large FROM serial) = (SELECT f FROM nfn_par_reference WHERE tbl = '$tbl')
	UNION ALL SELECT 'probing plan has Gather', nfn_explain('SELECT * FROM probes') ~ 'Gather';
SQL
}
# the reference for the last side check: built serially, client_encoding UTF8
psql -d $DB -c "SET max_parallel_workers_per_gather = 0" -c "CREATE TABLE nfn_par_reference AS
	SELECT 'par_int' AS tbl, bloom_agg(v, 4000000, 0.01) AS f FROM par_int UNION ALL
	SELECT 'par_text', bloom_agg(v, 4000000, 0.01) FROM par_text UNION ALL
	SELECT 'par_arr', bloom_agg(v, 4000000, 0.01) FROM par_arr"
parallel_check par_int 100000 on
parallel_check par_int 100000 off
parallel_check par_text 20040 on
parallel_check par_text 20040 off
parallel_check par_arr 20000 on
parallel_check par_arr 20000 off
# the workers must hash text exactly as the leader does whatever the client's encoding
parallel_check par_text 20040 on LATIN1
parallel_check par_arr 20000 on LATIN1
parallel_check par_arr 20000 off LATIN1

# Union, intersection and merge aggregates in parallel over 2000 stored
# filters and sketches: group g holds g .. g+4 and the 50 values -1 .. -50.
check "parallel bloom_union_agg, bloom_intersect_agg, cms_merge_agg" $((2 * 2054 + 50)) <<SQL
DROP TABLE IF EXISTS nfn_par_groups;
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE serial AS SELECT bloom_union_agg(f) AS u, bloom_intersect_agg(f) AS i, cms_merge_agg(s) AS s FROM par_groups;
$PARALLEL_ON
SELECT nfn_explain('CREATE TABLE nfn_par_groups AS SELECT bloom_union_agg(f) AS u, bloom_intersect_agg(f) AS i, cms_merge_agg(s) AS s FROM par_groups',
	'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') AS build_run \gset
CREATE TEMP VIEW probes AS
SELECT 'bloom_union_agg' AS prober, bloom_contains(p.u, x) AS hit FROM nfn_par_groups p,
	(SELECT generate_series(1, 2004) UNION ALL SELECT generate_series(-50, -1)) xs(x)
UNION ALL
SELECT 'cms_merge_agg', cms_estimate(p.s, x) >=
	CASE WHEN x < 0 THEN 2000 ELSE least(x, 2000) - greatest(1, x - 4) + 1 END FROM nfn_par_groups p,
	(SELECT generate_series(1, 2004) UNION ALL SELECT generate_series(-50, -1)) xs(x)
UNION ALL
SELECT 'bloom_intersect_agg', p.i @> x FROM nfn_par_groups p, generate_series(-50, -1) x;
CREATE OR REPLACE TEMP VIEW side_checks AS
	SELECT 'build plan has Gather and Partial Aggregate, workers launched' AS what,
		:'build_run' ~ 'Gather' AND :'build_run' ~ 'Partial Aggregate' AND :'build_run' ~ 'Workers Launched: [1-9]' AS passed
	UNION ALL SELECT 'union, intersection and merge identical to serial',
		(SELECT (p.u, p.i, p.s) = (s.u, s.i, s.s) FROM nfn_par_groups p, serial s);
SQL

source "$SQL_DIR/fit_topk.sh"

# ===========================================================================
echo "== database encodings: LATIN1 and EUC_JP filters moved to a UTF8 database"

# The values, as SQL over literals (this file is UTF-8; the client encoding
# says so).  The same SQL builds the filters in the source database and
# probes them in the UTF8 one.  Distinct values; cnt is the true count.
ENC_VALUES_LATIN1="SELECT v, cnt FROM (VALUES ('é', 3), ('café', 2), ('Café', 1), ('naïve', 1), ('crème brûlée', 2),
		('cafe', 1), ('', 1)) l(v, cnt)
	UNION ALL SELECT 'é' || i, 1 + i % 3 FROM generate_series(1, 200) i
	-- long: compressible, and (md5 hex) out of line in the source table
	UNION ALL SELECT repeat('café ' || i || ' ', 3000), 1 FROM generate_series(1, 2) i
	UNION ALL SELECT (SELECT string_agg(md5(i || '.' || j) || 'é', '') FROM generate_series(1, 400) j), 2 FROM generate_series(1, 2) i"
N_LATIN1=211
ENC_VALUES_EUCJP="$ENC_VALUES_LATIN1
	UNION ALL SELECT v, cnt FROM (VALUES ('日本', 2), ('日本語', 1), ('東京 café', 1)) j(v, cnt)
	UNION ALL SELECT '日本' || i, 1 + i % 2 FROM generate_series(1, 100) i"
N_EUCJP=314

# The filters: one row per kind (text; text[], whose values are ARRAY[v, 'é'];
# the composite pair, whose values are ROW(length(v), v): a user type has
# another OID in every database): a small one, a 4 MB one, a blocked one, a
# self-sized one (bloom_fit_agg) and a sketch.
enc_build_sql() { # VALUES-SQL SCHEMA.TABLE
	cat <<SQL
CREATE TABLE ${2}_vals AS SELECT v, ARRAY[v, 'é'] AS a, ROW(length(v), v)::pair AS p, cnt FROM ($1) x;
CREATE TABLE $2 AS
SELECT 'text' AS kind, bloom_agg(v, 1000) AS small, bloom_agg(v, 4000000, 0.01) AS large,
	bloom_agg(v, 1000, 0.01, 'blocked') AS blocked, (SELECT cms_agg(v) FROM ${2}_vals, generate_series(1, cnt)) AS sketch,
	bloom_fit_agg(v) AS fit
FROM ${2}_vals
UNION ALL
SELECT 'text[]', bloom_agg(a, 1000), bloom_agg(a, 4000000, 0.01), bloom_agg(a, 1000, 0.01, 'blocked'),
	(SELECT cms_agg(a) FROM ${2}_vals, generate_series(1, cnt)), bloom_fit_agg(a, 0.001)
FROM ${2}_vals
UNION ALL
SELECT 'pair', bloom_agg(p, 1000), bloom_agg(p, 4000000, 0.01), bloom_agg(p, 1000, 0.01, 'blocked'),
	(SELECT cms_agg(p) FROM ${2}_vals, generate_series(1, cnt)), bloom_fit_agg(p, 0.01, 1024)
FROM ${2}_vals;
SQL
}
for origin in latin1 eucjp; do
	if [ $origin = latin1 ]; then src=$DB_LATIN1 values=$ENC_VALUES_LATIN1; else src=$DB_EUCJP values=$ENC_VALUES_EUCJP; fi
	{ echo "CREATE EXTENSION bloomsketch; CREATE SCHEMA src; CREATE TYPE pair AS (a int, b text);"; enc_build_sql "$values" src.enc_src; } | psql -d $src
	# the same filters built in the UTF8 database, for comparison
	enc_build_sql "$values" native_$origin | psql -d $DB
	# (a) pg_dump -Fc | pg_restore (schema src, renamed on arrival)
	"$PG_BIN/pg_dump" -Fc -n src $src | "$PG_BIN/pg_restore" --exit-on-error -d $DB
	psql -d $DB -c "ALTER SCHEMA src RENAME TO dump_$origin"
	# (b) COPY text and binary, through the client
	psql -d $src -c "\\copy src.enc_src TO '$work/$origin.copy'" -c "\\copy src.enc_src TO '$work/$origin.bin' (FORMAT binary)"
	psql -d $DB -c "CREATE TABLE copytext_$origin (LIKE dump_$origin.enc_src)" -c "CREATE TABLE copybin_$origin (LIKE dump_$origin.enc_src)" \
		-c "\\copy copytext_$origin FROM '$work/$origin.copy'" -c "\\copy copybin_$origin FROM '$work/$origin.bin' (FORMAT binary)"
	# (c) the text forms, as literals cast back
	psql -At -d $src -v origin=$origin >"$work/$origin.textform.sql" <<'SQL'
SELECT format('INSERT INTO textform_%s VALUES (%L, %L::bloomfilter, %L::bloomfilter, %L::bloomfilter, %L::cmsketch, %L::bloomfilter);',
	:'origin', kind, small::text, large::text, blocked::text, sketch::text, fit::text) FROM src.enc_src;
SQL
	psql -d $DB -c "CREATE TABLE textform_$origin (LIKE dump_$origin.enc_src)"
	psql -d $DB -f "$work/$origin.textform.sql"
done

# enc_check LABEL DB TABLE VALUES-SQL ROWS
# Every value, written as a literal in this session, probed in every filter
# of every kind (19 probes per value).
enc_check() {
	check "$1" $((19 * $5)) "$2" <<SQL
CREATE TEMP VIEW probes AS
SELECT bloom_contains(t.small, x.v) AS "text: bloom_contains", t.small @> x.v AS "text: @>", x.v <@ t.small AS "text: <@",
	bloom_contains(t.large, x.v) AS "text: 4 MB", bloom_contains(t.blocked, x.v) AS "text: blocked",
	cms_estimate(t.sketch, x.v) >= x.cnt AS "text: cms_estimate", bloom_contains(t.fit, x.v) AS "text: fit",
	bloom_contains(a.small, ARRAY[x.v, 'é']) AS "text[]: bloom_contains", a.small @> ARRAY[x.v, 'é'] AS "text[]: @>",
	ARRAY[x.v, 'é'] <@ a.small AS "text[]: <@", bloom_contains(a.large, ARRAY[x.v, 'é']) AS "text[]: 4 MB",
	bloom_contains(a.blocked, ARRAY[x.v, 'é']) AS "text[]: blocked",
	cms_estimate(a.sketch, ARRAY[x.v, 'é']) >= x.cnt AS "text[]: cms_estimate", a.fit @> ARRAY[x.v, 'é'] AS "text[]: fit",
	bloom_contains(p.small, ROW(length(x.v), x.v)::pair) AS "pair: bloom_contains",
	p.large @> ROW(length(x.v), x.v)::pair AS "pair: 4 MB", ROW(length(x.v), x.v)::pair <@ p.blocked AS "pair: blocked",
	cms_estimate(p.sketch, ROW(length(x.v), x.v)::pair) >= x.cnt AS "pair: cms_estimate",
	ROW(length(x.v), x.v)::pair <@ p.fit AS "pair: fit (over a 1,024-bit ceiling)"
FROM ($4) x, $3 t, $3 a, $3 p
WHERE t.kind = 'text' AND a.kind = 'text[]' AND p.kind = 'pair';
SQL
}
# where they were built: a baseline that tells moving apart from building
enc_check "LATIN1 database, probed where built" $DB_LATIN1 src.enc_src "$ENC_VALUES_LATIN1" $N_LATIN1
enc_check "EUC_JP database, probed where built" $DB_EUCJP src.enc_src "$ENC_VALUES_EUCJP" $N_EUCJP
enc_check "UTF8 database, probed where built (LATIN1 values)" $DB native_latin1 "$ENC_VALUES_LATIN1" $N_LATIN1
enc_check "UTF8 database, probed where built (EUC_JP values)" $DB native_eucjp "$ENC_VALUES_EUCJP" $N_EUCJP
for how in dump copytext copybin textform; do
	case $how in
	dump) desc="pg_dump -Fc | pg_restore"; t_latin1=dump_latin1.enc_src t_eucjp=dump_eucjp.enc_src ;;
	copytext) desc="COPY text"; t_latin1=copytext_latin1 t_eucjp=copytext_eucjp ;;
	copybin) desc="COPY binary"; t_latin1=copybin_latin1 t_eucjp=copybin_eucjp ;;
	textform) desc="text form ::text then ::bloomfilter"; t_latin1=textform_latin1 t_eucjp=textform_eucjp ;;
	esac
	enc_check "LATIN1 -> UTF8 by $desc, client_encoding UTF8" $DB $t_latin1 "$ENC_VALUES_LATIN1" $N_LATIN1
	PGCLIENTENCODING=LATIN1 enc_check "LATIN1 -> UTF8 by $desc, client_encoding LATIN1" $DB $t_latin1 "$ENC_VALUES_LATIN1" $N_LATIN1
	enc_check "EUC_JP -> UTF8 by $desc, client_encoding UTF8" $DB $t_eucjp "$ENC_VALUES_EUCJP" $N_EUCJP
done
PGCLIENTENCODING=LATIN1 enc_check "UTF8 database, filters built there, client_encoding LATIN1" $DB native_latin1 "$ENC_VALUES_LATIN1" $N_LATIN1

# Text is hashed as UTF-8 whatever the database encoding, so a filter built in
# LATIN1 or EUC_JP is the very filter built from the same values in UTF8.
check "LATIN1 and EUC_JP filters byte-identical to those built in UTF8" 30 <<'SQL'
CREATE TEMP VIEW probes AS
SELECT o.origin || ' ' || m.kind || ' ' || x.what AS prober, x.same AS hit
FROM (SELECT 'latin1' AS origin, * FROM dump_latin1.enc_src UNION ALL SELECT 'eucjp', * FROM dump_eucjp.enc_src) m
	JOIN (SELECT 'latin1' AS origin, * FROM native_latin1 UNION ALL SELECT 'eucjp', * FROM native_eucjp) o USING (origin, kind),
	LATERAL (VALUES ('small', m.small = o.small), ('4 MB', m.large = o.large), ('blocked', m.blocked = o.blocked),
		('sketch', m.sketch = o.sketch), ('fit', m.fit::bytea = o.fit::bytea)) x(what, same);
SQL

echo "$((passed + failed)) checks: $passed ok, $failed FAILED"
[ "$failed" -eq 0 ]
