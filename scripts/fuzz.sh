#!/usr/bin/env bash
# scripts/fuzz.sh — the one fuzz command.  As root: installs clang-14,
# libfuzzer-14-dev and sqlsmith, builds and installs the extension, then runs
#   1. the libFuzzer targets of the pure C core (test/fuzz, make run),
#   2. the server-side mutation fuzz of the input paths (test/mutation_fuzz.sh),
#   3. sqlsmith over tables of both types (test/sqlsmith.sh),
# the last two against a throwaway server, and prints a summary ending in
# "N passed, N failed"; exits non-zero on any finding or server crash.
#
#   scripts/fuzz.sh           60 s per libFuzzer target, 30,000 mutations per
#                             type, sqlsmith for 180 s (about 8 minutes)
#   scripts/fuzz.sh --quick   15 s per target from the committed seed corpus
#                             only, 10,000 mutations per type, sqlsmith for
#                             45 s (about 3 minutes of fuzzing)
#
# FUZZ_SECONDS, MUTATIONS, SQLSMITH_QUERIES and SQLSMITH_SECONDS override
# the numbers.  Crash inputs of libFuzzer stay in test/fuzz/artifacts/.
source "$(dirname "$0")/lib.sh"
bs_require_root "$@"

quick=0
for arg in "$@"; do
	case $arg in
		--quick) quick=1 ;;
		*) echo "usage: scripts/fuzz.sh [--quick]" >&2; exit 2 ;;
	esac
done
if [ "$quick" -eq 1 ]; then
	fuzz_seconds=${FUZZ_SECONDS:-15}
	mutations=${MUTATIONS:-10000}
	sqlsmith_seconds=${SQLSMITH_SECONDS:-45}
else
	fuzz_seconds=${FUZZ_SECONDS:-60}
	mutations=${MUTATIONS:-30000}
	sqlsmith_seconds=${SQLSMITH_SECONDS:-180}
fi
sqlsmith_queries=${SQLSMITH_QUERIES:-20000}

bs_install_packages clang-14 libfuzzer-14-dev sqlsmith
bs_build_install

passed=0
failed=0
summary=()
out=$BS_ROOT/test/fuzz/logs
mkdir -p "$out"

# run_part NAME PATTERN COMMAND...: run one part, show its output, and record
# its verdict with the last output line matching PATTERN (its totals).
run_part() {
	local name=$1 pattern=$2 start=$SECONDS rc=0 totals
	shift 2
	bs_log "$name"
	"$@" 2>&1 | tee "$out/$name.out" || rc=$?
	totals=$(grep -E "$pattern" "$out/$name.out" | tail -1 || true)
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		summary+=("ok     $name ($((SECONDS - start)) s): $totals")
	else
		failed=$((failed + 1))
		summary+=("FAILED $name ($((SECONDS - start)) s): ${totals:-see $out/$name.out}")
	fi
}

run_part libfuzzer '^libFuzzer ' make -C "$BS_ROOT/test/fuzz" -s -j2 --no-print-directory run \
	SECONDS="$fuzz_seconds" FRESH="$quick"

bs_start_server
export BS_SERVER_LOG=$BS_PGDIR/server.log
run_part mutation '^[0-9]+ attempts, ' bash "$BS_ROOT/test/mutation_fuzz.sh" "$mutations"
run_part sqlsmith '^sqlsmith: [0-9]+ queries' \
	bash "$BS_ROOT/test/sqlsmith.sh" "$sqlsmith_queries" "$sqlsmith_seconds"

echo
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
