#!/usr/bin/env bash
# The whole test suite, on each PostgreSQL major version named (default: all):
#
#   scripts/test.sh              15, 17 and 18
#   scripts/test.sh 17 18        only those
#
# For each version: the check that the units of src/ form no circle
# (scripts/unit_graph.py), the pure C core's unit tests, the format test vectors
# (C core and the Python client), the pg_regress suite against a throwaway
# server, the Python and JavaScript clients against it and the latter in
# Chromium (15 only), dump/restore, a dump of 0.1.0 restored, a Citus cluster (15 and
# 17; Citus 13.2 does not build for 18), a concurrent soak, the fuzzers, and
# the Debian package built, installed in place of the source build, used and
# purged (the source build is then installed again).  15 runs on this
# Debian 12 host; 17 and 18 in the Debian chroots of scripts/chroot.sh (made
# on first use), on a copy of the source tree built and installed there.
# BS_CHROOT_15=1 runs 15 in a Debian 12 chroot too, leaving the host alone.
# Every line says its version ("pg17: ..."); a part that cannot run on a
# version is reported as skipped, never as passed.  Ends with "N passed,
# N failed, N skipped" summed over the versions and exits non-zero when
# anything failed.
#
# "scripts/test.sh --here" runs the suite for BS_PG_MAJOR (default 15) on the
# system it runs on, unprefixed: what the above runs for each version.
source "$(dirname "$0")/lib.sh"
bs_require_root "$@"

if [ "${1:-}" != --here ]; then
	source "$BS_ROOT/scripts/chroot.sh"
	versions=("$@")
	[ ${#versions[@]} -gt 0 ] || versions=(15 17 18)
	for v in "${versions[@]}"; do
		case $v in
			15 | 17 | 18) ;;
			*) echo "usage: scripts/test.sh [15] [17] [18]" >&2; exit 2 ;;
		esac
	done
	total_passed=0 total_failed=0 total_skipped=0 times=()
	# test/harness/citus.sh looks for the Citus source beside the repository, as
	# ../shared/deps/ (or where BS_CITUS_TARBALL says); in a chroot that is
	# /root/shared/deps/.  When there is none, the test fails in there.
	copy_citus_source() {
		local tarball=${BS_CITUS_TARBALL:-$BS_ROOT/../shared/deps/citus-13.2.2.tar.gz}
		rm -rf "$1/root/shared/deps"
		if [ -f "$tarball" ]; then
			mkdir -p "$1/root/shared/deps" && cp "$tarball" "$1/root/shared/deps/citus-13.2.2.tar.gz"
		fi
	}
	# Make the missing chroots in the background while the host's version
	# runs (debootstrap mostly waits for the mirror); each is waited for
	# before its version runs.
	declare -A making=()
	for v in "${versions[@]}"; do
		if { [ "$v" != 15 ] || [ "${BS_CHROOT_15:-0}" = 1 ]; } && [ ! -f "$(bs_chroot_dir "$v")/.bs-complete" ]; then
			bs_chroot_need_debootstrap
			mkdir -p "$BS_CHROOT_BASE"
			bs_log "making the chroot for PostgreSQL $v in the background ($BS_CHROOT_BASE/create-$v.log)"
			bs_chroot_create "$v" >"$BS_CHROOT_BASE/create-$v.log" 2>&1 &
			making[$v]=$!
		fi
	done
	for v in "${versions[@]}"; do
		start=$SECONDS
		if [ -n "${making[$v]:-}" ]; then
			wait "${making[$v]}" || true
			echo "pg$v: ==> chroot made in $((SECONDS - start)) s" >&2
			start=$SECONDS
		fi
		log=$(mktemp /tmp/bloomsketch-test-$v.XXXXXX)
		if [ "$v" = 15 ] && [ "${BS_CHROOT_15:-0}" != 1 ]; then
			BS_PG_MAJOR=15 BS_PG_PORT= bash "$BS_ROOT/scripts/test.sh" --here 2>&1 | sed -u "s/^/pg$v: /" | tee "$log" || true
		else
			port=  # lib.sh's for 17 and 18; 15 in its chroot keeps off the host's 54329
			[ "$v" = 15 ] && port=54400
			{
				dir=$(bs_chroot_create "$v") &&
					rm -rf "$dir/root/bloomsketch" && mkdir -p "$dir/root/bloomsketch" &&
					tar -C "$BS_ROOT" --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
						--exclude=./results --exclude=./test/fuzz/build --exclude=./test/fuzz/work \
						--exclude=./test/fuzz/artifacts --exclude=./test/fuzz/logs -cf - . |
					tar -C "$dir/root/bloomsketch" -xf - &&
					copy_citus_source "$dir" &&
					echo "==> running in the chroot $dir (logs under $dir/root/bloomsketch)" >&2 &&
					bs_chroot_enter "$dir" env BS_PG_MAJOR="$v" BS_PG_PORT="$port" \
						bash /root/bloomsketch/scripts/test.sh --here
			} 2>&1 | sed -u "s/^/pg$v: /" | tee "$log" || true
		fi
		totals=$(grep -E "^pg$v: [0-9]+ passed, [0-9]+ failed" "$log" | tail -1 || true)
		if [ -n "$totals" ]; then
			read -r p f s <<<"$(echo "$totals" | sed -E 's/^pg[0-9]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/')"
		else
			echo "pg$v: FAILED the suite ended without its totals"
			p=0 f=1 s=0
		fi
		total_passed=$((total_passed + p)) total_failed=$((total_failed + f)) total_skipped=$((total_skipped + ${s:-0}))
		times+=("pg$v: $p passed, $f failed, ${s:-0} skipped in $((SECONDS - start)) s")
		rm -f "$log"
	done
	printf '%s\n' "${times[@]}"
	echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
	[ "$total_failed" -eq 0 ]
	exit
fi

bs_install_packages
# A package left installed by an interrupted run would own the files that
# make install is about to overwrite, and take them along when purged.
if dpkg-query -W -f '${db:Status-Status}' "postgresql-$BS_PG_MAJOR-bloomsketch" 2>/dev/null | grep -qx installed; then
	bs_log "purging postgresql-$BS_PG_MAJOR-bloomsketch left installed by an earlier run"
	dpkg --purge "postgresql-$BS_PG_MAJOR-bloomsketch" >/dev/null
fi
bs_build_install

passed=0
failed=0
skipped=0

bs_log "the install scripts are what scripts/gen_sql.py makes of sql/src/"
if python3 "$BS_ROOT/scripts/gen_sql.py" --check >"$BS_ROOT/test/gen_sql.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     install scripts: $(tail -1 "$BS_ROOT/test/gen_sql.out")"
else
	failed=$((failed + 1)); echo "FAILED install scripts"; tail -20 "$BS_ROOT/test/gen_sql.out"
fi

bs_log "no circle between the units of src/core and src/pg (a .c and its header)"
if python3 "$BS_ROOT/scripts/unit_graph.py" "$BS_ROOT" >"$BS_ROOT/test/unit_graph.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     units: $(tail -1 "$BS_ROOT/test/unit_graph.out")"
else
	failed=$((failed + 1)); echo "FAILED units in circles"; tail -30 "$BS_ROOT/test/unit_graph.out"
fi

bs_log "core unit tests"
if make -C "$BS_ROOT/test/unit" -s run PG_CONFIG=$PG_BIN/pg_config >"$BS_ROOT/test/core.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     core unit tests"
else
	failed=$((failed + 1)); echo "FAILED core unit tests"; tail -20 "$BS_ROOT/test/core.out"
fi

bs_log "format test vectors: the C core and the Python reader against docs/vectors"
if make -C "$BS_ROOT/test/unit" -s vectors >"$BS_ROOT/test/vectors.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     format test vectors: $(tail -2 "$BS_ROOT/test/vectors.out" | paste -sd';' -)"
else
	failed=$((failed + 1)); echo "FAILED format test vectors"; tail -20 "$BS_ROOT/test/vectors.out"
fi

bs_log "META.json against the PGXN Meta Spec, CHANGELOG, README and debian/control"
if python3 "$BS_ROOT/test/harness/meta_spec.py" "$BS_ROOT" >"$BS_ROOT/test/meta.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     META.json: $(tail -1 "$BS_ROOT/test/meta.out")"
else
	failed=$((failed + 1)); echo "FAILED META.json"; tail -20 "$BS_ROOT/test/meta.out"
fi

bs_log "no comment, doc or metadata counts the types wrong"
if python3 "$BS_ROOT/test/harness/type_count_words.py" "$BS_ROOT" >"$BS_ROOT/test/type_words.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     type count in words: $(tail -1 "$BS_ROOT/test/type_words.out")"
else
	failed=$((failed + 1)); echo "FAILED type count in words"; tail -20 "$BS_ROOT/test/type_words.out"
fi

bs_log "exact-analysis accuracy tests (a few minutes)"
if make -C "$BS_ROOT/test/unit" -s analysis >"$BS_ROOT/test/analysis.out" 2>&1; then
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

# The client libraries read and write the stored forms, which do not depend
# on the server's version: they are tested against PostgreSQL 15 alone.
if [ "$BS_PG_MAJOR" = 15 ]; then
	bs_log "Python client against the server (about a minute)"
	if PG_BIN=$PG_BIN bash "$BS_ROOT/test/harness/client_python.sh" >"$BS_ROOT/test/client_python.out" 2>&1; then
		passed=$((passed + 1)); echo "ok     $(tail -1 "$BS_ROOT/test/client_python.out")"
	else
		failed=$((failed + 1)); echo "FAILED Python client"; tail -30 "$BS_ROOT/test/client_python.out"
	fi
	# Node.js and npm from Debian, unless the machine has a node of its own
	# (a Debian npm would not install beside another distribution's nodejs)
	command -v node >/dev/null && command -v npm >/dev/null || bs_install_packages nodejs npm
	bs_log "JavaScript client against the server (about 3 minutes)"
	if PG_BIN=$PG_BIN bash "$BS_ROOT/test/harness/client_js.sh" >"$BS_ROOT/test/client_js.out" 2>&1; then
		passed=$((passed + 1)); echo "ok     $(tail -1 "$BS_ROOT/test/client_js.out")"
	else
		failed=$((failed + 1)); echo "FAILED JavaScript client"; tail -30 "$BS_ROOT/test/client_js.out"
	fi
	command -v chromium >/dev/null || bs_install_packages chromium
	bs_log "JavaScript client in a browser: Chromium, headless, against docs/vectors"
	if bash "$BS_ROOT/test/harness/client_js_browser.sh" >"$BS_ROOT/test/client_js_browser.out" 2>&1; then
		passed=$((passed + 1)); echo "ok     $(tail -1 "$BS_ROOT/test/client_js_browser.out")"
	else
		failed=$((failed + 1)); echo "FAILED JavaScript client in a browser"; tail -30 "$BS_ROOT/test/client_js_browser.out"
	fi
fi

# The demo must run on any server with the extension and leave nothing
# behind: its schema is gone afterwards and a user's table of the same name
# as one of its own (events) is untouched.  In a database of its own, so that
# the extension it creates does not stay behind for the later checks.
bs_log "scripts/demo.sql runs in its own schema and leaves user tables alone"
demo_problem=
"$PG_BIN/dropdb" --if-exists bs_demo >/dev/null 2>&1 || true
"$PG_BIN/createdb" bs_demo >"$BS_ROOT/test/demo.out" 2>&1 || demo_problem="could not create the database bs_demo"
[ -n "$demo_problem" ] || $PG_BIN/psql -X -q -d bs_demo -v ON_ERROR_STOP=1 -c "CREATE TABLE public.events (note text);
	INSERT INTO public.events VALUES ('belongs to the user');" >>"$BS_ROOT/test/demo.out" 2>&1 ||
	demo_problem="could not create public.events"
if [ -z "$demo_problem" ] && ! $PG_BIN/psql -X -d bs_demo -v ON_ERROR_STOP=1 -f "$BS_ROOT/scripts/demo.sql" >>"$BS_ROOT/test/demo.out" 2>&1; then
	demo_problem="psql -f scripts/demo.sql failed"
fi
if [ -z "$demo_problem" ]; then
	leftovers=$($PG_BIN/psql -X -At -d bs_demo -c "SELECT count(*) FROM pg_namespace WHERE nspname = 'bloomsketch_demo'" 2>&1)
	user_rows=$($PG_BIN/psql -X -At -d bs_demo -c "SELECT string_agg(note, ',') FROM public.events" 2>&1)
	if [ "$leftovers" != 0 ]; then
		demo_problem="schema bloomsketch_demo left behind ($leftovers)"
	elif [ "$user_rows" != "belongs to the user" ]; then
		demo_problem="public.events changed: $user_rows"
	fi
fi
"$PG_BIN/dropdb" --if-exists bs_demo >/dev/null 2>&1 || true
if [ -z "$demo_problem" ]; then
	passed=$((passed + 1)); echo "ok     scripts/demo.sql in its own schema, public.events untouched (test/demo.out)"
else
	failed=$((failed + 1)); echo "FAILED scripts/demo.sql: $demo_problem"; tail -20 "$BS_ROOT/test/demo.out"
fi

bs_log "dump/restore and COPY round trips"
if PG_BIN=$PG_BIN bash "$BS_ROOT/test/harness/dump_restore.sh" >"$BS_ROOT/test/dump.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     dump/restore and COPY round trips"
else
	failed=$((failed + 1)); echo "FAILED dump/restore and COPY round trips"; tail -20 "$BS_ROOT/test/dump.out"
fi
bs_log "a pg_dump of bloomsketch 0.1.0 restored into this version"
if PG_BIN=$PG_BIN bash "$BS_ROOT/test/harness/upgrade_dump.sh" >"$BS_ROOT/test/upgrade.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     pg_dump of 0.1.0 restored: $(grep -c '^ok ' "$BS_ROOT/test/upgrade.out") checks (test/upgrade.out)"
else
	failed=$((failed + 1)); echo "FAILED pg_dump of 0.1.0 restored"; grep -v '^ok ' "$BS_ROOT/test/upgrade.out" | head -30
fi
bs_log "no false negatives: every family, storage form, builder and prober (about 2 minutes)"
if PG_BIN=$PG_BIN bash "$BS_ROOT/test/harness/no_false_negatives.sh" >"$BS_ROOT/test/nfn.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     no false negatives: $(tail -1 "$BS_ROOT/test/nfn.out")"
else
	failed=$((failed + 1)); echo "FAILED no false negatives"; grep -A6 '^FAILED' "$BS_ROOT/test/nfn.out" | head -60
fi
# Citus 13.2 builds for PostgreSQL 15 to 17 only.
if [ "$BS_PG_MAJOR" -ge 18 ]; then
	skipped=$((skipped + 1)); echo "skipped Citus cluster (Citus 13.2 does not build for PostgreSQL $BS_PG_MAJOR)"
else
	bs_log "Citus cluster: build (cached), coordinator and two workers, distributed aggregates (about 2 minutes)"
	if PG_BIN=$PG_BIN bash "$BS_ROOT/test/harness/citus.sh" >"$BS_ROOT/test/citus.out" 2>&1; then
		passed=$((passed + 1)); echo "ok     Citus cluster: $(tail -1 "$BS_ROOT/test/citus.out")"
	else
		failed=$((failed + 1)); echo "FAILED Citus cluster"; grep -A6 '^FAILED' "$BS_ROOT/test/citus.out" | head -60
	fi
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
	passed=$((passed + 1)); echo "ok     fuzzing ($(grep -E '^ok ' "$BS_ROOT/test/fuzz/logs/fuzz.out" |
		awk '{print $2}' | paste -sd, -); test/fuzz/logs/fuzz.out)"
else
	failed=$((failed + 1)); echo "FAILED fuzzing"; tail -30 "$BS_ROOT/test/fuzz/logs/fuzz.out"
fi
# parts of the fuzzing that this Debian release has no packages for
while IFS= read -r line; do
	skipped=$((skipped + 1)); echo "$line"
done < <(grep -E '^skipped ' "$BS_ROOT/test/fuzz/logs/fuzz.out" || true)

# Last, since it takes the source build away while its package is installed.
bs_log "Debian package: dpkg-buildpackage, dpkg -i, CREATE EXTENSION, dpkg --purge (about a minute)"
start=$SECONDS
if bash "$BS_ROOT/test/harness/debian_package.sh" >"$BS_ROOT/test/deb.out" 2>&1; then
	passed=$((passed + 1)); echo "ok     Debian package: $(tail -1 "$BS_ROOT/test/deb.out") in $((SECONDS - start)) s (test/deb.out)"
else
	failed=$((failed + 1)); echo "FAILED Debian package"; grep -v '^ok ' "$BS_ROOT/test/deb.out" | tail -30
fi
bs_build_install
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
