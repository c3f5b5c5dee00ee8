#!/usr/bin/env bash
# The JavaScript client (clients/js) installed the way its README says,
# `npm install <repo>/clients/js` into a fresh project, then its tests run
# against that installed copy: XXH3 against libxxhash's digests,
# docs/vectors, and the server in PGHOST/PGPORT (scripts/test.sh starts
# one): every family and scheme probed 10^5 times in SQL and in
# JavaScript, values built on either side compared byte for byte and with
# `=`.  Needs Node.js 18 or later and npm; reaches no registry (the
# package has no dependencies).  PG_BIN may name the PostgreSQL binaries.
# Ends with one line "client_js: N passed, M failed"; non-zero on failure.
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/${BS_PG_MAJOR:-15}/bin}
repo=$(cd "$(dirname "$0")/../.." && pwd)
DBS=(bs_client_js_bloom bs_client_js_sketches)
source "$(dirname "$0")/scratch_dbs.sh"

fail() { echo "FAILED $*"; echo "client_js: 0 passed, 1 failed"; exit 1; }
command -v node >/dev/null || fail "node is not installed (apt-get install nodejs npm)"
command -v npm >/dev/null || fail "npm is not installed (apt-get install npm)"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 18 ] || fail "Node.js $(node --version) is older than 18"
"$PG_BIN/psql" -X -q -d postgres -c 'SELECT 1' >/dev/null 2>&1 ||
	fail "no server reachable at PGHOST=${PGHOST:-} PGPORT=${PGPORT:-}"

project=$work/app
mkdir -p "$project/test"
(
	cd "$project"
	echo '{ "name": "bloomsketch-client-check", "private": true, "type": "module" }' >package.json
	npm install --no-audit --no-fund --loglevel=error "$repo/clients/js" >"$work/npm.log" 2>&1
) || { cat "$work/npm.log"; fail "npm install $repo/clients/js"; }
cp "$repo"/clients/js/test/*.test.js "$repo"/clients/js/test/*.mjs "$repo"/clients/js/test/*.tsv "$project/test/"

set +e
(
	cd "$project"
	BLOOMSKETCH_SERVER_TESTS=1 PG_BIN=$PG_BIN BS_VECTORS=$repo/docs/vectors BS_REPO_TEST=$repo/test/data \
		node --test --test-reporter=tap test/*.test.js
) >"$work/node.log" 2>&1
code=$?
set -e
grep -E '^(not )?ok ' "$work/node.log" | sed 's/^/    /'
if [ $code -ne 0 ]; then
	grep -vE '^\s+(at |\.\.\.|---)' "$work/node.log" | grep -A12 '^not ok' | head -80
fi
passed=$(awk '/^# pass /{print $3}' "$work/node.log")
failed=$(awk '/^# fail /{print $3}' "$work/node.log")
if [ -z "$passed" ] || [ "$passed" -eq 0 ]; then
	tail -20 "$work/node.log"
	echo "client_js: 0 passed, 1 failed"
	exit 1
fi
[ $code -eq 0 ] || [ "${failed:-0}" -gt 0 ] || failed=1
echo "client_js: $passed passed, ${failed:-0} failed"
exit $code
