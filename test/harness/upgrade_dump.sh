#!/usr/bin/env bash
# A pg_dump of a bloomsketch 0.1.0 database restores (pg_restore) into a
# server that has the current version installed, at the current version, and
# every value comes back byte for byte and gives the answers it gave under
# 0.1.0 (test/data/upgrade_values.sql: every probing scheme, ten value families,
# count-min sketches, a view, indexes and a materialized view).
#
# Two such dumps:
#  1. test/data/bloomsketch-0.1.0.dump, made by the 0.1.0 release itself on
#     PostgreSQL 15 (test/harness/upgrade_fixture.sh), so its values are in format
#     version 1 and restore across major versions too.  Its table
#     upgrade_answers_010 holds 0.1.0's answers.  Filters and sketches of
#     family other are the documented exception: version 1 hashed those
#     values through their send form, so they are refused (0A000) with a
#     hint to rebuild them; their bytes must still come back.
#  2. One made here: the extension created at version 0.1.0 (the 0.1.0
#     install script over this build's library), the same values and
#     answers, pg_dump -Fc.  Everything must match.
#
# Runs against the server in PGHOST/PGPORT (scripts/test.sh starts one), as a
# user that may create databases; PG_BIN may name the PostgreSQL binaries.
# Prints one "ok"/"FAILED" line per check and exits non-zero on any failure.
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/${BS_PG_MAJOR:-15}/bin}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DBS=(bs_upgrade_fixture bs_upgrade_src bs_upgrade_restored)
source "$ROOT/test/harness/scratch_dbs.sh"
status=0
version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$ROOT/bloomsketch.control")

# restore DB DUMP: pg_restore into a fresh database; the extension must come
# back at the current version.
restore() {
	"$PG_BIN/createdb" "$1"
	if ! "$PG_BIN/pg_restore" --exit-on-error -d "$1" "$2" >"$work/restore.log" 2>&1; then
		echo "FAILED pg_restore of $2 into $1:"; sed 's/^/    /' "$work/restore.log" | tail -20
		status=1
		return 1
	fi
	local got
	got=$(psql -At -d "$1" -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomsketch'")
	if [ "$got" = "$version" ]; then
		echo "ok     $1: pg_restore of $(basename "$2") gives bloomsketch $got"
	else
		echo "FAILED $1: pg_restore of $(basename "$2") gives bloomsketch '$got', not $version"
		status=1
	fi
}

# compare DB EXPECTED_REFUSED: upgrade_answers() now against the answers
# stored before the dump.  EXPECTED_REFUSED values of family other may be
# refused; every other value must answer as before, and every value must
# have the same bytes.
compare() {
	local db=$1 refused_expected=$2 counts
	counts=$(psql -At -F ' ' -d "$db" <<'SQL'
CREATE TEMP TABLE now_answers AS SELECT * FROM upgrade_answers();
SELECT count(*),
	count(*) FILTER (WHERE o.bytes IS NOT DISTINCT FROM n.bytes),
	count(*) FILTER (WHERE o.answer = n.answer),
	count(*) FILTER (WHERE o.answer <> n.answer AND o.what LIKE '% other%'
		AND n.answer LIKE 'ERROR 0A000: % of format version 1 holds values of family other, whose hashing has changed'),
	count(*) FILTER (WHERE o.bytes IS NOT NULL)
FROM upgrade_answers_010 o FULL JOIN now_answers n USING (id);
SQL
)
	local rows same_bytes same_answers refused values
	read -r rows same_bytes same_answers refused values <<<"$counts"
	if [ "$same_bytes" = "$rows" ] && [ "$refused" = "$refused_expected" ] &&
		[ "$((same_answers + refused))" = "$rows" ]; then
		local note=""
		[ "$refused" = 0 ] || note=", $refused of family other refused as documented"
		echo "ok     $db: $values values byte for byte; $same_answers of $rows answers as before (views included)$note"
	else
		echo "FAILED $db: of $rows rows, $same_bytes with the same bytes, $same_answers with the same answers," \
			"$refused refused (expected $refused_expected); rows that differ (before | now):"
		psql -At -d "$db" -c "SELECT o.id, o.what, o.bytes, o.answer, '|', n.bytes, n.answer
			FROM upgrade_answers_010 o FULL JOIN upgrade_answers() n USING (id)
			WHERE o.bytes IS DISTINCT FROM n.bytes OR o.answer IS DISTINCT FROM n.answer ORDER BY 1" |
			head -20 | sed 's/^/    /'
		status=1
	fi
}

# 1. The database 0.1.0 itself made and pg_dump wrote.
other=7 # of its values, 6 filters and 1 sketch are of family other
if restore bs_upgrade_fixture "$ROOT/test/data/bloomsketch-0.1.0.dump"; then
	format=$(psql -At -d bs_upgrade_fixture -c "SELECT string_agg(DISTINCT v::text, ',') FROM (
		SELECT (bloom_info(f)).format_version FROM upgrade_sketches WHERE f IS NOT NULL
		UNION ALL SELECT (cms_info(c)).format_version FROM upgrade_sketches WHERE c IS NOT NULL) t(v)")
	if [ "$format" = 1 ]; then
		echo "ok     bs_upgrade_fixture: every restored value is in format version 1, as 0.1.0 wrote it"
	else
		echo "FAILED bs_upgrade_fixture: restored values in format versions $format, not 1 alone"
		status=1
	fi
	compare bs_upgrade_fixture "$other"
fi

# 2. A database with the extension at 0.1.0, made and dumped here.
"$PG_BIN/createdb" bs_upgrade_src
(cd "$ROOT" && psql -d bs_upgrade_src <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION bloomsketch VERSION '0.1.0';
\i test/data/upgrade_values.sql
CREATE TABLE upgrade_answers_010 AS SELECT * FROM upgrade_answers();
SQL
) >"$work/src.log" 2>&1 || { echo "FAILED making the 0.1.0 database:"; tail -20 "$work/src.log"; exit 1; }
if "$PG_BIN/pg_dump" -Fc -f "$work/src.dump" bs_upgrade_src 2>"$work/dump.log"; then
	if restore bs_upgrade_restored "$work/src.dump"; then
		compare bs_upgrade_restored 0
	fi
else
	echo "FAILED pg_dump of bs_upgrade_src:"; tail -20 "$work/dump.log"; status=1
fi

exit $status
