#!/usr/bin/env bash
# The two ways to reach the default version give the same SQL objects: a
# fresh CREATE EXTENSION (sql/bloomsketch--<default>.sql) and CREATE
# EXTENSION VERSION '0.1.0' followed by ALTER EXTENSION UPDATE (the upgrade
# chain).  Each is dumped with scripts/extension_catalog.sql (signatures,
# volatility, parallel safety, strictness, costs, aggregate and type
# functions, operators, casts, operator classes, comments, owners, grants,
# dependencies), without and with citext installed first, and the dumps are
# diffed.  The dumps stay in DIR (default: a temporary directory), so that
# those of two builds can be diffed too.
#
# Runs against the server in PGHOST/PGPORT as a user that may create
# databases, with the extension installed in that server (scripts/lib.sh
# bs_start_server, or /opt/pgc/regress.sh's build).  PG_BIN may name the
# PostgreSQL binaries.  Exits non-zero when the paths differ.
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/${BS_PG_MAJOR:-15}/bin}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$(mktemp -d)}
mkdir -p "$out"
db=bs_compare_installs
status=0

# dump NAME SETUP...: a database of its own, the SETUP statements, the catalog.
dump() {
	local name=$1 sql
	shift
	"$PG_BIN/dropdb" --if-exists "$db" 2>/dev/null
	"$PG_BIN/createdb" "$db"
	for sql in "$@"; do
		"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$db" -c "SET client_min_messages = warning" -c "$sql"
	done
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$ROOT/scripts/extension_catalog.sql" >"$out/$name.txt"
	"$PG_BIN/dropdb" "$db"
}

dump fresh "CREATE EXTENSION bloomsketch"
dump upgraded "CREATE EXTENSION bloomsketch VERSION '0.1.0'" "ALTER EXTENSION bloomsketch UPDATE"
dump fresh_citext "CREATE EXTENSION citext" "CREATE EXTENSION bloomsketch"
dump upgraded_citext "CREATE EXTENSION citext" "CREATE EXTENSION bloomsketch VERSION '0.1.0'" \
	"ALTER EXTENSION bloomsketch UPDATE"

for pair in "fresh upgraded" "fresh_citext upgraded_citext"; do
	set -- $pair
	if diff -u "$out/$1.txt" "$out/$2.txt" >"$out/$1-vs-$2.diff"; then
		echo "ok     $1 and $2 give the same $(wc -l <"$out/$1.txt") catalog facts"
	else
		echo "FAILED $1 and $2 differ ($out/$1-vs-$2.diff):"
		head -40 "$out/$1-vs-$2.diff" | sed 's/^/    /'
		status=1
	fi
done
exit $status
