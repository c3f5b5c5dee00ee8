#!/usr/bin/env bash
# The whole test suite: the pure C core's unit tests, then the pg_regress
# suite against a throwaway server.  Ends with "N passed, N failed" and exits
# non-zero when anything failed.
source "$(dirname "$0")/lib.sh"
bs_require_root "$@"
bs_install_packages
bs_build_install

passed=0
failed=0

bs_log "core unit tests"
if make -C "$BS_ROOT/test" -s run PG_CONFIG=$PG_BIN/pg_config >"$BS_ROOT/test/core.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     core unit tests"
else
	failed=$((failed + 1)); echo "FAILED core unit tests"; tail -20 "$BS_ROOT/test/core.out"
fi

bs_log "exact-analysis accuracy tests (a few minutes)"
if make -C "$BS_ROOT/test" -s analysis >"$BS_ROOT/test/analysis.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     exact-analysis accuracy tests: $(tail -1 "$BS_ROOT/test/analysis.out")"
else
	failed=$((failed + 1)); echo "FAILED exact-analysis accuracy tests"; tail -20 "$BS_ROOT/test/analysis.out"
fi

# PostgreSQL's JIT finds the body of a C function to inline by its symbol's
# name, so a symbol of ours that the server also exports would be replaced by
# the server's (it happened with bloom_create: the backend crashed).
bs_log "no C symbol shared with the server"
shared=$(comm -12 <(nm -D --defined-only "$PG_BIN/postgres" | awk '{print $3}' | sort -u) \
	<(nm -D --defined-only "$BS_ROOT/bloomsketch.so" | awk '{print $3}' | sort -u))
if [ -z "$shared" ]; then
	passed=$((passed + 1)); echo "ok     no C symbol shared with the server"
else
	failed=$((failed + 1)); echo "FAILED symbols the server also exports: $shared"
fi

bs_start_server
bs_log "pg_regress suite"
rm -rf "$BS_ROOT/results"
make -C "$BS_ROOT" -s PG_CONFIG=$PG_BIN/pg_config installcheck >"$BS_ROOT/regress.log" 2>&1 || true
cat "$BS_ROOT/regress.log"
r_ok=$(grep -cE '\.\.\. ok|^ok ' "$BS_ROOT/regress.log" || true)
r_failed=$(grep -cE '\.\.\. FAILED|^not ok ' "$BS_ROOT/regress.log" || true)
expected=$(make -C "$BS_ROOT" -s print-regress | wc -w)
if [ "$((r_ok + r_failed))" -ne "$expected" ]; then
	# a test that never reported (crash, server gone) counts as failed
	r_failed=$((expected - r_ok))
fi
[ -f "$BS_ROOT/regression.diffs" ] && head -200 "$BS_ROOT/regression.diffs"
passed=$((passed + r_ok))
failed=$((failed + r_failed))

bs_log "dump/restore and COPY round trips"
if PG_BIN=$PG_BIN bash "$BS_ROOT/test/dump_restore.sh" >"$BS_ROOT/test/dump.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     dump/restore and COPY round trips"
else
	failed=$((failed + 1)); echo "FAILED dump/restore and COPY round trips"; tail -20 "$BS_ROOT/test/dump.out"
fi
bs_log "no false negatives: every family, storage form, builder and prober (about 2 minutes)"
if PG_BIN=$PG_BIN bash "$BS_ROOT/test/no_false_negatives.sh" >"$BS_ROOT/test/nfn.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     no false negatives: $(tail -1 "$BS_ROOT/test/nfn.out")"
else
	failed=$((failed + 1)); echo "FAILED no false negatives"; grep -A6 '^FAILED' "$BS_ROOT/test/nfn.out" | head -60
fi
bs_log "concurrent soak (10 s)"
if PG_BIN=$PG_BIN bash "$BS_ROOT/bench/soak.sh" --quick >"$BS_ROOT/test/soak.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     concurrent soak: $(grep -m1 '^pgbench:' "$BS_ROOT/test/soak.out")"
else
	failed=$((failed + 1)); echo "FAILED concurrent soak"; tail -20 "$BS_ROOT/test/soak.out"
fi

bs_log "fuzzing: libFuzzer, server-side mutations, sqlsmith (about 3 minutes)"
mkdir -p "$BS_ROOT/test/fuzz/logs"
if bash "$BS_ROOT/scripts/fuzz.sh" --quick >"$BS_ROOT/test/fuzz/logs/fuzz.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     fuzzing (libFuzzer, mutations, sqlsmith; test/fuzz/logs/fuzz.out)"
else
	failed=$((failed + 1)); echo "FAILED fuzzing"; tail -30 "$BS_ROOT/test/fuzz/logs/fuzz.out"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
