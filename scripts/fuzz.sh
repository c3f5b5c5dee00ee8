#!/usr/bin/env bash
# scripts/fuzz.sh — the one fuzz command.  As root: installs clang-N and
# libfuzzer-N-dev (N: the version of Debian's default clang, 14 on Debian 12)
# and sqlsmith, builds and installs the extension, then runs
#   1. the libFuzzer targets of the pure C core (test/fuzz, make run),
#   2. the server-side mutation fuzz of the input paths (test/harness/mutation_fuzz.sh),
#   3. sqlsmith over tables of the three types (test/harness/sqlsmith.sh),
# the last two against a throwaway server, and prints a summary ending in
# "N passed, N failed, N skipped"; exits non-zero on any finding or server
# crash.  A part whose packages this Debian release lacks is skipped, and says
# so in a line starting "skipped"; it never counts as passed.
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

passed=0
failed=0
skipped=0
summary=()
bs_apt_lists
fuzz_packages=()
clang=$(bs_clang_version)
if [ -n "$clang" ] && bs_package_available "clang-$clang" && bs_package_available "libfuzzer-$clang-dev"; then
	fuzz_packages+=("clang-$clang" "libfuzzer-$clang-dev")
	# the sanitizer and libFuzzer runtimes, only recommended by clang-N
	if bs_package_available "libclang-rt-$clang-dev"; then fuzz_packages+=("libclang-rt-$clang-dev"); fi
else
	clang=
	skipped=$((skipped + 1))
	summary+=("skipped libfuzzer: no clang-N and libfuzzer-N-dev packages in this Debian release")
fi
have_sqlsmith=0
if bs_package_available sqlsmith; then
	fuzz_packages+=(sqlsmith)
	have_sqlsmith=1
else
	skipped=$((skipped + 1))
	summary+=("skipped sqlsmith: no sqlsmith package in this Debian release")
fi
bs_install_packages "${fuzz_packages[@]}"
bs_build_install
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

if [ -n "$clang" ]; then
	run_part libfuzzer '^libFuzzer ' make -C "$BS_ROOT/test/fuzz" -s -j2 --no-print-directory run \
		CC="clang-$clang" SECONDS="$fuzz_seconds" FRESH="$quick"
fi

bs_start_server
export BS_SERVER_LOG=$BS_PGDIR/server.log
run_part mutation '^[0-9]+ attempts, ' bash "$BS_ROOT/test/harness/mutation_fuzz.sh" "$mutations"
if [ "$have_sqlsmith" -eq 1 ]; then
	run_part sqlsmith '^sqlsmith: [0-9]+ queries' \
		bash "$BS_ROOT/test/harness/sqlsmith.sh" "$sqlsmith_queries" "$sqlsmith_seconds"
fi

echo
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
