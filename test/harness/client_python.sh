#!/usr/bin/env bash
# The Python client (clients/python) against the server in PGHOST/PGPORT:
# installs the package into a fresh virtual environment exactly as its
# README says (Debian's python3-venv, python3-xxhash, no index), then runs
# its pytest suite with --server in a scratch database: the vectors of
# docs/vectors and, for every supported family and scheme, 10^5 probes per
# filter and the filters, sketches and summaries built on both sides.
# PG_BIN may name the PostgreSQL binaries.  Ends with one summary line and
# exits non-zero on any failure.
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/${BS_PG_MAJOR:-15}/bin}
PYTHON=${PYTHON:-/usr/bin/python3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DBS=(bs_client_python)
source "$(dirname "$0")/scratch_dbs.sh"
"$PG_BIN/createdb" bs_client_python

"$PYTHON" -m venv --system-site-packages "$work/venv"
if ! "$work/venv/bin/pip" install -q --no-index --no-build-isolation "$ROOT/clients/python" \
	>"$work/pip.log" 2>&1; then
	cat "$work/pip.log"
	echo "client_python: FAILED to install clients/python"
	exit 1
fi
# run outside the source tree, so that the installed package is the one tested
cd "$work"
installed=$("$work/venv/bin/python" -c 'import bloomsketch; print(bloomsketch.__file__)')
case $installed in
	"$work"/venv/*) ;;
	*) echo "client_python: FAILED, bloomsketch imported from $installed, not the venv"; exit 1 ;;
esac
status=0
PGDATABASE=bs_client_python "$work/venv/bin/python" -m pytest -q -p no:cacheprovider --server \
	"$ROOT/clients/python/tests" >"$work/pytest.log" 2>&1 || status=$?
tail -n 40 "$work/pytest.log"
summary=$(tail -n 1 "$work/pytest.log")
if [ $status -eq 0 ]; then
	echo "client_python: ok ($summary)"
else
	echo "client_python: FAILED ($summary)"
fi
exit $status
