# test/harness/scratch_dbs.sh — sourced by the shell tests that make databases of
# their own on the server in PGHOST/PGPORT (dump_restore.sh,
# no_false_negatives.sh, upgrade_dump.sh), once PG_BIN and DBS, the names of
# those databases, are set.  Drops any of them that an earlier run left, and
# at exit drops them and removes the scratch directory $work.  psql runs
# quietly, without ~/.psqlrc, and stops at the first error.
work=$(mktemp -d)
drop_scratch_dbs() {
	local db
	for db in "${DBS[@]}"; do "$PG_BIN/dropdb" --if-exists "$db" >/dev/null 2>&1 || true; done
}
trap 'rm -rf "$work"; drop_scratch_dbs' EXIT
psql() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
drop_scratch_dbs
