#!/usr/bin/env bash
# test/fuzz/run_fuzzers.sh — runs the built libFuzzer targets (make run/regress).
#
#   run_fuzzers.sh fuzz SECONDS TARGET...   fuzz each target for SECONDS
#   run_fuzzers.sh regress TARGET...        run each corpus and regression file once
#
# Fuzzing starts from corpus/<target>, regressions/<target> and the inputs
# earlier runs kept in work/<target>; with FRESH=1 in the environment it
# leaves work/ out and keeps this run's new inputs in logs/ only (a short run
# then fuzzes instead of replaying a large accumulated corpus).
# Prints one line per target (executions, findings) and a total line; exits 1
# when a target found something or did not finish cleanly.  Full output of
# each run: logs/<target>.log; crash artifacts: artifacts/<target>/.
set -uo pipefail
cd "$(dirname "$0")"

mode=$1
shift
seconds=0
if [ "$mode" = fuzz ]; then
	seconds=$1
	shift
fi

failed=0
total_execs=0
total_findings=0
mkdir -p logs
for target in "$@"; do
	work=work/$target
	if [ "${FRESH:-0}" = 1 ]; then
		work=logs/$target.new
		rm -rf "$work"
	fi
	mkdir -p "$work" "artifacts/$target"
	log=logs/$target.log
	stamp=logs/$target.stamp
	touch "$stamp"
	inputs=("corpus/$target")
	[ -d "regressions/$target" ] && inputs+=("regressions/$target")
	options=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1
		"-artifact_prefix=artifacts/$target/")
	[ -f "dict/$target.dict" ] && options+=("-dict=dict/$target.dict")

	if [ "$mode" = fuzz ]; then
		"./$target" "${options[@]}" -max_total_time="$seconds" -use_value_profile=1 \
			"$work" "${inputs[@]}" >"$log" 2>&1
	else
		mapfile -t files < <(find "${inputs[@]}" -type f ! -name 'README*' | sort)
		"./$target" "${options[@]}" "${files[@]}" >"$log" 2>&1
	fi
	rc=$?

	execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
	if [ -z "$execs" ]; then
		# no final stats (a crash ends the run early): the last progress line
		execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
	fi
	[ "$mode" = regress ] && [ -z "$execs" ] && execs=$(grep -c '^Executed ' "$log")
	execs=${execs:-0}
	findings=$(find "artifacts/$target" -type f -newer "$stamp" | wc -l)
	rm -f "$stamp"

	note=""
	if [ "$rc" -ne 0 ] || [ "$findings" -ne 0 ]; then
		failed=1
		note="  FAILED (exit $rc; see test/fuzz/$log)"
		[ "$findings" -eq 0 ] && findings=1
		grep -m1 -E 'invariant violated|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error' "$log" | sed 's/^/    /'
	fi
	printf '%-18s %12d executions %4d findings%s\n' "$target" "$execs" "$findings" "$note"
	total_execs=$((total_execs + execs))
	total_findings=$((total_findings + findings))
done
printf 'libFuzzer %s: %d targets, %d executions, %d findings\n' "$mode" "$#" \
	"$total_execs" "$total_findings"
exit $failed
