#!/usr/bin/env bash
# Makes test/data/bloomsketch-0.1.0.dump, the database of bloomsketch 0.1.0 that
# test/harness/upgrade_dump.sh restores into the current version: the release itself
# (its last commit, RELEASE below, taken from this repository's history) built
# for PostgreSQL 15, test/data/upgrade_values.sql run under it, and pg_dump in
# custom format.  The values it holds are those 0.1.0 wrote (format version
# 1), and the table upgrade_answers_010 the answers 0.1.0 gave about them.
# The test suite does not run this script; it was run once to make the file.
#
#   test/harness/upgrade_fixture.sh          as root, on Debian 12 with postgresql-15
#                                    and postgresql-server-dev-15
#
# Nothing is installed into the system's PostgreSQL: 0.1.0 goes into a copy
# of PostgreSQL 15 in a temporary directory (Debian's build finds its share
# and library directories relative to its binaries), whose server runs on a
# private socket like the test suite's (BS_PG_PORT chooses the port).
source "$(dirname "$0")/../../scripts/lib.sh"
bs_require_root "$@"

RELEASE=96502f5 # bench/README.md: "0.1.0's last commit"
OUT=$BS_ROOT/test/data/bloomsketch-0.1.0.dump

work=$(mktemp -d /tmp/bloomsketch-fixture.XXXXXX)
chmod 755 "$work"
trap 'bs_stop_server; rm -rf "$work"' EXIT

bs_log "a private copy of PostgreSQL 15 in $work/pg"
R=$work/pg
mkdir -p "$R/usr/lib/postgresql" "$R/usr/share/postgresql" "$R/usr/include/postgresql"
cp -a /usr/lib/postgresql/15 "$R/usr/lib/postgresql/"
cp -a /usr/share/postgresql/15 "$R/usr/share/postgresql/"
cp -a /usr/include/postgresql/15 "$R/usr/include/postgresql/"
# whatever bloomsketch the system has installed must not be what runs
rm -rf "$R"/usr/share/postgresql/15/extension/bloomsketch* "$R"/usr/lib/postgresql/15/lib/bloomsketch.so \
	"$R"/usr/lib/postgresql/15/lib/bitcode/bloomsketch*

bs_log "building bloomsketch 0.1.0 ($RELEASE)"
mkdir "$work/src"
git -C "$BS_ROOT" archive "$RELEASE" | tar -C "$work/src" -xf -
grep -qx "default_version = '0.1.0'" "$work/src/bloomsketch.control" ||
	{ echo "$RELEASE is not bloomsketch 0.1.0" >&2; exit 1; }
make -C "$work/src" -s -j2 PG_CONFIG="$R/usr/lib/postgresql/15/bin/pg_config" with_llvm=no >/dev/null
make -C "$work/src" -s PG_CONFIG="$R/usr/lib/postgresql/15/bin/pg_config" with_llvm=no install >/dev/null

PG_BIN=$R/usr/lib/postgresql/15/bin
bs_start_server
trap 'bs_stop_server; rm -rf "$work"' EXIT # bs_start_server set its own
psql() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
psql -c "CREATE DATABASE bs_fixture"
# psql reads test/data/upgrade_values.sql from the top directory
(cd "$BS_ROOT" && psql -d bs_fixture <<'SQL'
CREATE EXTENSION bloomsketch;
DO $$
BEGIN
	IF (SELECT extversion FROM pg_extension WHERE extname = 'bloomsketch') <> '0.1.0' THEN
		RAISE EXCEPTION 'the server runs bloomsketch %, not 0.1.0',
			(SELECT extversion FROM pg_extension WHERE extname = 'bloomsketch');
	END IF;
END
$$;
\i test/data/upgrade_values.sql
CREATE TABLE upgrade_answers_010 AS SELECT * FROM upgrade_answers();
SQL
)
errors=$(psql -At -d bs_fixture -c "SELECT count(*) FROM upgrade_answers_010 WHERE answer LIKE 'ERROR%'")
if [ "$errors" != 0 ]; then
	echo "0.1.0 refused $errors of its own values:" >&2
	psql -At -d bs_fixture -c "SELECT id, what, answer FROM upgrade_answers_010 WHERE answer LIKE 'ERROR%'" >&2
	exit 1
fi
"$PG_BIN/pg_dump" -Fc -f "$OUT" bs_fixture
echo "wrote $OUT: $(psql -At -d bs_fixture -c "SELECT count(*) FROM upgrade_sketches") values," \
	"$(stat -c %s "$OUT") bytes"
