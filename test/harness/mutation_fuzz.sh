#!/usr/bin/env bash
# test/harness/mutation_fuzz.sh — server-side mutation fuzz of the bloomfilter,
# cmsketch and topksketch input paths.
#
#   test/harness/mutation_fuzz.sh [MUTATIONS]      (default 10000 per type)
#
# Takes valid filters and sketches built by the server (several sizes,
# families and schemes, self-sized filters of bloom_fit_agg and its partial
# states of both forms among them), mutates each MUTATIONS times per type
# (test/harness/mutation_fuzz.py), and sends every mutation through the bytea cast,
# text input and binary receive (COPY FORMAT binary of a crafted file), each
# attempt in its own subtransaction (test/harness/mutation_fuzz.sql).  Every attempt
# must give a valid value — which must then round-trip and survive the
# checks of mutation_fuzz.sql — or an ERROR with SQLSTATE 22P02, 22P03,
# 22023 or 54000; the server must not crash (test/harness/fuzz_watch.sh).  Prints
# the totals per SQLSTATE and input path; exits non-zero otherwise.
#
# Runs against the server in PGHOST/PGPORT/PGUSER (a superuser: COPY reads
# server-side files), in a database of its own that it drops at the end.
# BS_SERVER_LOG names the server log to search for crashes; MUTATION_SEED
# changes the mutations (default 1: the same ones every run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/fuzz_watch.sh"

count=${1:-10000}
db=bs_mutation_fuzz_$$
# the 20,000+ small files of the recv path are written much faster to tmpfs
work=$(mktemp -d /dev/shm/bs-mutation.XXXXXX 2>/dev/null || mktemp -d /tmp/bs-mutation.XXXXXX)
chmod 755 "$work"
cleanup() {
	psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
run_sql() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
# A step that could not run: say so, and whether the server crashed.
fail() {
	echo "FAILED: $1"
	watch_check || true
	echo "mutation fuzz: $((SECONDS - started)) s, FAILED"
	exit 1
}
started=$SECONDS

watch_start "$work"
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db" || fail "cannot create a database"
run_sql -c "CREATE EXTENSION bloomsketch" || fail "cannot create the extension"

# Seeds: kind, serialized bytes (hex), text form.  mf_fit_state is
# bloom_fit_agg's transition function alone: its partial state (scheme
# fit_partial), as Citus ships it between nodes.
seeds_ok=1
run_sql -At -F $'\t' >"$work/seeds.tsv" <<'SQL' || seeds_ok=0
CREATE AGGREGATE mf_fit_state(anyelement, float8, bigint) (SFUNC = bloom_fit_agg_trans, STYPE = bloomfilter);
WITH b(f) AS (
	SELECT bloom_create(10, 0.1)
	UNION ALL SELECT bloom_add(bloom_create(1, 0.5, -3), true)
	UNION ALL SELECT bloom_agg(i::bigint, 100, 0.01) FROM generate_series(1, 60) i
	UNION ALL SELECT bloom_agg('v' || i, 500, 0.05) FROM generate_series(1, 400) i
	UNION ALL SELECT bloom_agg(md5(i::text)::uuid, 50, 0.01) FROM generate_series(1, 20) i
	UNION ALL SELECT bloom_agg(('10.0.0.' || i)::inet, 30, 0.1) FROM generate_series(1, 30) i
	UNION ALL SELECT bloom_agg(i::numeric / 7, 200, 0.001) FROM generate_series(1, 150) i
	UNION ALL SELECT bloom_agg(i, 3000, 0.01) FROM generate_series(1, 1000) i
	UNION ALL SELECT bloom_agg(i::bigint, 100, 0.01, s)
		FROM generate_series(1, 50) i,
			unnest(ARRAY['double_square', 'double_cube', 'partition', 'independent', 'blocked']) s
		GROUP BY s
	UNION ALL SELECT bloom_agg(i::bigint, 10, 0.01) & bloom_agg(i::bigint + 3, 10, 0.01)
		FROM generate_series(1, 10) i
	UNION ALL SELECT bloom_agg(ARRAY[i, i + 1], 40, 0.05) FROM generate_series(1, 30) i
	UNION ALL SELECT bloom_agg(repeat(md5(i::text), 100), 40, 0.05) FROM generate_series(1, 30) i
	UNION ALL SELECT bloom_agg(jsonb_build_object('k', i), 40, 0.05) FROM generate_series(1, 30) i
	-- self-sized filters: exact-rate sizes, fill-rate sizes, over the ceiling, a union across sizes
	UNION ALL SELECT bloom_fit_agg(i::bigint) FROM generate_series(1, 10) i
	UNION ALL SELECT bloom_fit_agg('v' || i, 0.001) FROM generate_series(1, 100) i
	UNION ALL SELECT bloom_fit_agg(i, 0.01, 1024) FROM generate_series(1, 300) i
	UNION ALL SELECT bloom_fit_agg(ARRAY[i, i + 1], 0.2) FROM generate_series(1, 20) i
	UNION ALL SELECT (SELECT bloom_fit_agg(i::bigint) FROM generate_series(1, 5) i)
		| (SELECT bloom_fit_agg(i::bigint) FROM generate_series(1, 200) i)
	-- partial states: hashes (empty of none but the first), bits at a small ceiling
	UNION ALL SELECT mf_fit_state(i::bigint, 0.01, 1024) FROM generate_series(1, 3) i
	UNION ALL SELECT mf_fit_state(i::bigint, 0.01, 1024) FROM generate_series(1, 60) i
	UNION ALL SELECT mf_fit_state('v' || i, 0.001, 134217728) FROM generate_series(1, 20) i
	UNION ALL SELECT mf_fit_state(md5(i::text)::uuid, 0.3, 2048) FROM generate_series(1, 1) i
	UNION ALL SELECT mf_fit_state(ARRAY[i], 0.05, 4096) FROM generate_series(1, 40) i
)
SELECT 'bloom', encode(bloomfilter_send(f), 'hex'), f::text FROM b;
WITH c(s) AS (
	SELECT cms_create_dims(2, 1)
	UNION ALL SELECT cms_agg(i % 13, 0.2, 0.2) FROM generate_series(1, 200) i
	UNION ALL SELECT cms_agg('k' || (i % 7), 0.1, 0.01) FROM generate_series(1, 300) i
	UNION ALL SELECT cms_agg(i, i::bigint, 0.3, 0.3) FROM generate_series(1, 50) i
	UNION ALL SELECT cms_agg(md5(i::text)::uuid, 0.3, 0.3) FROM generate_series(1, 40) i
	UNION ALL SELECT cms_agg(('10.0.0.' || i)::inet, 0.25, 0.1) FROM generate_series(1, 30) i
	UNION ALL SELECT cms_agg(ROW(i, 'r' || i), 0.25, 0.1) FROM generate_series(1, 30) i
	UNION ALL SELECT cms_add(cms_create_dims(5, 3, 11), 'x'::text, 9223372036854775807)
	UNION ALL SELECT cms_intersect(cms_agg(i % 5, 0.2, 0.2), cms_agg(i % 3, 0.2, 0.2))
		FROM generate_series(1, 100) i
)
SELECT 'cms', encode(s::bytea, 'hex'), s::text FROM c;
WITH t(s) AS (
	SELECT 'topk:v1:none:counters=3:entries=0:total=0:error=0:bytes=0:'::topksketch
	UNION ALL SELECT topk_agg(i % 13, 5) FROM generate_series(1, 200) i
	UNION ALL SELECT topk_agg('k' || (i % 7), 3) FROM generate_series(1, 300) i
	UNION ALL SELECT topk_agg(i::numeric / 4, 10) FROM generate_series(1, 60) i
	UNION ALL SELECT topk_agg(md5((i % 9)::text)::uuid, 4) FROM generate_series(1, 40) i
	UNION ALL SELECT topk_agg(('10.0.0.' || (i % 6))::inet, 4) FROM generate_series(1, 30) i
	UNION ALL SELECT topk_agg(ROW(i % 4, 'r' || (i % 4)), 3) FROM generate_series(1, 30) i
	UNION ALL SELECT topk_agg(repeat(md5((i % 5)::text), 10), 4) FROM generate_series(1, 50) i
	UNION ALL SELECT topk_agg(i % 3 = 0, 2) FROM generate_series(1, 20) i
	UNION ALL SELECT topk_agg(date '2024-01-01' + i % 5, 2) + topk_agg(date '2024-01-03', 2)
		FROM generate_series(1, 25) i
)
SELECT 'topk', encode(s::bytea, 'hex'), s::text FROM t;
SQL
[ "$seeds_ok" -eq 1 ] || fail "the server could not build the seed values"
echo "seeds: $(grep -c '^bloom' "$work/seeds.tsv") bloomfilters ($(grep -c ':fit' "$work/seeds.tsv") of them self-sized" \
	"filters or states), $(grep -c '^cms' "$work/seeds.tsv") cmsketches, $(grep -c '^topk' "$work/seeds.tsv") topksketches"

python3 "$here/mutation_fuzz.py" generate "$work" "$count" "${MUTATION_SEED:-1}" ||
	fail "cannot generate the mutations"
chmod -R a+rX "$work"
run_sql -f "$here/mutation_fuzz.sql" || fail "cannot create the test functions"
run_sql -c "\\copy mf_attempt FROM '$work/attempts.tsv'" || fail "cannot load the attempts"
echo "generated $count mutations per type, $(wc -l <"$work/attempts.tsv") attempts in $work ($((SECONDS - started)) s)"

# In chunks of 3,000 attempts, so that a crash loses one chunk only: its
# attempts are kept in test/fuzz/artifacts/ and the run goes on once the
# server has recovered.
status=0
total=$(wc -l <"$work/attempts.tsv")
t=$SECONDS
for ((first = 1; first <= total; first += 3000)); do
	last=$((first + 2999))
	if ! run_sql -At -c "SELECT mf_run($first, $last)" >/dev/null; then
		status=1
		keep=$here/../fuzz/artifacts/mutation-seed${MUTATION_SEED:-1}-$first-$last.tsv
		mkdir -p "$here/../fuzz/artifacts"
		awk -F'\t' -v a="$first" -v b="$last" '$1 >= a && $1 <= b' "$work/attempts.tsv" >"$keep"
		echo "FAILED: attempts $first to $last did not complete (kept in $keep)"
		for _ in $(seq 120); do
			psql -X -q -d postgres -c "SELECT 1" >/dev/null 2>&1 && break
			sleep 0.5
		done
	fi
done
echo "sent $total attempts in $((SECONDS - t)) s"

run_sql -c "\\copy mf_outcome TO '$work/outcomes.tsv'" || fail "cannot read the outcomes"
python3 "$here/mutation_fuzz.py" report "$work" || status=1
watch_check || status=1
echo "mutation fuzz: $((SECONDS - started)) s, $([ "$status" -eq 0 ] && echo passed || echo FAILED)"
exit "$status"
